// The page's one runtime, shared by the custom functions, the task pane, the ribbon commands and the
// workbench. Inside Office it is built over Office's storage on first use; configureRuntime installs
// another host (the workbench's browser storage, a test's memory stores) and drops the old runtime.

import type { Client } from '../api';
import {
  FinError,
  NOT_CONNECTED_MESSAGE,
  NOTHING_NOT_CONNECTED,
  finErrors,
  type EvalContext,
  type FinBatch,
  type FinCall,
  type FinCell,
  type FinService,
  type NotConnectedState,
  type RefreshReport,
} from '../engine/fin';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { ReadRequest } from '../engine/reader/requestCache';
import { createOfficeRuntimeHost, hasOfficeRuntime } from '../excel/runtimeStorage';
import type { ConnectParams, StoredConnection } from './connection';
import type { RuntimeHost } from './host';
import { createRuntime, type ConnectionList, type DisconnectOptions, type GroupReview, type Identified, type RefreshAllOptions, type Runtime } from './runtime';

let shared: Runtime | null = null;
let configured: RuntimeHost | null = null;
let stopForwarding: (() => void) | null = null;
const listeners = new Set<() => void>();
const batchListeners = new Set<(batch: FinBatch) => void>();

function emitBatch(batch: FinBatch): void {
  for (const listener of [...batchListeners]) {
    try {
      listener(batch);
    } catch {
      // A listener's bug must not break the runtime.
    }
  }
}

function emit(): void {
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // A listener's bug must not break the runtime.
    }
  }
}

/** Installs the host (the workbench, tests). null goes back to the default (Office's, inside Office). */
export function configureRuntime(next: RuntimeHost | null): void {
  stopForwarding?.();
  stopForwarding = null;
  shared?.dispose();
  shared = null;
  configured = next;
  emit();
}

/** The host: the configured one, else Office's when running inside Office, else null. */
export function getRuntimeHost(): RuntimeHost | null {
  if (!configured && hasOfficeRuntime()) configured = createOfficeRuntimeHost();
  return configured;
}

function sharedRuntime(): Runtime {
  if (!shared) {
    const host = getRuntimeHost();
    if (!host) throw new FinError('na', 'Office storage is not available: open the workbook in Excel with the add-in', 'no_host');
    shared = createRuntime(host);
    const stopData = shared.onDataChange(emit);
    const stopBatches = shared.onFinBatch(emitBatch);
    stopForwarding = () => {
      stopData();
      stopBatches();
    };
  }
  return shared;
}

/** The shared runtime, or null outside Office with nothing configured. */
function maybeShared(): Runtime | null {
  return getRuntimeHost() ? sharedRuntime() : null;
}

export const getFinService = async (company?: string): Promise<FinService | null> => (await maybeShared()?.getFinService(company)) ?? null;
export const getReader = async (company?: string): Promise<CachedReader | null> => (await maybeShared()?.getReader(company)) ?? null;
export const getClient = async (company?: string): Promise<Client | null> => (await maybeShared()?.getClient(company)) ?? null;
export const getConnection = async (company?: string): Promise<StoredConnection | null> => (await maybeShared()?.getConnection(company)) ?? null;
export const listConnections = async (): Promise<ConnectionList> => (await maybeShared()?.listConnections()) ?? { defaultName: null, list: [] };
export const identify = (params: { baseUrl: string; apiKey: string }): Promise<Identified> => sharedRuntime().identify(params);
export const connect = (params: ConnectParams): Promise<StoredConnection> => sharedRuntime().connect(params);
export const setDefault = (company: string): Promise<void> => sharedRuntime().setDefault(company);
export const setDerivation = (on: boolean, options?: { company?: string; because?: string }): Promise<void> => sharedRuntime().setDerivation(on, options);
export const disconnect = (options?: DisconnectOptions): Promise<void> => sharedRuntime().disconnect(options);
export const refreshedText = (company?: string): Promise<string> => sharedRuntime().refreshedText(company);
/** Connection names the workbook's formulas asked for that are not connected here; none outside Office. */
export const missingConnections = (): string[] => maybeShared()?.missingConnections() ?? [];

/** One FIN evaluation (the custom functions' only way in): see Runtime.evaluateFin. */
export function evaluateFin<T>(call: FinCall, ctx: EvalContext): Promise<T> {
  const runtime = maybeShared();
  if (runtime) return runtime.evaluateFin<T>(call, ctx);
  const error = finErrors.notConnected();
  return Promise.reject(ctx.failure ? ctx.failure(error) : error);
}

/** The formulas that showed "Not connected" (see Runtime.notConnectedFormulas); nothing outside Office. */
export const notConnectedFormulas = (): NotConnectedState => maybeShared()?.notConnectedFormulas() ?? NOTHING_NOT_CONNECTED;
export const recalculateNotConnected = (): Promise<NotConnectedState> => sharedRuntime().recalculateNotConnected();
export const dismissNotConnected = (): void => maybeShared()?.dismissNotConnected();

/** Refresh all of the FIN cells; not connected (or outside Office) refreshes nothing and says so. */
export async function refreshAll(options?: RefreshAllOptions): Promise<RefreshReport> {
  const runtime = maybeShared();
  if (!runtime) return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `Refresh all: nothing refreshed. ${NOT_CONNECTED_MESSAGE}` };
  return runtime.refreshAll(options);
}

/** What these FIN cells read of a company when last evaluated (Runtime.cellRequests); nothing known outside Office. */
export function cellRequests(cells: readonly FinCell[], company?: string): { requests: ReadRequest[]; unknown: number; elsewhere: number } {
  return maybeShared()?.cellRequests(cells, company) ?? { requests: [], unknown: cells.length, elsewhere: 0 };
}

/** The companies these FIN cells read when last evaluated (Runtime.cellCompanies); none known outside Office. */
export function cellCompanies(cells: readonly FinCell[]): { companyIds: string[]; unknown: number } {
  return maybeShared()?.cellCompanies(cells) ?? { companyIds: [], unknown: cells.length };
}

/** Recalculates only these FIN cells and waits for a company's (Runtime.refreshCells). */
export async function refreshCells(cells: readonly FinCell[], options: { label: string; company?: string; quietMs?: number; timeoutMs?: number }): Promise<RefreshReport> {
  const runtime = maybeShared();
  if (!runtime) return { spent: 0, due: 0, kept: 0, settled: true, limited: false, durationMs: 0, message: `${options.label}: nothing refreshed. ${NOT_CONNECTED_MESSAGE}` };
  return runtime.refreshCells(cells, options);
}

/** Reads the workbook's groups of companies again (Runtime.reloadGroups); nothing outside Office. */
export async function reloadGroups(): Promise<void> {
  await maybeShared()?.reloadGroups();
}

/** The workbook's groups for review (Runtime.workbookGroups); none outside Office. */
export const workbookGroups = async (): Promise<GroupReview[]> => (await maybeShared()?.workbookGroups()) ?? [];

/** The user accepted a group of the workbook (Runtime.acceptGroup). */
export const acceptGroup = (name: string): Promise<void> => sharedRuntime().acceptGroup(name);

/** Called when FIN data changes (new data-as-of time, a refresh, the cap block, connect/disconnect). */
export function onDataChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Called after each settled batch of FIN evaluations, whichever runtime is installed (the pane's usage log). */
export function onFinBatch(listener: (batch: FinBatch) => void): () => void {
  batchListeners.add(listener);
  return () => {
    batchListeners.delete(listener);
  };
}
