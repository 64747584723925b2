// The team cache: a GET answer one member fetched serves another member of the same company at no call,
// as fresh as the request's Cache-Control asks, only to a key that proved its own access to the area
// within the access window, never to another company's key.
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { get, startTestGateway, type TestGateway } from './support';

let sb: TestSandbox;
let gw: TestGateway;
let growth: string;
let admin: string;
let member: string;

const Q1 = '/reports/income_statement?start_date=2026-01-01&end_date=2026-03-31';
const H1 = '/reports/income_statement?start_date=2026-04-01&end_date=2026-06-30';

beforeAll(async () => {
  sb = await startSandbox();
  growth = sb.companies['growth-admin'];
  admin = sb.keys['growth-admin'];
  member = sb.keys['growth-readonly'];
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  gw = await startTestGateway(sb.baseUrl);
});
afterEach(async () => {
  await gw.close();
});

/** Calls the sandbox counted while `run` ran. */
async function spent(run: () => Promise<unknown>): Promise<number> {
  const before = await sb.usage(growth);
  await run();
  return (await sb.usage(growth)) - before;
}

/** The member's own call in the Reports area: it proves the area (and learns the company). */
const proveReports = (key: string) => get(gw.baseUrl, key, '/reports/balance_sheet?date=2026-03-31');

test('a second member of the company gets the first one\'s answer at 0 calls, with its age', async () => {
  const first = await get(gw.baseUrl, admin, Q1, 'max-age=600');
  expect(first.cache).toBe('fin-gateway; fwd=miss');
  await proveReports(member);
  let second!: Awaited<ReturnType<typeof get>>;
  expect(await spent(async () => (second = await get(gw.baseUrl, member, Q1, 'max-age=600')))).toBe(0);
  expect(second.status).toBe(200);
  expect(second.cache).toBe('fin-gateway; hit');
  expect(second.text).toBe(first.text);
  expect(Number(second.headers.get('age'))).toBeGreaterThanOrEqual(0);
  // The member's lookup and proving call were counted; the hit was not.
  expect(second.calls).toBe(String(Number(first.calls) + 2));
});

test('without a proof of its own the member\'s call goes to the API (counted) and then proves the area', async () => {
  await get(gw.baseUrl, admin, Q1, 'max-age=600');
  await get(gw.baseUrl, member, '/categories');
  // Accounting setup proves nothing about Reports.
  const unproven = await get(gw.baseUrl, member, Q1, 'max-age=600');
  expect(unproven.cache).toBe('fin-gateway; fwd=miss');
  const proven = await get(gw.baseUrl, member, H1, 'max-age=600');
  expect(proven.cache).toBe('fin-gateway; fwd=miss');
  expect(await spent(() => get(gw.baseUrl, member, Q1, 'max-age=600'))).toBe(0);
});

test('another company\'s key never gets the answer: its own comes from the API', async () => {
  const ours = await get(gw.baseUrl, admin, Q1, 'max-age=600');
  const other = sb.keys['growth2-admin'];
  await proveReports(other);
  const theirs = await get(gw.baseUrl, other, Q1, 'max-age=600');
  expect(theirs.cache).toBe('fin-gateway; fwd=miss');
  expect(theirs.status).toBe(200);
  expect(theirs.text).not.toBe(ours.text);
  const direct = await get(sb.baseUrl, other, Q1);
  expect(JSON.parse(theirs.text)).toEqual(JSON.parse(direct.text));
});

