// Issue 27, item 1: the P&L by department against the sandbox, over a month, a quarter and a year. The
// department columns and Unassigned add up, line by line and to the cent, to the Total column, which is the
// API's own income statement; what the block costs is the income statement, the two lists and one call per
// 500 journal entries of the period (counted in the sandbox's own table), and a refresh of changes that finds
// nothing changed costs its one call. A department's FIN.PNL is the sum of its journal lines, as the API lists
// them under its department_id filter.
import type { Category, Department, IncomeStatement, JournalEntry } from '../../../src/api/types';
import { calendarDateAt, endOfMonth, addMonths } from '../../../src/engine/dates';
import type { StatementSpec } from '../../../src/engine/statements';
import { startWatermark } from '../../../src/engine/sync/changeFeed';
import { buildTree, subtreeIds } from '../../../src/engine/tree';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { testRuntime, testWorkspace, type TestRuntime } from '../../support/runtime';
import { call, startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
let key: string;
let company: string;
beforeAll(async () => {
  sb = await startSandbox();
  key = sb.keys['growth-admin'];
  company = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb?.close();
});

const today = () => calendarDateAt(Date.now());
/** Last month, the last full quarter and the last full year, from the (pinned) today. */
function periods(): { name: string; start: string; end: string }[] {
  const thisMonth = `${today().slice(0, 7)}-01`;
  const lastMonth = addMonths(thisMonth, -1);
  const quarterStart = `${thisMonth.slice(0, 5)}${String(Math.floor((Number(thisMonth.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  const lastQuarter = addMonths(quarterStart, -3);
  const year = Number(thisMonth.slice(0, 4)) - 1;
  return [
    { name: 'a month', start: lastMonth, end: endOfMonth(lastMonth) },
    { name: 'a quarter', start: lastQuarter, end: endOfMonth(addMonths(lastQuarter, 2)) },
    { name: 'a year', start: `${year}-01-01`, end: `${year}-12-31` },
  ];
}

/** The API's own answer, read past the add-in (each a counted call, made after the counting that matters). */
async function api<T>(pathAndQuery: string): Promise<T> {
  const res = await call(sb, key, 'GET', pathAndQuery);
  if (res.status !== 200) throw new Error(`${pathAndQuery}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** Every entry of a journal walk, straight from the API. */
async function journal(query: string): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: JournalEntry[]; has_more: boolean; next_cursor: string | null } = await api(`/journal_entries?limit=500&${query}${cursor ? `&starting_after=${cursor}` : ''}`);
    out.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return out;
}

/** Entries the sandbox holds for the company in the period: what a walk of 500 a page reads. */
function entriesIn(start: string, end: string): number {
  const row = sb.running.ctx.db.prepare('SELECT COUNT(*) AS n FROM journal_entries WHERE company_id = ? AND date BETWEEN ? AND ?').get(company, start, end) as { n: number };
  return row.n;
}

async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = await sb.usage(company);
  const value = await fn();
  return { value, calls: (await sb.usage(company)) - before };
}

const cents = (units: unknown) => Math.round(Number(units) * 100);

/** Every line of a statement, by category id. */
function statementLines(report: IncomeStatement): Map<string, number> {
  const out = new Map<string, number>();
  for (const key of ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'] as const) {
    for (const c of report[key]?.categories ?? []) out.set(c.category_id, c.amount_cents);
  }
  return out;
}

async function growthWorkspace(): Promise<{ rt: TestRuntime; gateway: MemoryGateway; workspace: Awaited<ReturnType<typeof testWorkspace>> }> {
  const rt = await testRuntime(sb, { clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 } });
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { companyNames: { 'growth-admin': 'Northwind' }, quietMs: 50 });
  return { rt, gateway, workspace };
}

