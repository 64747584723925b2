// The slice of the shared runtime (src/runtime) the pane uses: its own module, so that the session and the
// services that build it both name it without naming each other.

import type { Client } from '../api';
import type { FinBatch, FinCell, FinService, NotConnectedState, RefreshReport } from '../engine/fin';
import type { ReadRequest } from '../engine/reader/requestCache';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { ConnectionCommands, GroupReview, RefreshAllOptions, PaneRequest, RuntimeHost, StoredConnection } from '../runtime';

/**
 * The slice of the shared runtime (src/runtime) the pane uses. The module itself satisfies it
 * (`import * as runtime from '../runtime'`), so pane, functions and commands share one client,
 * one cache and one call meter.
 */
export interface PaneRuntime extends ConnectionCommands {
  getRuntimeHost(): RuntimeHost | null;
  /** Each takes a connection (its name or company id); the default one when omitted. */
  getClient(company?: string): Promise<Client | null>;
  getReader(company?: string): Promise<CachedReader | null>;
  getConnection(company?: string): Promise<StoredConnection | null>;
  getFinService(company?: string): Promise<FinService | null>;
  /** Connection names the workbook's formulas asked for that are not connected here (the pane offers them). */
  missingConnections(): string[];
  /** Reads the workbook's groups of companies again, after the pane saved or removed one. */
  reloadGroups(): Promise<void>;
  /** The workbook's groups with their companies as connected here, accepted or waiting for review. */
  workbookGroups(): Promise<GroupReview[]>;
  /** The user accepted a group of the workbook (or saved it): its figures are added up on this computer. */
  acceptGroup(name: string): Promise<void>;
  refreshAll(options?: RefreshAllOptions): Promise<RefreshReport>;
  /** What these FIN cells read of a company when last evaluated, how many have no record yet, how many read another company. */
  cellRequests(cells: readonly FinCell[], company?: string): { requests: ReadRequest[]; unknown: number; elsewhere: number };
  /** The companies these FIN cells read when last evaluated (a group's for a cell naming one), and how many have no record. */
  cellCompanies(cells: readonly FinCell[]): { companyIds: string[]; unknown: number };
  /** Recalculates only these FIN cells (a refresh of the selection or the sheet), waiting for a company's. */
  refreshCells(cells: readonly FinCell[], options: { label: string; company?: string }): Promise<RefreshReport>;
  onDataChange(listener: () => void): () => void;
  /** The formulas that showed "Not connected" before connecting: the question, the recalculation, its outcome. */
  notConnectedFormulas(): NotConnectedState;
  recalculateNotConnected(): Promise<NotConnectedState>;
  dismissNotConnected(): void;
  /** After each settled batch of FIN evaluations: the action log puts what it spent on a line. */
  onFinBatch(listener: (batch: FinBatch) => void): () => void;
  /** What a ribbon command asks of the pane (Refresh opens the Refresh section, cost shown). */
  onPaneRequest(listener: (request: PaneRequest) => void): () => void;
}