test('no-cache (and no Cache-Control at all) goes to the API; max-age is honoured against the answer\'s age', async () => {
  await get(gw.baseUrl, admin, Q1, 'max-age=600');
  expect(await spent(() => get(gw.baseUrl, admin, Q1, 'no-cache'))).toBe(1);
  const absent = await get(gw.baseUrl, admin, Q1);
  expect(absent.cache).toBe('fin-gateway; fwd=request');
  gw.advance(120);
  // The proof is fresh (a call just now); the answer is 120 s old.
  await proveReports(admin);
  const tooOld = await get(gw.baseUrl, admin, H1, 'max-age=600');
  expect(tooOld.cache).toBe('fin-gateway; fwd=miss');
  gw.advance(120);
  const young = await get(gw.baseUrl, admin, H1, 'max-age=60');
  expect(young.cache).toBe('fin-gateway; fwd=miss');
  const fine = await get(gw.baseUrl, admin, H1, 'max-age=600');
  expect(fine.cache).toBe('fin-gateway; hit');
  expect(Number(fine.headers.get('age'))).toBeGreaterThanOrEqual(0);
  expect(Number(fine.headers.get('age'))).toBeLessThan(5);
  const old = await get(gw.baseUrl, admin, Q1, 'max-age=100');
  expect(old.cache).toBe('fin-gateway; fwd=miss');
});

test('the access window: a proof older than GATEWAY_ACCESS_WINDOW_SECONDS serves nothing', async () => {
  await get(gw.baseUrl, admin, Q1, 'max-age=31536000');
  await proveReports(member);
  gw.advance(gw.config.accessWindowSeconds + 1);
  expect(gw.config.accessWindowSeconds).toBe(300);
  expect(await spent(async () => expect((await get(gw.baseUrl, member, Q1, 'max-age=31536000')).cache).toBe('fin-gateway; fwd=miss'))).toBe(1);
  // That call proved the area again.
  expect((await get(gw.baseUrl, member, Q1, 'max-age=31536000')).cache).toBe('fin-gateway; hit');
});

/** A new member of the company (read only, with API access), for tests that take access away. */
async function newMember(): Promise<string> {
  const { keys } = (await sb.control('keys', { company_id: growth, template: 'read_only', count: 1 })) as { keys: string[] };
  return keys[0];
}

