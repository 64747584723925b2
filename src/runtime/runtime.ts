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
// createRuntime only composes the parts, each made by a factory given what it uses: the listeners
// (listeners.ts), a connection's client, reader and service (connected.ts), the connections as loaded
// (loadedConnections.ts), the workbook's groups (workbookGroups.ts), the FIN cells' evaluation and registry
// (finCells.ts), the refreshes of FIN cells (finRefresh.ts) and what the user does with connections
// (connectionCommands.ts).

import { CallMeter, type Client } from '../api';
import type { CellReads, EvalContext, FinBatch, FinCall, FinCell, FinService, NotConnectedState, RefreshReport } from '../engine/fin';
import type { CachedReader } from '../engine/reader/cachedReader';
import { RequestCache } from '../engine/reader/requestCache';
import type { StoredConnection } from './connection';
import { connectedFactory } from './connected';
import { connectionCommands, type ConnectionCommands } from './connectionCommands';
import { finCells } from './finCells';
import { finRefresh, type RefreshAllOptions } from './finRefresh';
import type { RuntimeHost } from './host';
import { createListeners } from './listeners';
import { loadedConnections } from './loadedConnections';
import { meterStoreMakingRoom, placementsApart, secretsMakingRoom, stateStoreMakingRoom } from './storageRoom';
import { workbookGroups, type GroupReview } from './workbookGroups';

export { ConnectionNameTaken, type ConnectionCommands, type ConnectionList, type DisconnectOptions, type Identified } from './connectionCommands';
export { connectionMissing } from './finCells';
export type { RefreshAllOptions } from './finRefresh';
export type { GroupReview } from './workbookGroups';

/** The shared runtime; its connection commands (list, identify, connect, set the default, derivation, disconnect) are ConnectionCommands'. */
export interface Runtime extends ConnectionCommands {
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

export function createRuntime(host: RuntimeHost): Runtime {
  const now = host.now ?? Date.now;
  const cache = new RequestCache(host.cacheStore, now);
  // The keys, the connections, the meter and the cap blocks share add-in storage with the cached answers: a
  // write of theirs that finds it full evicts answers and tries again (storageRoom.ts).
  const secrets = secretsMakingRoom(host.secrets, cache);
  const stateStore = placementsApart(stateStoreMakingRoom(host.cacheStore, cache), host.largeStore);
  const meter = new CallMeter({ store: meterStoreMakingRoom(host.meterStore, cache) });
  const { emit, emitBatch, onDataChange, onFinBatch, clear } = createListeners();
  const factory = connectedFactory({ host, meter, cache, stateStore, now, emit, emitBatch });
  const groups = workbookGroups({ host, secrets, emit });
  const connections = loadedConnections({ host, secrets, factory, beforeLoad: groups.load, installed: (names) => fin.connected(names) });
  const fin = finCells({ host, connections, groups, emit });
  const refresh = finRefresh({ host, connections, notHere: fin.notHere });
  const commands = connectionCommands({ secrets, cache, stateStore, factory, connections, fin, emit });
  const { loadConnected } = connections;

  return {
    host,
    getRuntimeHost: () => host,
    meter,
    cache,
    getFinService: async (company) => (await loadConnected(company))?.service ?? null,
    getReader: async (company) => (await loadConnected(company))?.reader ?? null,
    getClient: async (company) => (await loadConnected(company))?.client ?? null,
    getConnection: async (company) => (await loadConnected(company))?.connection ?? null,
    ...commands,
    evaluateFin: fin.evaluateFin,
    notConnectedFormulas: fin.notConnectedFormulas,
    recalculateNotConnected: fin.recalculateNotConnected,
    dismissNotConnected: fin.dismissNotConnected,
    missingConnections: fin.missingConnections,
    cellRequests: fin.cellRequests,
    cellCompanies: fin.cellCompanies,
    ...refresh,
    onDataChange,
    onFinBatch,
    reloadGroups: () => groups.load(),
    workbookGroups: async () => groups.review(await connections.load()),
    acceptGroup: async (name) => groups.accept(await connections.load(), name),
    dispose() {
      connections.dispose();
      clear();
    },
  };
}
