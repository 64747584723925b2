// A conflict in the middle of a job: the job is processing (a long job_processing_delay_ms) when a
// teammate changes one of its transactions upstream. The job fails with transaction_conflict and changes
// nothing, so every row of that job stays pending with the reason; the next push (after its upstream
// check re-read the changed row) goes through.

import { addMonths } from '../../src/engine/dates';
import { COL, MSG } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { jobErrors, newWorkbook, note, report, rig, rowById, sandboxJobs, sandboxToday, typeInto, until, usageDelta } from './support';

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

test('a conflict mid-job leaves every row of the job pending with the reason; the next push succeeds', async () => {
  // No jitter: polls at 150, 450, 1050, 2050, 3050 ms after submission, around a 2,500 ms job.
  const r = await rig(sb, wb, { client: { random: () => 1 } });
  const today = sandboxToday(sb);
  const { bindingId, table } = await r.engine.pull({ start_date: addMonths(today, -5), end_date: addMonths(today, -4) });
  const all = (await r.engine.tables())[0];
  expect(all.bindingId).toBe(bindingId);

  const t = await wb.readTable(table);
  const col = (n: string) => t.columns.indexOf(n);
  const rows = t.rows.filter((x) => x[col(COL.type)] === 'standard');
  const { data: departments } = await r.client.departments.list();
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(departments.map((d) => d.parent_id));
  const leaf = departments.find((d) => d.assignable && !parents.has(d.id) && rows.slice(0, 4).every((x) => x[col(COL.pulledDepartment)] !== pathOf(d.id)))!;
  const targets = rows.slice(0, 4).map((x) => String(x[col(COL.id)]));
  const originals = await Promise.all(targets.map((id) => r.client.transactions.retrieve(id)));
  await typeInto(wb, table, targets.map((id) => ({ id, values: { [COL.department]: pathOf(leaf.id) } })));

  const plan = await r.engine.review(bindingId);
  expect(plan.groups).toHaveLength(1);
  expect(plan.groups[0]).toMatchObject({ rows: 4, method: 'bulk', jobs: 1 });

  await sb.control('control', { job_processing_delay_ms: 2500 });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const pushing = usageDelta(sb, companyId, () => r.engine.push(bindingId));
  // The job has frozen its targets...
  await until('the job to be processing', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'processing'));
  // ...when someone recategorizes one of them.
  const victim = originals[1];
  const otherCategory = originals.find((o) => o.category_id && o.category_id !== victim.category_id)?.category_id ?? null;
  await sb.control(`transactions/${victim.id}`, { category_id: otherCategory });
  const { value: res, calls } = await pushing;
  await sb.control('control', { job_processing_delay_ms: 50 });

  expect(res.jobs).toHaveLength(1);
  expect(res.jobs[0]).toMatchObject({ result: 'failed', updatedCount: 0, rows: 4, reason: MSG.conflict });
  const job = sandboxJobs(sb, companyId).at(-1)!;
  expect(job.status).toBe('failed');
  expect(jobErrors(sb, job.id)).toEqual([expect.objectContaining({ code: 'transaction_conflict', transaction_id: victim.id })]);

  // Nothing changed upstream (the department), every row keeps its edit and says why.
  for (const o of originals) expect((await r.client.transactions.retrieve(o.id)).department_id).toBe(o.department_id);
  for (const id of targets) {
    const row = await rowById(wb, table, id);
    expect(row[COL.department]).toBe(pathOf(leaf.id));
    expect(row[COL.pulledDepartment]).not.toBe(pathOf(leaf.id));
    if (id === victim.id) expect(row[COL.pushStatus]).toBe(MSG.conflict);
    else expect(row[COL.pushStatus]).toBe(`Not applied — 1 other row in the same job failed (${MSG.conflict}); nothing in that job changed. Push again`);
  }
  expect(res.updated).toBe(0);
  expect(res.pending).toBe(4);
  expect(res.reread).toBeNull(); // nothing succeeded: no read-back

  // Review still lists the four rows as one group (the failure is shown, the edit is still pending).
  const again = await r.engine.review(bindingId);
  expect(again.groups[0].rows).toBe(4);

  // The next push: its check re-reads the recategorized row (not a field the user edited: no flag).
  const { value: second, calls: calls2 } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(second.check?.counts.updated).toBeGreaterThanOrEqual(1);
  expect(second.jobs[0]).toMatchObject({ result: 'success', updatedCount: 4 });
  for (const id of targets) {
    expect((await r.client.transactions.retrieve(id)).department_id).toBe(leaf.id);
    expect((await rowById(wb, table, id))[COL.pushStatus]).toBe(MSG.updated);
  }
  expect(sandboxJobs(sb, companyId).length).toBe(jobsBefore + 2);
  note(`conflict mid-job (4 rows, 1 job): failed push ${calls} calls (check 1 + submit 1 + polls ${calls - 2}); second push ${calls2} calls`);
  expect(calls).toBe(7);
});
