import { ApiError, type BulkUpdateJob, type BulkUpdateParams, type JobError } from '../../../src/api';
import { collect } from '../../support/collect';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { assignableLeaves, caught, clearFaults, clientFor, editableTransactions, injectFaults, outcomes, shiftMonths, sleep, type Harness } from './support';

// The jobs helper end to end against the sandbox's real worker: the Idempotency-Key is handed out (and
// stored) before the POST, a crash between sending and receiving is resumed with the stored key into the
// one job, applied once; failed jobs (too many matches, missing targets, a conflict, lost permission) end
// `failed` with every error page gathered and nothing applied.

let sb: TestSandbox;
let admin: Harness;
let leaves: string[];
const poll = { initialDelayMs: 20, maxDelayMs: 200 };

beforeAll(async () => {
  sb = await startSandbox();
  admin = clientFor(sb, 'growth-admin');
  leaves = await assignableLeaves(admin.client);
});
afterAll(() => sb?.close());
afterEach(async () => {
  await clearFaults(sb);
  await sb.control('control', { job_processing_delay_ms: 50, worker_paused: false });
});

const jobsWithKey = (key: string) => sb.running.ctx.db.prepare('SELECT id FROM jobs WHERE idempotency_key = ?').all(key) as { id: string }[];

it('hands the key to onKey, and awaits it, before the POST is sent', async () => {
  const targets = await editableTransactions(admin.client, 2, 0);
  const leaf = leaves.find((d) => targets.every((t) => t.department_id !== d))!;
  const storage = new Map<string, string>();
  const before = admin.lines.length;
  const outcome = await admin.client.jobs.run(
    { transaction_ids: targets.map((t) => t.id), updates: { department_id: leaf } },
    {
      ...poll,
      onKey: async (key) => {
        // Nothing was sent yet: no attempt logged, no job under this key on the server.
        expect(outcomes(admin.lines.slice(before), 'POST', '/transactions/bulk/update')).toEqual([]);
        expect(jobsWithKey(key)).toEqual([]);
        await sleep(10); // a slow store is waited for
        storage.set('pending-bulk-key', key);
      },
      onSubmitted: (job) => void storage.set('pending-bulk-job', job.id),
    },
  );
  expect(outcome.idempotencyKey).toBe(storage.get('pending-bulk-key'));
  expect(outcome.job.id).toBe(storage.get('pending-bulk-job'));
  expect(outcome).toMatchObject({ succeeded: true, errors: [], job: { status: 'success', matched_count: 2, updated_count: 2 } });
  expect(jobsWithKey(outcome.idempotencyKey).map((r) => r.id)).toEqual([outcome.job.id]);
});

it('a crash after the POST was sent but before the response: resume with the stored key gives the one job, applied once', async () => {
  const targets = await editableTransactions(admin.client, 5, 10);
  const body: BulkUpdateParams = { transaction_ids: targets.map((t) => t.id), updates: { accounting_shift: 1 } };
  const storage: { key?: string; jobId?: string } = {};

  // The add-in that dies: no retries, the response is cut after the server created the job.
  const doomed = clientFor(sb, 'growth-admin', { maxRetries: 0 });
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' });
  const err = await caught(
    doomed.client.jobs.run(body, { ...poll, onKey: (k) => void (storage.key = k), onSubmitted: (j) => void (storage.jobId = j.id) }),
  );
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ type: 'connection_error', code: 'network_error', attempts: 1 });
  expect(storage.key).toBeDefined();
  expect(storage.jobId).toBeUndefined();
  // The server did create the job (and may already have run it).
  const created = jobsWithKey(storage.key!);
  expect(created).toHaveLength(1);

  // The restarted add-in: a new client resumes from storage.
  const restarted = clientFor(sb, 'growth-admin');
  const outcome = await restarted.client.jobs.resume(storage.key!, body, { ...poll, onSubmitted: (j) => void (storage.jobId = j.id) });
  expect(outcome.job.id).toBe(created[0].id);
  expect(storage.jobId).toBe(created[0].id);
  expect(outcome).toMatchObject({ succeeded: true, job: { status: 'success', matched_count: 5, updated_count: 5 } });
  expect(jobsWithKey(storage.key!)).toHaveLength(1);
  for (const t of targets) {
    expect((await restarted.client.transactions.retrieve(t.id)).accounting_date).toBe(shiftMonths(t.accounting_date ?? t.date, 1));
  }

  // Resuming once more (a second crash after the replay) is still the same job and changes nothing.
  const again = await restarted.client.jobs.resume(storage.key!, body, poll);
  expect(again.job).toEqual(outcome.job);
  for (const t of targets) {
    expect((await restarted.client.transactions.retrieve(t.id)).accounting_date).toBe(shiftMonths(t.accounting_date ?? t.date, 1));
  }
});

