import util from 'node:util';
import { DateTime } from 'luxon';
import { ApiError, createClient, type Client, type ClientConfig } from '../../../src/api';
import type { TestSandbox } from '../../support/sandbox';

// Shared pieces of the client's integration tests: a client on a real sandbox (no mocked fetch) with
// fast backoff, the per-attempt debug lines it writes, fault injection and a few look-ups that go
// through the client itself.

/** Small backoff so retries are fast; Retry-After from the sandbox is still honoured in full. */
export const FAST: Partial<ClientConfig> = { backoffBaseMs: 5, backoffCapMs: 40, maxRetryAfterMs: 10_000 };

export interface Harness {
  client: Client;
  /** One line per attempt, from the client's debug hook: `METHOD /path -> status (attempt n, x ms)`. */
  lines: string[];
  key: string;
  companyId: string;
}

export function clientFor(sb: TestSandbox, label: string, extra: Partial<ClientConfig> = {}): Harness {
  const lines: string[] = [];
  const key = sb.keys[label];
  const companyId = sb.companies[label];
  if (!key || !companyId) throw new Error(`no roster entry ${label}`);
  const client = createClient({
    baseUrl: sb.baseUrl,
    apiKey: key,
    companyId,
    ...FAST,
    debug: (line) => lines.push(line),
    ...extra,
  });
  return { client, lines, key, companyId };
}

export interface Attempt {
  method: string;
  path: string;
  /** HTTP status as a string, or the network failure reason (network_error, not_sent, timeout, aborted). */
  outcome: string;
  attempt: number;
}

const LINE = /^(\w+) (\S+) -> (\S+) \(attempt (\d+), \d+ ms\)$/;

export function parseLines(lines: string[]): Attempt[] {
  return lines.map((line) => {
    const m = LINE.exec(line);
    if (!m) throw new Error(`unexpected debug line: ${line}`);
    return { method: m[1], path: m[2], outcome: m[3], attempt: Number(m[4]) };
  });
}

/** The outcomes of the attempts for one method and path, in order. */
export function outcomes(lines: string[], method: string, path: string): string[] {
  return parseLines(lines)
    .filter((a) => a.method === method && a.path === path)
    .map((a) => a.outcome);
}

/** The rejection of a promise that must fail. */
export async function caught<E = ApiError>(p: Promise<unknown>): Promise<E> {
  try {
    await p;
  } catch (e) {
    return e as E;
  }
  throw new Error('expected the call to fail');
}

export interface FaultSpec {
  kind: 'error500' | 'error429' | 'drop' | 'drop_after';
  count?: number;
  method?: string;
  /** Substring of the request path (which includes /api/v1). */
  path?: string;
  /** Seconds for Retry-After on error429 (sandbox default 1). */
  retry_after?: number;
}

export const injectFaults = (sb: TestSandbox, ...faults: FaultSpec[]) => sb.control('control', { faults });
export const clearFaults = (sb: TestSandbox) => sb.control('control', { clear_faults: true });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Closes a sandbox. Requests a test abandoned while they sleep in injected latency would wake to a closed
 * database: waiting out that latency first lets them finish.
 */
export async function closeSandbox(sb: TestSandbox | undefined, abandonedLatencyMs = 0): Promise<void> {
  if (!sb) return;
  if (abandonedLatencyMs > 0) await sleep(abandonedLatencyMs + 100);
  await sb.close();
}

/** Midnight Pacific on the 1st of next month, as a date (the monthly cap's reset). */
export function nextPacificMonthStart(nowMs = Date.now()): string {
  return DateTime.fromMillis(nowMs, { zone: 'America/Los_Angeles' }).startOf('month').plus({ months: 1 }).toISODate()!;
}

/** `YYYY-MM-DD` a number of days before today (UTC calendar; only used to pick data ranges). */
export function daysAgo(days: number): string {
  return DateTime.utc().minus({ days }).toISODate()!;
}

/** Moves a date by whole months, clamping to the end of the month (the API's accounting_shift rule). */
export function shiftMonths(date: string, months: number): string {
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ months }).toISODate()!;
}

/**
 * Standard, approved transactions from a window of history, via the client: safe targets for edits
 * (transfers and splits are not editable). `offset` skips rows so tests in one file use disjoint targets.
 */
export async function editableTransactions(client: Client, n: number, offset = 0, fromDaysAgo = 400) {
  const page = await client.transactions.list({
    transaction_type: 'standard',
    status: 'approved',
    start_date: daysAgo(fromDaysAgo),
    end_date: daysAgo(fromDaysAgo - 60),
    limit: Math.min(500, n + offset),
  });
  const rows = page.data.slice(offset, offset + n);
  if (rows.length < n) throw new Error(`only ${rows.length} editable transactions found`);
  return rows;
}

/** Assignable leaf departments (the only ones a transaction can take), via the client. */
export async function assignableLeaves(client: Client): Promise<string[]> {
  const { data } = await client.departments.list();
  const parents = new Set(data.map((d) => d.parent_id).filter((p): p is string => p !== null));
  return data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => d.id);
}

/** Every rendering of a value a log line, an error cell or a crash report could end up with. */
export function renderings(value: unknown): string[] {
  const out = [
    safeJson(value),
    safeString(value),
    util.inspect(value, { depth: 10, showHidden: true }),
    util.inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    util.format('%o', value),
    util.format('%j', value),
  ];
  let current: unknown = value;
  for (let i = 0; i < 10 && current && typeof current === 'object'; i++) {
    const e = current as Error;
    out.push(String(e.stack), String(e.message), safeJson(e, Object.getOwnPropertyNames(e)));
    current = (e as { cause?: unknown }).cause;
  }
  return out;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '';
  }
}

/** JSON.stringify that survives cycles (a client holds timers and maps); `keys` as JSON.stringify's allow-list. */
export function safeJson(value: unknown, keys?: string[]): string {
  try {
    if (keys) return JSON.stringify(value, keys) ?? '';
    const seen = new WeakSet<object>();
    return (
      JSON.stringify(value, (_k, v: unknown) => {
        if (v && typeof v === 'object') {
          if (seen.has(v)) return '[cycle]';
          seen.add(v);
        }
        if (typeof v === 'bigint') return String(v);
        return v;
      }) ?? ''
    );
  } catch (e) {
    return `unserializable: ${(e as Error).message}`;
  }
}
