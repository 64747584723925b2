// Losing Transactions: Manage while a push is under way. Only the transactions area is lowered: lowering
// API access would revoke the key for good (docs/api-decisions.md).

import { addMonths } from '../../src/engine/dates';
import { COL, MSG, journalStorageKey } from '../../src/engine/transactions';
import { jobFailedAsWhole } from '../../src/engine/transactions/messages';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { jobErrors, newWorkbook, note, report, rig, rowById, sandboxJobs, sandboxToday, typeInto, until, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let companyId: string;
let key: string;
let bindingId: string;
let table: string;
let r: Rig;
let standard: string[] = [];
let pathOf: (id: string) => string;
let leaves: string[] = [];

const setTransactions = (level: 'view' | 'manage') => sb.control('members', { key, permissions: { transactions: level } });

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  companyId = sb.companies['growth-admin'];
  key = sb.keys['growth-admin'];
  r = await rig(sb, wb);
  const today = sandboxToday(sb);
  ({ bindingId, table } = await r.engine.pull({ start_date: addMonths(today, -9), end_date: addMonths(today, -8) }));
  const t = await wb.readTable(table);
  const col = (n: string) => t.columns.indexOf(n);
  standard = t.rows.filter((x) => x[col(COL.type)] === 'standard').map((x) => String(x[col(COL.id)]));
  const { data } = await r.client.departments.list();
  const byId = new Map(data.map((d) => [d.id, d]));
  pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(data.map((d) => d.parent_id));
  leaves = data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => d.id);
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});
afterEach(async () => {
  await setTransactions('manage');
  await sb.control('control', { job_processing_delay_ms: 50 });
});

async function editRows(ids: string[]): Promise<string> {
  const current = await Promise.all(ids.map((id) => rowById(wb, table, id)));
  const leaf = leaves.find((l) => current.every((c) => c[COL.pulledDepartment] !== pathOf(l)))!;
  await typeInto(wb, table, ids.map((id) => ({ id, values: { [COL.department]: pathOf(leaf) } })));
  return leaf;
}

test('permission lost before commit: the job fails with permission_denied, rows stay pending with the reason', async () => {
  const ids = standard.slice(0, 3);
  const originals = await Promise.all(ids.map((id) => r.client.transactions.retrieve(id)));
  await editRows(ids);
  // The first poll comes after the permission is back, so the engine can read the failed job.
  const slow = await rig(sb, wb, { engine: { poll: { initialDelayMs: 4000, maxDelayMs: 4000, maxPolls: 10 } } });
  await sb.control('control', { job_processing_delay_ms: 1500 });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const pushing = usageDelta(sb, companyId, () => slow.engine.push(bindingId));
  await until('processing', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'processing'));
  await setTransactions('view');
  await until('failed', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'failed'));
  await setTransactions('manage');
  const { value: res, calls } = await pushing;

  const job = sandboxJobs(sb, companyId).at(-1)!;
  expect(jobErrors(sb, job.id)).toEqual([expect.objectContaining({ code: 'permission_denied', transaction_id: null })]);
  expect(res.jobs[0]).toMatchObject({ result: 'failed', reason: MSG.permissionLost, updatedCount: 0 });
  for (const o of originals) {
    expect((await r.client.transactions.retrieve(o.id)).department_id).toBe(o.department_id);
    expect((await rowById(wb, table, o.id))[COL.pushStatus]).toBe(jobFailedAsWhole(MSG.permissionLost));
  }
  expect(await r.journal.get(journalStorageKey(companyId, bindingId))).toBeUndefined();
  note(`permission lost before commit (3 rows): ${calls} calls (check 1 + submit 1 + poll 1)`);
  expect(calls).toBe(3);
});

test('permission still missing when polling: the result cannot be read, the job stays in the journal and is resumed later', async () => {
  const ids = standard.slice(0, 3); // the same rows: still pending from the previous test
  await sb.control('control', { job_processing_delay_ms: 1500 });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const pushing = usageDelta(sb, companyId, () => r.engine.push(bindingId));
  await until('processing', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'processing'));
  await setTransactions('view');
  const { value: res, calls } = await pushing;
  expect(res.jobs[0]).toMatchObject({ result: 'unknown', reason: MSG.permissionLost });
  for (const id of ids) expect((await rowById(wb, table, id))[COL.pushStatus]).toMatch(/^Permission lost: Transactions Manage — the job's result cannot be read/);
  const unfinished = await r.engine.unfinished(bindingId);
  expect(unfinished).toEqual([expect.objectContaining({ jobKnown: true, resumable: true, rows: 3 })]);

  await until('failed', () => sandboxJobs(sb, companyId).slice(jobsBefore).some((j) => j.status === 'failed'));
  await setTransactions('manage');
  const { value: resumed, calls: resumeCalls } = await usageDelta(sb, companyId, () => r.engine.resume(bindingId, [unfinished[0].idempotencyKey]));
  expect(resumed.reports[0]).toMatchObject({ result: 'failed', reason: MSG.permissionLost });
  for (const id of ids) expect((await rowById(wb, table, id))[COL.pushStatus]).toBe(jobFailedAsWhole(MSG.permissionLost));
  expect(await r.engine.unfinished(bindingId)).toHaveLength(0);
  // Resuming a job whose id is known polls it; nothing is re-posted.
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore + 1);
  note(`permission lost, poll refused (3 rows): push ${calls} calls (check 1 + submit 1 + polls until the 403); resume ${resumeCalls} call(s)`);
});

test('permission missing at submission: 403, no job, rows pending with the reason', async () => {
  const ids = standard.slice(0, 3);
  await setTransactions('view');
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const { value: res, calls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(res.jobs[0]).toMatchObject({ result: 'not_created', reason: MSG.permissionLost });
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore);
  for (const id of ids) expect((await rowById(wb, table, id))[COL.pushStatus]).toBe(MSG.permissionLost);
  expect(await r.engine.unfinished(bindingId)).toHaveLength(0);
  expect(calls).toBe(2); // check 1 + the refused submission 1
  note(`permission missing at submission (3 rows): ${calls} calls (check 1 + refused submit 1)`);

  // With the permission back, the same rows go through.
  await setTransactions('manage');
  const ok = await r.engine.push(bindingId);
  expect(ok.jobs[0]).toMatchObject({ result: 'success', updatedCount: 3 });
});
