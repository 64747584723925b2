// The shared runtime's singletons: one call meter, one request cache (with its persistent store), one
// client for the stored connection and the FinService over them, used alike by the custom functions, the
// task pane and the ribbon commands (they run in one page, and webpack's single runtime chunk makes this
// module one instance for all three entries).
//
// Nothing here touches Office directly: the Office pieces (OfficeRuntime.storage stores, the date system,
// the full recalculation) come in a RuntimeHost, by default from src/excel/runtimeStorage.ts when the
// page runs inside Office, and from the test in jest (configureRuntime).

import { CallMeter, createClient, type Client } from '../api';
import { calendarDateAt } from '../engine/dates';
import { FinError, FinService, NOT_CONNECTED_MESSAGE, finErrors, type RefreshReport } from '../engine/fin';
import { CachedReader } from '../engine/reader/cachedReader';
import { RequestCache } from '../engine/reader/requestCache';
import { createOfficeRuntimeHost, hasOfficeRuntime } from '../excel/runtimeStorage';
import { claimCache, forgetConnection, readStoredConnection, storeConnection, type ConnectParams, type StoredConnection } from './connection';
import type { RuntimeHost } from './host';

interface Connected {
  client: Client;
  reader: CachedReader;
  service: FinService;
  connection: StoredConnection;
  unsubscribe: () => void;
}

let host: RuntimeHost | null = null;
let meter: CallMeter | null = null;
let cache: RequestCache | null = null;
let current: Connected | null = null;
let loading: Promise<Connected | null> | null = null;
/** Bumped by configure/connect/disconnect so a load that started before is not installed after. */
let generation = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // A listener's bug must not break the runtime.
    }
  }
}

/** Installs the host (tests; or an entry that builds its own). null goes back to the default. */
export function configureRuntime(next: RuntimeHost | null): void {
  current?.unsubscribe();
  host = next;
  meter = null;
  cache = null;
  current = null;
  loading = null;
  generation += 1;
  emit();
}

/** The host: the configured one, else Office's when running inside Office, else null. */
export function getRuntimeHost(): RuntimeHost | null {
  if (!host && hasOfficeRuntime()) host = createOfficeRuntimeHost();
  return host;
}

function requireHost(): RuntimeHost {
  const h = getRuntimeHost();
  if (!h) throw new FinError('na', 'Office storage is not available: open the workbook in Excel with the add-in', 'no_host');
  return h;
}

/** The one call meter of the runtime (the pane shows it; every client of the runtime counts into it). */
export function getSharedMeter(): CallMeter {
  const h = requireHost();
  meter ??= new CallMeter({ store: h.meterStore });
  return meter;
}

/** The one request cache of the runtime. */
export function getSharedCache(): RequestCache {
  const h = requireHost();
  cache ??= new RequestCache(h.cacheStore, h.now ?? Date.now);
  return cache;
}

function build(h: RuntimeHost, connection: StoredConnection, apiKey: string): Connected {
  const now = h.now ?? Date.now;
  const client = createClient({
    ...h.clientOptions,
    baseUrl: connection.baseUrl,
    apiKey,
    companyId: connection.companyId,
    meter: getSharedMeter(),
    ...(h.fetch ? { fetch: h.fetch } : {}),
    now,
  });
  const reader = new CachedReader({ client, cache: getSharedCache(), stateStore: h.cacheStore, now, apiTimeoutMs: h.apiTimeoutMs });
  const service = new FinService({
    client,
    reader,
    today: () => calendarDateAt(now()),
    dateSystem: () => h.dateSystem(),
    fiscalYearStartMonth: connection.fiscalYearStartMonth ?? 1,
    stateStore: h.cacheStore,
  });
  const stopService = service.onChange(emit);
  const stopReader = reader.onChange(emit);
  return {
    client,
    reader,
    service,
    connection,
    unsubscribe: () => {
      stopService();
      stopReader();
    },
  };
}

async function load(): Promise<Connected | null> {
  if (current) return current;
  const h = getRuntimeHost();
  if (!h) return null;
  loading ??= (async () => {
    const started = generation;
    const stored = await readStoredConnection(h.secrets);
    if (!stored) return null;
    let built: Connected;
    try {
      built = build(h, stored.connection, stored.apiKey);
    } catch {
      return null; // A stored configuration the client refuses (edited storage) is no connection.
    }
    if (started !== generation) {
      built.unsubscribe();
      return current;
    }
    current = built;
    return built;
  })().finally(() => {
    loading = null;
  });
  return loading;
}

/** The FinService of the stored connection, or null when not connected (the functions answer #N/A). */
export async function getFinService(): Promise<FinService | null> {
  return (await load())?.service ?? null;
}

/** The one cached reader of the stored connection: every call the pane spends goes through it. */
export async function getReader(): Promise<CachedReader | null> {
  return (await load())?.reader ?? null;
}

/** The client of the stored connection, for the pane (same meter, same key). */
export async function getClient(): Promise<Client | null> {
  return (await load())?.client ?? null;
}

export async function getConnection(): Promise<StoredConnection | null> {
  return (await load())?.connection ?? null;
}

/**
 * Connects (the pane's Connect button): checks the base URL and key, learns the company with one
 * GET /company unless it is given, stores key and connection in add-in storage, and switches every FIN
 * function to it.
 */
export async function connect(params: ConnectParams): Promise<StoredConnection> {
  const h = requireHost();
  const probe = createClient({
    ...h.clientOptions,
    baseUrl: params.baseUrl,
    apiKey: params.apiKey,
    companyId: params.companyId,
    meter: getSharedMeter(),
    ...(h.fetch ? { fetch: h.fetch } : {}),
    now: h.now ?? Date.now,
  });
  const companyId = params.companyId ?? (await probe.company.retrieve()).id;
  const connection: StoredConnection = { baseUrl: probe.baseUrl, companyId };
  if (params.fiscalYearStartMonth !== undefined) connection.fiscalYearStartMonth = params.fiscalYearStartMonth;
  await claimCache(h.secrets, params.apiKey, () => getSharedCache().clear(companyId));
  await storeConnection(h.secrets, params.apiKey, connection);
  current?.unsubscribe();
  generation += 1;
  current = build(h, connection, params.apiKey);
  emit();
  return connection;
}

/** Forgets the key and the connection; cached answers stay for this key's next connect (see claimCache). */
export async function disconnect(): Promise<void> {
  const h = requireHost();
  await forgetConnection(h.secrets);
  current?.unsubscribe();
  current = null;
  generation += 1;
  emit();
}

/** Called when FIN data changes (new data-as-of time, a refresh, connect/disconnect). */
export function onDataChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Refresh all for the ribbon command and the pane: clears the company's cached answers, recalculates every
 * FIN cell, waits for them and reports what it spent ("Refresh all spent 13 calls").
 */
export async function refreshAll(options: { quietMs?: number; timeoutMs?: number } = {}): Promise<RefreshReport> {
  const service = await getFinService();
  if (!service) {
    return { spent: 0, cleared: 0, settled: true, limited: false, durationMs: 0, message: `Refresh all: nothing refreshed. ${NOT_CONNECTED_MESSAGE}` };
  }
  const h = requireHost();
  // Excel hands custom functions over in batches after calculate() returns; half a second without any FIN
  // work is taken as "all of them ran".
  return service.refreshAll({ recalculate: () => h.recalculate(), quietMs: 500, ...options });
}

/** FIN.REFRESHED's text for the current connection; a not-connected error otherwise. */
export async function refreshedText(): Promise<string> {
  const service = await getFinService();
  if (!service) throw finErrors.notConnected();
  return service.refreshedText();
}
