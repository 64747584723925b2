// Small React bindings over the pane's services: the session, the formulas that showed "Not connected", the
// call meter, the action log, today, and the engines of the connection (statements, transactions, the one
// workbook refresh).

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Client } from '../api';
import { calendarDateAt } from '../engine/dates';
import type { NotConnectedState } from '../engine/fin';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { CallsLeft } from '../engine/budget/callsLeft';
import { refreshCompanies, type CompanyRefresh } from '../engine/refresh/byCompany';
import { consolidatedWith } from '../engine/consolidation/insert';
import { refreshConsolidatedBlocks } from '../engine/consolidation/refreshBlocks';
import { planWorkbookRefresh, type WorkbookPlan } from '../engine/refresh/plan';
import type { RefreshKind, WorkbookRefreshDeps, WorkbookRefreshResult } from '../engine/refresh/workbookRefresh';
import type { ScopeRefreshDeps } from '../engine/refresh/scopeRefresh';
import { createStatementsEngine, type StatementsEngine } from '../engine/statements';
import { createTransactionsEngine, tablesByCompany, type TransactionsEngine } from '../engine/transactions';
import type { ActionEntry } from './actionLog';
import { connectedMembers } from './connectedMembers';
import type { PaneServices } from './services';
import { planLabel, type ConnectedState, type ConnectionSummary, type SessionState } from './session';

export function useSession(services: PaneServices): SessionState {
  return useSyncExternalStore(services.session.subscribe, services.session.getSnapshot, services.session.getSnapshot);
}

/** The formulas that showed "Not connected" before connecting, kept current (the runtime announces changes). */
export function useNotConnectedFormulas(services: PaneServices): NotConnectedState {
  const { runtime } = services;
  return useSyncExternalStore(runtime.onDataChange, runtime.notConnectedFormulas, runtime.notConnectedFormulas);
}

/** Calls counted this Pacific month for the client's company, kept current. */
export function useMeterCount(client: Client): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    const read = () => {
      void client.meter.count().then(
        (n) => {
          if (live) setCount(n);
        },
        () => undefined,
      );
    };
    read();
    const stop = client.meter.subscribe(read);
    return () => {
      live = false;
      stop();
    };
  }, [client]);
  return count;
}

export function useActions(services: PaneServices, companyId: string): readonly ActionEntry[] {
  const [entries, setEntries] = useState<readonly ActionEntry[]>(() => services.actions.entries(companyId));
  useEffect(() => {
    const update = () => setEntries(services.actions.entries(companyId));
    const stop = services.actions.subscribe(update);
    void services.actions.load(companyId).then(update);
    return stop;
  }, [services, companyId]);
  return entries;
}

/** The company's calendar date (America/Los_Angeles), the "today" of named periods. */
export function useToday(services: PaneServices): string {
  return calendarDateAt(services.now());
}

/** The statements engine of the connection: its reader, the workbook, the company's name. */
export function useStatements(services: PaneServices, connection: ConnectedState): StatementsEngine {
  return useMemo(
    () =>
      createStatementsEngine({
        gateway: services.gateway,
        reader: connection.reader,
        client: connection.client,
        companyName: connection.companyName,
        now: services.now,
        timeZone: services.timeZone,
      }),
    [services, connection.reader, connection.client, connection.companyName],
  );
}

/** The transactions engine of one connection: its client and reader, the workbook, the push journal. */
function transactionsEngineOf(
  services: PaneServices,
  c: { client: Client; reader: CachedReader; keyFingerprint: string; companyName: string },
): TransactionsEngine {
  return createTransactionsEngine({
    client: c.client,
    reader: c.reader,
    gateway: services.gateway,
    journal: services.storage,
    owner: { keyFingerprint: c.keyFingerprint, label: c.companyName },
    now: services.now,
  });
}

/** One of the other connections, as an engine needs it; null when the runtime has it no more. */
async function otherConnection(services: PaneServices, connection: ConnectedState, companyId: string) {
  const summary = connection.connections.find((c) => c.companyId === companyId);
  if (!summary) return null;
  const { runtime } = services;
  const [client, reader, stored] = await Promise.all([runtime.getClient(companyId), runtime.getReader(companyId), runtime.getConnection(companyId)]);
  if (!client || !reader || !stored?.keyFingerprint) return null;
  return { client, reader, keyFingerprint: stored.keyFingerprint, companyName: summary.companyName, name: summary.name, companyId };
}

/**
 * The transactions engine of the workbook: new tables are the default connection's; each table's refresh,
 * review and push run on the connection of the company it was pulled from (its key only).
 */
