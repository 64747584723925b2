// Small React bindings over the pane's services: the session, the formulas that showed "Not connected", the
// call meter, the action log, today, and the engines of the connection (statements, transactions, the one
// workbook refresh).

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Client } from '../api';
import { calendarDateAt } from '../engine/dates';
import type { NotConnectedState } from '../engine/fin';
import type { CallsLeft } from '../engine/budget/callsLeft';
import { refreshWorkbook, type RefreshKind, type WorkbookRefreshResult } from '../engine/refresh/workbookRefresh';
import type { ScopeRefreshDeps } from '../engine/refresh/scopeRefresh';
import { createStatementsEngine, type StatementsEngine } from '../engine/statements';
import { createTransactionsEngine, type TransactionsEngine } from '../engine/transactions';
import type { ActionEntry } from './actionLog';
import type { PaneServices } from './services';
import { planLabel, type ConnectedState, type SessionState } from './session';

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

/** The transactions engine of the connection: its client and reader, the workbook, the push journal. */
export function useTransactionsEngine(services: PaneServices, connection: ConnectedState): TransactionsEngine {
  return useMemo(
    () =>
      createTransactionsEngine({
        client: connection.client,
        reader: connection.reader,
        gateway: services.gateway,
        journal: services.storage,
        owner: { keyFingerprint: connection.keyFingerprint, label: connection.companyName },
        now: services.now,
      }),
    [connection.client, connection.reader, connection.keyFingerprint, connection.companyName, services.gateway, services.storage, services.now],
  );
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

/** The workbook's one refresh (engine/refresh): FIN cells through the runtime, blocks, transactions tables. */
export function useWorkbookRefresh(services: PaneServices, connection: ConnectedState, statements: StatementsEngine, tables: TransactionsEngine): WorkbookRefresh {
  return useMemo(
    () => (kind, options) => {
      const store = connection.reader.stateStore;
      if (!store) throw new Error('The connection has no storage for its refresh record');
      return refreshWorkbook(
        {
          statements,
          tables,
          reader: connection.reader,
          feed: { client: connection.client, reader: connection.reader, store },
          refreshFormulas: (scope) => services.runtime.refreshAll({ scope }),
          meter: connection.client.meter,
        },
        { kind, ...options },
      );
    },
    [services.runtime, connection.reader, connection.client, statements, tables],
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
        ? { finCellsIn, requestsOf: (cells) => services.runtime.cellRequests(cells), refresh: (cells, label) => services.runtime.refreshCells(cells, { label }) }
        : undefined,
      meter: connection.client.meter,
    };
  }, [services.runtime, services.gateway, statements, tables, connection.reader, connection.client]);
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
