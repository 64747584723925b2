// The one way to start a sandbox for jest tests, the browser journeys and the bench: a real sandbox over
// real HTTP on an ephemeral loopback port, on a private database, with the same handle everywhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../../src/sandbox/clock';
import type { Dialect } from '../../src/sandbox/http/dialect';
import { openDatabase, type Db } from '../../src/sandbox/db/open';
import { listRoster } from '../../src/sandbox/seed';
import { openSeeded, serveSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { seedClock } from './clock';

export interface SandboxOptions {
  /**
   * 'template' (the default, jest only): a copy of this run's seeded template database, seeded once at the
   * pinned instant. 'fresh': a new database seeded now (the journeys, the bench, a size or a clock of its own).
   */
  seed?: 'template' | 'fresh';
  /** Growth transactions to seed ('fresh' only; the template has the generator's default). */
  transactions?: number;
  /** The sandbox's clock, for seeding and serving ('fresh' only; the template is seeded at the pinned instant). */
  clock?: Clock;
  /** Latency added to every API request, in ms (the control endpoint's latency_ms). */
  latencyMs?: number;
  /** How the spec's open points are answered (src/sandbox/http/dialect.ts); standard by default. */
  dialect?: Dialect;
  /** false: no CORS headers for any page (`npm run sandbox -- --no-cors`), as a real API may answer. */
  cors?: boolean;
}

export interface TestSandbox {
  baseUrl: string;
  controlUrl: string;
  /** Seeded keys by roster label (growth-admin, formation-admin, ...). */
  keys: Record<string, string>;
  /** Company id by roster label. */
  companies: Record<string, string>;
  running: RunningSandbox;
  /** Time spent seeding this database (0 for a copy of the template). */
  seedMs: number;
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
  if (!dir) throw new Error('SANDBOX_TEMPLATE_DIR is not set: run tests through jest (globalSetup makes it), or start with seed: \'fresh\'.');
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

/** The database in `dir`: a copy of the template, or seeded there and then. */
async function openDb(dir: string, options: SandboxOptions): Promise<{ db: Db; seedMs: number }> {
  const file = path.join(dir, 'sandbox.db');
  if (options.seed === 'fresh') return openSeeded(file, { transactions: options.transactions, clock: options.clock });
  if (options.transactions !== undefined || options.clock) throw new Error("transactions and clock need seed: 'fresh' (the template is seeded once per run)");
  fs.copyFileSync(await templateDb(), file);
  return { db: openDatabase(file), seedMs: 0 };
}

/** A sandbox on its own database (see SandboxOptions), served on a free loopback port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-sandbox-db-'));
  let opened: { db: Db; seedMs: number } | undefined;
  let running: RunningSandbox;
  try {
    opened = await openDb(dir, options);
    running = await serveSandbox(opened.db, { port: 0, clock: options.clock, cors: options.cors, dialect: options.dialect });
  } catch (e) {
    opened?.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { seedMs } = opened;
  const roster = listRoster(running.ctx.db);
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
  const sb: TestSandbox = {
    baseUrl: running.baseUrl,
    controlUrl: running.controlUrl,
    keys: Object.fromEntries(roster.map((r) => [r.label, r.key])),
    companies: Object.fromEntries(roster.map((r) => [r.label, r.company_id])),
    running,
    seedMs,
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
  if (options.latencyMs !== undefined) {
    await control('control', { latency_ms: options.latencyMs }).catch(async (e: unknown) => {
      await sb.close();
      throw e;
    });
  }
  return sb;
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
