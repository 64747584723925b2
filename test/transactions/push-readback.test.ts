// What a push reads back (issue 17). A successful job of edits leaves its rows with exactly the values it
// sent, and the push writes them as pulled at once; reading 600 rows back would spend two calls on values
// the table holds already, so the push leaves them to the next sync. Nothing is lost by it: the table's
// watermark stays where the push's upstream check left it, before any job ran, so the next refresh reads
// every row changed since -- here a row someone else recategorized while the job was running -- and the
// pushed rows come back equal to what the table shows.

import { addMonths } from '../../src/engine/dates';
import { COL, MSG } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, rowById, sandboxJobs, sandboxToday, tableRows, typeInto, until, usageDelta } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let companyId: string;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  companyId = sb.companies['growth-admin'];
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});

test('600 pushed rows are not read back; a row changed by someone else during the push is seen by the next refresh', async () => {
  const r = await rig(sb, wb);
  const today = sandboxToday(sb);
  const { bindingId, table } = await r.engine.pull({ start_date: addMonths(today, -8), end_date: addMonths(today, -2) });
  const rows = (await tableRows(wb, table)).filter((x) => x[COL.type] === 'standard');
  const { data: departments } = await r.client.departments.list();
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(departments.map((d) => d.parent_id));
  const dept = pathOf(departments.find((d) => d.assignable && !parents.has(d.id))!.id);
  const edited = rows.filter((x) => x[COL.pulledDepartment] !== dept).slice(0, 600);
  expect(edited).toHaveLength(600);
  const editedIds = new Set(edited.map((x) => String(x[COL.id])));
  await typeInto(wb, table, edited.map((x) => ({ id: String(x[COL.id]), values: { [COL.department]: dept } })));

  const plan = await r.engine.review(bindingId);
  expect(plan.groups.map((g) => [g.rows, g.method, g.jobs])).toEqual([[600, 'bulk', 1]]);
  expect(plan.cost).toMatchObject({ check: 1, submissions: 1, polls: 1, reread: 0, total: 3 });

  // Someone else recategorizes a row of the table (not one of the 600) while the job runs.
  const other = rows.find((x) => !editedIds.has(String(x[COL.id])))!;
  const otherId = String(other[COL.id]);
  const before = await r.client.transactions.retrieve(otherId);
  const { data: categories } = await r.client.categories.list();
  const newCategory = categories.find((c) => !c.point_in_time && c.id !== before.category_id && c.name !== before.category_name)!;
  await sb.control('control', { job_processing_delay_ms: 1500 });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const pushing = usageDelta(sb, companyId, () => r.engine.push(bindingId));
  await until('the job to be processing', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'processing'));
  await sb.control(`transactions/${otherId}`, { category_id: newCategory.id });
  const { value: res, calls } = await pushing;
  await sb.control('control', { job_processing_delay_ms: 50 });

  expect(res.updated).toBe(600);
  expect(res.pending).toBe(0);
  expect(res.reread).toBeNull();
  const polls = calls - 1 - 1;
  expect(polls).toBeGreaterThanOrEqual(1);
  note(`600 edits in one job: ${calls} calls = check 1 + submission 1 + polls ${polls}, nothing read back (before: + 2 read-back pages)`);
  // The table holds the sent values as pulled: nothing left to push, every row updated.
  expect((await r.engine.review(bindingId)).edited).toBe(0);
  const after = await tableRows(wb, table);
  expect(after.filter((x) => editedIds.has(String(x[COL.id]))).every((x) => x[COL.pushStatus] === MSG.updated && x[COL.pulledDepartment] === dept)).toBe(true);
  // The watermark is still the check's, from before the job: the other row is not known yet...
  const [binding] = await r.engine.tables();
  expect(binding.state.watermark).toBe(res.check!.watermark);
  expect((await rowById(wb, table, otherId))[COL.category]).toBe(before.category_name);

  // ...and the next refresh reads every row changed since: the 600 (as the table shows them) and the other.
  // A sync's watermark is the second before it starts (spec, incremental mode 7: a change made during a run
  // arrives on the next sync), so a refresh in the very second the job finished would leave the 600 for the
  // one after; a user's next refresh is seconds later, so the test starts it once that second has passed.
  const clock = sb.running.ctx.clock;
  const pushEnded = clock.now();
  await until('the second the push ended to pass', () => clock.now() > pushEnded);
  const refreshed = await usageDelta(sb, companyId, () => r.engine.refresh(bindingId));
  expect(refreshed.value.upserts).toBeGreaterThanOrEqual(601);
  expect(refreshed.calls).toBe(refreshed.value.pages);
  expect((await rowById(wb, table, otherId))[COL.category]).toBe(newCategory.name);
  expect(refreshed.value.counts.flagged).toBe(0);
  const final = await tableRows(wb, table);
  expect(final.filter((x) => editedIds.has(String(x[COL.id]))).every((x) => x[COL.department] === dept && x[COL.pulledDepartment] === dept)).toBe(true);
  expect((await r.engine.review(bindingId)).edited).toBe(0);
  note(`the refresh after it: ${refreshed.calls} calls (${refreshed.value.upserts} rows since the check's watermark, the other user's change among them)`);
});
