/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 27, item 1, in the pane: a P&L by department for last month. The department list is loaded on the
// user's word (its call said first); the columns default to the departments under the company's one top
// department; the block's cost is shown before Insert ("at least": the journal's pages are known once read)
// and what Insert spent is said after; the block's Total is the API's statement and its columns add up to it.
import { addMonths, calendarDateAt, endOfMonth } from '../../src/engine/dates';
import { act } from 'react';
import { getFinService } from '../../src/runtime';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { apiReport, blockAt } from './sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

const usage = () => sb.usage(sb.companies['growth-admin']);
/** The block's column headers: under the title rows and a blank one. */
const HEADER_ROW = 6;
const lastMonth = addMonths(`${calendarDateAt(Date.now()).slice(0, 7)}-01`, -1);

function entriesIn(start: string, end: string): number {
  const row = sb.running.ctx.db.prepare('SELECT COUNT(*) AS n FROM journal_entries WHERE company_id = ? AND date BETWEEN ? AND ?').get(sb.companies['growth-admin'], start, end) as { n: number };
  return row.n;
}
const cents = (v: unknown) => Math.round(Number(v) * 100);

test('a P&L by department for last month: departments loaded for their call, the cost shown, then spent; the columns add up to the API statement', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await choose(h, 'Statement', 'Balance sheet');
  expect(within(screen.getByRole('combobox', { name: 'Layout' })).queryByRole('option', { name: 'By department' })).toBeNull();
  await choose(h, 'Statement', 'Income statement');
  await choose(h, 'Period', 'Last month');
  await choose(h, 'Layout', 'By department');

  // The department list: its one call said before it is spent.
  const load = screen.getByRole('button', { name: 'Load departments' });
  expect(screen.getByText('to choose which go side by side (costs 1 call)')).toBeTruthy();
  const beforeLoad = await usage();
  await h.user.click(load);
  const parent = await screen.findByRole('combobox', { name: 'Departments side by side' });
  expect(await usage()).toBe(beforeLoad + 1);
  // The company is the one top department: its children go side by side.
  expect((parent as HTMLSelectElement).selectedOptions[0].textContent).toBe('Under Northwind Analytics: Go-to-Market, Research & Development, General & Administrative');

  // The cost before Insert: the statement, the category list and the journal's first page at least.
  const costLine = await screen.findByText(/^Costs at least 3 calls \(1 cached; journal entries are read 500 to a call/);
  expect(costLine.textContent).toContain('their pages are known once read');
  const before = await usage();
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  const done = await screen.findByText(/^Inserted the income statement at /, {}, { timeout: 30000 });
  const spent = (await usage()) - before;
  // What the "at least" stood for: one call per 500 of the month's journal entries (the sandbox's own count).
  expect(spent).toBe(2 + Math.ceil(entriesIn(lastMonth, endOfMonth(lastMonth)) / 500));
  expect(done.textContent).toContain(`Spent ${spent} calls.`);
  // Inserted again, it is all cached.
  await waitFor(() => expect(screen.getByText('Costs 0 calls (4 cached)')).toBeTruthy());

  const [binding] = await h.gateway.listBindings();
  expect(binding.parameters).toMatchObject({ layout: 'by_department', statement: 'income_statement', period: 'last_month' });
  const block = blockAt(h.gateway, binding.address);
  const labels = Array.from({ length: block.cols - 1 }, (_, c) => block.cell(HEADER_ROW, c + 1).value);
  expect(labels.slice(0, 3)).toEqual(['Go-to-Market', 'Research & Development', 'General & Administrative']);
  expect(labels).toContain('Unassigned');
  expect(labels[labels.length - 1]).toBe('Total');

  const statement = await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: lastMonth, end_date: endOfMonth(lastMonth) });
  const net = block.rowOf('Net income');
  expect(cents(block.cell(net, block.cols - 1).value)).toBe(statement.net_income_cents);
  const revenue = block.rowOf('Total revenue');
  expect(cents(block.cell(revenue, block.cols - 1).value)).toBe(statement.revenue.total_cents);
  for (const r of [net, revenue, block.rowOf('Total expenses')]) {
    const columns = Array.from({ length: block.cols - 2 }, (_, c) => cents(block.cell(r, c + 1).value));
    expect(columns.reduce((n, v) => n + v, 0)).toBe(cents(block.cell(r, block.cols - 1).value));
  }
  h.unmount();
});

test("the formula helper writes a department's FIN.PNL, which the functions read back by the department's path", async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await openTab(h, 'Formulas');
  await h.user.click(await screen.findByRole('button', { name: 'Load categories' }));
  await h.user.type(await screen.findByLabelText('Filter categories'), 'operating expenses');
  await h.user.click(within(screen.getByRole('listbox', { name: 'Categories' })).getByRole('option', { name: 'Operating Expenses' }));
  const period = screen.getByLabelText('Formula period');
  await h.user.clear(period);
  await h.user.type(period, lastMonth.slice(0, 7));
  expect((screen.getByLabelText('Formula') as HTMLInputElement).value).toBe(`=FIN.TOTAL("Operating Expenses","${lastMonth.slice(0, 7)}")`);

  expect(screen.getByText("for a department's figure (costs 1 call)")).toBeTruthy();
  await h.user.click(screen.getByRole('button', { name: 'Load departments' }));
  await screen.findByRole('combobox', { name: 'Department' });
  await choose(h, 'Department', 'Northwind Analytics > Go-to-Market > Sales');
  const formula = `=FIN.PNL("Operating Expenses","${lastMonth.slice(0, 7)}",,,"Northwind Analytics > Go-to-Market > Sales")`;
  await waitFor(() => expect((screen.getByLabelText('Formula') as HTMLInputElement).value).toBe(formula));
  act(() => h.gateway.select('Sheet1', 'B2'));
  await h.user.click(screen.getByRole('button', { name: 'Insert formula' }));
  expect(await screen.findByText(`Inserted ${formula} in Sheet1!B2.`)).toBeTruthy();

  // As Excel calls it: the company's place empty, the department last.
  const fin = (await getFinService())!;
  const bySales = await fin.pnl({ line: 'Operating Expenses', start: lastMonth.slice(0, 7), department: 'Northwind Analytics > Go-to-Market > Sales' });
  expect(bySales).toBeLessThan(0);
  expect(bySales).toBeGreaterThan(await fin.pnl({ line: 'Operating Expenses', start: lastMonth.slice(0, 7) }));
  h.unmount();
});
