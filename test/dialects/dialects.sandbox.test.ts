// Every user-facing feature against both dialects of the sandbox (src/sandbox/http/dialect.ts): the standard
// one, whose answers to the spec's open points docs/api-decisions.md chose, and the variant, which answers
// each of them otherwise and just as consistently with the spec. Both serve the same seeded books. Each
// feature gets the same figures from both, or, where no rule of the spec can decide, a refusal that names
// what the API did and writes nothing. The cost of each difference is counted.
import type { Client } from '../../src/api';
import { addDays, addMonths, endOfMonth, startOfMonth } from '../../src/engine/dates';
import { insertConsolidated, type Member } from '../../src/engine/consolidation/insert';
import { STAMP_ROW } from '../../src/engine/render/statementGrid';
import { createStatementsEngine, type StatementSpec } from '../../src/engine/statements';
import { COL, MSG } from '../../src/engine/transactions';
import { MemoryGateway } from '../../src/excel/memoryGateway';
import type { Dialect } from '../../src/sandbox/http/dialect';
import { lastFullYear } from '../engine/fin/finHarness';
import { testRuntime, type TestRuntime } from '../support/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { rig, rowById, sandboxToday, sleep, tableRows, typeInto, usageDelta } from '../transactions/support';

const DIALECTS: readonly Dialect[] = ['standard', 'variant'];
const sandboxes = {} as Record<Dialect, TestSandbox>;

beforeAll(async () => {
  const [standard, variant] = await Promise.all(DIALECTS.map((dialect) => startSandbox({ dialect })));
  Object.assign(sandboxes, { standard, variant });
});
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((sb) => sb.close()));
});

const year = lastFullYear();
const growth = (dialect: Dialect) => sandboxes[dialect].companies['growth-admin'];
const calls = async <T>(dialect: Dialect, work: () => Promise<T>) => usageDelta(sandboxes[dialect], growth(dialect), work);

/** The same work in both dialects, each on a runtime of its own. */
async function inBoth<T>(work: (dialect: Dialect, rt: TestRuntime) => Promise<T>): Promise<Record<Dialect, T>> {
  const out = {} as Record<Dialect, T>;
  for (const dialect of DIALECTS) out[dialect] = await work(dialect, await testRuntime(sandboxes[dialect]));
  return out;
}

/** A settled cell: its value, or its error's kind, code and message. */
async function cell(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    (value) => value,
    (error: { kind?: string; code?: string; message?: string }) => ({ error: error.kind, code: error.code, message: error.message }),
  );
}

/** Labels the variant words differently where the engine took the figure from the balance sheets. */
const sameLabels = (rows: unknown[][]) => rows.map((row) => row.map((v) => (typeof v === 'string' ? v.replace(' (balance sheet)', '') : v)));

