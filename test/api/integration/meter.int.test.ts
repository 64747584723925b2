import net from 'node:net';
import { ApiError, CallMeter, capMonthOf, createClient } from '../../../src/api';
import { collect } from '../../support/collect';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import {
  assignableLeaves,
  caught,
  clearFaults,
  clientFor,
  closeSandbox,
  editableTransactions,
  FAST,
  injectFaults,
  outcomes,
  parseLines,
  sleep,
  type Harness,
} from './support';

// The client's call meter against the sandbox's own monthly counter: after a mixed workload (successes,
// 400, 404, 403, 409, 422, injected 500s, 429s, drops before and after handling), the count the meter
// holds for the company equals what the sandbox counted, exactly. 401s, local validation failures and
// refused connections count on neither side.

let sb: TestSandbox;
/** Injected server latency for the timeout part of the workload. */
const LATENCY_MS = 300;
let growth: string;
/** One meter per runtime, shared by every client of the company (as the add-in does). */
const meter = new CallMeter();
let admin: Harness;
let reports: Harness;
let revoked: Harness;

beforeAll(async () => {
  sb = await startSandbox();
  growth = sb.companies['growth-admin'];
  // The admin client starts without a company id: it learns it from GET /company.
  admin = clientFor(sb, 'growth-admin', { meter, companyId: undefined });
  reports = clientFor(sb, 'growth-reports', { meter });
  revoked = clientFor(sb, 'revoked', { meter });
});
afterAll(() => closeSandbox(sb, LATENCY_MS));
afterEach(() => clearFaults(sb));

const meterCount = () => meter.count(growth, capMonthOf(Date.now()));

/** Attempts that reached the server with a valid key: everything but 401s and connections never made. */
const countedAttempts = (h: Harness) => parseLines(h.lines).filter((a) => a.outcome !== '401' && a.outcome !== 'not_sent').length;

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('attributes calls made before the company was known once GET /company names it', async () => {
  await admin.client.categories.list();
  expect(admin.client.companyId).toBeNull();
  expect(await admin.client.meter.count()).toBe(1);
  expect(await admin.client.ensureCompanyId()).toBe(growth);
  expect(await meterCount()).toBe(2);
  expect(await sb.usage(growth)).toBe(2);
});

