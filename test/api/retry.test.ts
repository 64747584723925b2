import { ApiError, MonthlyLimitError, nextMonthlyReset } from '../../src/api';
import { errorBody, rel, startFakeApi, testClient, type FakeApi } from './helpers/fakeApi';

// The retry policy, per code, against a real local HTTP server. Sleeps are instant and recorded, the
// jitter is fixed at 0.5, so delays are exact: equal jitter gives step * 0.75 with step = 500 * 2^n.

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const ok = { status: 200, body: { id: 'txn_1', object: 'transaction' } };

/** Answers the first `n` requests with `reply`, then 200. */
function failFirst(n: number, reply: Parameters<FakeApi['setHandler']>[0]) {
  api.setHandler((req, i) => (i < n ? reply(req, i) : ok));
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('429 rate_limit_exceeded', () => {
  it('waits Retry-After, then backs off with jitter, then succeeds', async () => {
    const { client, delays } = testClient(api);
    failFirst(2, () => ({
      status: 429,
      headers: { 'Retry-After': '2' },
      body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'Too many requests.'),
    }));
    await expect(client.transactions.retrieve('txn_1')).resolves.toMatchObject({ id: 'txn_1' });
    expect(api.requests).toHaveLength(3);
    // Each retry: the 2 s Retry-After, plus the jittered exponential step (375, then 750); the limiter
    // pause for the same Retry-After goes through the same sleep.
    expect(delays.filter((d) => d !== 2000)).toEqual([2000 + 375, 2000 + 750]);
    expect(delays.filter((d) => d === 2000)).toHaveLength(2);
  });

  it('retries a non-idempotent write too: the burst check runs before the route', async () => {
    const { client } = testClient(api);
    failFirst(1, () => ({ status: 429, headers: { 'Retry-After': '1' }, body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'x') }));
    await client.rules.create({ conditions: [{ field: 'merchant', operator: 'equals', value: 'A' }], actions: { category_id: 'cat_1' } });
    expect(api.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('gives up after the bounded number of attempts and surfaces the 429', async () => {
    const { client } = testClient(api, { maxRetries: 3 });
    api.setHandler(() => ({ status: 429, headers: { 'Retry-After': '1' }, body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'x') }));
    const err = await rejection(client.categories.list());
    expect(api.requests).toHaveLength(4);
    expect(err).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', retryAfterMs: 1000, attempts: 4 });
  });

  it('does not wait out a Retry-After longer than allowed', async () => {
    const { client, delays } = testClient(api, { maxRetryAfterMs: 30_000 });
    api.setHandler(() => ({ status: 429, headers: { 'Retry-After': '45' }, body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'x') }));
    await rejection(client.categories.list());
    expect(api.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });
});

describe('429 monthly_limit_exceeded', () => {
  const message = 'Monthly API call limit of 10 reached for this company. The limit resets on 2026-12-01 at 00:00 Pacific Time.';

  it('is never retried and carries both reset dates', async () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    const { client, delays } = testClient(api, { now: () => now });
    api.setHandler(() => ({ status: 429, body: errorBody('limit_error', 'monthly_limit_exceeded', message) }));
    const err = await rejection(client.reports.balanceSheet());
    expect(api.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(err).toBeInstanceOf(MonthlyLimitError);
    const monthly = err as MonthlyLimitError;
    expect(monthly).toMatchObject({ status: 429, type: 'limit_error', code: 'monthly_limit_exceeded' });
    expect(monthly.statedResetDate).toBe('2026-12-01');
    expect(monthly.computedReset).toEqual({ date: '2026-12-01', iso: '2026-12-01T00:00:00.000-08:00', epochMs: Date.parse('2026-12-01T08:00:00Z') });
    expect(monthly.resetDate).toBe('2026-12-01');
    expect(client.meter.monthlyLimit?.resetDate).toBe('2026-12-01');
  });

  it('computes the reset in Pacific time, not UTC, and falls back to it when the message has no date', async () => {
    // 2026-07-01T03:00Z is still June 30 in Los Angeles (UTC-7 in summer): the reset is July 1st 07:00Z.
    const now = Date.parse('2026-07-01T03:00:00Z');
    expect(nextMonthlyReset(now)).toEqual({ date: '2026-07-01', iso: '2026-07-01T00:00:00.000-07:00', epochMs: Date.parse('2026-07-01T07:00:00Z') });
    const { client } = testClient(api, { now: () => now });
    api.setHandler(() => ({ status: 429, body: errorBody('limit_error', 'monthly_limit_exceeded', 'Monthly limit reached.') }));
    const err = (await rejection(client.categories.list())) as MonthlyLimitError;
    expect(err.statedResetDate).toBeNull();
    expect(err.resetDate).toBe('2026-07-01');
  });
});

describe('5xx', () => {
  it('backs off exponentially on a 5xx without a code, bounded by maxRetries', async () => {
    const { client, delays } = testClient(api);
    api.setHandler(() => ({ status: 502, body: 'Bad gateway' }));
    const err = await rejection(client.company.retrieve());
    expect(api.requests).toHaveLength(5);
    expect(delays).toEqual([375, 750, 1500, 3000]);
    expect(err).toMatchObject({ status: 502, type: 'api_error', code: null, attempts: 5 });
  });

  it('caps the backoff step', async () => {
    const { client, delays } = testClient(api, { maxRetries: 6, backoffCapMs: 2000 });
    api.setHandler(() => ({ status: 500, body: errorBody('api_error', 'internal_error', 'boom') }));
    await rejection(client.company.retrieve());
    expect(delays).toEqual([375, 750, 1500, 1500, 1500, 1500]);
  });

  it.each([
    ['rules_not_ready', 503, 'GET', (c: ReturnType<typeof testClient>['client']) => c.rules.list()],
    ['rule_busy', 503, 'PATCH', (c: ReturnType<typeof testClient>['client']) => c.rules.update('rule_1', { actions: { category_id: null } })],
    ['rule_deletion_failed', 500, 'DELETE', (c: ReturnType<typeof testClient>['client']) => c.rules.del('rule_1')],
    ['connect_link_failed', 500, 'POST', (c: ReturnType<typeof testClient>['client']) => c.integrations.connect('quickbooks')],
    ['account_create_failed', 500, 'POST', (c: ReturnType<typeof testClient>['client']) => c.accounts.create({ account_name: 'Ops', vendor: 'Chase', type: 'bank' })],
    ['invitation_create_failed', 500, 'POST', (c: ReturnType<typeof testClient>['client']) => c.team.invitations.create({ email: 'a@b.co', access_template: 'admin' })],
    ['permissions_update_failed', 500, 'PATCH', (c: ReturnType<typeof testClient>['client']) => c.team.invitations.update('invite_abc', { access_template: 'read_only' })],
    ['invitation_revoke_failed', 500, 'DELETE', (c: ReturnType<typeof testClient>['client']) => c.team.invitations.revoke('invite_abc')],
    ['internal_error (unlisted code)', 500, 'GET', (c: ReturnType<typeof testClient>['client']) => c.departments.list()],
  ])('retries %s with backoff', async (code, status, method, call) => {
    const { client, delays } = testClient(api);
    const success = (method: string) =>
      method === 'DELETE' ? { status: 204 } : method === 'GET' ? { status: 200, body: { object: 'list', url: '/x', has_more: false, next_cursor: null, data: [] } } : ok;
    api.setHandler((req, i) => (i < 2 ? { status, body: errorBody('api_error', code.split(' ')[0], 'transient') } : success(req.method)));
    await call(client);
    expect(api.requests.map((r) => r.method)).toEqual([method, method, method]);
    expect(delays).toEqual([375, 750]);
  });

  it('never retries invitation_resend_failed (each attempt emails the invitee)', async () => {
    const { client, delays } = testClient(api);
    api.setHandler(() => ({ status: 500, body: errorBody('api_error', 'invitation_resend_failed', 'mail failed') }));
    const err = await rejection(client.team.invitations.resend('invite_abc'));
    expect(api.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(err).toMatchObject({ status: 500, code: 'invitation_resend_failed', request: { method: 'POST', path: '/team/invitations/invite_abc/resend' } });
  });

  it('never retries a resend on any 5xx or network failure, and sends it without a body', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 503, body: 'unavailable' }));
    await rejection(client.team.invitations.resend('invite_abc'));
    api.setHandler(() => ({ drop: true }));
    await rejection(client.team.invitations.resend('invite_abc'));
    expect(api.requests).toHaveLength(2);
    expect(api.requests[0].body).toBe('');
    expect(api.requests[0].headers['content-type']).toBeUndefined();
  });

  it('does not retry 4xx answers', async () => {
    const { client } = testClient(api);
    for (const [status, type, code] of [
      [400, 'invalid_request_error', 'invalid_request'],
      [401, 'authentication_error', 'invalid_api_key'],
      [403, 'permission_error', 'insufficient_permission'],
      [404, 'invalid_request_error', 'resource_missing'],
      [409, 'invalid_request_error', 'idempotency_key_reused'],
      [422, 'invalid_request_error', 'transaction_update_failed'],
    ] as const) {
      api.requests.length = 0;
      api.setHandler(() => ({ status, body: errorBody(type, code, 'no', 'accounting_date') }));
      const err = await rejection(client.transactions.update('txn_1', { accounting_date: '2026-01-01' }));
      expect(api.requests).toHaveLength(1);
      expect(err).toMatchObject({ status, type, code, param: 'accounting_date', attempts: 1 });
      expect(err.docUrl).toBe(`https://docs.company-financial-data.example/errors#${code}`);
    }
  });
});

