// A push interrupted after its submission (the response of POST /transactions/bulk/update is lost:
// drop_after) and a "crash": the engine and client are thrown away, only the workbook (MemoryGateway:
// table, bindings, settings) is kept. A new engine resumes the stored job with the same Idempotency-Key
// and body: the API returns the original job, so the edits apply exactly once.

import { addMonths } from '../../src/engine/dates';
import { COL, MSG, journalKey, type PushResult } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, rowById, sandboxJobs, sandboxToday, typeInto, usageDelta } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let companyId: string;
let bindingId: string;
let table: string;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  companyId = sb.companies['growth-admin'];
  const today = sandboxToday(sb);
  const pulled = await (await rig(sb, wb)).engine.pull({ start_date: addMonths(today, -7), end_date: addMonths(today, -6) });
  bindingId = pulled.bindingId;
  table = pulled.table;
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});
afterEach(() => sb.control('control', { clear_faults: true }));

async function standardRows(n: number, skip = 0) {
  const client = (await rig(sb, wb)).client;
  const t = await wb.readTable(table);
  const col = (name: string) => t.columns.indexOf(name);
  const ids = t.rows.filter((r) => r[col(COL.type)] === 'standard').map((r) => String(r[col(COL.id)]));
  const picked = ids.slice(skip, skip + n);
  return Promise.all(picked.map((id) => client.transactions.retrieve(id)));
}

async function leafPaths() {
  const { data } = await (await rig(sb, wb)).client.departments.list();
  const byId = new Map(data.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(data.map((d) => d.parent_id));
  return data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => ({ id: d.id, path: pathOf(d.id) }));
}

test('department edits: response lost after submit, crash, resume -> the same job, applied once', async () => {
  const targets = await standardRows(3);
  const leaves = await leafPaths();
  const target = leaves.find((l) => targets.every((t) => t.department_id !== l.id))!;
  await typeInto(wb, table, targets.map((t) => ({ id: t.id, values: { [COL.department]: target.path } })));

  // The POST is handled (the job is created and runs), then the connection is cut before the answer.
  await sb.control('control', { faults: [{ kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' }] });
  const first = await rig(sb, wb, { client: { maxRetries: 0 } });
  const { value: interrupted, calls: callsBefore } = await usageDelta(sb, companyId, () => first.engine.push(bindingId));
  expect(interrupted.jobs).toHaveLength(1);
  expect(interrupted.jobs[0]).toMatchObject({ result: 'unknown', jobId: null, rows: 3 });
  expect(interrupted.updated).toBe(0);
  for (const t of targets) {
    const row = await rowById(wb, table, t.id);
    expect(row[COL.pushStatus]).toBe(MSG.interrupted);
    expect(row[COL.department]).toBe(target.path); // the edit is still there
  }
  // The key and body were stored before the POST; the server did create the job.
  const journal = (await wb.readSetting(journalKey(bindingId))) as string[];
  expect(journal).toHaveLength(1);
  const jobsAfterCrash = sandboxJobs(sb, companyId);
  expect(jobsAfterCrash).toHaveLength(1);
  expect(jobsAfterCrash[0].idempotency_key).toBe(journal[0]);

  // Crash: nothing of `first` survives; a new pane session opens the same workbook.
  const second = await rig(sb, wb);
  expect(await second.engine.unfinishedJobs(bindingId)).toHaveLength(1);
  const { value: resumed, calls: callsResume } = await usageDelta(sb, companyId, () => second.engine.push(bindingId));
  expect(resumed.resumed.reports).toHaveLength(1);
  expect(resumed.resumed.reports[0]).toMatchObject({ result: 'success', updatedCount: 3, jobId: jobsAfterCrash[0].id });
  expect(resumed.resumed.updated).toBe(3);
  expect(resumed.jobs).toHaveLength(0); // nothing left to send: the resumed job carried the edits
  expect(await second.engine.unfinishedJobs(bindingId)).toHaveLength(0);

  // Exactly once, checked through the API and the sandbox: one job, three rows changed.
  const jobs = sandboxJobs(sb, companyId);
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({ status: 'success', updated_count: 3, matched_count: 3 });
  const job = await second.client.jobs.retrieve(jobs[0].id);
  expect(job).toMatchObject({ status: 'success', updated_count: 3 });
  for (const t of targets) {
    expect((await second.client.transactions.retrieve(t.id)).department_id).toBe(target.id);
    const row = await rowById(wb, table, t.id);
    expect(row[COL.pushStatus]).toBe(MSG.updated);
    expect(row[COL.pulledDepartment]).toBe(target.path);
  }
  note(`crash/resume (department, 3 rows): interrupted push ${callsBefore} calls; resuming push ${callsResume} calls (${breakdown(resumed)})`);
});

test('accounting shift: response lost, crash, resume -> shifted by one month, not two', async () => {
  const targets = await standardRows(2, 10);
  const before = targets.map((t) => t.accounting_date ?? t.date);
  const jobsBefore = sandboxJobs(sb, companyId).length;

  await sb.control('control', { faults: [{ kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' }] });
  const first = await rig(sb, wb, { client: { maxRetries: 0 } });
  const { value: interrupted, calls: callsBefore } = await usageDelta(sb, companyId, () =>
    first.engine.shiftAccountingDates(
      bindingId,
      targets.map((t) => t.id),
      1,
    ),
  );
  expect(interrupted.jobs[0]).toMatchObject({ result: 'unknown', kind: 'shift' });
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore + 1);

  const second = await rig(sb, wb);
  const { value: resumed, calls: callsResume } = await usageDelta(sb, companyId, () => second.engine.resume(bindingId));
  expect(resumed.reports[0]).toMatchObject({ result: 'success', updatedCount: 2, kind: 'shift' });
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore + 1);

  for (let i = 0; i < targets.length; i++) {
    const now = await second.client.transactions.retrieve(targets[i].id);
    expect(now.accounting_date).toBe(addMonths(before[i], 1));
    // The read-back sync brought the server's shifted date into both cells.
    const row = await rowById(wb, table, targets[i].id);
    expect(row[COL.accountingDate]).toBe(row[COL.pulledAccountingDate]);
    expect(row[COL.pushStatus]).toBe('Updated (accounting date shifted +1 month)');
  }
  // A later push finds nothing to send and creates no job.
  const after = await second.engine.push(bindingId);
  expect(after.jobs).toHaveLength(0);
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore + 1);
  note(`crash/resume (shift, 2 rows): interrupted shift ${callsBefore} calls; resume ${callsResume} calls (replay 1 + polls + read-back ${resumed.reread?.pages ?? 0} page(s))`);
});

function breakdown(r: PushResult): string {
  return `check ${r.check?.pages ?? 0} page(s), replay 1, read-back ${r.reread?.pages ?? 0} page(s), rest polls`;
}
