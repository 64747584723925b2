// Issue 27: a department edit pushed from a transactions table touches the answers by department and no
// report. After the push, the P&L by department of the month is behind and the plain P&L of the month is
// not; refreshing what changed walks the month's journal again and nothing else; the row's amount has moved
// from one department's column to the other's, and the Total (the API's statement) is as it was.
import type { Department, Transaction } from '../../../src/api/types';
import { addMonths, calendarDateAt, endOfMonth } from '../../../src/engine/dates';
import { changedOnly, createStatementsEngine, type StatementSpec } from '../../../src/engine/statements';
import { COL } from '../../../src/engine/transactions';
import { buildTree, subtreeIds } from '../../../src/engine/tree';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { newWorkbook, rig, typeInto, usageDelta } from '../../transactions/support';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const start = addMonths(`${calendarDateAt(Date.now()).slice(0, 7)}-01`, -1);
const end = endOfMonth(start);
const cents = (v: unknown) => Math.round(Number(v) * 100);

test('a pushed department edit: only the P&L by department is behind, and its refresh walks the month again and nothing else', async () => {
  const wb = newWorkbook();
  const r = await rig(sb, wb);
  const departments = (await r.reader.read({ path: '/departments' }, (o) => r.client.departments.list(o))).value.data as Department[];
  const tree = buildTree(departments, 'department');
  const root = tree.ordered.find((n) => n.parent === null)!;
  const [gtm, rnd] = root.children;
  const inside = (head: typeof gtm) => new Set(subtreeIds(head));
  const statements = createStatementsEngine({ gateway: wb, reader: r.reader, client: r.client, companyName: 'Northwind' });
  const base = { statement: 'income_statement', period: 'custom', start, end, scale: 'units', fiscalYearStartMonth: 1 } as const;
  const byDepartment = await statements.insert({ ...base, layout: 'by_department', departmentsUnder: root.id } as StatementSpec, 'newSheet');
  const plain = await statements.insert({ ...base, layout: 'single' } as StatementSpec, 'newSheet');

  // A Go-to-Market expense of the month, its accounting date its own, moved to an R&D department.
  const { bindingId, table } = await r.engine.pull({ start_date: start, end_date: end });
  let moved: Transaction | undefined;
  for await (const t of r.client.transactions.iterate({ start_date: start, end_date: end, status: 'approved', transaction_type: 'standard' })) {
    if (t.department_id && inside(gtm).has(t.department_id) && t.accounting_date === t.date && t.amount_cents < 0 && t.category_id && !t.spread) {
      moved = t;
      break;
    }
  }
  expect(moved).toBeDefined();
  const target = tree.ordered.find((n) => inside(rnd).has(n.id) && n.item.assignable && n.children.length === 0)!;
  await typeInto(wb, table, [{ id: moved!.id, values: { [COL.department]: target.path } }]);
  expect((await r.engine.push(bindingId)).updated).toBe(1);

  const plan = await statements.plan();
  const blockOf = (id: string) => plan.blocks.find((b) => b.binding.id === id)!;
  expect(blockOf(byDepartment.binding.id).changed).toHaveLength(1);
  expect(blockOf(plain.binding.id).changed).toEqual([]);
  const pages = blockOf(byDepartment.binding.id).changedCalls;
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(plan.changedCalls).toEqual({ blocks: 1, blockCalls: pages, formulaCalls: 0 });

  const before = (await wb.readRange(byDepartment.written.address)).values;
  const { value: outcome, calls } = await usageDelta(sb, r.companyId, () => statements.refreshAll(changedOnly(plan), { scope: 'changed' }));
  expect(outcome.failed).toEqual([]);
  expect(outcome.refreshed.map((b) => b.id)).toEqual([byDepartment.binding.id]);
  // The month's journal walked again, page for page; no statement, no list.
  expect(calls).toBe(pages);

  const after = (await wb.readRange(byDepartment.written.address)).values;
  const header = after.findIndex((row) => row.includes('Total'));
  const column = (name: string) => after[header].indexOf(name);
  const row = after.findIndex((cells) => cells[0] === 'Total expenses');
  expect(cents(after[row][column(gtm.name)]) - cents(before[row][column(gtm.name)])).toBe(-moved!.amount_cents);
  expect(cents(after[row][column(rnd.name)]) - cents(before[row][column(rnd.name)])).toBe(moved!.amount_cents);
  expect(after[row][column('Total')]).toBe(before[row][column('Total')]);
});