test('a 403 drops every proof of the key at once; so does a 401, after which the key gets the API\'s 401, never the cache', async () => {
  const viewer = await newMember();
  await get(gw.baseUrl, admin, Q1, 'max-age=600');
  await get(gw.baseUrl, admin, '/categories', 'max-age=600');
  await proveReports(viewer);
  await get(gw.baseUrl, viewer, '/departments');
  expect((await get(gw.baseUrl, viewer, Q1, 'max-age=600')).cache).toBe('fin-gateway; hit');
  // A write the viewer may not make: 403, in another area.
  const refused = await fetch(`${gw.baseUrl}/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ account_name: 'x', vendor: 'y', type: 'bank' }),
  });
  expect(refused.status).toBe(403);
  expect((await get(gw.baseUrl, viewer, Q1, 'max-age=600')).cache).toBe('fin-gateway; fwd=miss');
  expect((await get(gw.baseUrl, viewer, '/categories', 'max-age=600')).cache).toBe('fin-gateway; fwd=miss');

  // The owner loses API access: the API revokes the key (401). Within the access window its proof still
  // stands (what a revoked member can still read, for how long: docs/deploying-for-a-team.md)...
  await sb.control('members', { key: viewer, permissions: { api_access: 'none' } });
  expect((await get(gw.baseUrl, viewer, Q1, 'max-age=600')).cache).toBe('fin-gateway; hit');
  // ... until its next call of its own reaches the API: a 401, and every proof is gone.
  const refusedAgain = await get(gw.baseUrl, viewer, '/categories', 'no-cache');
  expect(refusedAgain.status).toBe(401);
  expect(refusedAgain.headers.get('x-fin-team-calls')).toBeNull();
  const revoked = await get(gw.baseUrl, viewer, Q1, 'max-age=600');
  expect(revoked.status).toBe(401);
  expect(revoked.headers.get('x-fin-team-calls')).toBeNull();
  expect(revoked.cache).toBeNull();
});

test('a revoked member who makes no call of their own reads the cache for at most the access window', async () => {
  const viewer = await newMember();
  await get(gw.baseUrl, admin, Q1, 'max-age=31536000');
  await proveReports(viewer);
  await sb.control('members', { key: viewer, permissions: { api_access: 'none' } });
  gw.advance(gw.config.accessWindowSeconds - 5);
  expect((await get(gw.baseUrl, viewer, Q1, 'max-age=31536000')).cache).toBe('fin-gateway; hit');
  gw.advance(6);
  expect((await get(gw.baseUrl, viewer, Q1, 'max-age=31536000')).status).toBe(401);
});

test('a member whose Reports permission is taken away loses the cache at their next Reports call', async () => {
  const reader = sb.keys['growth-admin'];
  const lost = await newMember();
  await get(gw.baseUrl, reader, H1, 'max-age=600');
  await proveReports(lost);
  expect((await get(gw.baseUrl, lost, H1, 'max-age=600')).cache).toBe('fin-gateway; hit');
  await sb.control('members', { key: lost, permissions: { reports: 'none' } });
  // Within the window the proof still stands: this is what the window costs (docs/deploying-for-a-team.md).
  expect((await get(gw.baseUrl, lost, H1, 'max-age=600')).cache).toBe('fin-gateway; hit');
  // Its next call of its own in the area is refused, and drops every proof.
  expect((await get(gw.baseUrl, lost, '/reports/balance_sheet?date=2026-02-28')).status).toBe(403);
  const after = await get(gw.baseUrl, lost, H1, 'max-age=600');
  expect(after.status).toBe(403);
});

test('sync pages and jobs are never served from the cache', async () => {
  const sync = '/transactions?updated_after=0&limit=5';
  await get(gw.baseUrl, admin, sync, 'max-age=600');
  expect(await spent(() => get(gw.baseUrl, admin, sync, 'max-age=600'))).toBe(1);
  const job = '/jobs/job_doesNotExist';
  await get(gw.baseUrl, admin, job, 'max-age=600');
  expect(await spent(() => get(gw.baseUrl, admin, job, 'max-age=600'))).toBe(1);
  // A classic transactions page is (Transactions: View).
  await get(gw.baseUrl, admin, '/transactions?limit=5', 'max-age=600');
  expect(await spent(() => get(gw.baseUrl, admin, '/transactions?limit=5', 'max-age=600'))).toBe(0);
});

test('a closed month asked with max-age=31536000 is never fetched again by anyone in the team', async () => {
  const closed = '/reports/income_statement?start_date=2025-10-01&end_date=2025-10-31';
  const first = await get(gw.baseUrl, admin, closed, 'max-age=31536000');
  gw.advance(45 * 86_400);
  // A month and a half later, each member's own first call of the day proves the area...
  await proveReports(admin);
  await proveReports(member);
  for (const key of [admin, member]) {
    let hit!: Awaited<ReturnType<typeof get>>;
    expect(await spent(async () => (hit = await get(gw.baseUrl, key, closed, 'max-age=31536000')))).toBe(0);
    expect(hit.cache).toBe('fin-gateway; hit');
    expect(hit.text).toBe(first.text);
    // ... and its stamp is the API's: Date minus Age is when the gateway got it.
    expect(Number(hit.headers.get('age'))).toBeGreaterThanOrEqual(45 * 86_400);
  }
});

test('five members asking at once for the same answer share one call', async () => {
  const team = [admin, member, ...(((await sb.control('keys', { company_id: growth, template: 'read_only', count: 3 })) as { keys: string[] }).keys)];
  for (const key of team) await proveReports(key);
  let answers!: Awaited<ReturnType<typeof get>>[];
  expect(await spent(async () => (answers = await Promise.all(team.map((key) => get(gw.baseUrl, key, Q1, 'max-age=600')))))).toBe(1);
  expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  expect(answers.filter((a) => a.cache === 'fin-gateway; hit')).toHaveLength(4);
});
