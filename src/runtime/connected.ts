// One connected company as the runtime holds it: its client (on the one meter), its CachedReader (on the
// one request cache) and the FinService over them, with their changes forwarded to the runtime's listeners.

import { CallMeter, createClient, type Client } from '../api';
import { calendarDateAt } from '../engine/dates';
import { FinService, type FinBatch } from '../engine/fin';
import { CachedReader } from '../engine/reader/cachedReader';
import type { CacheStore, RequestCache } from '../engine/reader/requestCache';
import type { StoredConnection } from './connection';
import type { RuntimeHost } from './host';
import { learnedNamesStore } from './learnedNames';

export interface Connected {
  client: Client;
  reader: CachedReader;
  service: FinService;
  connection: StoredConnection;
  unsubscribe: () => void;
}

export interface ConnectedFactory {
  /** A client on the one meter (no company: a probe whose company is not known yet). */
  clientFor(baseUrl: string, apiKey: string, companyId?: string): Client;
  readerFor(client: Client, derive?: boolean): CachedReader;
  /** The client, reader and service of a stored connection, listened to. */
  build(connection: StoredConnection, apiKey: string): Connected;
}

export interface ConnectedDeps {
  host: Pick<RuntimeHost, 'clientOptions' | 'fetch' | 'apiTimeoutMs' | 'dateSystem'>;
  meter: CallMeter;
  cache: RequestCache;
  stateStore: CacheStore;
  now: () => number;
  emit: () => void;
  emitBatch: (batch: FinBatch) => void;
}

export function connectedFactory({ host, meter, cache, stateStore, now, emit, emitBatch }: ConnectedDeps): ConnectedFactory {
  const clientFor = (baseUrl: string, apiKey: string, companyId?: string): Client =>
    createClient({
      ...host.clientOptions,
      baseUrl,
      apiKey,
      companyId,
      meter,
      learnedNames: learnedNamesStore(stateStore, companyId),
      ...(host.fetch ? { fetch: host.fetch } : {}),
      now,
    });

  const readerFor = (client: Client, derive = true): CachedReader => new CachedReader({ client, cache, stateStore, now, apiTimeoutMs: host.apiTimeoutMs, derive });

  const build = (connection: StoredConnection, apiKey: string): Connected => {
    const client = clientFor(connection.baseUrl, apiKey, connection.companyId);
    const reader = readerFor(client, connection.deriveFromStatements !== false);
    const service = new FinService({
      client,
      reader,
      today: () => calendarDateAt(now()),
      dateSystem: () => host.dateSystem(),
      fiscalYearStartMonth: connection.fiscalYearStartMonth ?? 1,
      stateStore,
    });
    const stopService = service.onChange(emit);
    const stopBatches = service.onBatch(emitBatch);
    const stopReader = reader.onChange(emit);
    return {
      client,
      reader,
      service,
      connection,
      unsubscribe: () => {
        stopService();
        stopBatches();
        stopReader();
      },
    };
  };

  return { clientFor, readerFor, build };
}
