// Issue 28, item 3: the push log. Every push, shift and resumed push appends an entry to one protected log
// sheet of the workbook: when (local time with its zone, and UTC), the connection, the company, a fingerprint
// of the key, each transaction's field with its value before, the one asked for and the one after as the API
// confirmed it, the job or PATCH, and the outcome with its reason. Checked against the API itself: before
// and after are what GET /transactions/{id} answered before the push and answers after it.

import { addMonths } from '../../src/engine/dates';
import { recentEntries } from '../../src/engine/pushLog/log';
import { COL } from '../../src/engine/transactions';
import type { Transaction } from '../../src/api';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, rig, sandboxJobs, sandboxToday, tableRows, typeInto, until, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let companyId: string;

beforeAll(async () => {
  sb = await startSandbox();
  companyId = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb?.close();
});
afterEach(() =>
  sb.control('control', {
    clear_faults: true,
    clock_offset_seconds: 0,
    job_processing_delay_ms: 50,
  }),
);

const OPTIONS = {
  engine: { connection: 'Northwind books', timeZone: 'Europe/Paris' },
};

interface World {
  wb: MemoryGateway;
  r: Rig;
  bindingId: string;
  table: string;
  /** Standard rows of the table, in table order. */
  ids: string[];
  pathOf(id: string | null): string;
  leaves: string[];
}

async function world(monthsBack: number): Promise<World> {
  const wb = newWorkbook();
  const r = await rig(sb, wb, OPTIONS);
  const today = sandboxToday(sb);
  const { bindingId, table } = await r.engine.pull({
    start_date: addMonths(today, -monthsBack - 1),
    end_date: addMonths(today, -monthsBack),
  });
  const rows = await tableRows(wb, table);
  const ids = rows.filter((x) => x[COL.type] === 'standard').map((x) => String(x[COL.id]));
  const { data: departments } = await r.client.departments.list();
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string | null): string => (id === null ? '' : byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(departments.map((d) => d.parent_id));
  const leaves = departments.filter((d) => d.assignable && !parents.has(d.id)).map((d) => d.id);
  return { wb, r, bindingId, table, ids, pathOf, leaves };
}

/** The log as objects by column, entry by entry. */
async function logRows(wb: MemoryGateway): Promise<Record<string, string | number | boolean>[]> {
  return tableRows(wb, 'FinPushLog');
}

/** How the log gives a department: its path and id; none as "(none)". */
const department = (w: World, id: string | null) => (id ? `${w.pathOf(id)} (${id})` : '(none)');
const effective = (t: Transaction) => t.accounting_date ?? t.date;

