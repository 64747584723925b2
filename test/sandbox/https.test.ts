import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { listRoster } from '../../src/sandbox/seed';
import { openSeeded, serveSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { seedClock } from '../support/clock';

// The sandbox over https on loopback, next to http: the Mac's webview blocks http calls from the add-in's
// https page. One app behind both listeners, so both see the same data, counts and controls, and the
// loopback-Host rule holds on both. The certificate is a throwaway one for localhost, made with openssl as
// scripts/dev-certs.js makes the dev server's.

let dir: string;
let cert: Buffer;
let sandbox: RunningSandbox;
let key: string;
let company: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-sandbox-https-'));
  const certPath = path.join(dir, 'localhost.crt');
  const keyPath = path.join(dir, 'localhost.key');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', keyPath, '-out', certPath],
    { stdio: 'pipe' },
  );
  cert = fs.readFileSync(certPath);
  const { db } = openSeeded(':memory:', { transactions: 100, clock: seedClock() });
  sandbox = await serveSandbox(db, { port: 0, https: { cert, key: fs.readFileSync(keyPath), port: 0 } });
  const growth = listRoster(db).find((r) => r.label === 'growth-admin')!;
  key = growth.key;
  company = growth.company_id;
});

afterAll(async () => {
  await sandbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** GET over https, trusting only the test certificate. */
function httpsGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // servername: the certificate's name, also when the Host header says otherwise.
    const req = https.get(url, { ca: cert, servername: 'localhost', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('the sandbox over https', () => {
  it('serves the same API at https://localhost:<port>/api/v1, beside http', async () => {
    expect(sandbox.httpsBaseUrl).toMatch(/^https:\/\/localhost:\d+\/api\/v1$/);
    const secure = await httpsGet(`${sandbox.httpsBaseUrl}/company`, { authorization: `Bearer ${key}` });
    expect(secure.status).toBe(200);
    expect(JSON.parse(secure.body)).toMatchObject({ id: company, object: 'company' });
    const plain = await fetch(`${sandbox.baseUrl}/company`, { headers: { authorization: `Bearer ${key}` } });
    expect(plain.status).toBe(200);
  });

  it('counts into the same monthly usage and answers the loopback controls', async () => {
    const usage = async () => ((await (await fetch(`${sandbox.controlUrl}/usage?company_id=${company}`)).json()) as { count: number }).count;
    const before = await usage();
    await httpsGet(`${sandbox.httpsBaseUrl}/categories`, { authorization: `Bearer ${key}` });
    expect(await usage()).toBe(before + 1);
    const origin = new URL(sandbox.httpsBaseUrl!).origin;
    const keys = await httpsGet(`${origin}/__sandbox/keys`);
    expect(keys.status).toBe(200);
    expect(JSON.parse(keys.body)).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'growth-admin' })]));
  });

  it('refuses a Host that is not loopback, as over http', async () => {
    const res = await httpsGet(`${new URL(sandbox.httpsBaseUrl!).origin}/__sandbox/keys`, { host: 'evil.example' });
    expect(res.status).toBe(421);
  });

  it('answers the add-in page with CORS, as over http', async () => {
    const res = await new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
      https
        .get(`${sandbox.httpsBaseUrl}/company`, { ca: cert, headers: { authorization: `Bearer ${key}`, origin: 'https://localhost:3000' } }, (r) => {
          r.resume();
          resolve({ status: r.statusCode ?? 0, allow: r.headers['access-control-allow-origin'] });
        })
        .on('error', reject);
    });
    expect(res).toEqual({ status: 200, allow: 'https://localhost:3000' });
  });
});
