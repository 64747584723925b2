// A consolidated income statement of the two Growth companies of the sandbox (issue 16, item 4): one column
// per company and a total, lines matched by name path (case and spaces aside), lines of only one company kept
// and marked, different currencies refused. Each company's report comes from the API with that company's own
// key (one call per company per period); the consolidated grid is checked line by line against them.
import { consolidate, nameKey } from '../../../src/engine/consolidation/consolidate';
import { insertConsolidated } from '../../../src/engine/consolidation/insert';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { renderStatement, TOTAL_LABEL } from '../../../src/engine/render/statementGrid';
import type { IncomeStatement } from '../../../src/api';
import { isRefusal } from '../../../src/engine/refusal';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const period = { start_date: `${year}-07-01`, end_date: `${year}-09-30` };

async function statementOf(label: string): Promise<IncomeStatement> {
  const rt = await testRuntime(sb, { label });
  return rt.client.reports.incomeStatement(period);
}

/** Every line of a report's sections by name path, as the consolidation matches them: path -> cents. */
function linesByPath(report: IncomeStatement): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of ['revenue', 'expenses', 'non_operating_income', 'uncategorized_income', 'uncategorized_expenses', 'taxes'] as const) {
    const section = report[name];
    if (!section) continue;
    const byId = new Map(section.categories.map((c) => [c.category_id, c]));
    const path = (id: string): string => {
      const c = byId.get(id)!;
      return c.parent_category_id && byId.has(c.parent_category_id) ? `${path(c.parent_category_id)}>${nameKey(c.name)}` : `${name}:${nameKey(c.name)}`;
    };
    for (const c of section.categories) out.set(path(c.category_id), (out.get(path(c.category_id)) ?? 0) + c.amount_cents);
  }
  return out;
}

