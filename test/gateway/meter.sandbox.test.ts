// The team's meter through the gateway, against the sandbox's own monthly counter (spec, Limits, monthly
// per-company limit): a 401 and a call blocked by the cap do not count; every other authenticated request
// does, whatever its status, and so does a request sent whole before the connection failed.
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { get, startTestGateway, type TestGateway } from './support';

let sb: TestSandbox;
let gw: TestGateway;
let growth: string;

beforeAll(async () => {
  sb = await startSandbox();
  growth = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control('usage', { company_id: growth, count: 0 });
  gw = await startTestGateway(sb.baseUrl);
});
afterEach(async () => {
  await gw.close();
});

const sandboxMonth = async () => ((await (await fetch(`${sb.controlUrl}/control`)).json()) as { today: string }).today.slice(0, 7);

test('a key\'s first call learns its company (GET /company, counted); every answer carries the team\'s count, equal to the API\'s', async () => {
  const first = await get(gw.baseUrl, sb.keys['growth-admin'], '/categories');
  expect(first.status).toBe(200);
  expect(first.headers.get('x-fin-team-calls')).toBe('2');
  expect(first.headers.get('x-fin-team-month')).toBe(await sandboxMonth());
  expect(first.headers.get('x-fin-team-calls-uncertain')).toBeNull();
  expect(first.cache).toBe('fin-gateway; fwd=request');
  expect(await sb.usage(growth)).toBe(2);

  // A second member: one more lookup, then the call; the same count for both.
  const second = await get(gw.baseUrl, sb.keys['growth-readonly'], '/departments');
  expect(second.calls).toBe('4');
  const again = await get(gw.baseUrl, sb.keys['growth-admin'], '/departments');
  expect(again.calls).toBe('5');
  expect(await sb.usage(growth)).toBe(5);
});

test('GET /company itself teaches the company at no extra call', async () => {
  const res = await get(gw.baseUrl, sb.keys['growth-admin'], '/company');
  expect(res.status).toBe(200);
  expect(res.calls).toBe('1');
  expect(await sb.usage(growth)).toBe(1);
});

test('a 400 counts; a 401 does not and carries no team headers', async () => {
  await get(gw.baseUrl, sb.keys['growth-admin'], '/company');
  const bad = await get(gw.baseUrl, sb.keys['growth-admin'], '/transactions?limit=9999');
  expect(bad.status).toBe(400);
  expect(bad.calls).toBe('2');
  for (const key of [sb.keys.revoked, 'svc_madeUpKeyThatTheApiNeverIssued', undefined]) {
    const refused = await get(gw.baseUrl, key, '/categories');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-fin-team-calls')).toBeNull();
    expect(refused.headers.get('x-fin-team-month')).toBeNull();
  }
  const after = await get(gw.baseUrl, sb.keys['growth-admin'], '/company');
  expect(after.calls).toBe('3');
  expect(await sb.usage(growth)).toBe(3);
});

test('a 403 counts; a call blocked by the monthly cap does not, and still says the count', async () => {
  await get(gw.baseUrl, sb.keys['growth-readonly'], '/company');
  const forbidden = await fetch(`${gw.baseUrl}/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.keys['growth-readonly']}`, 'content-type': 'application/json' },
    body: JSON.stringify({ account_name: 'x', vendor: 'y', type: 'bank' }),
  });
  expect(forbidden.status).toBe(403);
  expect(forbidden.headers.get('x-fin-team-calls')).toBe('2');

  await sb.control('company', { company_id: growth, monthly_cap_override: 2 });
  try {
    const capped = await get(gw.baseUrl, sb.keys['growth-readonly'], '/categories');
    expect(capped.status).toBe(429);
    expect(JSON.parse(capped.text).error.code).toBe('monthly_limit_exceeded');
    expect(capped.calls).toBe('2');
  } finally {
    await sb.control('company', { company_id: growth, monthly_cap_override: null });
  }
  expect(await sb.usage(growth)).toBe(2);
});

test('a request sent whole whose answer never came counts (the API counted it): 502 with the count', async () => {
  await get(gw.baseUrl, sb.keys['growth-admin'], '/company');
  await sb.control('control', { faults: [{ kind: 'drop_after', count: 1, path: '/categories' }] });
  const dropped = await get(gw.baseUrl, sb.keys['growth-admin'], '/categories');
  expect(dropped.status).toBe(502);
  expect(JSON.parse(dropped.text).error.code).toBe('upstream_unreachable');
  expect(dropped.calls).toBe('2');
  expect(await sb.usage(growth)).toBe(2);
});

test('a key whose company cannot be learnt (no Company: View) is relayed, in no team count', async () => {
  const res = await get(gw.baseUrl, sb.keys['growth-reports'], '/reports/balance_sheet?date=2026-06-30');
  expect(res.status).toBe(200);
  expect(res.headers.get('x-fin-team-calls')).toBeNull();
  // The lookup (403) and the call: the API counted both; the gateway could not say whose.
  expect(await sb.usage(growth)).toBe(2);
});

test('the month is the Pacific month of the call, not the UTC one', async () => {
  // 2026-12-01T05:00Z is still 30 November in Los Angeles.
  const utcDecember = Date.parse('2026-12-01T05:00:00Z');
  gw.advance((utcDecember - Date.now()) / 1000);
  const res = await get(gw.baseUrl, sb.keys['growth-admin'], '/company');
  expect(res.headers.get('x-fin-team-month')).toBe('2026-11');
});