it('a filter selecting more than 5,000 transactions (the biggest account) ends failed with transaction_limit_exceeded', async () => {
  // The account with the most transactions, found through the client: every transaction names its
  // source account by label, which matches one account of GET /accounts.
  const accounts = await collect(admin.client.accounts.iterate());
  const counts = new Map<string, number>();
  for await (const t of admin.client.transactions.iterate()) {
    const label = `${t.source.vendor}|${t.source.type}|${t.source.account_name}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const [label, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  const matching = accounts.filter((a) => `${a.vendor}|${a.type}|${a.account_name}` === label);
  expect(matching).toHaveLength(1);
  expect(n).toBeGreaterThan(5000);

  const leaf = leaves[0];
  const outcome = await admin.client.jobs.run({ filters: { account_id: matching[0].id }, updates: { department_id: leaf } }, poll);
  expect(outcome.succeeded).toBe(false);
  expect(outcome.job).toMatchObject({ status: 'failed', updated_count: 0 });
  expect(outcome.errors).toEqual([
    { type: 'invalid_request_error', code: 'transaction_limit_exceeded', message: expect.any(String), transaction_id: null },
  ]);
  // Failed stays failed: replaying the key returns the same failed job, nothing restarts.
  const replay = await admin.client.jobs.resume(outcome.idempotencyKey, { filters: { account_id: matching[0].id }, updates: { department_id: leaf } }, poll);
  expect(replay.job).toEqual(outcome.job);
});

it('a job failing on many targets: every error page is gathered; paging by hand agrees', async () => {
  const [real] = await editableTransactions(admin.client, 1, 20);
  const missing = Array.from({ length: 520 }, (_, i) => `txn_integrationMissing${String(i).padStart(4, '0')}`);
  const body: BulkUpdateParams = { transaction_ids: [real.id, ...missing], updates: { department_id: leaves[0] } };
  const before = admin.lines.length;
  const outcome = await admin.client.jobs.run(body, poll);
  expect(outcome.succeeded).toBe(false);
  expect(outcome.job).toMatchObject({ status: 'failed', updated_count: 0 });
  expect(outcome.errors).toHaveLength(520);
  expect(outcome.errors.map((e) => e.transaction_id).sort()).toEqual([...missing].sort());
  expect(outcome.errors.every((e) => e.code === 'transaction_update_failed' && e.type === 'invalid_request_error')).toBe(true);
  // The first page came with the terminal poll; only the second cost one more call.
  const jobCalls = outcomes(admin.lines.slice(before), 'GET', `/jobs/${outcome.job.id}`);
  expect(jobCalls.length).toBeGreaterThanOrEqual(2);
  expect((await admin.client.transactions.retrieve(real.id)).department_id).toBe(real.department_id);

  const pages: BulkUpdateJob[] = [];
  let cursor: string | undefined;
  do {
    const page = await admin.client.jobs.retrieve(outcome.job.id, { limit: 150, starting_after: cursor });
    pages.push(page);
    cursor = page.errors.has_more ? page.errors.next_cursor! : undefined;
  } while (cursor);
  expect(pages).toHaveLength(4);
  for (const p of pages) expect(p).toMatchObject({ id: outcome.job.id, status: 'failed', matched_count: outcome.job.matched_count, updated_count: 0 });
  expect(pages.flatMap((p) => p.errors.data)).toEqual(outcome.errors);
  const viaIterator: JobError[] = await collect(admin.client.jobs.iterateErrors(outcome.job.id));
  expect(viaIterator).toEqual(outcome.errors);

  const badCursor = await caught(admin.client.jobs.retrieve(outcome.job.id, { starting_after: 'not-a-cursor' }));
  expect(badCursor).toMatchObject({ status: 400, code: 'invalid_request', param: 'starting_after' });
});

it('a target changed upstream while the job is processing: failed with transaction_conflict, nothing applied', async () => {
  const targets = await editableTransactions(admin.client, 3, 30);
  const leaf = leaves.find((d) => targets.every((t) => t.department_id !== d))!;
  const upstreamLeaf = leaves.find((d) => d !== leaf && d !== targets[1].department_id)!;
  await sb.control('control', { job_processing_delay_ms: 1500 });

  const { job } = await admin.client.jobs.submit({ transaction_ids: targets.map((t) => t.id), updates: { department_id: leaf } });
  expect(job).toMatchObject({ status: 'queued', matched_count: null, updated_count: 0 });
  let current = job;
  for (let i = 0; i < 100 && current.status !== 'processing'; i++) {
    await sleep(20);
    current = await admin.client.jobs.retrieve(job.id);
  }
  expect(current).toMatchObject({ status: 'processing', matched_count: 3 });

  // A teammate (or the bank feed) changes one target between the freeze and the commit.
  await sb.control(`transactions/${targets[1].id}`, { department_id: upstreamLeaf });
  const done = await admin.client.jobs.wait(job.id, poll);
  expect(done).toMatchObject({ status: 'failed', updated_count: 0 });
  const errors = await collect(admin.client.jobs.iterateErrors(job.id));
  expect(errors).toEqual([{ type: 'invalid_request_error', code: 'transaction_conflict', message: expect.any(String), transaction_id: targets[1].id }]);
  expect((await admin.client.transactions.retrieve(targets[0].id)).department_id).toBe(targets[0].department_id);
  expect((await admin.client.transactions.retrieve(targets[1].id)).department_id).toBe(upstreamLeaf);
  expect((await admin.client.transactions.retrieve(targets[2].id)).department_id).toBe(targets[2].department_id);
});

it('the submitter loses Transactions: Manage before the job runs: failed with permission_denied', async () => {
  const key = sb.keys['growth-readonly'];
  await sb.control('members', { key, permissions: { transactions: 'manage' } });
  const submitter = clientFor(sb, 'growth-readonly');
  const [target] = await editableTransactions(admin.client, 1, 40);
  await sb.control('control', { worker_paused: true });
  const { job } = await submitter.client.jobs.submit({ transaction_ids: [target.id], updates: { department_id: leaves.find((d) => d !== target.department_id)! } });
  await sb.control('members', { key, permissions: { transactions: 'view' } });
  await sb.control('control', { worker_paused: false });

  // The submitter can no longer read jobs; any holder of Transactions: Manage in the company can.
  expect(await caught(submitter.client.jobs.retrieve(job.id))).toMatchObject({ status: 403, code: 'insufficient_permission' });
  const outcome = await admin.client.jobs.wait(job.id, poll);
  expect(outcome).toMatchObject({ status: 'failed', updated_count: 0 });
  expect(outcome.errors.data).toEqual([{ type: 'permission_error', code: 'permission_denied', message: expect.any(String), transaction_id: null }]);
  expect((await admin.client.transactions.retrieve(target.id)).department_id).toBe(target.department_id);
});

it('GET /jobs/{id}: unknown, other-company and expired jobs are 404 param id; a bad limit is 400', async () => {
  const [target] = await editableTransactions(admin.client, 1, 50);
  const outcome = await admin.client.jobs.run({ transaction_ids: [target.id], updates: { department_id: leaves.find((d) => d !== target.department_id)! } }, poll);
  expect(outcome.succeeded).toBe(true);
  const missing = { status: 404, type: 'invalid_request_error', code: 'resource_missing', param: 'id' };
  expect(await caught(admin.client.jobs.retrieve('job_doesnotexist000'))).toMatchObject(missing);
  const startup = clientFor(sb, 'startup-admin');
  expect(await caught(startup.client.jobs.retrieve(outcome.job.id))).toMatchObject(missing);
  expect(await caught(admin.client.jobs.retrieve(outcome.job.id, { limit: 501 }))).toMatchObject({ status: 400, code: 'invalid_request', param: 'limit' });

  // Finished jobs are kept 30 days.
  await sb.control('control', { clock_offset_seconds: 29 * 86_400 });
  try {
    expect(await admin.client.jobs.retrieve(outcome.job.id)).toMatchObject({ id: outcome.job.id, status: 'success' });
    await sb.control('control', { clock_offset_seconds: 31 * 86_400 });
    expect(await caught(admin.client.jobs.retrieve(outcome.job.id))).toMatchObject(missing);
  } finally {
    await sb.control('control', { clock_offset_seconds: 0 });
  }
});
