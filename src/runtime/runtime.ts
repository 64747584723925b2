// One runtime: one call meter, one request cache (with its persistent store), and for the stored
// connection one client, one CachedReader and the FinService over them. The add-in makes one for the
// page (shared.ts: the custom functions, the task pane and the ribbon commands run in one page, and
// webpack's single runtime chunk makes that module one instance for all three entries); the bench and the
// test harnesses make their own with createRuntime, so what they measure is the wiring that ships.
//
// Nothing here touches Office directly: the Office pieces (OfficeRuntime.storage stores, the date system,
// the full recalculation) come in a RuntimeHost.
//
// Every FIN evaluation comes through evaluateFin: one that finds no connection is noted (the engine's
// NotConnectedFormulas), and connecting recalculates the cells it left showing "Not connected".

import { closedSettingKey, closedThroughOf } from '../engine/reader/closedBooks';
import { CallMeter, createClient, type Client, type Company } from '../api';
import { calendarDateAt } from '../engine/dates';
import {
  CellReads,
  EVALUATION_TIMEOUT_MS,
  FinService,
  NOT_CONNECTED_MESSAGE,
  NotConnectedFormulas,
  finErrors,
  toFinError,
  type EvalContext,
  type FinBatch,
  type FinCall,
  type FinCell,
  type NotConnectedState,
  type RefreshReport,
} from '../engine/fin';
import { CachedReader } from '../engine/reader/cachedReader';
import { RequestCache } from '../engine/reader/requestCache';
import { claimCache, forgetCacheOwner, forgetConnection, keyFingerprint, readStoredConnection, storeConnection, type ConnectParams, type StoredConnection } from './connection';
import type { RuntimeHost } from './host';
import { meterStoreMakingRoom, secretsMakingRoom, stateStoreMakingRoom } from './storageRoom';

interface Connected {
  client: Client;
  reader: CachedReader;
  service: FinService;
  connection: StoredConnection;
  unsubscribe: () => void;
}

export interface Identified {
  /** The key's company as GET /company answered. */
  company: Company;
  /** The validated base URL. */
  baseUrl: string;
  /** Calls it spent (the one GET /company). */
  calls: number;
}

export interface DisconnectOptions {
  /**
   * Also remove the company's cached answers from add-in storage (shared with every add-in served from the
   * same origin) and whose key filled them. Figures in the workbook and the call meter stay.
   */
  forgetCachedAnswers?: boolean;
}

export interface Runtime {
  readonly host: RuntimeHost;
  /** The one call meter (the pane shows it; every client of the runtime counts into it). */
  readonly meter: CallMeter;
  /** The one request cache. */
  readonly cache: RequestCache;
  /** The FinService of the stored connection, or null when not connected (the functions answer #N/A). */
  getFinService(): Promise<FinService | null>;
  /**
   * One FIN evaluation: `work` on the connection's FinService; without a connection the not-connected
   * error, and the call is kept (value preview apart) to be recalculated once connected.
   */
  evaluateFin<T>(call: FinCall, ctx: EvalContext, work: (service: FinService, ctx: EvalContext) => Promise<T>): Promise<T>;
  /** The formulas that showed "Not connected": asking to recalculate them, recalculating, or what that did. */
  notConnectedFormulas(): NotConnectedState;
  /** The user's go-ahead to recalculate them; resolves with the outcome (joins one already running). */
  recalculateNotConnected(): Promise<NotConnectedState>;
  /** Not now, or the outcome read: the pane stops showing it. */
  dismissNotConnected(): void;
  /** The one cached reader of the stored connection: every call the add-in spends goes through it. */
  getReader(): Promise<CachedReader | null>;
  /** The client of the stored connection, for the pane (same meter, same key). */
  getClient(): Promise<Client | null>;
  getConnection(): Promise<StoredConnection | null>;
  /** Checks a base URL and key with one GET /company (through a reader) and says whose key it is. */
  identify(params: { baseUrl: string; apiKey: string }): Promise<Identified>;
  /**
   * Stores the key and connection and switches every FIN function to it; learns the company first when not
   * given. Then the formulas that showed "Not connected" are recalculated, or asked about (see above).
   */
  connect(params: ConnectParams): Promise<StoredConnection>;
  /** Forgets the key and the connection; with forgetCachedAnswers also the company's cached answers. */
  disconnect(options?: DisconnectOptions): Promise<void>;
  /** Called when FIN data changes (new data-as-of time, a refresh, the cap block, connect/disconnect). */
  onDataChange(listener: () => void): () => void;
  /** Called after each settled batch of FIN evaluations of the connection (the pane's usage log). */
  onFinBatch(listener: (batch: FinBatch) => void): () => void;
  refreshAll(options?: { quietMs?: number; timeoutMs?: number; scope?: 'all' | 'changed' }): Promise<RefreshReport>;
  /**
   * The requests these FIN cells read when last evaluated (CellReads), and how many of the cells have no
   * record yet; no call.
   */
  cellRequests(cells: readonly FinCell[]): ReturnType<CellReads['requestsOf']>;
  /**
   * Recalculates only these FIN cells and waits for them, as Refresh all does for every cell; what they read
   * that is due for a refresh (the caller marked it) is fetched again, the rest comes from the cache.
   */
  refreshCells(cells: readonly FinCell[], options: { label: string; quietMs?: number; timeoutMs?: number }): Promise<RefreshReport>;
  /** FIN.REFRESHED's text for the current connection; a not-connected error otherwise. */
  refreshedText(): Promise<string>;
  /** Stops listening to the connection's services (the shared runtime is being replaced). */
  dispose(): void;
}

