import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/sandbox/db/open';
import { listRoster } from '../../src/sandbox/seed';
import { openSeeded, serveSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { seedClock } from './clock';

export interface TestSandbox {
  baseUrl: string;
  controlUrl: string;
  /** Seeded keys by roster label (growth-admin, formation-admin, ...). */
  keys: Record<string, string>;
  /** Company id by roster label. */
  companies: Record<string, string>;
  running: RunningSandbox;
  /** POST /__sandbox/<path> with a JSON body. */
  control(pathName: string, body: unknown): Promise<unknown>;
  /** The sandbox's monthly counter for a company. */
  usage(companyId: string): Promise<number>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The seeded template of this test run. Jest runs test files in parallel workers: the first one to take
 * the lock seeds, the others wait for the ready marker.
 */
async function templateDb(): Promise<string> {
  const dir = process.env.SANDBOX_TEMPLATE_DIR;
  if (!dir) throw new Error('SANDBOX_TEMPLATE_DIR is not set: run tests through jest (globalSetup makes it).');
  const file = path.join(dir, 'template.db');
  const ready = path.join(dir, 'ready');
  const lock = path.join(dir, 'lock');
  if (fs.existsSync(ready)) return file;
  let owner = false;
  try {
    fs.closeSync(fs.openSync(lock, 'wx'));
    owner = true;
  } catch {
    owner = false;
  }
  if (owner) {
    const { db } = openSeeded(file, { clock: seedClock() });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    fs.writeFileSync(ready, 'ok');
    return file;
  }
  for (let waited = 0; waited < 300_000; waited += 100) {
    if (fs.existsSync(ready)) return file;
    await sleep(100);
  }
  throw new Error('timed out waiting for the seeded template database');
}

/**
 * A real sandbox over real HTTP on an ephemeral loopback port, on a private copy of the seeded template
 * database (test/support/globalSetup.ts).
 */
export async function startSandbox(): Promise<TestSandbox> {
  const template = await templateDb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-sandbox-test-'));
  const file = path.join(dir, 'sandbox.db');
  fs.copyFileSync(template, file);
  const db = openDatabase(file);
  const running = await serveSandbox(db, { port: 0 });
  const roster = listRoster(db);
  const control = async (pathName: string, body: unknown) => {
    const res = await fetch(`${running.controlUrl}/${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`control ${pathName} failed: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    baseUrl: running.baseUrl,
    controlUrl: running.controlUrl,
    keys: Object.fromEntries(roster.map((r) => [r.label, r.key])),
    companies: Object.fromEntries(roster.map((r) => [r.label, r.company_id])),
    running,
    control,
    async usage(companyId: string) {
      const res = await fetch(`${running.controlUrl}/usage?company_id=${encodeURIComponent(companyId)}`);
      return ((await res.json()) as { count: number }).count;
    },
    async close() {
      await running.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small fetch wrapper for contract tests: method, path (relative to /api/v1), key, optional body. */
export async function call(
  sb: { baseUrl: string },
  key: string | undefined,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const h: Record<string, string> = { ...headers };
  if (key !== undefined) h.authorization = `Bearer ${key}`;
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
  }
  const res = await fetch(`${sb.baseUrl}${pathAndQuery}`, { method, headers: h, body: payload });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
