import { DateTime } from 'luxon';
import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// The core every endpoint shares (src/sandbox/app.ts, http/auth.ts, http/limits.ts): credentials, the
// 403 roster, live permissions, error envelopes, burst headers, the monthly cap and injected faults.

const PACIFIC = 'America/Los_Angeles';

function expectError(res: { status: number; body: any }, status: number, type: string, code: string, param?: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ type, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.doc_url).toBe(`https://docs.company-financial-data.example/errors#${code}`);
  if (param === undefined) expect(res.body.error).not.toHaveProperty('param');
  else expect(res.body.error.param).toBe(param);
}

async function raw(sb: TestSandbox, pathAndQuery: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${sb.baseUrl}${pathAndQuery}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), contentType: res.headers.get('content-type') };
}

describe('credentials, permissions and envelopes', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });

  it('rejects a missing, malformed, unknown or revoked key with 401 invalid_api_key', async () => {
    const key = sb.keys['growth-admin'];
    const cases: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Token ${key}` },
      { authorization: key },
      { authorization: `Bearer ${key.slice(4)}` },
      { authorization: `Bearer ${key}!` },
      { authorization: `Bearer ${key} extra` },
      { authorization: 'Bearer svc_unknownkey000000000000000000000000000000' },
      { authorization: `Bearer ${sb.keys['revoked']}` },
    ];
    for (const headers of cases) {
      const res = await raw(sb, '/company', headers);
      expectError(res, 401, 'authentication_error', 'invalid_api_key');
    }
  });

  it('accepts the key only in the Authorization header', async () => {
    const key = sb.keys['growth-admin'];
    for (const q of ['api_key', 'key', 'access_token']) {
      expectError(await raw(sb, `/company?${q}=${key}`), 401, 'authentication_error', 'invalid_api_key');
    }
    for (const h of ['x-api-key', 'api-key', 'x-authorization']) {
      expectError(await raw(sb, '/company', { [h]: key }), 401, 'authentication_error', 'invalid_api_key');
      expectError(await raw(sb, '/company', { [h]: `Bearer ${key}` }), 401, 'authentication_error', 'invalid_api_key');
    }
  });

  it('checks credentials before path existence, then answers unknown paths with a JSON 404 whatever the Accept header', async () => {
    expectError(await raw(sb, '/no-such-thing', { accept: 'text/html' }), 401, 'authentication_error', 'invalid_api_key');
    const res = await raw(sb, '/no-such-thing', { accept: 'text/html', authorization: `Bearer ${sb.keys['growth-admin']}` });
    expectError(res, 404, 'invalid_request_error', 'resource_missing');
    expect(res.contentType).toMatch(/^application\/json/);
    const hyphen = await call(sb, sb.keys['growth-admin'], 'GET', '/reports/balance-sheet');
    expectError(hyphen, 404, 'invalid_request_error', 'resource_missing');
  });

  it('answers an undecodable URL with the same envelope, after the credential check', async () => {
    expectError(await raw(sb, '/rules/%E0%A4%A'), 401, 'authentication_error', 'invalid_api_key');
    const res = await raw(sb, '/rules/%E0%A4%A', { authorization: `Bearer ${sb.keys['growth-admin']}` });
    expectError(res, 400, 'invalid_request_error', 'invalid_request');
    expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
  });

  it.each([
    ['removed', 'user_removed_from_company'],
    ['deactivated', 'user_inactive'],
    ['closed', 'company_closed'],
    ['no-subscription', 'subscription_required'],
    ['growth-no-api', 'insufficient_permission'],
  ])('answers the %s key with 403 %s', async (label, code) => {
    const res = await call(sb, sb.keys[label], 'GET', '/company');
    expectError(res, 403, 'permission_error', code);
  });

  it('answers a missing endpoint permission with 403 insufficient_permission and no param', async () => {
    expectError(await call(sb, sb.keys['growth-reports'], 'GET', '/company'), 403, 'permission_error', 'insufficient_permission');
    expect((await call(sb, sb.keys['growth-reports'], 'GET', '/reports/balance_sheet')).status).not.toBe(403);
  });

  it('reads permissions live: a grant or revocation applies on the next request', async () => {
    const key = sb.keys['growth-readonly'];
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
    await sb.control('members', { key, permissions: { company: 'none' } });
    expectError(await call(sb, key, 'GET', '/company'), 403, 'permission_error', 'insufficient_permission');
    await sb.control('members', { key, permissions: { company: 'view' } });
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);

    await sb.control('members', { key, status: 'removed' });
    expectError(await call(sb, key, 'GET', '/company'), 403, 'permission_error', 'user_removed_from_company');
    await sb.control('members', { key, status: 'active', user_active: false });
    expectError(await call(sb, key, 'GET', '/company'), 403, 'permission_error', 'user_inactive');
    await sb.control('members', { key, user_active: true });
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
  });

  it('revokes the keys for good when API access is removed: restoring the permission does not revive them', async () => {
    const key = sb.keys['growth-reports'];
    expect((await call(sb, key, 'GET', '/reports/balance_sheet')).status).toBe(200);
    await sb.control('members', { key, permissions: { api_access: 'none' } });
    expectError(await call(sb, key, 'GET', '/reports/balance_sheet'), 401, 'authentication_error', 'invalid_api_key');
    await sb.control('members', { key, permissions: { api_access: 'manage' } });
    expectError(await call(sb, key, 'GET', '/reports/balance_sheet'), 401, 'authentication_error', 'invalid_api_key');
  });

  it('sends the burst-window headers on success', async () => {
    const res = await call(sb, sb.keys['growth-admin'], 'GET', '/company');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
    const remaining = Number(res.headers.get('x-ratelimit-remaining'));
    expect(Number.isInteger(remaining) && remaining >= 0 && remaining < 6000).toBe(true);
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now - 1);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
  });

  it('turns an injected fault into one 500 envelope, then serves normally', async () => {
    const key = sb.keys['growth-admin'];
    await sb.control('control', { faults: [{ kind: 'error500', count: 1 }] });
    expectError(await call(sb, key, 'GET', '/company'), 500, 'api_error', 'internal_error');
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
  });
});

describe('monthly cap (formation-admin, cap 10)', () => {
  let sb: TestSandbox;
  let key: string;
  let company: string;
  beforeAll(async () => {
    sb = await startSandbox();
    key = sb.keys['formation-admin'];
    company = sb.companies['formation-admin'];
  });
  afterAll(async () => {
    await sb.close();
  });

  const nextReset = (offsetSeconds = 0) =>
    DateTime.fromMillis(Date.now() + offsetSeconds * 1000, { zone: PACIFIC }).startOf('month').plus({ months: 1 });

  it('counts every authenticated request whatever its status, and never a 401', async () => {
    await sb.control('usage', { company_id: company, count: 0 });
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
    expect(await sb.usage(company)).toBe(1);
    expect((await call(sb, key, 'GET', '/rules?limit=0')).status).toBe(400);
    expect(await sb.usage(company)).toBe(2);
    expect((await call(sb, key, 'GET', '/no-such-path')).status).toBe(404);
    expect(await sb.usage(company)).toBe(3);
    expect((await call(sb, 'svc_notakey', 'GET', '/company')).status).toBe(401);
    expect(await sb.usage(company)).toBe(3);
  });

  it('blocks the 11th call with 429 monthly_limit_exceeded naming the reset date, without counting it', async () => {
    while ((await sb.usage(company)) < 10) expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await call(sb, key, 'GET', '/company');
      expectError(res, 429, 'limit_error', 'monthly_limit_exceeded');
      expect(res.body.error.message).toContain(nextReset().toISODate()!);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    expect(await sb.usage(company)).toBe(10);
  });

  it('starts over at midnight Pacific time on the 1st, not at midnight UTC', async () => {
    const secondsToReset = nextReset().toSeconds() - Date.now() / 1000;
    // One minute before the reset it is already the 1st in UTC, but not yet in Pacific time.
    await sb.control('control', { clock_offset_seconds: secondsToReset - 60 });
    expectError(await call(sb, key, 'GET', '/company'), 429, 'limit_error', 'monthly_limit_exceeded');
    await sb.control('control', { clock_offset_seconds: secondsToReset + 60 });
    expect((await call(sb, key, 'GET', '/company')).status).toBe(200);
    expect(await sb.usage(company)).toBe(1);
  });
});

describe('unauthenticated burst limit (120 per minute per IP)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers the 121st keyless request of a window with 429 and Retry-After', async () => {
    // Start one second into a fresh fixed window so the burst cannot straddle a boundary.
    const intoWindow = (Date.now() / 1000) % 60;
    await sb.control('control', { clock_offset_seconds: 61 - intoWindow });
    for (let i = 0; i < 120; i++) {
      const res = await raw(sb, '/company');
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    }
    const blocked = await raw(sb, '/company');
    expectError(blocked, 429, 'rate_limit_error', 'rate_limit_exceeded');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Keys have their own window.
    expect((await call(sb, sb.keys['growth-admin'], 'GET', '/company')).status).toBe(200);
  });
});
