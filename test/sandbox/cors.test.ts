import { corsOrigin } from '../../src/sandbox/app';
import { startSandbox, type TestSandbox } from '../support/sandbox';

// Browsers call the sandbox from the add-in's pages (https://localhost:3000, the workbench, the browser
// tests' static server): CORS for loopback origins only, and preflights that are neither authenticated
// nor counted against the monthly cap.

describe('CORS for pages served from this computer', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });

  it('allows loopback origins only', () => {
    for (const ok of ['https://localhost:3000', 'http://127.0.0.1:41234', 'http://localhost', 'http://[::1]:8080']) {
      expect(corsOrigin(ok)).toBe(ok);
    }
    for (const no of [undefined, '', 'null', 'https://example.com', 'https://localhost.example.com', 'file://', 'https://localhost:3000/path', 'http://10.0.0.1']) {
      expect(corsOrigin(no)).toBeNull();
    }
  });

  it('answers a preflight with 204 and the allowed headers, without a key and without counting it', async () => {
    const company = sb.companies['growth-admin'];
    const before = await sb.usage(company);
    const res = await sb.running.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/transactions/bulk_update',
      headers: {
        origin: 'https://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,cache-control,content-type,idempotency-key',
        'access-control-request-private-network': 'true',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://localhost:3000');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    // Every request of the add-in says how fresh an answer it needs (the team's gateway reads it).
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('cache-control');
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    expect(res.headers['access-control-allow-private-network']).toBe('true');
    expect(await sb.usage(company)).toBe(before);
  });

  it('adds Access-Control-Allow-Origin to answers and errors for a loopback origin, not for others', async () => {
    const origin = 'http://127.0.0.1:5555';
    const ok = await sb.running.app.inject({ method: 'GET', url: '/api/v1/company', headers: { origin, authorization: `Bearer ${sb.keys['growth-admin']}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(origin);
    expect(String(ok.headers['access-control-expose-headers'])).toContain('Retry-After');

    const unauthorized = await sb.running.app.inject({ method: 'GET', url: '/api/v1/company', headers: { origin } });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe(origin);

    const keys = await sb.running.app.inject({ method: 'GET', url: '/__sandbox/keys', headers: { origin } });
    expect(keys.headers['access-control-allow-origin']).toBe(origin);

    const foreign = await sb.running.app.inject({ method: 'GET', url: '/api/v1/company', headers: { origin: 'https://evil.example', authorization: `Bearer ${sb.keys['growth-admin']}` } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const foreignPreflight = await sb.running.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/company',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(foreignPreflight.statusCode).not.toBe(204);
    expect(foreignPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('--no-cors: no CORS headers for any page, as a real API may answer', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ cors: false });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers every request as before, with no Access-Control header, and does not answer preflights', async () => {
    const origin = 'http://127.0.0.1:5555';
    const company = sb.companies['growth-admin'];
    const before = await sb.usage(company);
    const ok = await sb.running.app.inject({ method: 'GET', url: '/api/v1/company', headers: { origin, authorization: `Bearer ${sb.keys['growth-admin']}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ object: 'company', id: company });
    const keys = await sb.running.app.inject({ method: 'GET', url: '/__sandbox/keys', headers: { origin } });
    expect(keys.statusCode).toBe(200);
    // A preflight carries no key: the API's 401, uncounted, which a browser reads as "not allowed".
    const preflight = await sb.running.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/company',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(401);
    for (const res of [ok, keys, preflight]) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    expect(await sb.usage(company)).toBe(before + 1);
  });
});
