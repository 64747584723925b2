// The gateway as a relay: the API's answers as they are, the client's forwarding headers dropped, the
// security headers added, no server name, and the key in no log line in any form.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { get, startTestGateway, type TestGateway } from './support';

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

let sb: TestSandbox;
let gw: TestGateway;

beforeAll(async () => {
  sb = await startSandbox();
  gw = await startTestGateway(sb.baseUrl);
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

test('answers pass as the API gave them, with HSTS, nosniff, a Referrer-Policy and no server name', async () => {
  const key = sb.keys['growth-admin'];
  const direct = await get(sb.baseUrl, key, '/reports/balance_sheet?date=2026-06-30');
  const relayed = await get(gw.baseUrl, key, '/reports/balance_sheet?date=2026-06-30');
  expect(relayed.status).toBe(200);
  expect(JSON.parse(relayed.text)).toEqual(JSON.parse(direct.text));
  expect(relayed.headers.get('content-type')).toBe(direct.headers.get('content-type'));
  expect(relayed.headers.get('x-ratelimit-limit')).toBe('6000');
  expect(relayed.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  expect(relayed.headers.get('x-content-type-options')).toBe('nosniff');
  expect(relayed.headers.get('referrer-policy')).toBe('no-referrer');
  expect(relayed.headers.get('server')).toBeNull();
  expect(relayed.headers.get('x-powered-by')).toBeNull();

  // A write and its body go through too (a 404 for a made-up transaction: the API's own envelope).
  const patched = await fetch(`${gw.baseUrl}/transactions/txn_doesNotExist`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accounting_date: null }),
  });
  expect(patched.status).toBe(404);
  expect(((await patched.json()) as any).error.code).toBe('resource_missing');

  // A URL the gateway cannot decode: refused in the API's envelope, not relayed, not counted.
  const malformed = await rawGet(`${gw.baseUrl}/transactions/x%ZZ`, { authorization: `Bearer ${key}` });
  expect(malformed.status).toBe(400);
  expect(malformed.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(malformed.body).error.code).toBe('invalid_request');

  const elsewhere = await fetch(`${gw.origin}/somewhere`);
  expect(elsewhere.status).toBe(404);
  expect(elsewhere.headers.get('x-content-type-options')).toBe('nosniff');
});

describe('what reaches the API', () => {
  let seen: http.IncomingHttpHeaders[] = [];
  let recorder: http.Server;
  let relay: TestGateway;

  beforeAll(async () => {
    // An upstream that records the headers of each call but the company lookup, and names its server.
    recorder = http.createServer((req, res) => {
      const company = req.url === '/api/v1/company';
      if (!company) seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json', server: 'upstream/1.2.3', 'x-powered-by': 'something' });
      res.end(JSON.stringify(company ? { object: 'company', id: 'comp_recorded' } : { object: 'list', data: [] }));
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    relay = await startTestGateway(`http://127.0.0.1:${(recorder.address() as AddressInfo).port}/api/v1`);
  });
  afterAll(async () => {
    await relay.close();
    await new Promise((resolve) => recorder.close(resolve));
  });

  test('client-sent X-Forwarded-For, X-Forwarded-Host, X-Real-IP, Proxy-Authorization and hop-by-hop headers are dropped', async () => {
    seen = [];
    // Node's http client: fetch refuses to send a Connection header at all.
    const res = await rawGet(`${relay.baseUrl}/categories`, {
      authorization: 'Bearer svc_someKey',
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-host': 'evil.example',
      'x-real-ip': '6.6.6.6',
      'proxy-authorization': 'Basic c2VjcmV0',
      forwarded: 'for=6.6.6.6',
      'x-custom-hop': 'drop me',
      connection: 'x-custom-hop',
      'idempotency-key': 'kept-as-sent',
      accept: 'application/json',
    });
    expect(res.status).toBe(200);
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(seen).toHaveLength(1);
    const h = seen[0];
    for (const name of ['x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'proxy-authorization', 'forwarded', 'x-custom-hop', 'cache-control']) {
      expect(h[name]).toBeUndefined();
    }
    expect(h.authorization).toBe('Bearer svc_someKey');
    expect(h['idempotency-key']).toBe('kept-as-sent');
    expect(h.host).toBe(new URL(relay.config.upstream).host);
  });
});

test('the key is in no log line, in no form: not as sent, not its fingerprint', async () => {
  const key = sb.keys['growth-admin'];
  const revoked = sb.keys.revoked;
  await get(gw.baseUrl, key, '/company');
  await get(gw.baseUrl, key, `/categories?api_key=${key}`);
  await get(gw.baseUrl, key, '/reports/income_statement?start_date=2026-01-01&end_date=2026-03-31', 'max-age=600');
  await get(gw.baseUrl, revoked, '/categories');
  await fetch(`${gw.baseUrl}/transactions/bulk/update`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: `{"key":"${key}"}` });
  const logs = gw.logs();
  expect(logs).toContain('"relayed"');
  expect(logs.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5);
  for (const secret of [key, revoked, key.slice(4), gw.fingerprint(key).slice(0, 8), gw.fingerprint(revoked).slice(0, 8)]) {
    expect(logs).not.toContain(secret);
  }
});