describe.each(periods())('a P&L by department over $name', ({ start, end }) => {
  it('has department columns and Unassigned that add up to the statement line of every category, to the cent, for the calls shown', async () => {
    const { rt, gateway, workspace } = await growthWorkspace();
    // As the pane's department picker reads it: through the cache.
    const departments = (await rt.reader.read({ path: '/departments' }, (o) => rt.client.departments.list(o))).value.data;
    const root = departments.find((d) => d.parent_id === null)!;
    const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start, end, layout: 'by_department', scale: 'units', fiscalYearStartMonth: 1, departmentsUnder: root.id };

    const cost = await workspace.statements.cost(spec);
    // The department list is cached (read above); the walk's pages are not known before it is read.
    expect(cost).toMatchObject({ requests: 4, cached: 1, calls: 3, estimated: 'at least' });
    const pages = Math.max(1, Math.ceil(entriesIn(start, end) / 500));
    const { value: inserted, calls } = await counted(() => workspace.statements.insert(spec, 'newSheet'));
    // The income statement, the category list and one call per page of 500 journal entries.
    expect(calls).toBe(2 + pages);
    // Priced from its own answer now: a refresh of it costs the same.
    expect(await workspace.statements.cost(spec)).toEqual({ requests: 4, cached: 4, calls: 0 });
    expect((await workspace.statements.plan()).blocks[0].calls).toBe(3 + pages);

    const values = (await gateway.readRange(inserted.written.address)).values;
    const header = values.findIndex((row) => row.includes('Total'));
    const labels = values[header].slice(1);
    const children = departments.filter((d) => d.parent_id === root.id).map((d) => d.name);
    expect(labels.slice(0, children.length)).toEqual(children);
    expect(labels.slice(children.length)).toContain('Unassigned');
    expect(labels[labels.length - 1]).toBe('Total');
    const totalColumn = labels.length;

    // Every row of figures: the columns before Total add up to it, to the cent.
    let rowsOfFigures = 0;
    for (const row of values.slice(header + 1)) {
      const figures = row.slice(1, totalColumn + 1);
      if (!figures.every((v) => typeof v === 'number') || String(row[0]).startsWith('Check')) continue;
      rowsOfFigures += 1;
      expect({ line: row[0], sum: figures.slice(0, -1).reduce((n: number, v) => n + cents(v), 0) }).toEqual({ line: row[0], sum: cents(figures[figures.length - 1]) });
    }
    expect(rowsOfFigures).toBeGreaterThan(40);

    // The Total column is the API's income statement, line for line.
    const statement = await api<IncomeStatement>(`/reports/income_statement?start_date=${start}&end_date=${end}`);
    const lines = statementLines(statement);
    const rowCategories = inserted.binding.parameters.rowCategoryIds as (string | null)[];
    const shown = new Map<string, number>();
    rowCategories.forEach((id, r) => {
      if (id) shown.set(id, cents(values[r][totalColumn]));
    });
    expect(shown).toEqual(lines);
    expect(cents(values.find((row) => row[0] === 'Net income')![totalColumn])).toBe(statement.net_income_cents);
    // Drill-down knows a department's column from the Total.
    expect(inserted.binding.parameters.columnDepartments).toEqual([...departments.filter((d) => d.parent_id === root.id).map((d) => d.id), ...labels.slice(children.length, -1).map((l) => (l === 'Unassigned' ? 'unassigned' : expect.any(String))), null]);

    // A refresh of changes that finds nothing changed: its sync page, and the category and department lists
    // the block depends on read again (no sync shows their changes, issue 34); the block stays as it is.
    await startWatermark({ client: rt.client, reader: rt.reader, store: rt.stores.cacheStore });
    const ask = await workspace.askRefresh('changed');
    const { value: refreshed, calls: refreshCalls } = await counted(() => workspace.refresh(ask));
    expect(refreshCalls).toBe(1 + 2);
    expect(refreshed.result.blocks.refreshed).toEqual([]);
  });
});

test("a department's FIN.PNL and FIN.TOTAL are the sums of its journal lines, as the API lists them by department_id", async () => {
  const rt = await testRuntime(sb);
  const [{ start, end }, quarter] = periods();
  const categories = (await api<{ data: Category[] }>('/categories')).data;
  const departments = (await api<{ data: Department[] }>('/departments')).data;
  const chart = buildTree(categories, 'category');
  const tree = buildTree(departments, 'department');
  const categoryIds = (name: string) => new Set(subtreeIds(chart.ordered.find((n) => n.name === name)!));
  const periodic = new Set(categories.filter((c) => !c.point_in_time).map((c) => c.id));
  /** Credit minus debit of the lines of the department's subtree (and the categories asked), over a walk the API filtered by department_id. */
  const sumOfLines = async (department: string, from: string, to: string, inCategory: (id: string) => boolean) => {
    const node = tree.ordered.find((n) => n.path === department || n.name === department)!;
    const ids = new Set(subtreeIds(node));
    let total = 0;
    for (const entry of await journal(`department_id=${node.id}&start_date=${from}&end_date=${to}`)) {
      for (const line of entry.lines) if (line.department_id && ids.has(line.department_id) && inCategory(line.category_id)) total += line.credit_cents - line.debit_cents;
    }
    return total;
  };
  const opex = categoryIds('Operating Expenses');
  const revenue = categoryIds('Revenue');

  const sales = await rt.service.pnl({ line: 'Operating Expenses', start, end, department: 'Sales' });
  expect(cents(sales)).toBe(await sumOfLines('Sales', start, end, (id) => opex.has(id)));
  expect(cents(sales)).not.toBe(0);
  const gtm = await rt.service.pnl({ line: 'Revenue', start: quarter.start, end: quarter.end, department: 'Go-to-Market' });
  expect(cents(gtm)).toBe(await sumOfLines('Go-to-Market', quarter.start, quarter.end, (id) => revenue.has(id)));
  const engineering = tree.ordered.find((n) => n.name === 'Engineering')!;
  const net = await rt.service.pnl({ line: 'Net Income', start, end, department: engineering.id });
  expect(cents(net)).toBe(await sumOfLines('Engineering', start, end, (id) => periodic.has(id)));
  // FIN.TOTAL of whole months reads the same lines.
  expect(await rt.service.total({ category: 'Operating Expenses', start: start.slice(0, 7), department: 'Sales' })).toBe(sales);
  // A parent is itself and its descendants: Sales is Sales East + Sales West + Sales Central (retired).
  const leaves = await Promise.all(['Sales East', 'Sales West', 'Sales Central (retired)'].map((d) => rt.service.pnl({ line: 'Operating Expenses', start, end, department: d })));
  expect(leaves.reduce((n, v) => n + cents(v), 0)).toBe(cents(sales));
});
