// Drill-down into a statement number: the journal lines behind it, on a new sheet, adding up to the
// same number /aggregations/total (and the statement line) gives.

import { collect } from '../support/collect';
import { addMonths, endOfMonth, startOfMonth } from '../../src/engine/dates';
import { DRILLDOWN_COLUMNS, parseFinFormula, SELECT_A_NUMBER, statementCellTarget } from '../../src/engine/transactions';
import { buildTree } from '../../src/engine/tree';
import { cellA1, parseQualified } from '../../src/engine/ports/address';
import { createStatementsEngine, type StatementSpec } from '../../src/engine/statements';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { testRuntime } from '../support/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, sandboxToday, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let r: Rig;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  r = await rig(sb, wb);
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});

test('a parent expense line: journal lines of the whole subtree, summing to the total of the line', async () => {
  const { data: categories } = await r.client.categories.list();
  const parents = new Set(categories.map((c) => c.parent_id));
  const parent = categories.find((c) => c.account_type === 'expense' && c.tier === 1 && parents.has(c.id))!;
  const today = sandboxToday(sb);
  const start = startOfMonth(addMonths(today, -4));
  const end = endOfMonth(addMonths(today, -2));

  const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.drillDown({ categoryId: parent.id, start, end }));
  const total = await r.client.aggregations.total({ category_id: parent.id, start_date: start, end_date: end });
  expect(res.totalCents).toBe(total.total_cents);
  expect(res.rows).toBeGreaterThan(0);
  expect(res.pointInTime).toBe(false);
  // categories + departments + one page per 500 entries + the income statement the lines are checked against.
  expect(calls).toBe(2 + Math.max(1, Math.ceil(res.entries / 500)) + 1);
  note(`drill-down into ${parent.name} ${start}..${end}: ${res.rows} lines from ${res.entries} entries, ${calls} calls`);

  const table = await wb.readTable(res.table);
  expect(table.columns).toEqual(DRILLDOWN_COLUMNS.map((c) => c.name));
  expect(table.rows).toHaveLength(res.rows);
  const amount = table.columns.indexOf('Amount');
  const sum = table.rows.reduce((n, row) => n + Math.round((row[amount] as number) * 100), 0);
  expect(sum).toBe(total.total_cents);
  const txnCol = table.columns.indexOf('Transaction id');
  expect(table.rows.some((row) => String(row[txnCol]).startsWith('txn_'))).toBe(true);

  // Issue 13: the sheet had no total. One row under the table (a blank row between, so the table does not
  // take it in): debits, credits and the amount, which is the statement's figure.
  const { sheet, box } = parseQualified(table.address);
  const totalAt = box.row + box.rows + 1;
  const at = (name: string) => wb.cell(sheet, cellA1(totalAt, box.col + table.columns.indexOf(name)));
  expect(wb.cell(sheet, cellA1(totalAt - 1, box.col)).value).toBe('');
  expect(at('Date').value).toBe(`Total (${res.rows.toLocaleString('en-US')} lines)`);
  expect(Math.round((at('Amount').value as number) * 100)).toBe(total.total_cents);
  const columnSum = (name: string) => table.rows.reduce((n, row) => n + Math.round(((row[table.columns.indexOf(name)] as number) || 0) * 100), 0);
  expect(Math.round((at('Debit').value as number) * 100)).toBe(columnSum('Debit'));
  expect(Math.round((at('Credit').value as number) * 100)).toBe(columnSum('Credit'));
  expect(at('Amount').numberFormat).toBe(DRILLDOWN_COLUMNS.find((c) => c.name === 'Amount')!.numberFormat);
  expect((await wb.readTable(res.table)).rows).toHaveLength(res.rows);
  const bindings = await wb.listBindings();
  expect(bindings.find((b) => b.table === res.table)).toMatchObject({ kind: 'drilldown', parameters: { category_id: parent.id, source: 'journal_entries' } });

  // Why not /transactions: its category_id filter matches that one category, not its subcategories.
  const direct = await collect(r.client.transactions.iterate({ category_id: parent.id, start_date: start, end_date: end }));
  expect(direct.length).toBeLessThan(res.entries);
});

test('a balance-sheet category lists the period activity and says so', async () => {
  const { data: categories } = await r.client.categories.list();
  const cash = categories.find((c) => c.name === 'Cash' && c.point_in_time)!;
  const today = sandboxToday(sb);
  const month = addMonths(today, -1);
  const res = await r.engine.drillDown({ categoryId: cash.id, start: startOfMonth(month), end: endOfMonth(month) });
  expect(res.pointInTime).toBe(true);
  expect(res.note).toMatch(/change in its balance/);
  const before = await r.client.aggregations.total({ category_id: cash.id, date: endOfMonth(addMonths(month, -1)) });
  const after = await r.client.aggregations.total({ category_id: cash.id, date: endOfMonth(month) });
  expect(res.totalCents).toBe(after.total_cents - before.total_cents);
});