test('the consolidated income statement of a quarter is the two companies side by side and their sum, line by line', async () => {
  const before = { a: await sb.usage(sb.companies['growth-admin']), b: await sb.usage(sb.companies['growth2-admin']) };
  const a = await statementOf('growth-admin');
  const b = await statementOf('growth2-admin');
  // One call per company for the period, each on its own company's count.
  expect((await sb.usage(sb.companies['growth-admin'])) - before.a).toBe(1);
  expect((await sb.usage(sb.companies['growth2-admin'])) - before.b).toBe(1);

  const c = consolidate([
    { company: 'Northwind', report: a },
    { company: 'Westbrook', report: b },
  ]);
  const grid = renderStatement({ reports: c.reports, periodLabels: c.labels, description: c.description, total: true, companyName: 'Group', refreshedAt: new Date(0), scale: 'units' });
  const header = grid.rows[grid.columnHeaderRow].map((cell) => (cell.kind === 'text' ? cell.value : ''));
  expect(header).toEqual(['', 'Northwind', 'Westbrook', TOTAL_LABEL]);
  expect(grid.rows[2][0]).toEqual({ kind: 'text', value: `For the period ${period.start_date} to ${period.end_date}, consolidated: Northwind + Westbrook; no eliminations` });

  const num = (cell: (typeof grid.rows)[number][number]) => (cell.kind === 'number' ? Math.round(cell.value * 100) : 0);
  const pathsA = linesByPath(a);
  const pathsB = linesByPath(b);
  let lines = 0;
  let partial = 0;
  grid.rowInfo.forEach((info, r) => {
    if (info.role !== 'line') return;
    const row = grid.rows[r];
    const key = info.categoryId!.replace(/^(path_|grp_)/, '');
    // Each company's column is its own report's line, 0 where it has none; the total is their sum.
    expect([num(row[1]), num(row[2])]).toEqual([pathsA.get(key) ?? 0, pathsB.get(key) ?? 0]);
    expect(num(row[3])).toBe(num(row[1]) + num(row[2]));
    const label = row[0].kind === 'text' ? row[0].value : '';
    if (!pathsA.has(key) || !pathsB.has(key)) {
      partial += 1;
      expect(label).toMatch(pathsA.has(key) ? / \(only Northwind\)$/ : / \(only Westbrook\)$/);
    } else expect(label).not.toMatch(/\(only /);
    lines += 1;
  });
  expect(lines).toBe(new Set([...pathsA.keys(), ...pathsB.keys()]).size);
  expect(partial).toBeGreaterThan(0);
  // Names that differ only in case or spaces ("Bank  Fees", "Office supplies") share one line.
  expect(grid.rows.filter((row) => row[0].kind === 'text' && /^bank\s+fees/i.test(row[0].value))).toHaveLength(1);

  // Section totals and net income add up too.
  const rowLabelled = (label: string) => grid.rows.find((row) => row[0].kind === 'text' && row[0].value === label)!;
  expect(num(rowLabelled('Total revenue')[3])).toBe(a.revenue.total_cents + b.revenue.total_cents);
  const net = grid.rows.find((row) => row[0].kind === 'text' && /^Net income$/i.test(row[0].value))!;
  expect(num(net[3])).toBe(a.net_income_cents + b.net_income_cents);
});

test('companies that report in different currencies are refused, with what to do', async () => {
  const a = await statementOf('growth-admin');
  const euros = { ...a, currency: 'EUR' };
  let error: unknown;
  try {
    consolidate([
      { company: 'Northwind', report: a },
      { company: 'Northwind EU', report: euros },
    ]);
  } catch (e) {
    error = e;
  }
  expect(isRefusal(error)).toBe(true);
  expect((error as Error).message).toBe(
    'Northwind reports in USD, Northwind EU reports in EUR. A consolidation adds amounts in one currency, and neither the API nor the add-in converts them: consolidate companies that report in the same currency.',
  );
  expect(() => consolidate([{ company: 'Northwind', report: a }])).toThrow('Choose at least two connections to consolidate.');
  expect(() => consolidate([{ company: 'Northwind', report: a }, { company: 'Later', report: { ...a, end_date: `${year}-12-31` } }])).toThrow(/not the same statement for the same period/);
});

describe('the Total column of companies is their sum, every figure', () => {
  async function inserted(statement: 'cash_flow' | 'balance_sheet') {
    const [north, west] = await Promise.all([testRuntime(sb, { label: 'growth-admin' }), testRuntime(sb, { label: 'growth2-admin' })]);
    const members = [
      { name: 'Northwind', reader: north.reader, client: north.client },
      { name: 'Westbrook', reader: west.reader, client: west.client },
    ];
    const gateway = new MemoryGateway();
    const spec = { statement, period: 'custom' as const, start: period.start_date, end: period.end_date, scale: 'units' as const, fiscalYearStartMonth: 1 };
    const { written } = await insertConsolidated({ gateway, title: 'Group', timeZone: 'UTC' }, members, spec);
    const { values } = await gateway.readRange(written.address);
    const header = values.findIndex((row) => row[1] === 'Northwind');
    expect(values[header].slice(1, 4)).toEqual(['Northwind', 'Westbrook', TOTAL_LABEL]);
    const row = (label: string) => {
      const found = values.find((r) => r[0] === label);
      if (!found) throw new Error(`no row ${label}`);
      return found.slice(1, 4).map((v) => Math.round(Number(v) * 100));
    };
    return { north, west, row };
  }

  test('a consolidated cash flow: beginning and ending cash of the group are the companies\' added up, as the API gives them', async () => {
    const { north, west, row } = await inserted('cash_flow');
    const query = { start_date: period.start_date, end_date: period.end_date };
    const [a, b] = await Promise.all([north.client.reports.cashFlow(query), west.client.reports.cashFlow(query)]);
    const cents = (r: typeof a, key: string) => (r as unknown as Record<string, number>)[key];
    for (const [label, key] of [
      ['Beginning cash', 'beginning_cash_cents'],
      ['Ending cash', 'ending_cash_cents'],
      ['Net change in cash', 'change_in_cash_cents'],
    ]) {
      expect(row(label)).toEqual([cents(a, key), cents(b, key), cents(a, key) + cents(b, key)]);
    }
    // The group's cash moves by its change: the check holds in the Total column too.
    expect(row('Check: ending cash = beginning cash + change')).toEqual([0, 0, 0]);
  });

  test('a consolidated balance sheet has a Total column too: the companies\' balances added up', async () => {
    const { north, west, row } = await inserted('balance_sheet');
    const [a, b] = await Promise.all([north.client.reports.balanceSheet({ date: period.end_date }), west.client.reports.balanceSheet({ date: period.end_date })]);
    expect(row('Total assets')).toEqual([a.assets.total_cents, b.assets.total_cents, a.assets.total_cents + b.assets.total_cents]);
    expect(row('Total liabilities and equity')).toEqual([a.liabilities_and_equity_cents, b.liabilities_and_equity_cents, a.liabilities_and_equity_cents + b.liabilities_and_equity_cents]);
    expect(row('Check: liabilities and equity = assets')).toEqual([0, 0, 0]);
  });
});
