import http from 'node:http';
import { startSandbox, type TestSandbox } from '../support/sandbox';

// DNS rebinding: a web page on evil.example whose name is made to resolve to 127.0.0.1 calls the sandbox
// as its own origin (no CORS involved) and could read /__sandbox/keys. Such a request still names the
// page's host in its Host header, so the sandbox answers only requests addressed to a loopback name.

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

/** A real HTTP request to the sandbox's port with the Host header given (fetch does not let us set it). */
function get(path: string, host: string, key?: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(sb.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host, ...(key ? { authorization: `Bearer ${key}` } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox answers only requests addressed to this computer', () => {
  it.each(['evil.example', 'evil.example:4010', '127.0.0.1.nip.io', 'localhost.evil.example', '10.0.0.5', '127.0.0.256'])('refuses Host "%s", keys and API alike', async (host) => {
    const company = sb.companies['growth-admin'];
    const before = await sb.usage(company);
    const keys = await get('/__sandbox/keys', host);
    expect(keys.status).toBe(421);
    expect(keys.body).not.toContain('svc_');
    expect(JSON.parse(keys.body)).toMatchObject({ error: { code: 'host_not_allowed' } });
    const api = await get('/api/v1/company', host, sb.keys['growth-admin']);
    expect(api.status).toBe(421);
    expect(api.body).not.toContain(company);
    // Refused before the gate: not counted against the company.
    expect(await sb.usage(company)).toBe(before);
  });

  it.each(['localhost', '127.0.0.1', '127.0.0.2', '[::1]', 'LOCALHOST'])('answers Host %s (with its port)', async (name) => {
    const { port } = new URL(sb.baseUrl);
    expect((await get('/__sandbox/health', `${name}:${port}`)).status).toBe(200);
    expect((await get('/api/v1/company', `${name}:${port}`, sb.keys['growth-admin'])).status).toBe(200);
  });
});