test('bad requests fail before any call', async () => {
  await expect(r.engine.drillDown({ categoryId: 'grp_net_income', start: '2026-01-01', end: '2026-01-31' })).rejects.toThrow(/category id/);
  await expect(r.engine.drillDown({ categoryId: 'cat_x', start: '2026-02-01', end: '2026-01-31' })).rejects.toThrow(/starts after/);
});

// ---------------------------------------------------------------------------------------------------
// "Show what's behind this cell": the category and period come from the selected cell.

describe('drill-down from the selected cell', () => {
  let categories: Awaited<ReturnType<typeof r.client.categories.list>>['data'];
  let parent: (typeof categories)[number];
  let today: string;
  let start: string;
  let end: string;

  beforeAll(async () => {
    categories = (await r.client.categories.list()).data;
    const parents = new Set(categories.map((c) => c.parent_id));
    parent = categories.find((c) => c.account_type === 'expense' && c.tier === 1 && parents.has(c.id))!;
    today = sandboxToday(sb);
    start = startOfMonth(addMonths(today, -4));
    end = endOfMonth(addMonths(today, -2));
  });

  test('a number of a statement block: the row category and the column month, from the binding (no call to find them)', async () => {
    const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start, end, layout: 'months', scale: 'units', fiscalYearStartMonth: 1 };
    // The statement block comes from a runtime of its own, so the drill-down below finds nothing cached.
    const pane = await testRuntime(sb);
    const statements = createStatementsEngine({ gateway: wb, reader: pane.reader, client: pane.client, companyName: 'Growth' });
    const { written, binding } = await statements.insert(spec, 'newSheet');
    const rows = binding.parameters.rowCategoryIds as (string | null)[];
    const columns = binding.parameters.columnPeriods as { start: string; end: string }[];
    expect(rows).toHaveLength(written.rowCount);
    expect(columns).toHaveLength(3);
    expect(columns[1]).toEqual({ start: startOfMonth(addMonths(today, -3)), end: endOfMonth(addMonths(today, -3)) });
    const r0 = rows.indexOf(parent.id);
    expect(r0).toBeGreaterThan(0);
    // The second month's number of the parent line (a range selection: its top-left cell counts).
    const { sheet, box } = parseQualified(written.address);
    wb.select(sheet, `${cellA1(box.row + r0, box.col + 2)}:${cellA1(box.row + r0 + 1, box.col + 3)}`);

    const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.drillDownFromSelection({ today }));
    expect(res.target).toMatchObject({ categoryId: parent.id, start: columns[1].start, end: columns[1].end });
    const total = await r.client.aggregations.total({ category_id: parent.id, start_date: columns[1].start, end_date: columns[1].end });
    expect(res.totalCents).toBe(total.total_cents);
    const shown = wb.cell(sheet, cellA1(box.row + r0, box.col + 2)).value as number;
    expect(Math.abs(Math.round(shown * 100))).toBe(Math.abs(total.total_cents));
    // categories + departments + one page per 500 entries + the month's income statement the lines are
    // checked against (the block's is in another runtime's cache): the cell itself costs nothing.
    expect(calls).toBe(2 + Math.max(1, Math.ceil(res.entries / 500)) + 1);
    expect(wb.activeSheetName()).toBe(res.sheet);
    note(`drill-down from statement cell ${res.target.source} (${parent.name} ${columns[1].start}..${columns[1].end}): ${res.rows} lines, ${calls} calls`);
    // Again: the statement the lines are checked against is cached now, so the check costs nothing.
    wb.select(sheet, cellA1(box.row + r0, box.col + 2));
    const again = await usageDelta(sb, r.companyId, () => r.engine.drillDownFromSelection({ today }));
    expect(again.value.totalCents).toBe(res.totalCents);
    expect(again.calls).toBe(2 + Math.max(1, Math.ceil(res.entries / 500)));

    // A heading or total row has no entries of its own; say what to select, spending nothing.
    const heading = rows.findIndex((id, i) => i > 0 && id === null);
    wb.select(sheet, cellA1(box.row + heading, box.col + 1));
    const before = await sb.usage(r.companyId);
    await expect(r.engine.drillDownFromSelection({ today })).rejects.toThrow(/heading, a total or a group/);
    // The label of a line in a block of several months: which month is not said.
    wb.select(sheet, cellA1(box.row + r0, box.col));
    await expect(r.engine.drillDownFromSelection({ today })).rejects.toThrow(/not its label/);
    expect(await sb.usage(r.companyId)).toBe(before);
  });

  test('a FIN.TOTAL formula with literal arguments: the category path resolved as FIN does, the months parsed', async () => {
    const child = categories.find((c) => c.parent_id === parent.id)!;
    const path = buildTree(categories, 'category').byId.get(child.id)!.path;
    expect(path).toContain(' > ');
    await wb.writeFormula('Sheet1!B2', `=FIN.TOTAL("${path}","${start.slice(0, 7)}","${end.slice(0, 7)}")`);
    wb.select('Sheet1', 'B2');
    // The lines are checked against the income statement for the same dates: one call unless it is cached.
    const checkCalls = (await r.reader.peek({ path: '/reports/income_statement', query: { start_date: start, end_date: end } })) ? 0 : 1;
    const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.drillDownFromSelection({ today }));
    expect(res.target).toMatchObject({ categoryId: child.id, start, end });
    const total = await r.client.aggregations.total({ category_id: child.id, start_date: start, end_date: end });
    expect(res.totalCents).toBe(total.total_cents);
    // The category list read to resolve the path is the one the drill-down uses: no extra call.
    expect(calls).toBe(2 + Math.max(1, Math.ceil(res.entries / 500)) + checkCalls);
    note(`drill-down from =FIN.TOTAL("${path}",…) ${start}..${end}: ${res.rows} lines, ${calls} calls`);
  });

  test('a FIN.BALANCE formula: the fiscal year to date ending at its date, and the message says so', async () => {
    const cash = categories.find((c) => c.name === 'Cash' && c.point_in_time)!;
    const month = addMonths(today, -1);
    await wb.writeFormula('Sheet1!C2', `=FIN.BALANCE("Cash", "${month.slice(0, 7)}")`);
    wb.select('Sheet1', 'C2');
    const res = await r.engine.drillDownFromSelection({ today, fiscalYearStartMonth: 1 });
    const fyStart = `${endOfMonth(month).slice(0, 4)}-01-01`;
    expect(res.target).toMatchObject({ categoryId: cash.id, start: fyStart, end: endOfMonth(month) });
    expect(res.note).toMatch(/start of the fiscal year/);
    const before = await r.client.aggregations.total({ category_id: cash.id, date: endOfMonth(addMonths(fyStart, -1)) });
    const after = await r.client.aggregations.total({ category_id: cash.id, date: endOfMonth(month) });
    expect(res.totalCents).toBe(after.total_cents - before.total_cents);
  });

  test('anything else says what to select, before any call', async () => {
    const before = await sb.usage(r.companyId);
    wb.select('Sheet1', 'H40');
    await expect(r.engine.drillDownFromSelection({ today })).rejects.toThrow(SELECT_A_NUMBER);
    await wb.writeFormula('Sheet1!D2', '=FIN.TOTAL(A1,"2025-Q3")');
    wb.select('Sheet1', 'D2');
    await expect(r.engine.drillDownFromSelection({ today })).rejects.toThrow(/A1 is not typed in it/);
    await wb.writeFormula('Sheet1!E2', '=SUM(1,2)');
    wb.select('Sheet1', 'E2');
    await expect(r.engine.drillDownFromSelection({ today })).rejects.toThrow(SELECT_A_NUMBER);
    expect(await sb.usage(r.companyId)).toBe(before);
  });
});