describe('FIN functions', () => {
  test('FIN.TOTAL periodic and point in time, FIN.PNL, FIN.BALANCE, FIN.MERCHANTS: the same figures; the variant pays one call to learn the category parameter', async () => {
    const run = async (dialect: Dialect, rt: TestRuntime) => {
      const fin = rt.service;
      return calls(dialect, async () => ({
        revenueQ1: await cell(fin.total({ category: 'Revenue', start: `${year}-Q1` })),
        softwareYear: await cell(fin.total({ category: 'Software Subscriptions', start: `FY${year}` })),
        cashAtJune: await cell(fin.total({ category: 'Cash', start: `${year}-06` })),
        byMerchant: await cell(fin.total({ category: 'Revenue', start: `${year}-Q1`, merchant: 'No Such Merchant' })),
        pnl: await cell(fin.pnl({ line: 'Net Income', start: `${year}-Q2` })),
        balance: await cell(fin.balance({ category: 'Cash', date: `${year}-06-30` })),
        merchants: await cell(fin.merchants({ category: 'Software Subscriptions' })),
      }));
    };
    const got = await inBoth(run);
    expect(got.variant.value).toEqual(got.standard.value);
    expect(got.standard.value.revenueQ1).toEqual(expect.any(Number));
    expect(got.standard.value.revenueQ1).not.toBe(0);
    expect(got.standard.value.cashAtJune).toBe(got.standard.value.balance);
    expect((got.standard.value.merchants as unknown[][]).length).toBeGreaterThan(2);
    // 4 totals, 1 income statement, 1 balance sheet, 1 merchant page, the categories; the variant also
    // the one total that learned the category parameter's name (and the merchants' is learned too).
    expect(got.variant.calls).toBe(got.standard.calls + 2);
  });

  test('FIN.CASHFLOW and the statement functions: the same figures; the variant takes beginning and ending cash from the balance sheets, and says so', async () => {
    const run = async (dialect: Dialect, rt: TestRuntime) => {
      const fin = rt.service;
      return calls(dialect, async () => ({
        change: await cell(fin.cashflow({ line: 'Change in Cash', start: `${year}-Q2` })),
        investing: await cell(fin.cashflow({ line: 'Investing Activities', start: `${year}-Q2` })),
        financing: await cell(fin.cashflow({ line: 'Financing Activities', start: `${year}-Q2` })),
        beginning: await cell(fin.cashflow({ line: 'Beginning Cash', start: `${year}-Q2` })),
        ending: await cell(fin.cashflow({ line: 'Ending Cash', start: `${year}-Q2` })),
        netIncome: await cell(fin.cashflow({ line: 'Net Income', start: `${year}-Q2` })),
        incomeStatement: await fin.incomeStatement({ start: `${year}-Q2` }),
        balanceSheet: await fin.balanceSheet({ date: `${year}-06-30` }),
        cashFlow: await fin.cashFlowStatement({ start: `${year}-Q2` }),
      }));
    };
    const got = await inBoth(run);
    const { netIncome, cashFlow, ...rest } = got.variant.value;
    const { netIncome: standardNetIncome, cashFlow: standardCashFlow, ...standardRest } = got.standard.value;
    expect(rest).toEqual(standardRest);
    expect(standardRest.ending).toBe((standardRest.beginning as number) + (standardRest.change as number));
    expect(sameLabels(cashFlow)).toEqual(standardCashFlow);
    const labels = cashFlow.map((row) => row[0]);
    expect(labels).toEqual(expect.arrayContaining(['Beginning cash (balance sheet)', 'Ending cash (balance sheet)']));
    // The variant's cash flow has no net income: the cell names what is missing and where to get it.
    expect(standardNetIncome).toEqual(expect.any(Number));
    expect(netIncome).toMatchObject({ error: 'na', code: 'unreadable_answer', message: expect.stringMatching(/^The API's cash flow has no net_income_cents \(FIN\.PNL\("Net Income"/) });
    // The balance sheets at Mar 31 and Jun 30 its cash is taken from (Jun 30's is the FIN.BALANCE_SHEET's).
    expect(got.variant.calls).toBe(got.standard.calls + 1);
  });
});

describe('statement blocks', () => {
  const blocks = async (dialect: Dialect, rt: TestRuntime) => {
    const wb = new MemoryGateway();
    const statements = createStatementsEngine({ gateway: wb, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
    const spec = (statement: StatementSpec['statement'], layout: StatementSpec['layout']): StatementSpec => ({
      statement, period: 'custom', start: `${year}-01-01`, end: `${year}-06-30`, layout, scale: 'units', fiscalYearStartMonth: 1, total: layout !== 'single',
    });
    const read = async (s: StatementSpec) => {
      const { written } = await statements.insert(s, 'newSheet');
      return (await wb.readRange(written.address)).values.slice(STAMP_ROW + 1);
    };
    return calls(dialect, async () => ({
      income: await read(spec('income_statement', 'months')),
      cash: await read(spec('cash_flow', 'quarters')),
      price: await statements.cost(spec('cash_flow', 'months')),
    }));
  };

  test('an income statement by month and a cash flow by quarter: the same grid, cash from the balance sheets said as such, and priced with them', async () => {
    const got = await inBoth(blocks);
    expect(got.variant.value.income).toEqual(got.standard.value.income);
    expect(sameLabels(got.variant.value.cash)).toEqual(got.standard.value.cash);
    expect(got.variant.value.cash.map((r) => r[0])).toContain('Beginning cash (balance sheet)');
    // The quarters' cash from the balance sheets of Dec 31, Mar 31 and Jun 30: three calls more.
    expect(got.variant.calls).toBe(got.standard.calls + 3);
    // The months' cash flows are priced with the balance sheets they need (Jan 31, Feb 28, Apr 30, May 31 not cached).
    expect(got.variant.value.price.calls).toBe(got.standard.value.price.calls + 4);
  });
});

describe('consolidation', () => {
  test("a consolidated cash flow of two companies: the same grid, each company's cash from its own balance sheets", async () => {
    const got = await inBoth(async (dialect, rt) => {
      const other = await testRuntime(sandboxes[dialect], { label: 'growth2-admin' });
      const members: Member[] = [
        { name: 'Northwind', reader: rt.reader, client: rt.client },
        { name: 'Westbrook', reader: other.reader, client: other.client },
      ];
      const wb = new MemoryGateway();
      const spec = { statement: 'cash_flow' as const, period: 'custom' as const, start: `${year}-04-01`, end: `${year}-06-30`, scale: 'units' as const, fiscalYearStartMonth: 1 };
      const { written } = await insertConsolidated({ gateway: wb, title: 'Group' }, members, spec);
      return (await wb.readRange(written.address)).values.slice(STAMP_ROW + 1);
    });
    expect(sameLabels(got.variant)).toEqual(got.standard);
    expect(got.variant.map((r) => r[0])).toContain('Ending cash (balance sheet)');
  });
});

describe('drill-down', () => {
  test('the standard dialect lists the lines; the variant ignores the date range the add-in sends: refused after one page, nothing written', async () => {
    const start = `${year}-03-01`;
    const end = `${year}-03-31`;
    const out = {} as Record<Dialect, { calls: number; sheets: string[]; result: unknown }>;
    for (const dialect of DIALECTS) {
      const wb = new MemoryGateway();
      const r = await rig(sandboxes[dialect], wb);
      const revenue = (await r.client.categories.list()).data.find((c) => c.name === 'Revenue')!;
      const before = wb.sheetNames();
      const { value, calls: spent } = await calls(dialect, () =>
        r.engine.drillDown({ categoryId: revenue.id, start, end }).then(
          (res) => ({ totalCents: res.totalCents, rows: res.rows }),
          (e: Error & { code?: string }) => ({ refused: e.code, message: e.message }),
        ),
      );
      out[dialect] = { calls: spent, sheets: wb.sheetNames().filter((s) => !before.includes(s)), result: value };
    }
    const standard = out.standard.result as { totalCents: number; rows: number };
    expect(standard.rows).toBeGreaterThan(0);
    expect(out.standard.sheets).toHaveLength(1);
    expect(out.variant.result).toEqual({
      refused: 'unreadable_answer',
      message: expect.stringMatching(/^The API's \/journal_entries answered an entry dated \d{4}-\d{2}-\d{2} when asked for .* to .*: it does not read the date range under the names this add-in sends \(start_date, end_date\)/),
    });
    expect(out.variant.sheets).toEqual([]);
    // The first refusal's cost: the categories, the departments and the one page that showed it.
    expect(out.variant.calls).toBe(3);
  });
});

describe('transactions', () => {
  test('pull, then refresh of changes made upstream (a rename, a deletion): the same table', async () => {
    const target = `${year}-05`;
    const pulled = await Promise.all(
      DIALECTS.map(async (dialect) => {
        const wb = new MemoryGateway();
        const r = await rig(sandboxes[dialect], wb);
        const { bindingId, table } = await r.engine.pull({ start_date: `${target}-01`, end_date: endOfMonth(`${target}-01`) });
        const [renamed, deleted] = (await tableRows(wb, table)).filter((row) => row[COL.type] === 'standard').map((row) => String(row[COL.id]));
        await sandboxes[dialect].control(`transactions/${renamed}`, { merchant: 'Renamed Upstream' });
        await sandboxes[dialect].control(`transactions/${deleted}`, { deleted: true });
        return { wb, r, bindingId, table, renamed, deleted };
      }),
    );
    // A run's watermark is the second before it started (docs/api-decisions.md): the changes land in the next one.
    await sleep(1100);
    const tables = {} as Record<Dialect, Record<string, unknown>[]>;
    for (const [i, dialect] of DIALECTS.entries()) {
      const { wb, r, bindingId, table, renamed, deleted } = pulled[i];
      const result = await r.engine.refresh(bindingId);
      expect(result.counts).toMatchObject({ updated: 1, removed: 1 });
      tables[dialect] = await tableRows(wb, table);
      expect((await rowById(wb, table, renamed))[COL.merchant]).toBe('Renamed Upstream');
      expect(tables[dialect].some((row) => row[COL.id] === deleted)).toBe(false);
    }
    expect(tables.standard.length).toBeGreaterThan(100);
    expect(tables.variant).toEqual(tables.standard);
  });

  test("a push whose job fails with an error per row: each row named by its error's transaction id, the others told the job failed because of it", async () => {
    const statuses = {} as Record<Dialect, string[]>;
    for (const dialect of DIALECTS) {
      const sb = sandboxes[dialect];
      const wb = new MemoryGateway();
      // No upstream check before sending: the deletion below is found by the job, not by the push.
      const r = await rig(sb, wb, { engine: { checkUpstream: false } });
      const today = sandboxToday(sb);
      const { bindingId, table } = await r.engine.pull({ start_date: startOfMonth(addMonths(today, -3)), end_date: addDays(startOfMonth(addMonths(today, -3)), 9) });
      const rows = (await tableRows(wb, table)).filter((row) => row[COL.type] === 'standard').slice(0, 3);
      const departments = await assignablePaths(r.client);
      const leaf = departments.find((d) => rows.every((row) => row[COL.pulledDepartment] !== d))!;
      await typeInto(wb, table, rows.map((row) => ({ id: String(row[COL.id]), values: { [COL.department]: leaf } })));
      const gone = String(rows[1][COL.id]);
      await sb.control(`transactions/${gone}`, { deleted: true });
      const result = await r.engine.push(bindingId);
      expect(result.updated).toBe(0);
      statuses[dialect] = await Promise.all(rows.map(async (row) => String((await rowById(wb, table, String(row[COL.id])))[COL.pushStatus])));
      expect(statuses[dialect][1]).not.toMatch(/^Not applied/);
      for (const i of [0, 2]) expect(statuses[dialect][i]).toMatch(/^Not applied — 1 other row in the same job failed \(.+\); nothing in that job changed/);
    }
    expect(statuses.variant).toEqual(statuses.standard);
    expect(statuses.standard[1]).not.toBe(MSG.updated);
  });
});

async function assignablePaths(client: Client): Promise<string[]> {
  const { data } = await client.departments.list();
  const byId = new Map(data.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(data.map((d) => d.parent_id));
  return data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => pathOf(d.id));
}
