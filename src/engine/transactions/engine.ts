// The transactions feature as one object for the task pane (and tests): pull into a table, refresh,
// review and push edits, shift accounting dates, resume interrupted pushes, drill down. Host-free: it
// talks to the API through the client and to the workbook through the WorkbookGateway.

import { BINDING_KIND, stateOf, TableStore, type TableState } from './state';
import { openJournal } from './journal';
import { resolveDeps, type Deps, type EngineOptions, type ProgressFn } from './context';
import { appendLogEntry, entriesOfMarks } from '../pushLog/log';
import { jobMark, PushRecord } from './logEntry';
import { catchUp, pull, refresh, type CatchUp, type PullOptions, type PullResult, type RefreshResult, type SeenRun } from './pull';
import { review, type ReviewPlan } from './review';
import { push, type PushOptions, type PushResult } from './push';
import { shiftAccountingDates, type ShiftResult } from './shift';
import { discard, resume, unfinished, type ResumeResult, type UnfinishedPush } from './resume';
import { drillDown, drillDownFromSelection, type CellDrillOptions, type CellDrillResult, type DrillDownRequest, type DrillDownResult } from './drilldown';
import type { TransactionFilters } from './filters';
import type { SyncOutcome } from './pull';
import type { BindingRecord } from '../ports/workbook';

export interface TransactionsTableInfo {
  bindingId: string;
  /** The company the table was pulled from. */
  company: string;
  table: string;
  address: string;
  refreshedAt: string;
  state: TableState;
}

/**
 * Where a push, shift or resumed push went in the push log: its entry and the log's sheet; why it could not be
 * written (the changes were made all the same); or null when the run sent nothing and stopped on no error.
 */
export type LogWritten = { entry: number; sheet: string; warning?: string } | { error: string } | null;

export interface Logged {
  log: LogWritten;
}

export interface TransactionsEngine {
  /** Transactions tables of this workbook (from their bindings; no call). */
  tables(): Promise<TransactionsTableInfo[]>;
  pull(filters: Partial<Record<keyof TransactionFilters, unknown>>, options?: PullOptions): Promise<PullResult>;
  refresh(bindingId: string, onProgress?: ProgressFn): Promise<RefreshResult>;
  /** After a company-wide sync run: take its watermark when nothing in it concerns the table, else refresh. */
  catchUp(bindingId: string, run: SeenRun, onProgress?: ProgressFn): Promise<CatchUp>;
  /** What a push would send and cost; marks invalid rows. No call. */
  review(bindingId: string): Promise<ReviewPlan>;
  /** Pushes the table's edits; the push log gets the entry. */
  push(bindingId: string, options?: Omit<PushOptions, 'log'>): Promise<PushResult & Logged>;
  shiftAccountingDates(bindingId: string, ids: string[], months: number, options?: Omit<PushOptions, 'log'>): Promise<ShiftResult & Logged>;
  /** Unfinished pushes of the table, with what resuming each does or why it cannot (no call). */
  unfinished(bindingId: string): Promise<UnfinishedPush[]>;
  /** Resumes the unfinished pushes the user confirmed (by Idempotency-Key); nothing else is sent. */
  resume(bindingId: string, keys: readonly string[], onProgress?: ProgressFn): Promise<ResumeResult & { reread: SyncOutcome | null; calls: number | null; warnings: string[] } & Logged>;
  /** Forgets unfinished pushes the user chose to discard (no call). */
  discard(bindingId: string, keys: readonly string[]): Promise<void>;
  drillDown(request: DrillDownRequest, onProgress?: ProgressFn): Promise<DrillDownResult>;
  /** Drill-down into the selected cell: a number of a statement block, or a FIN formula with literal arguments. */
  drillDownFromSelection(options: CellDrillOptions): Promise<CellDrillResult>;
  /** Forgets a table's binding, flags and journal (when the user deleted the table). */
  forget(bindingId: string): Promise<void>;
}

/**
 * Runs a push, shift or resumed push with a record of what it sends, then appends its entry to the push log:
 * also when the run stops on an error after the table was opened (what was sent is logged as interrupted), and
 * before the error goes on. A log that cannot be written is said in the result's warnings: the changes stand.
 */
async function logged<T extends { warnings: string[] }>(deps: Deps, record: PushRecord, run: () => Promise<T>): Promise<T & Logged> {
  const write = async (): Promise<LogWritten> => {
    try {
      const entry = await record.entry(deps, { timeZone: deps.timeZone, connection: deps.connection, keyFingerprint: deps.owner.keyFingerprint });
      return entry ? await appendLogEntry(deps.gateway, entry) : null;
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  let result: T;
  try {
    result = await run();
  } catch (error) {
    record.failed(error);
    await write();
    throw error;
  }
  const log = await write();
  if (log && 'error' in log) result.warnings.push(`The push log could not be written (${log.error}); the changes above were made.`);
  if (log && 'warning' in log && log.warning) result.warnings.push(log.warning);
  return { ...result, log };
}

export function createTransactionsEngine(options: EngineOptions): TransactionsEngine {
  const deps = resolveDeps(options);
  // Each action the user starts gives the API its chance again after an outage pause.
  const run = <T>(action: () => Promise<T>): Promise<T> => {
    deps.newRun();
    return action();
  };
  return {
    async tables() {
      const bindings: BindingRecord[] = await deps.gateway.listBindings();
      const out: TransactionsTableInfo[] = [];
      for (const b of bindings) {
        if (b.kind !== BINDING_KIND || !b.table) continue;
        try {
          out.push({ bindingId: b.id, company: b.company, table: b.table, address: b.address, refreshedAt: b.refreshedAt, state: stateOf(b) });
        } catch {
          // A binding of an older or damaged shape is skipped, not fatal.
        }
      }
      return out;
    },
    pull: (filters, o) => run(() => pull(deps, filters, o)),
    refresh: (id, p) => run(() => refresh(deps, id, p)),
    catchUp: (id, seen, p) => run(() => catchUp(deps, id, seen, p)),
    review: (id) => review(deps, id),
    push: (id, o) =>
      run(() => {
        const record = new PushRecord('Push', deps.now());
        return logged(deps, record, () => push(deps, id, { ...o, log: record }));
      }),
    shiftAccountingDates: (id, ids, months, o) =>
      run(() => {
        const record = new PushRecord('Shift', deps.now());
        return logged(deps, record, () => shiftAccountingDates(deps, id, ids, months, { ...o, log: record }));
      }),
    unfinished: (id) => unfinished(deps, id),
    resume: (id, keys, p) =>
      run(async () => {
        const record = new PushRecord('Resumed push', deps.now());
        // The entries that left these jobs unfinished: the resumption names them.
        record.resumes = await entriesOfMarks(deps.gateway, keys.map(jobMark));
        return logged(deps, record, () => resume(deps, id, keys, p, record));
      }),
    discard: (id, keys) => discard(deps, id, keys),
    drillDown: (req, p) => drillDown(deps, req, p),
    drillDownFromSelection: (o) => drillDownFromSelection(deps, o),
    async forget(id) {
      const store = new TableStore(deps.gateway, id);
      const binding = await store.binding();
      const owner = { company: binding.company, keyFingerprint: deps.owner.keyFingerprint, startedBy: deps.owner.label };
      await openJournal({ store: deps.journalStore, gateway: deps.gateway, bindingId: id, owner, now: deps.now }).clear();
      await store.forget();
    },
  };
}