export function useTransactionsEngine(services: PaneServices, connection: ConnectedState): TransactionsEngine {
  return useMemo(() => {
    const own = transactionsEngineOf(services, connection);
    const others = new Map<string, Promise<TransactionsEngine | null>>();
    const engineFor = (companyId: string): Promise<TransactionsEngine | null> => {
      if (companyId === connection.companyId) return Promise.resolve(own);
      let engine = others.get(companyId);
      if (!engine) {
        engine = otherConnection(services, connection, companyId).then((c) => (c ? transactionsEngineOf(services, c) : null));
        others.set(companyId, engine);
      }
      return engine;
    };
    return tablesByCompany({ gateway: services.gateway, own, engineFor });
  }, [services, connection]);
}

export type WorkbookRefresh = (
  kind: RefreshKind,
  options: {
    includeReference?: boolean;
    everything?: number;
    onPhase?: (phase: 'asking' | 'formulas') => void;
    onProgress?: (done: number, total: number, fetched: number) => void;
  },
) => Promise<WorkbookRefreshResult>;

/** What the workbook refresh needs of one connection. */
function refreshDeps(
  services: PaneServices,
  c: { client: Client; reader: CachedReader; companyId: string },
  statements: StatementsEngine,
  tables: TransactionsEngine,
): WorkbookRefreshDeps {
  const store = c.reader.stateStore;
  if (!store) throw new Error('The connection has no storage for its refresh record');
  return {
    statements,
    tables,
    reader: c.reader,
    feed: { client: c.client, reader: c.reader, store },
    // Only this company's answers are due; the other companies' cells read their cache.
    refreshFormulas: (scope) => services.runtime.refreshAll({ scope, company: c.companyId }),
    meter: c.client.meter,
  };
}

/**
 * The connection of `companyId` as the screens work on one: the default connection itself, or another
 * connected company with its own client, reader, plan and fiscal year. Null while another one loads, or
 * when it is connected no more.
 */
export function useConnectionOf(services: PaneServices, connection: ConnectedState, companyId: string): ConnectedState | null {
  const [other, setOther] = useState<ConnectedState | null>(null);
  const summary = connection.connections.find((c) => c.companyId === companyId);
  useEffect(() => {
    setOther(null);
    if (!summary || companyId === connection.companyId) return;
    let live = true;
    void otherConnection(services, connection, companyId).then((c) => {
      if (!live || !c) return;
      const { client, reader, keyFingerprint, companyName } = c;
      setOther({ ...connection, client, reader, keyFingerprint, companyId, companyName, baseUrl: summary.baseUrl, plan: summary.plan, fiscalYearStartMonth: summary.fiscalYearStartMonth });
    });
    return () => {
      live = false;
    };
  }, [services, connection, companyId, summary]);
  if (companyId === connection.companyId || !summary) return summary ? connection : null;
  return other?.companyId === companyId ? other : null;
}

/** Another company the workbook reads, with its statements engine. */
interface OtherCompany {
  name: string;
  companyId: string;
  client: Client;
  reader: CachedReader;
  plan: ConnectionSummary['plan'];
  statements: StatementsEngine;
}

/**
 * The other connections' companies this workbook reads: those with blocks or tables here, or answers cached.
 * A workbook of one company reads nothing more from the workbook than before.
 */
async function otherCompaniesRead(services: PaneServices, connection: ConnectedState): Promise<OtherCompany[]> {
  const others = connection.connections.slice(1);
  if (others.length === 0) return [];
  const bound = new Set((await services.gateway.listBindings()).map((b) => b.company));
  const out: OtherCompany[] = [];
  for (const summary of others) {
    const other = await otherConnection(services, connection, summary.companyId);
    if (!other) continue;
    const used = bound.has(other.companyId) || (await other.reader.cache.storedKeys(other.companyId).catch(() => [])).length > 0;
    if (!used) continue;
    const statements = createStatementsEngine({
      gateway: services.gateway,
      reader: other.reader,
      client: other.client,
      companyName: other.companyName,
      now: services.now,
      timeZone: services.timeZone,
    });
    out.push({ name: other.name, companyId: other.companyId, client: other.client, reader: other.reader, plan: summary.plan, statements });
  }
  return out;
}

/**
 * The workbook's one refresh (engine/refresh): FIN cells through the runtime, blocks, transactions tables; for
 * each company the workbook reads (the default one, and the others otherCompaniesRead finds), on that
 * company's connection.
 */
