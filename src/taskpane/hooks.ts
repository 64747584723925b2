// Small React bindings over the pane's services: the session, the call meter, the action log, today, and
// the statements engine of the connection.

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Client } from '../api';
import { calendarDateAt } from '../engine/dates';
import { createStatementsEngine, type StatementsEngine } from '../engine/statements';
import type { ActionEntry } from './actionLog';
import type { PaneServices } from './services';
import type { ConnectedState, SessionState } from './session';

export function useSession(services: PaneServices): SessionState {
  return useSyncExternalStore(services.session.subscribe, services.session.getSnapshot, services.session.getSnapshot);
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