test('two pushes (one with a row the API refused) and a shift: every change is in the log, before and after as the API has them, the refused row with its reason', async () => {
  const w = await world(3);
  const [a, b, c, d, e, f] = w.ids;
  const before = new Map((await Promise.all([a, b, c, d, e, f].map((id) => w.r.client.transactions.retrieve(id)))).map((t) => [t.id, t]));
  const x = w.leaves.find((l) => [a, b].every((id) => before.get(id)!.department_id !== l))!;
  const y = w.leaves.find((l) => l !== x && before.get(d)!.department_id !== l)!;
  const today = sandboxToday(sb);
  const newDate = addMonths(effective(before.get(c)!), 1);

  // Push 1: A and B to department X (one bulk job), C's accounting date a month later (a PATCH).
  await typeInto(w.wb, w.table, [
    { id: a, values: { [COL.department]: w.pathOf(x) } },
    { id: b, values: { [COL.department]: w.pathOf(x) } },
    { id: c, values: { [COL.accountingDate]: newDate } },
  ]);
  const first = await w.r.engine.push(w.bindingId);
  expect(first.log).toEqual({ entry: 1, sheet: 'Push log' });

  // Push 2: D to department Y (applied), and E's accounting date nearly three years ahead: within the window
  // the add-in knows, but the API's own clock says otherwise (the sandbox is set back 400 days), so it refuses.
  const tooLate = addMonths(today, 36 - 3);
  await typeInto(w.wb, w.table, [
    { id: d, values: { [COL.department]: w.pathOf(y) } },
    { id: e, values: { [COL.accountingDate]: tooLate } },
  ]);
  await sb.control('control', { clock_offset_seconds: -400 * 86_400 });
  const second = await w.r.engine.push(w.bindingId);
  await sb.control('control', { clock_offset_seconds: 0 });
  expect(second.log).toEqual({ entry: 2, sheet: 'Push log' });
  expect(second.patches.find((p) => p.id === e)).toMatchObject({ ok: false });

  // The shift: F one month on (always a job).
  const shifted = await w.r.engine.shiftAccountingDates(w.bindingId, [f], 1);
  expect(shifted.log).toEqual({ entry: 3, sheet: 'Push log' });

  const after = new Map((await Promise.all([a, b, c, d, e, f].map((id) => w.r.client.transactions.retrieve(id)))).map((t) => [t.id, t]));
  const jobs = sandboxJobs(sb, companyId);
  const log = await logRows(w.wb);
  // Within an entry, rows go by the push's groups: compared in a fixed order.
  const byEntryAndId = (p: unknown[], q: unknown[]) => Number(p[0]) - Number(q[0]) || String(p[2]).localeCompare(String(q[2]));
  const changes = log.map((r) => [r.Entry, r.Action, r.Transaction, r.Field, r.Before, r.Requested, r.After, r['Sent as'], r.Outcome]).sort(byEntryAndId);
  const jobOf = (n: number) => `Job ${jobs.at(n)!.id} (push ${jobs.at(n)!.idempotency_key.slice(0, 8)})`;
  expect(changes).toEqual(
    [
      [1, 'Push', c, 'Accounting date', effective(before.get(c)!), newDate, effective(after.get(c)!), 'PATCH', 'Applied'],
      [1, 'Push', a, 'Department', department(w, before.get(a)!.department_id), department(w, x), department(w, after.get(a)!.department_id), jobOf(-2), 'Applied'],
      [1, 'Push', b, 'Department', department(w, before.get(b)!.department_id), department(w, x), department(w, after.get(b)!.department_id), jobOf(-2), 'Applied'],
      [2, 'Push', d, 'Department', department(w, before.get(d)!.department_id), department(w, y), department(w, after.get(d)!.department_id), 'PATCH', 'Applied'],
      [2, 'Push', e, 'Accounting date', effective(before.get(e)!), tooLate, effective(after.get(e)!), 'PATCH', 'Refused'],
      [3, 'Shift', f, 'Accounting date', effective(before.get(f)!), '+1 month', effective(after.get(f)!), jobOf(-1), 'Applied'],
    ].sort(byEntryAndId),
  );
  // The API's values moved exactly where the log says, and the refused one did not.
  expect(after.get(a)!.department_id).toBe(x);
  expect(effective(after.get(c)!)).toBe(newDate);
  expect(effective(after.get(e)!)).toBe(effective(before.get(e)!));
  expect(effective(after.get(f)!)).toBe(addMonths(effective(before.get(f)!), 1));
  // The refusal's reason is the API's.
  expect(log.find((r) => r.Transaction === e)!.Reason).toMatch(/^accounting_date must be on or after \d{4}-\d{2}-\d{2} and before \d{4}-\d{2}-\d{2}\.$/);
  expect(log.filter((r) => r.Outcome === 'Applied').every((r) => r.Reason === '')).toBe(true);

  // Who and when, on every row: the connection, the company, a fingerprint of the key, never the key.
  for (const row of log) {
    expect(row).toMatchObject({
      Connection: 'Northwind books',
      'Key fingerprint': w.r.fingerprint,
      Table: w.table,
      Company: expect.stringContaining(`(${companyId})`),
    });
    expect(row['Local time']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row['Time zone']).toMatch(/^Europe\/Paris \(UTC\+0[12]:00\)$/);
    expect(row.UTC).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(Object.values(row).join(' ')).not.toContain(w.r.key);
  }
  expect(w.r.fingerprint).not.toContain(w.r.key);
  // Protected against casual edits, and what the Transactions tab lists.
  expect(await w.wb.isSheetProtected('Push log')).toBe(true);
  expect(() => w.wb.typeValue('Push log', 'A2', 'edited')).toThrow(/protected/);
  const recent = await recentEntries(w.wb, 5);
  expect(recent.sheet).toBe('Push log');
  expect(recent.entries.map((s) => [s.entry, s.action, s.counts.Applied, s.counts.Refused])).toEqual([
    [3, 'Shift', 1, 0],
    [2, 'Push', 1, 1],
    [1, 'Push', 3, 0],
  ]);
});

