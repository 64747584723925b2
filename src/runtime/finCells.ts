// The FIN cells as the runtime serves them: every evaluation comes through evaluateFin, with the company its
// formula names (the default one when it names none). What each cell read is kept (by its address) for a
// refresh of the selection or the sheet; one that finds no such connection is noted (the engine's
// NotConnectedFormulas, and the name for the pane to offer), and connecting recalculates the cells it left
// showing an error.

import { CellReads, FinError, NotConnectedFormulas, finErrors, toFinError, type EvalContext, type FinCall, type FinCell, type FinService, type NotConnectedState } from '../engine/fin';
import { nameKey } from './connection';
import type { Connected } from './connected';
import { resolveGroup, sumOverGroup } from './groups';
import type { RuntimeHost } from './host';
import { pick, type Loaded, type LoadedConnections } from './loadedConnections';
import type { WorkbookGroups } from './workbookGroups';

/**
 * Excel hands custom functions over in batches after calculate() returns. The host says how many
 * evaluations to expect and when Excel is done; a host that cannot leaves it to half a second without
 * any FIN work.
 */
export const REFRESH_QUIET_MS = 500;

/** The error of a formula whose company argument names no connection on this computer. */
export function connectionMissing(name: string): FinError {
  return new FinError('na', `Connect "${name}" to fetch`, 'connection_missing');
}

export interface FinCells {
  evaluateFin<T>(call: FinCall, ctx: EvalContext): Promise<T>;
  /** The error of a formula whose connection is not here: the named one's, else Not connected (the name noted). */
  notHere(company?: string): FinError;
  /** The formulas left showing an error for want of this connection are recalculated (or asked about). */
  recalculateFor(connected: Connected): Promise<void>;
  /** These connections are here now: their names are no longer missing. */
  connected(names: readonly string[]): void;
  /** A connection left: a question still open about the formulas that showed Not connected is asked again at the next connect. */
  disconnected(): void;
  notConnectedFormulas(): NotConnectedState;
  recalculateNotConnected(): Promise<NotConnectedState>;
  dismissNotConnected(): void;
  missingConnections(): string[];
  cellRequests(cells: readonly FinCell[], company?: string): ReturnType<CellReads['requestsOf']>;
  cellCompanies(cells: readonly FinCell[]): { companyIds: string[]; unknown: number };
}

export interface FinCellsDeps {
  host: Pick<RuntimeHost, 'recalculate'>;
  connections: Pick<LoadedConnections, 'current' | 'loadWithinLimit'>;
  groups: Pick<WorkbookGroups, 'named' | 'memberOf'>;
  emit: () => void;
}

export function finCells({ host, connections, groups, emit }: FinCellsDeps): FinCells {
  const notConnected = new NotConnectedFormulas();
  notConnected.onChange(emit);
  /** What each FIN cell read (by its address), for a refresh of the selection or the sheet. */
  const cellReads = new CellReads();
  /** The callers' contexts (functions.ts has one for cells) with the cells' reads kept: made once, not per cell. */
  const cellContexts = new WeakMap<EvalContext, EvalContext>();
  const cellContext = (given: EvalContext): EvalContext => {
    let ctx = cellContexts.get(given);
    if (!ctx) cellContexts.set(given, (ctx = { ...given, cellReads }));
    return ctx;
  };
  /** Names formulas asked for that no connection has, by nameKey (the name as typed first). */
  const missing = new Map<string, string>();

  const notHere = (company?: string): FinError => {
    const name = company?.trim();
    if (!name) return finErrors.notConnected();
    if (!missing.has(nameKey(name))) {
      missing.set(nameKey(name), name);
      emit();
    }
    return connectionMissing(name);
  };

  const evaluateSlowly = slowEvaluation({ connections, groups, notConnected, notHere });

  return {
    evaluateFin<T>(call: FinCall, given: EvalContext): Promise<T> {
      const ctx = given.preview ? given : cellContext(given);
      // A recalculation calls this thousands of times in one go: connected, and no formula left showing
      // "Not connected" to follow, the service takes the call there and then (it queues it, turns.ts).
      const current = connections.current();
      const service = current ? pick(current, call.company)?.service : undefined;
      if (service && (ctx.preview || !notConnected.following())) return service.evaluate<T>(call, ctx);
      // A group (several companies added up) goes the slow way: it waits for every one of its connections.
      return evaluateSlowly<T>(call, ctx);
    },
    notHere,
    recalculateFor: (connected) =>
      notConnected.connected({
        service: connected.service,
        reader: connected.reader,
        // Only the cells showing an error: one showing a figure may have no answer cached on this computer.
        recalculate: () => host.recalculate({ errorsOnly: true }),
        quietMs: REFRESH_QUIET_MS,
      }),
    connected: (names) => {
      for (const name of names) missing.delete(nameKey(name));
    },
    disconnected: () => notConnected.disconnected(),
    notConnectedFormulas: () => notConnected.current(),
    recalculateNotConnected: () => notConnected.recalculate(),
    dismissNotConnected: () => notConnected.dismiss(),
    missingConnections: () => [...missing.values()],

    cellRequests(cells, company) {
      const current = connections.current();
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
      const current = connections.current();
      for (const tag of tags) {
        const connected = current ? pick(current, tag) : null;
        if (connected) ids.add(connected.connection.companyId);
        const named = current && !connected ? groups.named(current, tag) : undefined;
        if (current && named?.accepted) for (const m of resolveGroup(named.group, (entry) => groups.memberOf(current, entry)).connected) ids.add(m.companyId);
      }
      return { companyIds: [...ids], unknown };
    },
  };
}

interface SlowEvaluationDeps {
  connections: Pick<LoadedConnections, 'loadWithinLimit'>;
  groups: Pick<WorkbookGroups, 'named' | 'memberOf'>;
  notConnected: NotConnectedFormulas;
  notHere: (company?: string) => FinError;
}

/**
 * An evaluation that waits for the connections to load, or one the not-connected ledger follows: the
 * ledger hears the FinErrors, and the caller's own failure (ctx.failure) is made last.
 */
function slowEvaluation({ connections, groups, notConnected, notHere }: SlowEvaluationDeps) {
  return async <T>(call: FinCall, ctx: EvalContext): Promise<T> => {
    const failure = (error: unknown): unknown => {
      const fin = toFinError(error, '');
      return ctx.failure ? ctx.failure(fin) : fin;
    };
    const plain: EvalContext = { preview: ctx.preview, noteRead: ctx.noteRead, cellReads: ctx.cellReads };
    let service: FinService | undefined;
    let loaded: Loaded;
    try {
      loaded = await connections.loadWithinLimit();
      service = pick(loaded, call.company)?.service;
    } catch (error) {
      throw failure(error);
    }
    const named = groups.named(loaded, call.company);
    if (named?.accepted) {
      try {
        return (await sumOverGroup(named.group, resolveGroup(named.group, (entry) => groups.memberOf(loaded, entry)), notHere, ctx.preview ? ctx : plain, call)) as T;
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
}
