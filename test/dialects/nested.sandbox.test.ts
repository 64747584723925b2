// Issue 35: the features against the sandbox's third dialect, `nested` (src/sandbox/http/dialect.ts), which
// answers the open points in shapes neither of the others uses: a total with its parts (debit_cents,
// credit_cents and net_cents, no total_cents), journal lines carrying only the side they have and their
// department as an object (null for none), and the cash flow's investing and financing sections in a
// container. Read by the spec's rules, each feature gives the standard dialect's figures, for the same calls:
// FIN.TOTAL the net, FIN.PNL by department each department's own lines (not every one 0.00 and Unassigned the
// total), a cash flow with its investing and financing money, a drill-down with credits as credits.
import { STAMP_ROW } from '../../src/engine/render/statementGrid';
import { createStatementsEngine, type StatementSpec } from '../../src/engine/statements';
import { MemoryGateway } from '../../src/excel/memoryGateway';
import type { Dialect } from '../../src/sandbox/http/dialect';
import { lastFullYear } from '../engine/fin/finHarness';
import { testRuntime, testWorkspace, type TestRuntime } from '../support/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { rig, usageDelta } from '../transactions/support';

const DIALECTS = ['standard', 'nested'] as const satisfies readonly Dialect[];
type Compared = (typeof DIALECTS)[number];
const sandboxes = {} as Record<Compared, TestSandbox>;

beforeAll(async () => {
  const [standard, nested] = await Promise.all(DIALECTS.map((dialect) => startSandbox({ dialect })));
  Object.assign(sandboxes, { standard, nested });
});
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((sb) => sb.close()));
});

const year = lastFullYear();
const company = (dialect: Compared) => sandboxes[dialect].companies['growth-admin'];
const calls = <T>(dialect: Compared, work: () => Promise<T>) => usageDelta(sandboxes[dialect], company(dialect), work);

async function inBoth<T>(work: (dialect: Compared, rt: TestRuntime) => Promise<T>): Promise<Record<Compared, { value: T; calls: number }>> {
  const out = {} as Record<Compared, { value: T; calls: number }>;
  for (const dialect of DIALECTS) {
    const rt = await testRuntime(sandboxes[dialect]);
    out[dialect] = await calls(dialect, () => work(dialect, rt));
  }
  return out;
}

test('the nested dialect is what it says: a total with parts, one-sided lines with department objects, sections in a container', async () => {
  const sb = sandboxes.nested;
  const key = sb.keys['growth-admin'];
  const get = async (path: string) => (await fetch(`${sb.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<Record<string, any>>;
  const categories = (await get('/categories?limit=100')).data as { id: string; name: string }[];
  const revenue = categories.find((c) => c.name === 'Revenue')!.id;
  const total = await get(`/aggregations/total?category_id=${revenue}&start_date=${year}-01-01&end_date=${year}-03-31`);
  expect(Object.keys(total).filter((k) => k.endsWith('_cents')).sort()).toEqual(['credit_cents', 'debit_cents', 'net_cents']);
  const entries = (await get(`/journal_entries?start_date=${year}-03-01&end_date=${year}-03-31&limit=100`)).data as { lines: Record<string, unknown>[] }[];
  const lines = entries.flatMap((e) => e.lines);
  expect(lines.some((l) => 'credit_cents' in l && !('debit_cents' in l))).toBe(true);
  expect(lines.some((l) => (l.department as { id?: string } | null)?.id?.startsWith('dept_'))).toBe(true);
  expect(lines.every((l) => !('department_id' in l))).toBe(true);
  const cash = await get(`/reports/cash_flow?start_date=${year}-01-01&end_date=${year}-06-30`);
  expect(Object.keys(cash.other_activities)).toEqual(['investing', 'financing']);
});

test('FIN functions: the same figures for the same calls (a total read as its net, a department by its own lines)', async () => {
  const got = await inBoth(async (_, rt) => {
    const fin = rt.service;
    return {
      revenueQ1: await fin.total({ category: 'Revenue', start: `${year}-Q1` }),
      software: await fin.total({ category: 'Software Subscriptions', start: `FY${year}` }),
      cashAtJune: await fin.total({ category: 'Cash', start: `${year}-06` }),
      investing: await fin.cashflow({ line: 'Investing Activities', start: `${year}-Q2` }),
      financing: await fin.cashflow({ line: 'Financing Activities', start: `${year}-Q2` }),
      change: await fin.cashflow({ line: 'Change in Cash', start: `${year}-Q2` }),
      departments: await Promise.all(['Sales', 'Engineering', 'Go-to-Market'].map((department) => fin.pnl({ line: 'Operating Expenses', start: `${year}-07`, department }).catch((e: Error) => e.message))),
    };
  });
  expect(got.nested.value).toEqual(got.standard.value);
  expect(got.standard.value.revenueQ1).not.toBe(0);
  expect(got.standard.value.departments.some((v) => typeof v === 'number' && v !== 0)).toBe(true);
  expect(got.nested.calls).toBe(got.standard.calls);
});

test('statement blocks: a cash flow by quarter and a P&L by department, the same grids for the same calls', async () => {
  const got = await inBoth(async (_, rt) => {
    const wb = new MemoryGateway();
    const workspace = await testWorkspace(rt.runtime, wb, { quietMs: 50 });
    const statements = createStatementsEngine({ gateway: wb, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
    const read = async (spec: StatementSpec, engine: { insert: typeof statements.insert }) => {
      const { written } = await engine.insert(spec, 'newSheet');
      return (await wb.readRange(written.address)).values.slice(STAMP_ROW + 1);
    };
    const base = { period: 'custom', scale: 'units', fiscalYearStartMonth: 1 } as const;
    return {
      cash: await read({ ...base, statement: 'cash_flow', start: `${year}-01-01`, end: `${year}-06-30`, layout: 'quarters', total: true }, statements),
      byDepartment: await read({ ...base, statement: 'income_statement', start: `${year}-07-01`, end: `${year}-07-31`, layout: 'by_department' }, workspace.statements),
    };
  });
  expect(got.nested.value).toEqual(got.standard.value);
  expect(got.nested.calls).toBe(got.standard.calls);
});

test('drill-down: one-sided lines keep their side, and every line its department', async () => {
  const out = {} as Record<Compared, unknown>;
  for (const dialect of DIALECTS) {
    const wb = new MemoryGateway();
    const r = await rig(sandboxes[dialect], wb);
    const chart = (await r.client.categories.list()).data;
    const drilled = [];
    for (const name of ['Revenue', 'Software Subscriptions']) {
      const category = chart.find((c) => c.name === name)!;
      const res = await r.engine.drillDown({ categoryId: category.id, start: `${year}-03-01`, end: `${year}-03-31` });
      drilled.push({ rows: res.rows, totalCents: res.totalCents, note: res.note, lines: (await wb.readRange(`'${res.sheet}'!A1:J400`)).values });
    }
    out[dialect] = drilled;
  }
  expect(out.nested).toEqual(out.standard);
  const [revenue] = out.standard as { rows: number; lines: unknown[][] }[];
  expect(revenue.rows).toBeGreaterThan(0);
  // Some line has a department, and some a credit (the Credit column, G): what the nested dialect carries otherwise.
  expect(revenue.lines.some((row) => typeof row[4] === 'string' && row[4] !== '')).toBe(true);
  expect(revenue.lines.some((row) => typeof row[6] === 'number' && row[6] !== 0)).toBe(true);
});
