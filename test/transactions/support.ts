// Shared pieces of the transactions tests: an engine on the add-in's runtime (its client and reader) against
// a real sandbox, a MemoryGateway workbook, edits "typed by the user" into the table, and counters read from
// the sandbox itself.

import type { CachedReader } from '../../src/engine/reader/cachedReader';
import type { FinService } from '../../src/engine/fin';
import type { Client, ClientConfig } from '../../src/api';
import type { WorkbookGateway, WriteValue } from '../../src/engine/ports/workbook';
import { MemoryGateway, MemorySecretStore } from '../../src/excel/memoryGateway';
import { COL, createTransactionsEngine, type EngineOptions, type TransactionsEngine } from '../../src/engine/transactions';
import { testRuntime, type TestRuntimeOptions } from '../support/runtime';
import type { TestSandbox } from '../support/sandbox';

export const FAST: Partial<ClientConfig> = { backoffBaseMs: 5, backoffCapMs: 40, maxRetryAfterMs: 10_000 };

export interface Rig {
  client: Client;
  reader: CachedReader;
  /** The add-in storage the push journal lives in. */
  journal: MemorySecretStore;
  /** The connected key's fingerprint, as the runtime stores it. */
  fingerprint: string;
  engine: TransactionsEngine;
  /** The same runtime's FIN functions (they read through the same reader). */
  service: FinService;
  key: string;
  companyId: string;
}

export async function rig(
  sb: TestSandbox,
  gateway: WorkbookGateway,
  options: { label?: string; client?: TestRuntimeOptions['clientOptions']; engine?: Partial<EngineOptions>; journal?: MemorySecretStore } = {},
): Promise<Rig> {
  const label = options.label ?? 'growth-admin';
  const key = sb.keys[label];
  const companyId = sb.companies[label];
  const { runtime, client, reader, service } = await testRuntime(sb, { label, clientOptions: { ...FAST, ...options.client } });
  // The push journal lives in add-in storage: a test "reopens" by passing the same one.
  const journal = options.journal ?? new MemorySecretStore();
  const fingerprint = (await runtime.getConnection())!.keyFingerprint!;
  const engine = createTransactionsEngine({
    client,
    reader,
    gateway,
    journal,
    owner: { keyFingerprint: fingerprint, label },
    poll: { initialDelayMs: 150, maxDelayMs: 1000, maxPolls: 200 },
    ...options.engine,
  });
  return { client, reader, engine, service, journal, fingerprint, key, companyId };
}

export const newWorkbook = () => new MemoryGateway();

/** What a user does in Excel: types values into cells of the rows pulled as these ids. */
export async function typeInto(gateway: WorkbookGateway, table: string, edits: { id: string; values: Record<string, WriteValue> }[]): Promise<void> {
  const r = await gateway.updateRowsByKey(table, COL.pulledId, edits.map((e) => ({ key: e.id, values: e.values })));
  if (r.missing.length) throw new Error(`rows not in the table: ${r.missing.join(', ')}`);
}

/** The table's rows as objects by column name. */
export async function tableRows(gateway: WorkbookGateway, table: string): Promise<Record<string, string | number | boolean>[]> {
  const t = await gateway.readTable(table);
  return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]])));
}

/** The row pulled as `id` (found by its Pulled id, whatever its Id cell now shows). */
export async function rowById(gateway: WorkbookGateway, table: string, id: string): Promise<Record<string, string | number | boolean>> {
  const row = (await tableRows(gateway, table)).find((r) => r[COL.pulledId] === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

/** Calls the sandbox counted for the company between two readings. */
export async function usageDelta<T>(sb: TestSandbox, companyId: string, fn: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = await sb.usage(companyId);
  const value = await fn();
  const after = await sb.usage(companyId);
  return { value, calls: after - before };
}

/** Bulk-update jobs in the sandbox (read from its database: no API call, nothing counted). */
export function sandboxJobs(sb: TestSandbox, companyId: string): { id: string; status: string; idempotency_key: string; updated_count: number; matched_count: number | null }[] {
  return sb.running.ctx.db
    .prepare('SELECT id, status, idempotency_key, updated_count, matched_count FROM jobs WHERE company_id = ? ORDER BY seq')
    .all(companyId) as { id: string; status: string; idempotency_key: string; updated_count: number; matched_count: number | null }[];
}

export function jobErrors(sb: TestSandbox, jobId: string): { code: string; transaction_id: string | null; message: string }[] {
  return sb.running.ctx.db.prepare('SELECT code, transaction_id, message FROM job_errors WHERE job_id = ? ORDER BY seq').all(jobId) as {
    code: string;
    transaction_id: string | null;
    message: string;
  }[];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The sandbox's "today" in the company zone. */
export function sandboxToday(sb: TestSandbox): string {
  return sb.running.ctx.clock.today();
}

/** Report lines collected by the tests, printed once at the end of a file. */
export const report: string[] = [];
export function note(line: string): void {
  report.push(line);
}
