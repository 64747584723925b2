// Small React bindings over the pane's services: the session, the formulas that showed "Not connected", the
// call meter, the action log, today, and another connected company as the screens work on it. The engines,
// the refreshes and the cost rules are the runtime's (the session's connected state carries its workspace).

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Client } from '../../api';
import type { NotConnectedState } from '../../engine/fin';
import type { CompanyWorkspace } from '../../runtime';
import type { ActionEntry } from '../actionLog';
import type { PaneServices } from '../services';
import type { ConnectedState, SessionState } from '../session';
import { calendarDateAt } from '../../runtime/screenKit';
import { useLiveEffect } from './useLiveEffect';

export function useSession(services: PaneServices): SessionState {
  return useSyncExternalStore(services.session.subscribe, services.session.getSnapshot, services.session.getSnapshot);
}

/** The formulas that showed "Not connected" before connecting, kept current (the runtime announces changes). */
export function useNotConnectedFormulas(services: PaneServices): NotConnectedState {
  const { runtime } = services;
  return useSyncExternalStore(runtime.onDataChange, runtime.notConnectedFormulas, runtime.notConnectedFormulas);
}

/** The team's count through the gateway this Pacific month (null: none came), kept current. */
export function useTeamCount(client: Client): { count: number; uncertain: boolean } | null {
  const [team, setTeam] = useState<{ count: number; uncertain: boolean } | null>(null);
  useLiveEffect(
    (ifLive) => {
      const read = () => {
        void client.meter.team().then(ifLive(setTeam), () => undefined);
      };
      read();
      return client.meter.subscribe(read);
    },
    [client],
  );
  return team;
}

/** Calls counted this Pacific month for the client's company, kept current. */
export function useMeterCount(client: Client): number | null {
  const [count, setCount] = useState<number | null>(null);
  useLiveEffect(
    (ifLive) => {
      const read = () => {
        void client.meter.count().then(ifLive(setCount), () => undefined);
      };
      read();
      return client.meter.subscribe(read);
    },
    [client],
  );
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

/**
 * A connected company as the workspace has it (its engines, client and reader, its plan): the default one at
 * once, another once its connection is open. Null while it opens, or when it is connected no more.
 */
export function useCompany(connection: ConnectedState, companyId: string): CompanyWorkspace | null {
  const { workspace } = connection;
  const known = connection.connections.some((c) => c.companyId === companyId);
  const own = companyId === connection.companyId;
  const [other, setOther] = useState<CompanyWorkspace | null>(null);
  useLiveEffect(
    (ifLive) => {
      setOther(null);
      if (!known || own) return;
      void workspace.company(companyId).then(ifLive(setOther));
    },
    [workspace, companyId, known, own],
  );
  const [ownCompany, setOwnCompany] = useState<CompanyWorkspace | null>(null);
  useLiveEffect(
    (ifLive) => {
      void workspace.company().then(ifLive(setOwnCompany));
    },
    [workspace],
  );
  if (!known) return null;
  if (own) return ownCompany?.companyId === companyId ? ownCompany : null;
  return other?.companyId === companyId ? other : null;
}

/** The connection of `companyId` as the screens show one: the default connection, or another connected company's. */
export function useConnectionOf(connection: ConnectedState, companyId: string): ConnectedState | null {
  const company = useCompany(connection, companyId);
  return useMemo(() => {
    if (companyId === connection.companyId) return connection.connections.some((c) => c.companyId === companyId) ? connection : null;
    if (!company) return null;
    const { client, reader, keyFingerprint, companyName, baseUrl, plan, fiscalYearStartMonth } = company;
    return { ...connection, client, reader, keyFingerprint, companyId, companyName, baseUrl, plan, fiscalYearStartMonth };
  }, [connection, companyId, company]);
}