describe('network failures', () => {
  it('retries GETs', async () => {
    const { client, delays } = testClient(api);
    failFirst(2, () => ({ drop: true }));
    await client.transactions.retrieve('txn_1');
    expect(api.requests).toHaveLength(3);
    expect(delays).toEqual([375, 750]);
  });

  it('retries DELETEs', async () => {
    const { client } = testClient(api);
    api.setHandler((_req, i) => (i === 0 ? { drop: true } : { status: 204 }));
    await client.rules.del('rule_1');
    await client.team.invitations.revoke('invite_x');
    expect(api.requests.map((r) => `${r.method} ${rel(r)}`)).toEqual(['DELETE /rules/rule_1', 'DELETE /rules/rule_1', 'DELETE /team/invitations/invite_x']);
  });

  it('retries POST /accounts with the same body', async () => {
    const { client } = testClient(api);
    failFirst(1, () => ({ drop: true }));
    await client.accounts.create({ account_name: 'Ops', vendor: 'Chase 1234', type: 'bank' });
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1].body).toBe(api.requests[0].body);
  });

  it('retries the bulk update with the same Idempotency-Key and body', async () => {
    const { client } = testClient(api);
    api.setHandler((_req, i) => (i === 0 ? { drop: true } : { status: 202, body: { id: 'job_1', object: 'bulk_update_job', status: 'queued' } }));
    await client.transactions.bulkUpdate({ transaction_ids: ['txn_1'], updates: { department_id: 'dept_1' } }, { idempotencyKey: 'key-123' });
    expect(api.requests).toHaveLength(2);
    expect(api.requests.map((r) => r.headers['idempotency-key'])).toEqual(['key-123', 'key-123']);
    expect(api.requests[1].body).toBe(api.requests[0].body);
  });

  it.each([
    ['PATCH /transactions/{id}', (c: ReturnType<typeof testClient>['client']) => c.transactions.update('txn_1', { department_id: null })],
    ['POST /rules', (c: ReturnType<typeof testClient>['client']) => c.rules.create({ conditions: [], actions: { category_id: 'cat_1' } })],
    ['PATCH /rules/{id}', (c: ReturnType<typeof testClient>['client']) => c.rules.update('rule_1', { actions: { category_id: 'cat_1' } })],
    ['POST /team/invitations', (c: ReturnType<typeof testClient>['client']) => c.team.invitations.create({ email: 'a@b.co', access_template: 'admin' })],
    ['PATCH /team/invitations/{id}', (c: ReturnType<typeof testClient>['client']) => c.team.invitations.update('invite_1', { access_template: 'admin' })],
    ['POST /integrations/{key}/connect', (c: ReturnType<typeof testClient>['client']) => c.integrations.connect('gusto')],
  ])('does not retry %s (may have been applied)', async (_label, call) => {
    const { client } = testClient(api);
    api.setHandler(() => ({ drop: true }));
    const err = await rejection(call(client));
    expect(api.requests).toHaveLength(1);
    expect(err).toMatchObject({ status: null, type: 'connection_error', code: 'network_error', attempts: 1 });
    expect(err.isConnectionError).toBe(true);
  });

  it('turns a timeout into a connection_error and retries it on GET', async () => {
    // The second attempt must be answered within the timeout: a loaded machine can miss 50 ms, not 1 s.
    const { client } = testClient(api, { timeoutMs: 1000 });
    api.setHandler((_req, i) => (i === 0 ? { delayMs: 2500, ...ok } : ok));
    await client.transactions.retrieve('txn_1');
    expect(api.requests).toHaveLength(2);
    api.setHandler(() => ({ delayMs: 2500, ...ok }));
    const err = await rejection(client.transactions.update('txn_1', { merchant: 'X' }));
    expect(err).toMatchObject({ type: 'connection_error', code: 'timeout' });
  });

  it('reports a refused connection without retrying forever', async () => {
    const port = new URL(api.baseUrl).port;
    await api.close();
    const { client, delays } = testClient({ ...api, baseUrl: `http://127.0.0.1:${port}/api/v1` }, { maxRetries: 2 });
    const err = await rejection(client.categories.list());
    expect(err).toMatchObject({ type: 'connection_error', code: 'connection_refused', attempts: 3 });
    expect(delays).toEqual([375, 750]);
    api = await startFakeApi();
  });

  it('stops when the caller aborts, without retrying', async () => {
    const { client } = testClient(api);
    const controller = new AbortController();
    // Aborted once the request has reached the API (a fixed 30 ms could come first on a loaded machine).
    api.setHandler(() => {
      setTimeout(() => controller.abort(), 10);
      return { delayMs: 300, ...ok };
    });
    const p = client.transactions.retrieve('txn_1', { signal: controller.signal });
    const err = await rejection(p);
    expect(err).toMatchObject({ type: 'connection_error', code: 'aborted' });
    expect(api.requests).toHaveLength(1);
  });
});

describe('local argument checks', () => {
  it('refuses ids that URL parsing would resolve away, sending nothing', async () => {
    const { client } = testClient(api);
    for (const id of ['', '.', '..', '%2e%2E', '  ']) {
      const err = await rejection(client.rules.retrieve(id));
      expect(err).toMatchObject({ status: null, type: 'invalid_request_error', code: 'invalid_request', param: 'id' });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('encodes ids as one path segment', async () => {
    const { client } = testClient(api);
    await client.transactions.retrieve('txn_a/b?c');
    expect(api.requests[0].path).toBe('/api/v1/transactions/txn_a%2Fb%3Fc');
  });
});