export function useWorkbookRefresh(services: PaneServices, connection: ConnectedState, statements: StatementsEngine, tables: TransactionsEngine): WorkbookRefresh {
  return useMemo(
    () => async (kind, options) => {
      const companies: CompanyRefresh[] = [
        { name: connection.connections[0]?.name ?? connection.companyName, deps: refreshDeps(services, connection, statements, tables) },
      ];
      for (const other of await otherCompaniesRead(services, connection)) {
        companies.push({ name: other.name, deps: refreshDeps(services, other, other.statements, tables) });
      }
      // The consolidated statements last, through the caches the companies' refreshes marked.
      const consolidated = (stamp: 'full' | 'changes') =>
        refreshConsolidatedBlocks({ gateway: services.gateway, timeZone: services.timeZone, now: services.now }, (block) => connectedMembers(services.runtime, block), stamp);
      return refreshCompanies(companies, { kind, ...options }, consolidated);
    },
    [services, connection, statements, tables],
  );
}

/** What a workbook refresh would cost another company, and what its own cap leaves. */
export interface OtherCompanyPlan {
  name: string;
  plan: WorkbookPlan;
  left: CallsLeft | null;
}

/**
 * The refresh plans of the other companies the workbook reads (none for a workbook of one company): each
 * company's cost is on its own cap, so the pane shows each before a refresh that spans several.
 */
export function useOtherCompanyPlans(services: PaneServices, connection: ConnectedState, tables: TransactionsEngine): () => Promise<OtherCompanyPlan[]> {
  return useMemo(
    () => async () => {
      const out: OtherCompanyPlan[] = [];
      for (const other of await otherCompaniesRead(services, connection)) {
        const store = other.reader.stateStore;
        if (!store) continue;
        const count = (await tables.tables()).filter((t) => t.company === other.companyId).length;
        const plan = await planWorkbookRefresh(await other.statements.plan(), count, store, other.companyId, await consolidatedWith(services.gateway, other.companyId));
        const left = await other.client.meter.remaining(other.plan).catch(() => undefined);
        out.push({
          name: other.name,
          plan,
          left: left === undefined ? null : { left, plan: planLabel(other.plan), resetDate: other.client.meter.nextReset().date },
        });
      }
      return out;
    },
    [services, connection, tables],
  );
}

/** The refresh of the selection or the active sheet (engine/refresh/scopeRefresh): what it needs of the pane. */
export function useScopeRefreshDeps(services: PaneServices, connection: ConnectedState, statements: StatementsEngine, tables: TransactionsEngine): ScopeRefreshDeps {
  return useMemo(() => {
    const host = services.runtime.getRuntimeHost();
    const finCellsIn = host?.finCellsIn?.bind(host);
    return {
      gateway: services.gateway,
      statements,
      tables,
      reader: connection.reader,
      cells: finCellsIn
        ? {
            finCellsIn,
            // The pane's connection: its reader marks what they read, and cells of other companies are left out.
            requestsOf: (cells) => services.runtime.cellRequests(cells, connection.companyId),
            refresh: (cells, label) => services.runtime.refreshCells(cells, { label, company: connection.companyId }),
          }
        : undefined,
      meter: connection.client.meter,
      consolidated: { gateway: services.gateway, timeZone: services.timeZone, now: services.now, membersOf: (block) => connectedMembers(services.runtime, block) },
    };
  }, [services.runtime, services.gateway, services.timeZone, services.now, statements, tables, connection.reader, connection.client, connection.companyId]);
}

/** The calls left this month on the connection's plan, when its cap is known (asked afresh each time). */
export function useCallsLeft(connection: ConnectedState): () => Promise<CallsLeft | null> {
  return useMemo(
    () => async () => {
      const left = await connection.client.meter.remaining(connection.plan).catch(() => undefined);
      if (left === undefined) return null;
      return { left, plan: planLabel(connection.plan), resetDate: connection.client.meter.nextReset().date };
    },
    [connection.client, connection.plan],
  );
}

/**
 * The calls left this month of the company a table or block belongs to (the default one when omitted): each
 * company has its own cap, on the plan the user gave for it.
 */
export function useCompanyCallsLeft(services: PaneServices, connection: ConnectedState): (companyId?: string) => Promise<CallsLeft | null> {
  const own = useCallsLeft(connection);
  return useMemo(
    () => async (companyId) => {
      if (companyId === undefined || companyId === connection.companyId) return own();
      const summary = connection.connections.find((c) => c.companyId === companyId);
      const client = summary ? await services.runtime.getClient(companyId) : null;
      if (!summary || !client) return null;
      const left = await client.meter.remaining(summary.plan).catch(() => undefined);
      if (left === undefined) return null;
      return { left, plan: planLabel(summary.plan), resetDate: client.meter.nextReset().date };
    },
    [services, connection, own],
  );
}
