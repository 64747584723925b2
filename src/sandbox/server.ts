import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { openDatabase, getMeta, setMeta, type Db } from './db/open';
import { Clock } from './clock';
import { buildSandbox, type SandboxApp } from './app';
import type { Dialect } from './http/dialect';
import { seedDatabase } from './seed';

export const DEFAULT_PORT = 4010;
/** Where --https serves the same API over https (the Mac's webview blocks http from the add-in's https page). */
export const DEFAULT_HTTPS_PORT = 4011;
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
  /** The same API over https (https://localhost:<port>/api/v1), when it was asked for; else null. */
  httpsBaseUrl: string | null;
}

/** A certificate for localhost (scripts/dev-certs.js makes the dev server's), and where to serve https. */
export interface SandboxHttps {
  cert: string | Buffer;
  key: string | Buffer;
  ca?: string | Buffer;
  /** Default DEFAULT_HTTPS_PORT; 0 picks a free one. */
  port?: number;
}

/** The app's request handling behind a second, https listener on the same host: one API, one state. */
async function listenHttps(sandbox: SandboxApp, host: string, options: SandboxHttps): Promise<https.Server> {
  const server = https.createServer({ cert: options.cert, key: options.key, ...(options.ca ? { ca: options.ca } : {}) }, (req, res) =>
    sandbox.app.routing(req, res),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_HTTPS_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Serves an opened database on host:port (port 0 picks a free one), and over https too when asked. */
export async function serveSandbox(
  db: Db,
  options: { port?: number; host?: string; clock?: Clock; https?: SandboxHttps; cors?: boolean; dialect?: Dialect } = {},
): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = buildSandbox(db, { clock: options.clock, cors: options.cors, dialect: options.dialect });
  await sandbox.app.listen({ port: options.port ?? DEFAULT_PORT, host });
  const address = sandbox.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const origin = `http://${host}:${port}`;
  let secure: https.Server | null = null;
  try {
    secure = options.https ? await listenHttps(sandbox, host, options.https) : null;
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  // The certificate names localhost (not 127.0.0.1), so the https address does too.
  const httpsBaseUrl = secure ? `https://localhost:${(secure.address() as AddressInfo).port}/api/v1` : null;
  return {
    ...sandbox,
    port,
    baseUrl: `${origin}/api/v1`,
    controlUrl: `${origin}/__sandbox`,
    httpsBaseUrl,
    async close() {
      if (secure) {
        const closing = new Promise<void>((resolve) => secure!.close(() => resolve()));
        secure.closeAllConnections();
        await closing;
      }
      await sandbox.close();
      db.close();
    },
  };
}
