// The runtime's refreshes of FIN cells: Refresh all (every connection's, or one's, with one recalculation),
// a refresh of some cells (the selection, a sheet), and FIN.REFRESHED's text.

import { NOT_CONNECTED_MESSAGE, type FinCell, type FinError, type RefreshReport } from '../engine/fin';
import type { Connected } from './connected';
import { connectionMissing, REFRESH_QUIET_MS } from './finCells';
import type { RuntimeHost } from './host';
import { pick, type LoadedConnections } from './loadedConnections';
import { refreshConnections } from './refreshConnections';

export interface RefreshAllOptions {
  quietMs?: number;
  timeoutMs?: number;
  scope?: 'all' | 'changed';
  /** Only this connection (its name or company id). */
  company?: string;
}

/** Runtime's members of the same names (see there). */
export interface FinRefresh {
  refreshAll(options?: RefreshAllOptions): Promise<RefreshReport>;
  refreshCells(cells: readonly FinCell[], options: { label: string; company?: string; quietMs?: number; timeoutMs?: number }): Promise<RefreshReport>;
  refreshedText(company?: string): Promise<string>;
}

export interface FinRefreshDeps {
  host: Pick<RuntimeHost, 'recalculate'>;
  connections: Pick<LoadedConnections, 'load' | 'loadConnected'>;
  notHere: (company?: string) => FinError;
}

/** A refresh that had no connection to refresh, and says why. */
function nothingRefreshed(label: string, company: string | undefined): RefreshReport {
  const why = company === undefined ? NOT_CONNECTED_MESSAGE : connectionMissing(company).message;
  return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `${label}: nothing refreshed. ${why}` };
}

export function finRefresh({ host, connections, notHere }: FinRefreshDeps): FinRefresh {
  return {
    /**
     * Refresh all for the ribbon command and the pane: clears each company's cached answers, recalculates
     * this workbook's FIN cells once, waits for them and reports what it spent ("Refresh all spent 13 calls").
     */
    async refreshAll(options = {}) {
      const loaded = await connections.load();
      const { company, ...refresh } = options;
      const chosen = company === undefined ? loaded.list : [pick(loaded, company)].filter((c): c is Connected => c !== null);
      if (chosen.length === 0) return nothingRefreshed('Refresh all', company);
      const targets = chosen.map((c) => ({ name: c.connection.name, service: c.service }));
      return refreshConnections(targets, { recalculate: () => host.recalculate(), quietMs: REFRESH_QUIET_MS, ...refresh });
    },

    async refreshCells(cells, options) {
      const { company, ...refresh } = options;
      const service = (await connections.loadConnected(company))?.service;
      if (!service) return nothingRefreshed(options.label, company);
      return service.refreshAll({ recalculate: () => host.recalculate({ cells }), quietMs: REFRESH_QUIET_MS, scope: 'changed', ...refresh });
    },

    async refreshedText(company) {
      const service = (await connections.loadConnected(company))?.service;
      if (!service) throw notHere(company);
      return service.refreshedText();
    },
  };
}
