// Drill-down into a statement number: the journal lines behind it, on a new sheet, adding up to the
// same number /aggregations/total (and the statement line) gives.

import { collect } from '../../src/api';
import { addMonths, endOfMonth, startOfMonth } from '../../src/engine/dates';
import { DRILLDOWN_COLUMNS } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, sandboxToday, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let r: Rig;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  r = rig(sb, wb);
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
  // categories + departments + one page per 500 entries.
  expect(calls).toBe(2 + Math.max(1, Math.ceil(res.entries / 500)));
  note(`drill-down into ${parent.name} ${start}..${end}: ${res.rows} lines from ${res.entries} entries, ${calls} calls`);

  const table = await wb.readTable(res.table);
  expect(table.columns).toEqual(DRILLDOWN_COLUMNS.map((c) => c.name));
  expect(table.rows).toHaveLength(res.rows);
  const amount = table.columns.indexOf('Amount');
  const sum = table.rows.reduce((n, row) => n + Math.round((row[amount] as number) * 100), 0);
  expect(sum).toBe(total.total_cents);
  const txnCol = table.columns.indexOf('Transaction id');
  expect(table.rows.some((row) => String(row[txnCol]).startsWith('txn_'))).toBe(true);
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
