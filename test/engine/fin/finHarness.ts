// A FinService wired the way src/runtime/runtime.ts wires it, but against a test sandbox: the real
// client from src/api (its meter counts like the server does), a RequestCache over a persistent store the
// test keeps (to "reopen" the workbook), and a fetch that counts the HTTP requests actually sent.
import { createClient, MemoryMeterStore, type Client, type MeterStore } from '../../../src/api';
import { calendarDateAt, formatIsoDate, isoToSerial, monthPeriod, type Period } from '../../../src/engine/dates';
import { FinService, type DateSystemSource } from '../../../src/engine/fin';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { MemoryCacheStore, RequestCache } from '../../../src/engine/reader/requestCache';
import type { TestSandbox } from '../../support/sandbox';

export interface FinHarness {
  client: Client;
  cache: RequestCache;
  reader: CachedReader;
  service: FinService;
  store: MemoryCacheStore;
  meterStore: MeterStore;
  /** HTTP requests this harness's client sent. */
  sent(): number;
  /** Calls on this harness's meter this month. */
  meterCount(): Promise<number>;
}

export interface HarnessOptions {
  store?: MemoryCacheStore;
  meterStore?: MeterStore;
  now?: () => number;
  dateSystem?: DateSystemSource;
  apiTimeoutMs?: number;
  /** Client retries (default the client's 4). */
  maxRetries?: number;
}

export function finHarness(sb: TestSandbox, label: string, options: HarnessOptions = {}): FinHarness {
  let sent = 0;
  const counting: typeof fetch = (input, init) => {
    sent += 1;
    return fetch(input, init);
  };
  const store = options.store ?? new MemoryCacheStore();
  const meterStore = options.meterStore ?? new MemoryMeterStore();
  const client = createClient({
    baseUrl: sb.baseUrl,
    apiKey: sb.keys[label],
    companyId: sb.companies[label],
    meterStore,
    fetch: counting,
    maxRetries: options.maxRetries,
    backoffBaseMs: 10,
    backoffCapMs: 50,
    now: options.now,
  });
  const cache = new RequestCache(store);
  const reader = new CachedReader({ client, cache, stateStore: store, now: options.now, apiTimeoutMs: options.apiTimeoutMs });
  const service = new FinService({
    client,
    reader,
    today: () => calendarDateAt(Date.now()),
    dateSystem: options.dateSystem ?? 1900,
    stateStore: store,
  });
  return { client, cache, reader, service, store, meterStore, sent: () => sent, meterCount: () => client.meter.count() };
}

/** The company's today and the last full calendar year (fully inside the seeded two years). */
export function lastFullYear(): number {
  return Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
}

export function monthsOf(year: number): Period[] {
  return Array.from({ length: 12 }, (_, i) => monthPeriod(year, i + 1));
}

export function serial(iso: string): number {
  const r = isoToSerial(iso, 1900);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

export { formatIsoDate };
