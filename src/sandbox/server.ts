import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, getMeta, setMeta, type Db } from './db/open';
import { Clock } from './clock';
import { buildSandbox, type SandboxApp } from './app';
import { seedDatabase } from './seed';

export const DEFAULT_PORT = 4010;
export const DEFAULT_DB = path.join('.sandbox', 'sandbox.db');
export const DEFAULT_TRANSACTIONS = 20000;

export interface OpenOptions {
  reset?: boolean;
  /** Growth company's transaction count when seeding. */
  transactions?: number;
  clock?: Clock;
}

/** Opens the database, seeding it when it is new (or when reset is asked). */
export function openSeeded(file: string, options: OpenOptions = {}): { db: Db; seeded: boolean; seedMs: number } {
  if (options.reset && file !== ':memory:') {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  }
  const db = openDatabase(file);
  if (getMeta(db, 'seeded_transactions') !== undefined) return { db, seeded: false, seedMs: 0 };
  const clock = options.clock ?? new Clock();
  const transactions = options.transactions ?? DEFAULT_TRANSACTIONS;
  const t0 = Date.now();
  seedDatabase(db, { transactions, today: clock.today(), now: clock.now() });
  setMeta(db, 'seeded_transactions', String(transactions));
  setMeta(db, 'seeded_on', clock.today());
  return { db, seeded: true, seedMs: Date.now() - t0 };
}

export interface RunningSandbox extends SandboxApp {
  port: number;
  /** Base URL of the API, ending in /api/v1. */
  baseUrl: string;
  /** Base URL of the test-only controls. */
  controlUrl: string;
}

/** Serves an opened database on host:port (port 0 picks a free one). */
export async function serveSandbox(db: Db, options: { port?: number; host?: string; clock?: Clock } = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = buildSandbox(db, { clock: options.clock });
  await sandbox.app.listen({ port: options.port ?? DEFAULT_PORT, host });
  const address = sandbox.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const origin = `http://${host}:${port}`;
  return {
    ...sandbox,
    port,
    baseUrl: `${origin}/api/v1`,
    controlUrl: `${origin}/__sandbox`,
    async close() {
      await sandbox.close();
      db.close();
    },
  };
}
