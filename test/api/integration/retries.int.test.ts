import { ApiError, MonthlyLimitError } from '../../../src/api';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import {
  assignableLeaves,
  caught,
  clearFaults,
  clientFor,
  editableTransactions,
  injectFaults,
  nextPacificMonthStart,
  outcomes,
  shiftMonths,
  type Harness,
} from './support';

// The retry rules under the sandbox's fault injection: bursts of 429 wait out Retry-After, 500s back
// off, a dropped GET is sent again, a dropped PATCH is not, a bulk update whose response was lost is
// re-sent with the same Idempotency-Key and applied exactly once, and the monthly cap stops everything.

let sb: TestSandbox;
let admin: Harness;
const growth = () => sb.companies['growth-admin'];

beforeAll(async () => {
  sb = await startSandbox();
  admin = clientFor(sb, 'growth-admin');
});
afterAll(() => sb?.close());
afterEach(() => clearFaults(sb));

it('a burst of three 429s: the call waits Retry-After each time and succeeds on the fourth attempt', async () => {
  const h = clientFor(sb, 'growth-admin');
  const usage = await sb.usage(growth());
  await injectFaults(sb, { kind: 'error429', count: 3, method: 'GET', path: '/company', retry_after: 1 });
  const started = Date.now();
  const company = await h.client.company.retrieve();
  const elapsed = Date.now() - started;
  expect(company.id).toBe(growth());
  expect(outcomes(h.lines, 'GET', '/company')).toEqual(['429', '429', '429', '200']);
  // Three waits of at least Retry-After (1 s) each.
  expect(elapsed).toBeGreaterThanOrEqual(3000);
  // Every burst rejection is a counted call on both sides.
  expect(await sb.usage(growth())).toBe(usage + 4);
  expect(await h.client.meter.count()).toBe(4);
});

it('a burst longer than the retries surfaces a typed 429 rate_limit_exceeded with retryAfterMs', async () => {
  const h = clientFor(sb, 'growth-admin', { maxRetries: 1 });
  await injectFaults(sb, { kind: 'error429', count: 2, method: 'GET', path: '/categories', retry_after: 0 });
  const err = await caught(h.client.categories.list());
  expect(err).toBeInstanceOf(ApiError);
  expect(err).not.toBeInstanceOf(MonthlyLimitError);
  expect(err).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', retryAfterMs: 0, attempts: 2 });
});

it('two 500s: backs off and succeeds on the third attempt', async () => {
  await injectFaults(sb, { kind: 'error500', count: 2, method: 'GET', path: '/departments' });
  const list = await admin.client.departments.list();
  expect(list.data.length).toBeGreaterThan(0);
  expect(outcomes(admin.lines, 'GET', '/departments')).toEqual(['500', '500', '200']);
});

it('500s past the retry budget surface api_error internal_error', async () => {
  const h = clientFor(sb, 'growth-admin', { maxRetries: 2 });
  await injectFaults(sb, { kind: 'error500', count: 3, method: 'GET', path: '/integrations' });
  const err = await caught(h.client.integrations.list());
  expect(err).toMatchObject({ status: 500, type: 'api_error', code: 'internal_error', attempts: 3 });
});

it('a dropped connection on a GET is retried and succeeds', async () => {
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'GET', path: '/accounts' });
  const page = await admin.client.accounts.list({ limit: 5 });
  expect(page.data.length).toBeGreaterThan(0);
  expect(outcomes(admin.lines, 'GET', '/accounts')).toEqual(['network_error', '200']);
  // A lost response after the server answered (drop_after) is the same for a read.
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'GET', path: '/accounts' });
  expect((await admin.client.accounts.list({ limit: 5 })).data).toEqual(page.data);
  expect(outcomes(admin.lines, 'GET', '/accounts')).toEqual(['network_error', '200', 'network_error', '200']);
});

