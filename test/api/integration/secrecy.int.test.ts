import util from 'node:util';
import { ApiError, MonthlyLimitError, type Client } from '../../../src/api';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { caught, clearFaults, clientFor, closeSandbox, injectFaults, renderings, type Harness } from './support';

// The key must never be recoverable from what the client throws or logs, for every failure reachable
// against the real sandbox: 401, 403, 404, 400, 429 (monthly cap and burst), 5xx, a dropped connection
// (before and after the server handled it), a timeout, an abort, and a refused connection once the
// server is gone. Nor from the client objects themselves.

let sb: TestSandbox;
let closed = false;
const harnesses: Harness[] = [];
const logged: string[] = [];
const spies: jest.SpyInstance[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    spies.push(
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(util.format(...args));
      }),
    );
  }
});
afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  if (!closed) await closeSandbox(sb, 400);
});
afterEach(() => (closed ? undefined : clearFaults(sb)));

function harness(label: string, extra: Parameters<typeof clientFor>[2] = {}): Harness {
  const h = clientFor(sb, label, extra);
  harnesses.push(h);
  return h;
}

/** What must never show up: the whole key, its secret part, and slices of it. */
function secretsOf(key: string): string[] {
  const body = key.slice('svc_'.length);
  return [key, body, body.slice(0, 12), body.slice(-12), encodeURIComponent(key), Buffer.from(key).toString('base64')];
}

function expectNoKey(texts: string[], key: string): void {
  for (const text of texts) {
    for (const secret of secretsOf(key)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/Bearer\s+svc_[A-Za-z0-9_]{4,}/);
  }
}

function expectCleanError(err: unknown, key: string): void {
  expect(err).toBeInstanceOf(ApiError);
  expectNoKey(renderings(err), key);
  // Nothing that could hold headers is kept on the error or its causes.
  let current: unknown = err;
  for (let i = 0; i < 10 && current; i++) {
    for (const name of Object.getOwnPropertyNames(current)) {
      const value = (current as Record<string, unknown>)[name];
      if (value && typeof value === 'object') {
        expect(value).not.toBeInstanceOf(Headers);
        expect(value).not.toBeInstanceOf(Response);
        expect(value).not.toBeInstanceOf(Request);
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
}

it('401 invalid_api_key (revoked key)', async () => {
  const h = harness('revoked');
  const err = await caught(h.client.categories.list());
  expect(err).toMatchObject({ status: 401, code: 'invalid_api_key' });
  expectCleanError(err, h.key);
});

it('403 insufficient_permission', async () => {
  const h = harness('growth-reports');
  const err = await caught(h.client.transactions.list({ merchant: 'anything' }));
  expect(err).toMatchObject({ status: 403, code: 'insufficient_permission' });
  expectCleanError(err, h.key);
});

it('403 user_removed_from_company and user_inactive', async () => {
  for (const [label, code] of [['removed', 'user_removed_from_company'], ['deactivated', 'user_inactive']] as const) {
    const h = harness(label);
    const err = await caught(h.client.company.retrieve());
    expect(err).toMatchObject({ status: 403, code });
    expectCleanError(err, h.key);
  }
});

it('404 resource_missing and 400 invalid_date / invalid_request', async () => {
  const h = harness('growth-admin');
  const missing = await caught(h.client.transactions.retrieve('txn_missing0000'));
  expect(missing).toMatchObject({ status: 404, code: 'resource_missing' });
  expectCleanError(missing, h.key);
  const badDate = await caught(h.client.reports.incomeStatement({ start_date: 'last monday' }));
  expect(badDate).toMatchObject({ status: 400, code: 'invalid_date' });
  expectCleanError(badDate, h.key);
  const badLimit = await caught(h.client.transactions.list({ limit: 501 }));
  expect(badLimit).toMatchObject({ status: 400, code: 'invalid_request' });
  expectCleanError(badLimit, h.key);
});

it('429 monthly_limit_exceeded (formation cap)', async () => {
  const h = harness('formation-admin');
  let err: unknown;
  for (let i = 0; i < 12 && !err; i++) err = await h.client.company.retrieve().then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(MonthlyLimitError);
  expectCleanError(err, h.key);
});

it('429 rate_limit_exceeded and 500 internal_error after the retries', async () => {
  const h = harness('growth-admin', { maxRetries: 1 });
  await injectFaults(sb, { kind: 'error429', count: 2, method: 'GET', path: '/departments', retry_after: 0 });
  const burst = await caught(h.client.departments.list());
  expect(burst).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  expectCleanError(burst, h.key);
  await injectFaults(sb, { kind: 'error500', count: 2, method: 'GET', path: '/departments' });
  const server = await caught(h.client.departments.list());
  expect(server).toMatchObject({ status: 500, code: 'internal_error' });
  expectCleanError(server, h.key);
});

it('dropped connections: before handling on a GET, after handling on a PATCH', async () => {
  const h = harness('growth-admin', { maxRetries: 0 });
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'GET', path: '/accounts' });
  const dropped = await caught(h.client.accounts.list());
  expect(dropped).toMatchObject({ type: 'connection_error', code: 'network_error' });
  expect((dropped as Error).cause).toBeDefined();
  expectCleanError(dropped, h.key);

  const [txn] = (await h.client.transactions.list({ transaction_type: 'standard', limit: 1 })).data;
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'PATCH', path: '/transactions/' });
  const lost = await caught(h.client.transactions.update(txn.id, { merchant: txn.merchant }));
  expect(lost).toMatchObject({ type: 'connection_error', code: 'network_error' });
  expectCleanError(lost, h.key);
});

it('a timeout and an abort', async () => {
  const h = harness('growth-admin', { maxRetries: 0 });
  await sb.control('control', { latency_ms: 400 });
  try {
    const timedOut = await caught(h.client.company.retrieve({ timeoutMs: 50 }));
    expect(timedOut).toMatchObject({ type: 'connection_error', code: 'timeout' });
    expectCleanError(timedOut, h.key);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error(`aborted by ${h.key}`)), 50);
    const aborted = await caught(h.client.company.retrieve({ signal: controller.signal }));
    expect(aborted).toMatchObject({ type: 'connection_error', code: 'aborted' });
    expectCleanError(aborted, h.key);
  } finally {
    await sb.control('control', { latency_ms: 0 });
  }
});

it('a refused connection after the server closed', async () => {
  const h = harness('growth-admin', { maxRetries: 1 });
  await h.client.categories.list();
  // Waits out the 400 ms latency of the requests abandoned above; see closeSandbox for the sandbox bug.
  await closeSandbox(sb, 400);
  closed = true;
  const err = await caught(h.client.categories.list());
  expect(err).toMatchObject({ status: null, type: 'connection_error' });
  expect(['connection_refused', 'network_error']).toContain((err as ApiError).code);
  expectCleanError(err, h.key);
});

it('nothing logged, no debug line and no client object holds a key', () => {
  const keys = harnesses.map((h) => h.key);
  expect(harnesses.length).toBeGreaterThan(5);
  for (const key of keys) {
    expectNoKey(logged, key);
    for (const h of harnesses) {
      expectNoKey(h.lines, key);
      const client: Client = h.client;
      expectNoKey(renderings(client), key);
      expectNoKey([util.inspect(client.meter, { depth: 10, showHidden: true }), util.inspect(client.limiter, { depth: 10, showHidden: true })], key);
    }
  }
  // The debug hook did run (one line per attempt), so this is not vacuous.
  expect(harnesses.every((h) => h.lines.length > 0)).toBe(true);
});