it('a mixed workload: the meter equals the sandbox counter exactly', async () => {
  const { client } = admin;
  // Successes.
  await client.transactions.list({ limit: 10 });
  const [txn] = await editableTransactions(client, 1, 0);
  const leaves = await assignableLeaves(client);

  // 400s (list date filter and report date), 404s, 403, 422, 409.
  expect(await caught(client.transactions.list({ start_date: '2024-1-1' }))).toMatchObject({ status: 400 });
  expect(await caught(client.reports.balanceSheet({ date: 'yesterday' }))).toMatchObject({ status: 400, code: 'invalid_date' });
  expect(await caught(client.transactions.retrieve('txn_missing0000'))).toMatchObject({ status: 404 });
  expect(await caught(client.rules.retrieve('rule_missing0000'))).toMatchObject({ status: 404 });
  expect(await caught(client.journalEntries.retrieve('je_missing0000'))).toMatchObject({ status: 404 });
  expect(await caught(reports.client.transactions.list())).toMatchObject({ status: 403, code: 'insufficient_permission' });
  expect(await caught(client.transactions.update(txn.id, { accounting_date: '1990-01-01' }))).toMatchObject({ status: 422, code: 'transaction_update_failed' });
  const rule = { conditions: [{ field: 'merchant' as const, operator: 'equals', value: 'Meter Test Vendor' }], actions: { merchant_name: 'Meter' } };
  await client.rules.create(rule);
  expect(await caught(client.rules.create(rule))).toMatchObject({ status: 409 });

  // Injected faults: 500s and 429s retried, drops before and after handling on reads and writes.
  await injectFaults(sb, { kind: 'error500', count: 2, method: 'GET', path: '/departments' });
  await client.departments.list();
  await injectFaults(sb, { kind: 'error429', count: 2, method: 'GET', path: '/integrations', retry_after: 0 });
  await client.integrations.list();
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'GET', path: '/accounts' });
  await client.accounts.list({ limit: 2 });
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/accounts' });
  await client.accounts.create({ account_name: 'Meter Account', vendor: 'Meter Bank', type: 'bank' });
  await injectFaults(sb, { kind: 'drop', count: 1, method: 'PATCH', path: '/transactions/' });
  expect(await caught(client.transactions.update(txn.id, { department_id: leaves[0] }))).toMatchObject({ type: 'connection_error' });
  await injectFaults(sb, { kind: 'drop_after', count: 1, method: 'POST', path: '/transactions/bulk/update' });
  const job = await client.jobs.run({ transaction_ids: [txn.id], updates: { department_id: leaves[1] } }, { initialDelayMs: 20, maxDelayMs: 100 });
  expect(job.succeeded).toBe(true);
  expect(outcomes(admin.lines, 'GET', '/departments')).toEqual(['200', '500', '500', '200']); // the first one: assignableLeaves
  expect(outcomes(admin.lines, 'GET', '/integrations')).toEqual(['429', '429', '200']);
  // The 201 was lost with the connection; the retry with the same body finds the account: 200.
  expect(outcomes(admin.lines, 'POST', '/accounts')).toEqual(['network_error', '200']);
  expect(outcomes(admin.lines, 'POST', '/transactions/bulk/update')).toEqual(['network_error', '202']);
  expect((await collect(client.accounts.iterate())).filter((a) => a.account_name === 'Meter Account')).toHaveLength(1);

  // Timeouts: the client gave up on every attempt, yet each one reached the server and is counted there
  // (after the injected latency) as it is on the meter.
  await sb.control('control', { latency_ms: LATENCY_MS });
  try {
    expect(await caught(client.company.retrieve({ timeoutMs: 50 }))).toMatchObject({ type: 'connection_error', code: 'timeout', attempts: 5 });
    await sleep(LATENCY_MS + 200);
  } finally {
    await sb.control('control', { latency_ms: 0 });
  }
  expect(outcomes(admin.lines, 'GET', '/company').slice(-5)).toEqual(Array(5).fill('timeout'));

  // Not counted anywhere: 401s of a revoked key, a call refused locally, a connection never made.
  for (let i = 0; i < 3; i++) expect(await caught(revoked.client.categories.list())).toMatchObject({ status: 401, code: 'invalid_api_key' });
  expect(await caught(client.transactions.retrieve(''))).toMatchObject({ status: null, code: 'invalid_request', attempts: 0 });
  const port = await closedPort();
  const nowhere = createClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey: admin.key, companyId: growth, meter, ...FAST, maxRetries: 1 });
  expect(await caught(nowhere.categories.list())).toMatchObject({ type: 'connection_error', code: 'connection_refused' });

  const server = await sb.usage(growth);
  const metered = await meterCount();
  const sent = countedAttempts(admin) + countedAttempts(reports) + countedAttempts(revoked);
  if (process.env.INT_REPORT) console.log(`meter=${metered} sandbox=${server} counted attempts=${sent} (401s: ${revoked.lines.length})`);
  expect(metered).toBe(server);
  expect(sent).toBe(server);
  // The same figure through each client's own view of the shared meter.
  for (const h of [admin, reports, revoked]) expect(await h.client.meter.count()).toBe(server);
  expect(outcomes(revoked.lines, 'GET', '/categories')).toEqual(['401', '401', '401']);
});

it('a revoked key is a 401 counted on neither side, also after a counted call of another key', async () => {
  const before = await sb.usage(growth);
  const beforeMeter = await meterCount();
  const err = await caught(revoked.client.company.retrieve());
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key', attempts: 1 });
  expect(await sb.usage(growth)).toBe(before);
  expect(await meterCount()).toBe(beforeMeter);
  await reports.client.reports.balanceSheet();
  expect(await sb.usage(growth)).toBe(before + 1);
  expect(await meterCount()).toBe(beforeMeter + 1);
});