test('parseFinFormula: literal text and numbers, omitted arguments, doubled quotes', () => {
  expect(parseFinFormula('=FIN.TOTAL("Operating Expenses > Rent","2025-Q3")')).toEqual({ ok: true, value: { name: 'TOTAL', args: ['Operating Expenses > Rent', '2025-Q3'] } });
  expect(parseFinFormula('= fin.pnl( "Say ""hi""" , 45900 , )')).toEqual({ ok: true, value: { name: 'PNL', args: ['Say "hi"', 45900, null] } });
  expect(parseFinFormula('=FIN.BALANCE("Cash",B2)')).toMatchObject({ ok: false });
  expect(parseFinFormula('=FIN.CASHFLOW("Net Income","2025")')).toBeNull();
  expect(parseFinFormula(null)).toBeNull();
});

test('statementCellTarget: a balance-sheet column is drilled as the fiscal year to date; an old block asks for a refresh', () => {
  const sel = (address: string) => ({ sheet: 'BS', address, rowCount: 1, columnCount: 1, topLeft: { formula: null, value: 1 } });
  const binding = {
    id: 'b',
    kind: 'statement',
    company: 'c',
    refreshedAt: '',
    address: 'BS!B2:C4',
    parameters: { statement: 'balance_sheet', fiscalYearStartMonth: 4, rowCategoryIds: [null, 'cat_cash', null], columnPeriods: [{ start: '2026-06-30', end: '2026-06-30' }] },
  };
  const hit = statementCellTarget(sel('BS!C3'), [binding]);
  expect(hit).toMatchObject({ ok: true, target: { categoryId: 'cat_cash', start: '2026-04-01', end: '2026-06-30', source: 'BS!C3' } });
  expect(hit?.ok && hit.target.note).toMatch(/start of the fiscal year \(2026-04-01\)/);
  // One period column: the label cell means it too.
  expect(statementCellTarget(sel('BS!B3'), [binding])).toMatchObject({ ok: true, target: { categoryId: 'cat_cash' } });
  expect(statementCellTarget(sel('BS!D3'), [binding])).toBeNull();
  expect(statementCellTarget(sel('Other!C3'), [binding])).toBeNull();
  expect(statementCellTarget(sel('BS!C3'), [{ ...binding, parameters: { statement: 'balance_sheet' } }])).toMatchObject({ ok: false, message: expect.stringMatching(/refresh it/) });
});
