// One runtime: one call meter, one request cache (with its persistent store), and for each stored
// connection (one per company, one of them the default) one client, one CachedReader and the FinService over
// them; counts, cached answers and the monthly-cap block are kept per company by those. The add-in makes one for the
// page (shared.ts: the custom functions, the task pane and the ribbon commands run in one page, and
// webpack's single runtime chunk makes that module one instance for all three entries); the bench and the
// test harnesses make their own with createRuntime, so what they measure is the wiring that ships.
//
// Nothing here touches Office directly: the Office pieces (OfficeRuntime.storage stores, the date system,
// the full recalculation) come in a RuntimeHost.
//
// Every FIN evaluation comes through evaluateFin, with the company its formula names (the default one when
// it names none): one that finds no such connection is noted (the engine's NotConnectedFormulas, and the
// name for the pane to offer), and connecting recalculates the cells it left showing an error.

import { closedSettingKey, closedThroughOf } from '../engine/reader/closedBooks';
import { CallMeter, createClient, type Client, type Company } from '../api';
import { calendarDateAt } from '../engine/dates';
import {
  CellReads,
  EVALUATION_TIMEOUT_MS,
  FinError,
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
import {
  claimCache,
  findConnection,
  forgetCacheOwner,
  forgetConnection,
  keyFingerprint,
  MAX_NAME_LENGTH,
  nameKey,
  readConnectionsWithKeys,
  storeConnection,
  storeConnectionSettings,
  storeDefault,
  type ConnectParams,
  type StoredConnection,
  type StoredConnections,
} from './connection';
import { GROUPS_SETTING, groupDefinition, groupsOf, readAccepted, resolveGroup, storeAccepted, sumOverGroup, type ConnectedMember, type Group } from './groups';
import type { RuntimeHost } from './host';
import { refreshConnections } from './refreshConnections';
import { learnedNamesStore } from './learnedNames';
import { meterStoreMakingRoom, secretsMakingRoom, stateStoreMakingRoom } from './storageRoom';

interface Connected {
  client: Client;
  reader: CachedReader;
  service: FinService;
  connection: StoredConnection;
  unsubscribe: () => void;
}

/** Every loaded connection, and the default one (null: none stored). */
interface Loaded {
  list: Connected[];
  defaultOne: Connected | null;
}

const NOTHING_LOADED: Loaded = Object.freeze({ list: [], defaultOne: null }) as Loaded;

export interface Identified {
  /** The key's company as GET /company answered. */
  company: Company;
  /** The validated base URL. */
  baseUrl: string;
  /** Calls it spent (the one GET /company). */
  calls: number;
}

export interface DisconnectOptions {
  /** Which connection (its name or company id); default the default one. */
  company?: string;
  /**
   * Also remove the company's cached answers from add-in storage (shared with every add-in served from the
   * same origin) and whose key filled them. Figures in the workbook and the call meter stay.
   */
  forgetCachedAnswers?: boolean;
}

/** The connections as the pane lists them. */
export interface ConnectionList {
  defaultName: string | null;
  list: StoredConnection[];
}

/** A connection's name the user picked that another company's connection has already, or that reads as another company's id. */
export class ConnectionNameTaken extends Error {
  override name = 'ConnectionNameTaken';
  constructor(
    readonly taken: string,
    message = `A connection named "${taken}" exists already: pick another name`,
  ) {
    super(message);
  }
}

/** The company id prefix (the spec's identifier prefixes): a formula's company argument that has it names a company by id. */
const COMPANY_ID_PREFIX = 'comp_';

/** A group of the workbook as the pane shows it for review: its companies as connected here, and whether it is in use. */
export interface GroupReview {
  name: string;
  /** Its entries as the workbook lists them. */
  entries: string[];
  /** Its companies connected here, each once: the connection's name now and the company id. */
  companies: { name: string; companyId: string }[];
  /** Entries that name no connection here. */
  missing: string[];
  /** Accepted on this computer: its figures are added up. */
  accepted: boolean;
  /** A connection has its name (or id): formulas naming it read that connection, never the group. */
  shadowedBy?: string;
}

/** The error of a formula whose company argument names no connection on this computer. */
export function connectionMissing(name: string): FinError {
  return new FinError('na', `Connect "${name}" to fetch`, 'connection_missing');
}

export interface RefreshAllOptions {
  quietMs?: number;
  timeoutMs?: number;
  scope?: 'all' | 'changed';
  /** Only this connection (its name or company id). */
  company?: string;
}

export interface Runtime {
  readonly host: RuntimeHost;
  /** The host (as the page's shared runtime answers it: the workspace asks either the same way). */
  getRuntimeHost(): RuntimeHost;
  /** The one call meter (the pane shows it; every client of the runtime counts into it, per company). */
  readonly meter: CallMeter;
  /** The one request cache (its answers kept per company). */
  readonly cache: RequestCache;
  /**
   * The FinService of a connection (`company`: its name or company id; omitted, the default one), or null
   * when there is no such connection (the functions answer #N/A).
   */
  getFinService(company?: string): Promise<FinService | null>;
  /**
   * One FIN evaluation: the call on the FinService of the connection its company names (the default one when
   * it names none); without it the not-connected error, and the call is kept (value preview apart) to be
   * recalculated once connected.
   */
  evaluateFin<T>(call: FinCall, ctx: EvalContext): Promise<T>;
  /** The formulas that showed "Not connected": asking to recalculate them, recalculating, or what that did. */
  notConnectedFormulas(): NotConnectedState;
  /** The user's go-ahead to recalculate them; resolves with the outcome (joins one already running). */
  recalculateNotConnected(): Promise<NotConnectedState>;
  /** Not now, or the outcome read: the pane stops showing it. */
  dismissNotConnected(): void;
  /** Connection names the workbook's formulas asked for that are not connected here (the pane offers them). */
  missingConnections(): string[];
  /** The one cached reader of a connection: every call the add-in spends on its company goes through it. */
  getReader(company?: string): Promise<CachedReader | null>;
  /** The client of a connection, for the pane (same meter, its key). */
  getClient(company?: string): Promise<Client | null>;
  getConnection(company?: string): Promise<StoredConnection | null>;
  /** Every connection and which one is the default. */
  listConnections(): Promise<ConnectionList>;
  /** Checks a base URL and key with one GET /company (through a reader) and says whose key it is. */
  identify(params: { baseUrl: string; apiKey: string }): Promise<Identified>;
  /**
   * Stores the key and connection of its company (replacing that company's earlier one, keeping the others)
   * and, unless makeDefault is false, makes it the default of the FIN functions; learns the company first
   * when not given. Then the formulas that showed "Not connected" are recalculated, or asked about.
   */
  connect(params: ConnectParams): Promise<StoredConnection>;
  /** Makes a connection (name or company id) the default of formulas without a company argument. */
  setDefault(company: string): Promise<void>;
  /**
   * Derivation from the cached statements on or off for a connection (the default one without `company`),
   * persisted with it; `because` says why when the add-in turns it off (a full refresh's check).
   */
  setDerivation(on: boolean, options?: { company?: string; because?: string }): Promise<void>;
  /** Forgets one connection's key (the default one unless named); with forgetCachedAnswers also its cached answers. */
  disconnect(options?: DisconnectOptions): Promise<void>;
  /** Called when FIN data changes (new data-as-of time, a refresh, the cap block, connect/disconnect). */
  onDataChange(listener: () => void): () => void;
  /** Called after each settled batch of FIN evaluations of any connection (the pane's usage log). */
  onFinBatch(listener: (batch: FinBatch) => void): () => void;
  /**
   * Refresh all, of every connection's FIN cells (one recalculation); the report says each company's cost.
   * With `company`, that connection's answers only (the workbook's cells are all recalculated; the others'
   * answers are cached, so they cost nothing).
   */
  refreshAll(options?: RefreshAllOptions): Promise<RefreshReport>;
  /**
   * The requests these FIN cells read when last evaluated (CellReads) for a connection's company (the default
   * one when omitted), how many of the cells have no record yet, and how many read another company; no call.
   */
  cellRequests(cells: readonly FinCell[], company?: string): ReturnType<CellReads['requestsOf']>;
  /**
   * The companies these FIN cells read when last evaluated (a group's companies for a cell naming one), by
   * company id, and how many of the cells have no record yet; no call.
   */
  cellCompanies(cells: readonly FinCell[]): { companyIds: string[]; unknown: number };
  /**
   * Recalculates only these FIN cells and waits for those of a connection (the default one when omitted), as
   * Refresh all does for every cell; what they read that is due for a refresh (the caller marked it) is
   * fetched again, the rest comes from the cache.
   */
  refreshCells(cells: readonly FinCell[], options: { label: string; company?: string; quietMs?: number; timeoutMs?: number }): Promise<RefreshReport>;
  /** FIN.REFRESHED's text for a connection (the default one when omitted); a not-connected error otherwise. */
  refreshedText(company?: string): Promise<string>;
  /** Reads the workbook's groups of companies again (the pane saved or removed one). */
  reloadGroups(): Promise<void>;
  /** The workbook's groups, each resolved against the connections here, accepted or waiting for review. */
  workbookGroups(): Promise<GroupReview[]>;
  /**
   * The user accepted a group of the workbook as it is defined now (or saved it): its figures are added up
   * on this computer from now on, and the FIN cells showing an error are recalculated. Refused for a group
   * a connection's name or id shadows.
   */
  acceptGroup(name: string): Promise<void>;
  /** Stops listening to the connections' services (the shared runtime is being replaced). */
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
  // The keys, the connections, the meter and the cap blocks share add-in storage with the cached answers: a
  // write of theirs that finds it full evicts answers and tries again (storageRoom.ts).
  const secrets = secretsMakingRoom(host.secrets, cache);
  const stateStore = stateStoreMakingRoom(host.cacheStore, cache);
  const meter = new CallMeter({ store: meterStoreMakingRoom(host.meterStore, cache) });
  const listeners = new Set<() => void>();
  const notConnected = new NotConnectedFormulas();
  /** What each FIN cell read (by its address), for a refresh of the selection or the sheet. */
  const cellReads = new CellReads();
  /** The callers' contexts (functions.ts has one for cells) with the cells' reads kept: made once, not per cell. */
  const cellContexts = new WeakMap<EvalContext, EvalContext>();
  const cellContext = (given: EvalContext): EvalContext => {
    let ctx = cellContexts.get(given);
    if (!ctx) cellContexts.set(given, (ctx = { ...given, cellReads }));
    return ctx;
  };
  const batchListeners = new Set<(batch: FinBatch) => void>();
  /** Names formulas asked for that no connection has, by nameKey (the name as typed first). */
  const missing = new Map<string, string>();
  let current: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
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

  /** The workbook's close applies before the first formula reads: its answers are never due again. */
  const applyClosedBooks = async (built: Connected): Promise<void> => {
    const closed = await host.readWorkbookSetting?.(closedSettingKey(built.connection.companyId)).catch(() => undefined);
    built.reader.setBooksClosedThrough(closedThroughOf(closed));
  };

  const loadOne = async (connection: StoredConnection, apiKey: string): Promise<Connected | null> => {
    const withPrint = connection.keyFingerprint ? connection : { ...connection, keyFingerprint: await keyFingerprint(apiKey) };
    let built: Connected;
    try {
      built = build(withPrint, apiKey);
    } catch {
      return null; // A stored configuration the client refuses (edited storage) is no connection.
    }
    await applyClosedBooks(built);
    return built;
  };

  const install = (list: Connected[], defaultName: string | null): Loaded => {
    for (const old of current?.list ?? []) if (!list.includes(old)) old.unsubscribe();
    current = { list, defaultOne: list.find((c) => c.connection.name === defaultName) ?? list[0] ?? null };
    for (const c of list) missing.delete(nameKey(c.connection.name));
    return current;
  };

  const load = async (): Promise<Loaded> => {
    if (current) return current;
    loading ??= (async () => {
      const started = generation;
      await loadGroups();
      const stored = await readConnectionsWithKeys(secrets);
      const list = (await Promise.all(stored.list.map((c) => loadOne(c.connection, c.apiKey)))).filter((c): c is Connected => c !== null);
      if (started !== generation) {
        for (const c of list) c.unsubscribe();
        return current ?? NOTHING_LOADED;
      }
      return install(list, stored.defaultName);
    })().finally(() => {
      loading = null;
    });
    return loading;
  };

  /** The connection a company argument names (its name or company id); the default one when omitted. */
  const pick = (loaded: Loaded, company?: string): Connected | null => {
    if (company === undefined || company.trim() === '') return loaded.defaultOne;
    const found = findConnection(loaded.list.map((c) => c.connection), company);
    return loaded.list.find((c) => c.connection === found) ?? null;
  };

  const loadConnected = async (company?: string): Promise<Connected | null> => pick(await load(), company);

  notConnected.onChange(emit);

  let boundedLoad: Promise<Loaded> | null = null;

  /** load(), bounded as an evaluation is (storage that never answers must not leave cells at #BUSY!). */
  const loadWithinLimit = (): Promise<Loaded> => {
    boundedLoad ??= new Promise<Loaded>((resolve, reject) => {
      const timer = setTimeout(() => reject(finErrors.noAnswer(EVALUATION_TIMEOUT_MS)), EVALUATION_TIMEOUT_MS);
      load()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    }).finally(() => {
      boundedLoad = null;
    });
    return boundedLoad;
  };

  /** The workbook's groups of companies (groups.ts), read with the connections and when the pane saves one. */
  let groups = new Map<string, Group>();
  /** The group definitions accepted on this computer (add-in storage). */
  let accepted = new Set<string>();
  const loadGroups = async (): Promise<void> => {
    groups = groupsOf(await host.readWorkbookSetting?.(GROUPS_SETTING).catch(() => undefined));
    accepted = await readAccepted(secrets).catch(() => new Set<string>());
  };
  /** The group a company argument names, when no connection has that name or id; accepted or not. */
  const groupNamed = (loaded: Loaded | null, company: string | undefined): { group: Group; accepted: boolean } | undefined => {
    if (company === undefined || (loaded && pick(loaded, company))) return undefined;
    const group = groups.get(nameKey(company));
    return group && { group, accepted: accepted.has(groupDefinition(group)) };
  };
  /** A group's entry as a formula's company argument is resolved. */
  const memberOf = (loaded: Loaded, entry: string): ConnectedMember | null => {
    const c = pick(loaded, entry);
    return c && { name: c.connection.name, companyId: c.connection.companyId, service: c.service, reader: c.reader };
  };

  /** The error of a formula whose connection is not here: the named one's, else Not connected. */
  const notHere = (company?: string): FinError => {
    const name = company?.trim();
    if (!name) return finErrors.notConnected();
    if (!missing.has(nameKey(name))) {
      missing.set(nameKey(name), name);
      emit();
    }
    return connectionMissing(name);
  };

  /**
   * An evaluation that waits for the connections to load, or one the not-connected ledger follows: the
   * ledger hears the FinErrors, and the caller's own failure (ctx.failure) is made last.
   */
  const evaluateSlowly = async <T>(call: FinCall, ctx: EvalContext): Promise<T> => {
    const failure = (error: unknown): unknown => {
      const fin = toFinError(error, '');
      return ctx.failure ? ctx.failure(fin) : fin;
    };
    const plain: EvalContext = { preview: ctx.preview, noteRead: ctx.noteRead, cellReads: ctx.cellReads };
    let service: FinService | undefined;
    let loaded: Loaded;
    try {
      loaded = await loadWithinLimit();
      service = pick(loaded, call.company)?.service;
    } catch (error) {
      throw failure(error);
    }
    const named = groupNamed(loaded, call.company);
    if (named?.accepted) {
      try {
        return (await sumOverGroup(named.group, resolveGroup(named.group, (entry) => memberOf(loaded, entry)), notHere, ctx.preview ? ctx : plain, call)) as T;
      } catch (error) {
        throw failure(error);
      }
    }
    if (named) {
      // Not reviewed here: the name is only a connection that is not here, and the cell says so.
      if (!ctx.preview) notConnected.failed(call);
      const missingOne = notHere(call.company);
      throw failure(new FinError(missingOne.kind, `${missingOne.message}. This workbook also has a group "${named.group.name}": its figures are added up once you accept it in the add-in's pane`, missingOne.code));
    }
    if (!service) {
      if (!ctx.preview) notConnected.failed(call);
      throw failure(notHere(call.company));
    }
    if (ctx.preview) return service.evaluate<T>(call, ctx);
    try {
      const value = await service.evaluate<T>(call, plain);
      notConnected.ended(call);
      return value;
    } catch (error) {
      notConnected.ended(call, error);
      throw failure(error);
    }
  };

  /** The formulas left showing an error for want of this connection are recalculated (or asked about). */
  const recalculateFor = (connected: Connected): Promise<void> =>
    notConnected.connected({
      service: connected.service,
      reader: connected.reader,
      // Only the cells showing an error: one showing a figure may have no answer cached on this computer.
      recalculate: () => host.recalculate({ errorsOnly: true }),
      quietMs: REFRESH_QUIET_MS,
    });

  /**
   * A name no other company's connection has: the one asked for, else the default with a number added. A
   * formula's company argument is an exact company id before it is a name, so a name that reads as another
   * company's id would never be reached: refused.
   */
  const nameFor = (wanted: string | undefined, fallback: string, companyId: string, others: StoredConnection[]): string => {
    const taken = (name: string) => others.some((c) => c.companyId !== companyId && nameKey(c.name) === nameKey(name));
    const asked = wanted?.trim().slice(0, MAX_NAME_LENGTH);
    if (asked) {
      if (taken(asked)) throw new ConnectionNameTaken(asked);
      if (asked.toLowerCase().startsWith(COMPANY_ID_PREFIX) && asked !== companyId) {
        throw new ConnectionNameTaken(asked, `"${asked}" reads as a company id (${COMPANY_ID_PREFIX}…), and formulas take a company id for that company: pick another name`);
      }
      return asked;
    }
    let name = fallback.trim().slice(0, MAX_NAME_LENGTH) || companyId;
    for (let n = 2; taken(name); n++) name = `${fallback.trim().slice(0, MAX_NAME_LENGTH - 4)} ${n}`;
    return name;
  };

  const runtime: Runtime = {
    host,
    getRuntimeHost: () => host,
    meter,
    cache,
    getFinService: async (company) => (await loadConnected(company))?.service ?? null,
    getReader: async (company) => (await loadConnected(company))?.reader ?? null,
    getClient: async (company) => (await loadConnected(company))?.client ?? null,
    getConnection: async (company) => (await loadConnected(company))?.connection ?? null,

    async listConnections() {
      const loaded = await load();
      return { defaultName: loaded.defaultOne?.connection.name ?? null, list: loaded.list.map((c) => c.connection) };
    },

    evaluateFin<T>(call: FinCall, given: EvalContext): Promise<T> {
      const ctx = given.preview ? given : cellContext(given);
      // A recalculation calls this thousands of times in one go: connected, and no formula left showing
      // "Not connected" to follow, the service takes the call there and then (it queues it, turns.ts).
      const service = current ? pick(current, call.company)?.service : undefined;
      if (service && (ctx.preview || !notConnected.following())) return service.evaluate<T>(call, ctx);
      // A group (several companies added up) goes the slow way: it waits for every one of its connections.
      return evaluateSlowly<T>(call, ctx);
    },

    notConnectedFormulas: () => notConnected.current(),
    recalculateNotConnected: () => notConnected.recalculate(),
    dismissNotConnected: () => notConnected.dismiss(),
    missingConnections: () => [...missing.values()],

    async identify(params) {
      // A client of its own, on the shared meter, so the GET /company is on the company's bill.
      const probe = clientFor(params.baseUrl, params.apiKey);
      const company = await readerFor(probe).call('/company', (o) => probe.company.retrieve(o));
      return { company, baseUrl: probe.baseUrl, calls: 1 };
    },

    async connect(params) {
      const probe = clientFor(params.baseUrl, params.apiKey, params.companyId);
      const companyId = params.companyId ?? (await runtime.identify(params)).company.id;
      const loaded = await load();
      const others = loaded.list.map((c) => c.connection);
      const earlier = others.find((c) => c.companyId === companyId);
      const name = nameFor(params.name, earlier?.name ?? companyId, companyId, others);
      const connection: StoredConnection = { name, baseUrl: probe.baseUrl, companyId, keyFingerprint: await keyFingerprint(params.apiKey) };
      if (params.fiscalYearStartMonth !== undefined) connection.fiscalYearStartMonth = params.fiscalYearStartMonth;
      // The company's derivation setting stays what it was unless asked (a new key for the same API).
      const derive = params.deriveFromStatements ?? earlier?.deriveFromStatements;
      if (derive === false) {
        connection.deriveFromStatements = false;
        if (params.deriveFromStatements === undefined && earlier?.derivationOffBecause) connection.derivationOffBecause = earlier.derivationOffBecause;
      }
      await claimCache(secrets, companyId, params.apiKey, () => cache.clear(companyId));
      const stored: StoredConnections = await storeConnection(secrets, params.apiKey, connection, params.makeDefault !== false);
      generation += 1;
      const built = build(connection, params.apiKey);
      await applyClosedBooks(built);
      const kept = (current ?? loaded).list.filter((c) => c.connection.companyId !== companyId);
      install([...kept, built], stored.defaultName);
      emit();
      await recalculateFor(built);
      return connection;
    },

    async setDerivation(on, options = {}) {
      const loaded = await load();
      const chosen = pick(loaded, options.company);
      if (!chosen) return;
      chosen.reader.derivations.setEnabled(on);
      delete chosen.connection.deriveFromStatements;
      delete chosen.connection.derivationOffBecause;
      if (!on) chosen.connection.deriveFromStatements = false;
      if (!on && options.because) chosen.connection.derivationOffBecause = options.because;
      await storeConnectionSettings(secrets, chosen.connection.companyId, { deriveFromStatements: chosen.connection.deriveFromStatements, derivationOffBecause: chosen.connection.derivationOffBecause });
      emit();
    },

    async setDefault(company) {
      const loaded = await load();
      const chosen = pick(loaded, company);
      if (!chosen) return;
      const stored = await storeDefault(secrets, chosen.connection.name);
      generation += 1;
      install(loaded.list, stored.defaultName);
      emit();
    },

    /**
     * Forgets one connection's key, and nothing else. Cached answers stay for this key's next connect (see
     * claimCache) unless the user asks to forget them too.
     */
    async disconnect(options = {}) {
      const loaded = await load();
      const leaving = pick(loaded, options.company);
      if (!leaving) return;
      const companyId = leaving.connection.companyId;
      const stored = await forgetConnection(secrets, companyId);
      if (options.forgetCachedAnswers) {
        await cache.clear(companyId);
        await forgetCacheOwner(secrets, companyId);
      }
      generation += 1;
      install(
        loaded.list.filter((c) => c !== leaving),
        stored.defaultName,
      );
      // A question still open about the formulas that showed Not connected is asked again at the next connect.
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
     * Refresh all for the ribbon command and the pane: clears each company's cached answers, recalculates
     * this workbook's FIN cells once, waits for them and reports what it spent ("Refresh all spent 13 calls").
     */
    async refreshAll(options = {}) {
      const loaded = await load();
      const { company, ...refresh } = options;
      const chosen = company === undefined ? loaded.list : [pick(loaded, company)].filter((c): c is Connected => c !== null);
      if (chosen.length === 0) {
        const why = company === undefined ? NOT_CONNECTED_MESSAGE : connectionMissing(company).message;
        return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `Refresh all: nothing refreshed. ${why}` };
      }
      const targets = chosen.map((c) => ({ name: c.connection.name, service: c.service }));
      return refreshConnections(targets, { recalculate: () => host.recalculate(), quietMs: REFRESH_QUIET_MS, ...refresh });
    },

    cellRequests(cells, company) {
      const companyOf = (tag?: string) => (current ? pick(current, tag)?.connection.companyId : undefined);
      const wanted = companyOf(company);
      return cellReads.requestsOf(cells, (tag) => wanted !== undefined && companyOf(tag) === wanted);
    },

    cellCompanies(cells) {
      // The cells' company arguments as their last evaluations took them, each resolved as evaluateFin does.
      const tags = new Set<string | undefined>();
      const { unknown } = cellReads.requestsOf(cells, (tag) => {
        tags.add(tag);
        return false;
      });
      const ids = new Set<string>();
      for (const tag of tags) {
        const connected = current ? pick(current, tag) : null;
        if (connected) ids.add(connected.connection.companyId);
        const named = current && !connected ? groupNamed(current, tag) : undefined;
        if (current && named?.accepted) for (const m of resolveGroup(named.group, (entry) => memberOf(current!, entry)).connected) ids.add(m.companyId);
      }
      return { companyIds: [...ids], unknown };
    },

    async refreshCells(cells, options) {
      const { company, ...refresh } = options;
      const service = (await loadConnected(company))?.service;
      if (!service) {
        const why = company === undefined ? NOT_CONNECTED_MESSAGE : connectionMissing(company).message;
        return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `${options.label}: nothing refreshed. ${why}` };
      }
      return service.refreshAll({ recalculate: () => host.recalculate({ cells }), quietMs: REFRESH_QUIET_MS, scope: 'changed', ...refresh });
    },

    reloadGroups: () => loadGroups(),

    async workbookGroups() {
      const loaded = await load();
      await loadGroups();
      return [...groups.values()].map((group): GroupReview => {
        const resolved = resolveGroup(group, (entry) => memberOf(loaded, entry));
        const shadow = pick(loaded, group.name);
        return {
          name: group.name,
          entries: group.members,
          companies: resolved.connected.map((m) => ({ name: m.name, companyId: m.companyId })),
          missing: resolved.missing,
          accepted: accepted.has(groupDefinition(group)),
          ...(shadow ? { shadowedBy: shadow.connection.name } : {}),
        };
      });
    },

    async acceptGroup(name) {
      const loaded = await load();
      await loadGroups();
      const group = groups.get(nameKey(name));
      if (!group) throw new Error(`This workbook has no group "${name}" (any more): look again.`);
      const shadow = pick(loaded, group.name);
      if (shadow) throw new Error(`"${group.name}" is the connection ${shadow.connection.name} here: formulas naming it read that company. Give the group another name.`);
      accepted = new Set([...accepted, groupDefinition(group)]);
      await storeAccepted(secrets, accepted);
      emit();
      // The cells that named it showed "Connect …": now they add up its companies.
      await host.recalculate({ errorsOnly: true });
    },

    async refreshedText(company) {
      const service = (await loadConnected(company))?.service;
      if (!service) throw notHere(company);
      return service.refreshedText();
    },

    dispose() {
      for (const c of current?.list ?? []) c.unsubscribe();
      current = null;
      generation += 1;
      listeners.clear();
      batchListeners.clear();
    },
  };
  return runtime;
}