it('a dropped connection on a PATCH is not retried: connection_error is surfaced', async () => {
  const [a, b] = await editableTransactions(admin.client, 2, 0);
  const leaves = await assignableLeaves(admin.client);

  // Dropped before the route ran: nothing applied, and the client does not guess.
  const leafA = leaves.find((d) => d !== a.department_id)!;
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'PATCH', path: '/transactions/' });
  const err = await caught(admin.client.transactions.update(a.id, { department_id: leafA }));
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: null, type: 'connection_error', code: 'network_error', attempts: 1 });
  expect(err.isConnectionError).toBe(true);
  expect(outcomes(admin.lines, 'PATCH', `/transactions/${a.id}`)).toEqual(['network_error']);
  expect((await admin.client.transactions.retrieve(a.id)).department_id).toBe(a.department_id);

  // Dropped after it was applied: still one attempt; the caller re-reads and finds the change.
  const leafB = leaves.find((d) => d !== b.department_id)!;
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'PATCH', path: '/transactions/' });
  const after = await caught(admin.client.transactions.update(b.id, { department_id: leafB }));
  expect(after).toMatchObject({ type: 'connection_error', code: 'network_error', attempts: 1 });
  expect(outcomes(admin.lines, 'PATCH', `/transactions/${b.id}`)).toEqual(['network_error']);
  expect((await admin.client.transactions.retrieve(b.id)).department_id).toBe(leafB);
});

it('writes after a lost connection: idempotent ones are sent again, the others are left to the caller', async () => {
  // POST /accounts is safe to repeat (the same body finds the account): retried, created once.
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'POST', path: '/accounts' });
  const account = await admin.client.accounts.create({ account_name: 'Retry Reserve', vendor: 'Retry Bank', type: 'bank' });
  expect(outcomes(admin.lines, 'POST', '/accounts')).toEqual(['network_error', '201']);

  // POST /rules is not: the rule was saved before the response was lost, and a repeat would be a 409.
  const definition = { conditions: [{ field: 'merchant' as const, operator: 'equals', value: 'Retry Test Vendor' }], actions: { merchant_name: 'Retry' } };
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/rules' });
  expect(await caught(admin.client.rules.create(definition))).toMatchObject({ type: 'connection_error', attempts: 1 });
  expect(outcomes(admin.lines, 'POST', '/rules')).toEqual(['network_error']);
  const saved = (await admin.client.rules.list({ limit: 1 })).data[0];
  expect(saved.conditions).toEqual(definition.conditions);
  expect(await caught(admin.client.rules.create(definition))).toMatchObject({ status: 409, code: 'duplicate_rule' });

  // DELETE is idempotent: the rule went on the first attempt, the retry gets the same 204.
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'DELETE', path: '/rules/' });
  await admin.client.rules.del(saved.id);
  expect(outcomes(admin.lines, 'DELETE', `/rules/${saved.id}`)).toEqual(['network_error', '204']);

  // A connect request is not retried; asking again returns the open request (200).
  const { data: integrations } = await admin.client.integrations.list();
  const key = integrations.find((i) => i.api_connectable && i.status === 'not_connected')!.key;
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/connect' });
  expect(await caught(admin.client.integrations.connect(key))).toMatchObject({ type: 'connection_error', attempts: 1 });
  await admin.client.integrations.connect(key);
  expect(outcomes(admin.lines, 'POST', `/integrations/${key}/connect`)).toEqual(['network_error', '200']);
  expect(account.id).toMatch(/^acct_/);
});

it('an invitation resend is never sent twice, not even after a 500', async () => {
  const invitation = await admin.client.team.invitations.create({ email: `retry.${Date.now()}@example.com`, access_template: 'read_only' });
  await injectFaults(sb, { kind: 'error500', count: 1, method: 'POST', path: '/resend' });
  expect(await caught(admin.client.team.invitations.resend(invitation.id))).toMatchObject({ status: 500, attempts: 1 });
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/resend' });
  expect(await caught(admin.client.team.invitations.resend(invitation.id))).toMatchObject({ type: 'connection_error', attempts: 1 });
  expect(outcomes(admin.lines, 'POST', `/team/invitations/${invitation.id}/resend`)).toEqual(['500', 'network_error']);
  // The revoke, on the other hand, is safe to repeat and is retried.
  await injectFaults(sb, { kind: 'error500', count: 1, method: 'DELETE', path: '/team/invitations/' });
  await admin.client.team.invitations.revoke(invitation.id);
  expect(outcomes(admin.lines, 'DELETE', `/team/invitations/${invitation.id}`)).toEqual(['500', '204']);
});

it('a 500 without a code on a PATCH is retried (the spec: retry a 5xx without a listed code)', async () => {
  const [txn] = await editableTransactions(admin.client, 1, 30);
  await injectFaults(sb, { kind: 'error500', count: 1, method: 'PATCH', path: '/transactions/' });
  const updated = await admin.client.transactions.update(txn.id, { merchant: 'Retried Merchant' });
  expect(updated.merchant).toBe('Retried Merchant');
  expect(outcomes(admin.lines, 'PATCH', `/transactions/${txn.id}`)).toEqual(['500', '200']);
});