/**
 * Excel hands custom functions over in batches after calculate() returns. The host says how many
 * evaluations to expect and when Excel is done; a host that cannot leaves it to half a second without
 * any FIN work.
 */
const REFRESH_QUIET_MS = 500;

export function createRuntime(host: RuntimeHost): Runtime {
  const now = host.now ?? Date.now;
  const cache = new RequestCache(host.cacheStore, now);
  // The key, the connection, the meter and the cap block share add-in storage with the cached answers: a
  // write of theirs that finds it full evicts answers and tries again (storageRoom.ts).
  const secrets = secretsMakingRoom(host.secrets, cache);
  const stateStore = stateStoreMakingRoom(host.cacheStore, cache);
  const meter = new CallMeter({ store: meterStoreMakingRoom(host.meterStore, cache) });
  const listeners = new Set<() => void>();
  const notConnected = new NotConnectedFormulas();
  /** What each FIN cell read (by its address), for a refresh of the selection or the sheet. */
  const cellReads = new CellReads();
  const batchListeners = new Set<(batch: FinBatch) => void>();
  let current: Connected | null = null;
  let loading: Promise<Connected | null> | null = null;
  /** Bumped by connect/disconnect so a load that started before is not installed after. */
  let generation = 0;

  const emit = (): void => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // A listener's bug must not break the runtime.
      }
    }
  };

  const emitBatch = (batch: FinBatch): void => {
    for (const listener of [...batchListeners]) {
      try {
        listener(batch);
      } catch {
        // A listener's bug must not break the runtime.
      }
    }
  };

  const clientFor = (baseUrl: string, apiKey: string, companyId?: string): Client =>
    createClient({ ...host.clientOptions, baseUrl, apiKey, companyId, meter, ...(host.fetch ? { fetch: host.fetch } : {}), now });

  const readerFor = (client: Client): CachedReader => new CachedReader({ client, cache, stateStore, now, apiTimeoutMs: host.apiTimeoutMs });

  const build = (connection: StoredConnection, apiKey: string): Connected => {
    const client = clientFor(connection.baseUrl, apiKey, connection.companyId);
    const reader = readerFor(client);
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

  const load = async (): Promise<Connected | null> => {
    if (current) return current;
    loading ??= (async () => {
      const started = generation;
      const stored = await readStoredConnection(secrets);
      if (!stored) return null;
      const connection = stored.connection.keyFingerprint ? stored.connection : { ...stored.connection, keyFingerprint: await keyFingerprint(stored.apiKey) };
      let built: Connected;
      try {
        built = build(connection, stored.apiKey);
      } catch {
        return null; // A stored configuration the client refuses (edited storage) is no connection.
      }
      // The workbook's close applies before the first formula reads: its answers are never due again.
      const closed = await host.readWorkbookSetting?.(closedSettingKey(connection.companyId)).catch(() => undefined);
      built.reader.setBooksClosedThrough(closedThroughOf(closed));
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
  };

  notConnected.onChange(emit);

  let boundedLoad: Promise<Connected | null> | null = null;

  /** load(), bounded as an evaluation is (storage that never answers must not leave cells at #BUSY!). */
  const loadWithinLimit = (): Promise<Connected | null> => {
    boundedLoad ??= new Promise<Connected | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(finErrors.noAnswer(EVALUATION_TIMEOUT_MS)), EVALUATION_TIMEOUT_MS);
      load()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    }).finally(() => {
      boundedLoad = null;
    });
    return boundedLoad;
  };

  /**
   * An evaluation that waits for the connection to load, or one the not-connected ledger follows: the ledger
   * hears the FinErrors, and the caller's own failure (ctx.failure) is made last.
   */
  const evaluateSlowly = async <T>(call: FinCall, ctx: EvalContext, work: (service: FinService, ctx: EvalContext) => Promise<T>): Promise<T> => {
    const failure = (error: unknown): unknown => {
      const fin = toFinError(error, '');
      return ctx.failure ? ctx.failure(fin) : fin;
    };
    const plain: EvalContext = { preview: ctx.preview, noteRead: ctx.noteRead };
    let service: FinService | undefined;
    try {
      service = (await loadWithinLimit())?.service;
    } catch (error) {
      throw failure(error);
    }
    if (!service) {
      if (!ctx.preview) notConnected.failed(call, work);
      throw failure(finErrors.notConnected());
    }
    if (ctx.preview) return work(service, ctx);
    try {
      const value = await work(service, plain);
      notConnected.ended(call);
      return value;
    } catch (error) {
      notConnected.ended(call, error);
      throw failure(error);
    }
  };

  const runtime: Runtime = {
    host,
    meter,
    cache,
    getFinService: async () => (await load())?.service ?? null,
    getReader: async () => (await load())?.reader ?? null,
    getClient: async () => (await load())?.client ?? null,
    getConnection: async () => (await load())?.connection ?? null,

    evaluateFin(call, given, work) {
      const ctx = call.address && !given.preview ? cellReads.context(call.address, call, given) : given;
      // A recalculation calls this thousands of times in one go: connected, and no formula left showing
      // "Not connected" to follow, the service takes the call there and then (it queues it, turns.ts).
      const service = current?.service;
      if (service && (ctx.preview || !notConnected.following())) return work(service, ctx);
      return evaluateSlowly(call, ctx, work);
    },

    notConnectedFormulas: () => notConnected.current(),
    recalculateNotConnected: () => notConnected.recalculate(),
    dismissNotConnected: () => notConnected.dismiss(),

    async identify(params) {
      // A client of its own, on the shared meter, so the GET /company is on the company's bill.
      const probe = clientFor(params.baseUrl, params.apiKey);
      const company = await readerFor(probe).call('/company', (o) => probe.company.retrieve(o));
      return { company, baseUrl: probe.baseUrl, calls: 1 };
    },

    async connect(params) {
      const probe = clientFor(params.baseUrl, params.apiKey, params.companyId);
      const companyId = params.companyId ?? (await runtime.identify(params)).company.id;
      const connection: StoredConnection = { baseUrl: probe.baseUrl, companyId, keyFingerprint: await keyFingerprint(params.apiKey) };
      if (params.fiscalYearStartMonth !== undefined) connection.fiscalYearStartMonth = params.fiscalYearStartMonth;
      await claimCache(secrets, params.apiKey, () => cache.clear(companyId));
      await storeConnection(secrets, params.apiKey, connection);
      if (current?.connection.companyId !== companyId) cellReads.clear();
      current?.unsubscribe();
      generation += 1;
      current = build(connection, params.apiKey);
      emit();
      await notConnected.connected({
        service: current.service,
        reader: current.reader,
        // Only the cells showing an error: one showing a figure may have no answer cached on this computer.
        recalculate: () => host.recalculate({ errorsOnly: true }),
        quietMs: REFRESH_QUIET_MS,
      });
      return connection;
    },

    /**
     * Forgets the key and the connection. Cached answers stay for this key's next connect (see claimCache)
     * unless the user asks to forget them too.
     */
    async disconnect(options = {}) {
      const companyId = (await load())?.connection.companyId;
      await forgetConnection(secrets);
      if (options.forgetCachedAnswers && companyId) {
        await cache.clear(companyId);
        await forgetCacheOwner(secrets);
      }
      current?.unsubscribe();
      current = null;
      generation += 1;
      notConnected.disconnected();
      emit();
    },

    onDataChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    onFinBatch(listener) {
      batchListeners.add(listener);
      return () => {
        batchListeners.delete(listener);
      };
    },

    /**
     * Refresh all for the ribbon command and the pane: clears the company's cached answers, recalculates
     * this workbook's FIN cells, waits for them and reports what it spent ("Refresh all spent 13 calls").
     */
    async refreshAll(options = {}) {
      const service = await runtime.getFinService();
      if (!service) {
        return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `Refresh all: nothing refreshed. ${NOT_CONNECTED_MESSAGE}` };
      }
      return service.refreshAll({ recalculate: () => host.recalculate(), quietMs: REFRESH_QUIET_MS, ...options });
    },

    cellRequests: (cells) => cellReads.requestsOf(cells),

    async refreshCells(cells, options) {
      const service = await runtime.getFinService();
      if (!service) {
        return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `${options.label}: nothing refreshed. ${NOT_CONNECTED_MESSAGE}` };
      }
      return service.refreshAll({ recalculate: () => host.recalculate({ cells }), quietMs: REFRESH_QUIET_MS, scope: 'changed', ...options });
    },

    async refreshedText() {
      const service = await runtime.getFinService();
      if (!service) throw finErrors.notConnected();
      return service.refreshedText();
    },

    dispose() {
      current?.unsubscribe();
      current = null;
      generation += 1;
      listeners.clear();
      batchListeners.clear();
    },
  };
  return runtime;
}
