// A push interrupted after its submission (the response of POST /transactions/bulk/update is lost:
// drop_after) and a "crash": the engine and client are thrown away; the workbook (MemoryGateway: table,
// bindings, settings) and add-in storage (the push journal) are kept. A new session's review shows the
// unfinished push; only when the user confirms is the job resumed with the same Idempotency-Key and the
// body rebuilt from the table: the API returns the original job, so the edits apply exactly once.

import { addMonths } from '../../src/engine/dates';
import { COL, MSG, journalStorageKey, legacyJournalKey } from '../../src/engine/transactions';
import { sending } from '../../src/engine/transactions/messages';
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
  tableOrder = t.rows.map((r) => String(r[col(COL.id)]));
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

test('department edits: response lost after submit, crash, reviewed, resumed on confirmation -> the same job, applied once', async () => {
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
  const key = interrupted.jobs[0].idempotencyKey;
  for (const t of targets) {
    const row = await rowById(wb, table, t.id);
    expect(row[COL.pushStatus]).toBe(sending(key));
    expect(row[COL.department]).toBe(target.path); // the edit is still there
  }
  // The key was journalled in add-in storage before the POST (not in the workbook); the server did create the job.
  expect(await wb.readSetting(legacyJournalKey(bindingId))).toBeUndefined();
  const entries = JSON.parse((await first.journal.get(journalStorageKey(companyId, bindingId)))!) as { idempotencyKey: string; rows: number }[];
  expect(entries).toEqual([expect.objectContaining({ idempotencyKey: key, rows: 3 })]);
  const jobsAfterCrash = sandboxJobs(sb, companyId);
  expect(jobsAfterCrash).toHaveLength(1);
  expect(jobsAfterCrash[0].idempotency_key).toBe(key);

  // Crash: nothing of `first` survives but add-in storage and the workbook; a new pane session opens it.
  const second = await rig(sb, wb, { journal: first.journal });
  const plan = await second.engine.review(bindingId);
  expect(plan.unfinished).toEqual([
    expect.objectContaining({ idempotencyKey: key, kind: 'edit', rows: 3, resumable: true, jobKnown: false, startedBy: 'growth-admin', ids: targets.map((t) => t.id).sort(byTableOrder) }),
  ]);
  expect(plan.unfinished[0].description).toBe(`Department → ${target.path}`);
  expect(plan.held.map((h) => h.id).sort()).toEqual(targets.map((t) => t.id).sort());
  // A push without the user's word sends nothing for those rows: no second job, no replay.
  const { value: pushed, calls: pushCalls } = await usageDelta(sb, companyId, () => second.engine.push(bindingId));
  expect(pushed.jobs).toHaveLength(0);
  expect(pushCalls).toBe(0);
  expect(sandboxJobs(sb, companyId)).toHaveLength(1);

  // Confirmed: the same key and the body rebuilt from the table (digest checked) return the original job.
  const { value: resumed, calls: callsResume } = await usageDelta(sb, companyId, () => second.engine.resume(bindingId, [key]));
  expect(resumed.reports).toHaveLength(1);
  expect(resumed.reports[0]).toMatchObject({ result: 'success', updatedCount: 3, jobId: jobsAfterCrash[0].id });
  expect(resumed.updated).toBe(3);
  expect(await second.engine.unfinished(bindingId)).toHaveLength(0);

  // Exactly once, checked through the API and the sandbox: one job, three rows changed.
  const jobs = sandboxJobs(sb, companyId);
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({ status: 'success', updated_count: 3, matched_count: 3 });
  for (const t of targets) {
    expect((await second.client.transactions.retrieve(t.id)).department_id).toBe(target.id);
    const row = await rowById(wb, table, t.id);
    expect(row[COL.pushStatus]).toBe(MSG.updated);
    expect(row[COL.pulledDepartment]).toBe(target.path);
  }
  expect((await second.engine.review(bindingId)).edited).toBe(0);
  note(`crash/resume (department, 3 rows): interrupted push ${callsBefore} calls; resume on confirmation ${callsResume} calls (replay 1 + polls + read-back ${resumed.reread?.pages ?? 0} page(s))`);
});

test('a workbook closed without saving: the rows lost their marks, the journal did not; the body is rebuilt from the edits', async () => {
  const targets = await standardRows(2, 20);
  const leaves = await leafPaths();
  const target = leaves.find((l) => targets.every((t) => t.department_id !== l.id))!;
  await typeInto(wb, table, targets.map((t) => ({ id: t.id, values: { [COL.department]: target.path } })));
  const jobsBefore = sandboxJobs(sb, companyId).length;

  await sb.control('control', { faults: [{ kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' }] });
  const first = await rig(sb, wb, { client: { maxRetries: 0 }, engine: { maxJobIds: 2 } });
  const interrupted = await first.engine.push(bindingId);
  const key = interrupted.jobs[0].idempotencyKey;
  // The last save had the edits, not the marks (nor anything after): the Push status cells are as saved.
  await typeInto(wb, table, targets.map((t) => ({ id: t.id, values: { [COL.pushStatus]: null } })));

  const second = await rig(sb, wb, { journal: first.journal, engine: { maxJobIds: 2 } });
  const [u] = await second.engine.unfinished(bindingId);
  expect(u).toMatchObject({ idempotencyKey: key, resumable: true, ids: targets.map((t) => t.id).sort(byTableOrder) });
  const resumed = await second.engine.resume(bindingId, [key]);
  expect(resumed.reports[0]).toMatchObject({ result: 'success', updatedCount: 2 });
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore + 1);
});

test('accounting shift: response lost, crash, resumed on confirmation -> shifted by one month, not two', async () => {
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
  const key = interrupted.jobs[0].idempotencyKey;

  const second = await rig(sb, wb, { journal: first.journal });
  // Another shift of the same rows is held while the first is unfinished: it could apply twice.
  const again = await second.engine.shiftAccountingDates(bindingId, targets.map((t) => t.id), 1);
  expect(again.jobs).toHaveLength(0);
  expect(again.held.map((h) => h.id).sort()).toEqual(targets.map((t) => t.id).sort());
  const [u] = await second.engine.unfinished(bindingId);
  expect(u).toMatchObject({ idempotencyKey: key, kind: 'shift', resumable: true, rows: 2 });
  const { value: resumed, calls: callsResume } = await usageDelta(sb, companyId, () => second.engine.resume(bindingId, [key]));
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

/** Sorts ids in the order of the table's rows. */
let tableOrder: string[] = [];
function byTableOrder(a: string, b: string): number {
  return tableOrder.indexOf(a) - tableOrder.indexOf(b);
}