it('a bulk update whose response is dropped is re-sent with the same Idempotency-Key and applied exactly once', async () => {
  const targets = await editableTransactions(admin.client, 4, 10);
  const ids = targets.map((t) => t.id);
  const body = { transaction_ids: ids, updates: { accounting_shift: 1 } };
  const jobsBefore = sb.running.ctx.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number };

  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' });
  let key: string | undefined;
  const outcome = await admin.client.jobs.run(body, { onKey: (k) => void (key = k), initialDelayMs: 20, maxDelayMs: 200 });
  expect(outcomes(admin.lines, 'POST', '/transactions/bulk/update')).toEqual(['network_error', '202']);
  expect(outcome).toMatchObject({ idempotencyKey: key, succeeded: true, errors: [] });
  expect(outcome.job).toMatchObject({ status: 'success', matched_count: 4, updated_count: 4 });

  // One job for the key; the first (lost) response and the retry are the same job.
  const rows = sb.running.ctx.db.prepare('SELECT id FROM jobs WHERE idempotency_key = ?').all(key) as { id: string }[];
  expect(rows.map((r) => r.id)).toEqual([outcome.job.id]);
  expect((sb.running.ctx.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n).toBe(jobsBefore.n + 1);

  // A shift of one month applied twice would have moved the dates two months.
  for (const t of targets) {
    const now = await admin.client.transactions.retrieve(t.id);
    expect(now.accounting_date).toBe(shiftMonths(t.accounting_date ?? t.date, 1));
  }

  // Submitting again with the stored key and the same body returns the same job and changes nothing.
  const again = await admin.client.jobs.submit(body, { idempotencyKey: key });
  expect(again.job.id).toBe(outcome.job.id);
  // Every 202, replays included, is the queued snapshot; the job itself is long finished.
  expect(again.job).toMatchObject({ status: 'queued', matched_count: null, updated_count: 0 });
  const replayed = await admin.client.jobs.wait(again.job.id, { initialDelayMs: 20 });
  expect(replayed).toMatchObject({ status: 'success', updated_count: 4 });
  for (const t of targets) expect((await admin.client.transactions.retrieve(t.id)).accounting_date).toBe(shiftMonths(t.accounting_date ?? t.date, 1));

  // The same key with another body is a 409, never a second job.
  const reused = await caught(admin.client.jobs.submit({ transaction_ids: ids, updates: { accounting_shift: 2 } }, { idempotencyKey: key }));
  expect(reused).toMatchObject({ status: 409, code: 'idempotency_key_reused', param: 'Idempotency-Key' });
});

it('the monthly cap (formation: 10 calls): MonthlyLimitError, no retry, reset on the 1st of next month (Pacific)', async () => {
  const formation = clientFor(sb, 'formation-admin');
  const company = formation.companyId;
  expect(await sb.usage(company)).toBe(0);
  let calls = 0;
  let limit: MonthlyLimitError | undefined;
  for (let i = 0; i < 20 && !limit; i++) {
    try {
      await formation.client.categories.list();
      calls++;
    } catch (e) {
      limit = e as MonthlyLimitError;
    }
  }
  expect(calls).toBe(10);
  expect(limit).toBeInstanceOf(MonthlyLimitError);
  expect(limit).toMatchObject({ status: 429, type: 'limit_error', code: 'monthly_limit_exceeded', attempts: 1, retryAfterMs: null });
  expect(limit!.resetDate).toBe(nextPacificMonthStart());
  expect(limit!.statedResetDate).toBe(nextPacificMonthStart());
  expect(limit!.computedReset.date).toBe(nextPacificMonthStart());
  expect(outcomes(formation.lines, 'GET', '/categories')).toEqual([...Array(10).fill('200'), '429']);

  // Still refused, still one attempt each, and neither side counts a refused call.
  const again = await caught<MonthlyLimitError>(formation.client.company.retrieve());
  expect(again).toBeInstanceOf(MonthlyLimitError);
  expect(again.attempts).toBe(1);
  expect(formation.client.meter.monthlyLimit).toMatchObject({ resetDate: nextPacificMonthStart() });
  expect(await sb.usage(company)).toBe(10);
  expect(await formation.client.meter.count()).toBe(10);
});