test('a job that fails, and a push cut short then resumed: logged as failed, as interrupted, and the resumption as a new entry naming the first', async () => {
  const w = await world(5);
  const [a, b, c, d] = w.ids;
  const before = new Map((await Promise.all([a, b, c, d].map((id) => w.r.client.transactions.retrieve(id)))).map((t) => [t.id, t]));
  const x = w.leaves.find((l) => [a, b, c, d].every((id) => before.get(id)!.department_id !== l))!;

  // A job that fails: a teammate recategorizes one of its rows while it runs (transaction_conflict).
  await typeInto(
    w.wb,
    w.table,
    [a, b].map((id) => ({ id, values: { [COL.department]: w.pathOf(x) } })),
  );
  await sb.control('control', { job_processing_delay_ms: 2500 });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const pushing = w.r.engine.push(w.bindingId);
  await until('the job to be processing', () =>
    sandboxJobs(sb, companyId)
      .slice(jobsBefore)
      .some((j) => j.status === 'processing'),
  );
  await sb.control(`transactions/${b}`, {
    category_id: before.get(a)!.category_id === before.get(b)!.category_id ? null : before.get(a)!.category_id,
  });
  const failed = await pushing;
  await sb.control('control', { job_processing_delay_ms: 50 });
  expect(failed.jobs[0]).toMatchObject({ result: 'failed' });

  // Rows C and D: the job is created, and the answer to its POST is lost.
  await typeInto(
    w.wb,
    w.table,
    [a, b].map((id) => ({
      id,
      values: { [COL.department]: w.pathOf(before.get(id)!.department_id) },
    })),
  );
  await typeInto(
    w.wb,
    w.table,
    [c, d].map((id) => ({ id, values: { [COL.department]: w.pathOf(x) } })),
  );
  await sb.control('control', {
    faults: [
      {
        kind: 'drop_after',
        count: 1,
        method: 'POST',
        path: '/transactions/bulk/update',
      },
    ],
  });
  const cut = await rig(sb, w.wb, {
    ...OPTIONS,
    client: { maxRetries: 0 },
    journal: w.r.journal,
  });
  const interrupted = await cut.engine.push(w.bindingId);
  expect(interrupted.jobs[0]).toMatchObject({ result: 'unknown', jobId: null });
  const key = interrupted.jobs[0].idempotencyKey;

  // A new session resumes it, once the user confirms.
  const again = await rig(sb, w.wb, { ...OPTIONS, journal: w.r.journal });
  const { value: resumed } = await usageDelta(sb, companyId, () => again.engine.resume(w.bindingId, [key]));
  expect(resumed.reports[0]).toMatchObject({ result: 'success' });

  const log = await logRows(w.wb);
  const job = sandboxJobs(sb, companyId).find((j) => j.idempotency_key === key)!;
  const failedJob = sandboxJobs(sb, companyId)[jobsBefore];
  const mark = `push ${key.slice(0, 8)}`;
  expect(log.map((r) => [r.Entry, r.Action, r.Resumes, r.Transaction, r.Before, r.After, r['Sent as'], r.Outcome])).toEqual([
    [1, 'Push', '', a, department(w, before.get(a)!.department_id), department(w, before.get(a)!.department_id), `Job ${failedJob.id} (push ${failedJob.idempotency_key.slice(0, 8)})`, 'Failed job'],
    [1, 'Push', '', b, department(w, before.get(b)!.department_id), department(w, before.get(b)!.department_id), `Job ${failedJob.id} (push ${failedJob.idempotency_key.slice(0, 8)})`, 'Failed job'],
    [2, 'Push', '', c, department(w, before.get(c)!.department_id), '', `Job, id not received (${mark})`, 'Interrupted'],
    [2, 'Push', '', d, department(w, before.get(d)!.department_id), '', `Job, id not received (${mark})`, 'Interrupted'],
    [3, 'Resumed push', 'Entry 2', c, department(w, before.get(c)!.department_id), department(w, x), `Job ${job.id} (${mark})`, 'Applied'],
    [3, 'Resumed push', 'Entry 2', d, department(w, before.get(d)!.department_id), department(w, x), `Job ${job.id} (${mark})`, 'Applied'],
  ]);
  // The failed job's reasons: the conflict on the row changed upstream, and why its partner was not applied.
  expect(log[1].Reason).toBe('Changed since you pulled it — refresh');
  expect(log[0].Reason).toMatch(/^Not applied — 1 other row in the same job failed/);
  expect(log[2].Reason).toMatch(/Review offers to resume or discard it/);
  for (const id of [c, d]) expect((await w.r.client.transactions.retrieve(id)).department_id).toBe(x);
});
