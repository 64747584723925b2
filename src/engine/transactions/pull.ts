// Pulling transactions into a new table, and refreshing it.
//
// The pull is an incremental-mode run from updated_after=0 with the table's filters (pages of 500 through
// the client's sync iterator). It costs the same pages as a classic listing, returns the same current
// rows (rule 4: updated_after=0 matches every transaction; filters match current state), and gives the
// run's pinned watermark, which is what a later incremental refresh starts from. A classic listing gives
// no watermark, and taking one from a separate call would leave a gap. Rows are collected in memory and
// written once through the gateway (which chunks the table write by request size), so 50,000 rows are a
// handful of Excel syncs, not one per page or row.

import type { TransactionTombstone, Transaction } from '../../api';
import { ApiError, generateIdempotencyKey, RequestChain } from '../../api';
import type { WriteValue } from '../ports/workbook';
import { plural, pluralGrouped, pluralNoun } from '../text/plural';
import { compareForTable, COL, TABLE_COLUMNS, transactionRow, TableView, KEY_COLUMN } from './columns';
import {
  callsSince,
  fetchReference,
  meterSnapshot,
  openTable,
  refreshDepartments,
  type Deps,
  type MeterSnapshot,
  type OpenTable,
  type ProgressFn,
} from './context';
import { DepartmentDirectory } from './departments';
import { allowsIncrementalRefresh, describeFilters, mutableFilterNames, normalizeFilters, toListParams, type TransactionFilters } from './filters';
import { reconcile, type ReconcileMode, type ReconcileOutput } from './reconcile';
import { BINDING_KIND, type Reference, type TableState } from './state';

export interface PullOptions {
  /** Name of the new sheet (made unique); default "Transactions". */
  sheetName?: string;
  /** Name of the new table (made unique); default "Transactions". */
  tableName?: string;
  onProgress?: ProgressFn;
}

export interface PullResult {
  bindingId: string;
  table: string;
  sheet: string;
  rows: number;
  pages: number;
  /** Refresh will be incremental (only immutable filters) or a re-pull. */
  incremental: boolean;
  /** Filters that force a re-pull on refresh (empty when incremental). */
  mutableFilters: string[];
  watermark: number;
  calls: number | null;
}

interface Collected {
  upserts: Transaction[];
  tombstones: TransactionTombstone[];
  pages: number;
  watermark: number;
}

interface RunOptions {
  /**
   * Sees each page's rows as they arrive; from the second page on, while the next page is on its way (the
   * sync's read-ahead). The first page's run waits for it: a pull holds the run there until its reference
   * lists are in.
   */
  onUpserts?: (rows: Transaction[]) => void | Promise<void>;
  /** The chain the run's pages belong to, when the caller opened it early (RequestLimiter.keepSlot). */
  chain?: RequestChain;
}

/** One sync run, buffered. The watermark is returned, not stored: the caller stores it after writing. */
async function collectRun(
  deps: Deps,
  filters: TransactionFilters | null,
  watermark: number,
  onProgress: ProgressFn | undefined,
  label: string,
  options: RunOptions = {},
): Promise<Collected> {
  const upserts: Transaction[] = [];
  const tombstones: TransactionTombstone[] = [];
  let pages = 0;
  const result = await deps.spend(
    '/transactions',
    (o) =>
      deps.client.transactions.sync({
        ...o,
        chain: options.chain,
        watermark,
        filters: filters ? toListParams(filters) : undefined,
        onPage: (page) => {
          upserts.push(...page.upserts);
          tombstones.push(...page.tombstones);
          pages++;
          onProgress?.({ phase: 'fetching', message: `${label}: ${upserts.length.toLocaleString('en-US')} rows so far (${plural(pages, 'page')})`, rows: upserts.length, pages });
          return options.onUpserts?.(page.upserts);
        },
      }),
    'run',
  );
  return { upserts, tombstones, pages, watermark: result.watermark };
}

/**
 * The run's rows, once each. The spec orders a run oldest-modified first, and a restarted run delivers rows
 * again in that order, so the later delivery of a row is its latest; a tombstone removes the row (a deletion
 * is final). No timestamp field is read: the name of the sync field besides `deleted` is not shown.
 */
function latestRows(run: Collected): Transaction[] {
  const byId = new Map<string, Transaction>();
  for (const t of run.upserts) byId.set(t.id, t);
  for (const d of run.tombstones) byId.delete(d.id);
  return [...byId.values()];
}

export async function pull(deps: Deps, filtersInput: Partial<Record<keyof TransactionFilters, unknown>>, options: PullOptions = {}): Promise<PullResult> {
  const checked = normalizeFilters(filtersInput);
  if (!checked.ok) throw new Error(checked.error);
  const filters = checked.value;
  const onProgress = options.onProgress;
  // The pages are the longest chain of calls wherever the pull runs beside other reads (a refresh, Excel
  // recalculating FIN cells): its slot is kept from the start, so the first page is not queued behind them.
  const chain = new RequestChain();
  deps.client.limiter.keepSlot(chain);
  try {
    const snap = await meterSnapshot(deps.client);

    onProgress?.({ phase: 'reference', message: 'Reading departments and the company profile…' });
    // The first page is asked for beside the reference lists and the workbook's date system, not after
    // them: a round trip less on every pull, for one call more when a list is refused (a key without
    // Accounting setup or Company: View), because the run waits at its first page for them and stops there.
    const needed = Promise.all([fetchReference(deps), deps.gateway.getDateSystem()]);
    needed.catch(() => undefined); // met by the run's first page, or below
    let rowsOf: ((t: Transaction) => WriteValue[]) | undefined;
    // Each page's rows are made while the next page is on its way, not all after the last one.
    const made = new Map<Transaction, WriteValue[]>();
    const run = await collectRun(deps, filters, 0, onProgress, 'Pulling', {
      chain,
      onUpserts: async (page) => {
        if (!rowsOf) {
          const [reference, system] = await needed;
          const dir = new DepartmentDirectory(reference.departments);
          rowsOf = (t) => transactionRow(t, dir, system);
        }
        for (const t of page) made.set(t, rowsOf(t));
      },
    });
    const [reference] = await needed;
    return await writePulled(deps, filters, options, { run, made, reference, snap });
  } finally {
    chain.close();
  }
}

/** The pulled rows written as a new table, recorded with the run's watermark. */
async function writePulled(
  deps: Deps,
  filters: TransactionFilters,
  options: PullOptions,
  pulled: { run: Collected; made: Map<Transaction, WriteValue[]>; reference: Reference; snap: MeterSnapshot },
): Promise<PullResult> {
  const { run, made, reference, snap } = pulled;
  const dir = new DepartmentDirectory(reference.departments);
  const onProgress = options.onProgress;
  const rows = latestRows(run)
    .sort(compareForTable)
    .map((t) => made.get(t)!);

  onProgress?.({ phase: 'writing', message: `Writing ${rows.length.toLocaleString('en-US')} rows to the workbook…`, rows: rows.length });
  const ref = await deps.gateway.createTable({
    name: options.tableName ?? 'Transactions',
    columns: [...TABLE_COLUMNS],
    rows,
    target: { kind: 'newSheet', name: options.sheetName ?? 'Transactions' },
    style: 'TableStyleLight9',
  });
  await deps.gateway.setListValidation(ref.name, COL.department, dir.assignablePaths());

  const incremental = allowsIncrementalRefresh(filters);
  const state: TableState = { version: 1, filters, incremental, watermark: run.watermark, reference };
  const bindingId = `transactions-${generateIdempotencyKey().slice(0, 8)}`;
  await deps.gateway.saveBinding({
    id: bindingId,
    kind: BINDING_KIND,
    parameters: state as unknown as Record<string, never>,
    company: await deps.companyId(),
    refreshedAt: new Date(deps.now()).toISOString(),
    address: ref.address,
    table: ref.name,
  });
  const calls = await callsSince(deps.client, snap);
  onProgress?.({ phase: 'done', message: `Pulled ${rows.length.toLocaleString('en-US')} transactions (${describeFilters(filters)}).`, rows: rows.length, pages: run.pages });
  return {
    bindingId,
    table: ref.name,
    sheet: ref.sheet,
    rows: rows.length,
    pages: run.pages,
    incremental,
    mutableFilters: mutableFilterNames(filters),
    watermark: run.watermark,
    calls,
  };
}

/** Refresh puts back at most this many typed-over rows one by one (a call each); more need a re-pull. */
export const RESTORE_LIMIT = 25;

/**
 * Rows whose cells were changed where a change is never sent (their Row check or Id no longer match) are
 * put back by Refresh: those the sync run brought anyway are rewritten by reconcile; the others are read
 * one by one (GET /transactions/{id}: a call each, at most RESTORE_LIMIT; a 404 is a deletion).
 */
async function restoreDamagedRows(deps: Deps, view: TableView, run: Collected, onProgress?: ProgressFn): Promise<void> {
  const brought = new Set([...run.upserts.map((t) => t.id), ...run.tombstones.map((t) => t.id)]);
  const damaged = [...new Set(view.rows.filter((r) => r.problem && r.problem.kind !== 'duplicate' && !brought.has(r.id)).map((r) => r.id))];
  if (damaged.length === 0) return;
  onProgress?.({ phase: 'fetching', message: `Putting back ${pluralGrouped(damaged.length, 'row')} changed in columns that are never sent…` });
  for (const id of damaged.slice(0, RESTORE_LIMIT)) {
    try {
      run.upserts.push(await deps.spend('/transactions/{id}', (o) => deps.client.transactions.retrieve(id, o)));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) run.tombstones.push({ id, deleted: true });
      else throw e;
    }
  }
}

export interface SyncOutcome {
  mode: ReconcileMode;
  pages: number;
  upserts: number;
  tombstones: number;
  counts: ReconcileOutput['counts'];
  newlyUpstream: Set<string>;
  watermark: number;
}

/**
 * One sync run applied to the table: updates in place by id, new rows appended, tombstones applied,
 * edits kept (see reconcile.ts), then the watermark committed with the binding, only after every write
 * succeeded. `restricted` runs without filters and touches only rows the table holds (tables with mutable
 * filters use it around a push; their refresh is a `full` re-pull).
 */
export async function syncTable(
  deps: Deps,
  t: OpenTable,
  mode: ReconcileMode,
  onProgress?: ProgressFn,
  label = 'Refreshing',
  options: { restore?: boolean } = {},
): Promise<SyncOutcome> {
  const filters = mode === 'restricted' ? null : t.state.filters;
  const from = mode === 'full' ? 0 : (t.state.watermark ?? 0);
  const run = await collectRun(deps, filters, from, onProgress, label);
  const view = new TableView(await deps.gateway.readTable(t.table));
  // Only the user's Refresh puts typed-over rows back: a push's own check must not quietly make a row it
  // refused in the review sendable.
  if (options.restore) await restoreDamagedRows(deps, view, run, onProgress);

  if (run.upserts.some((x) => typeof x.department_id === 'string' && !t.dir.has(x.department_id))) {
    // A department created since the pull: its path (and the dropdown) need the current tree.
    await refreshDepartments(deps, t);
  }

  const flags = await t.store.flags();
  const out = reconcile({ view, upserts: run.upserts, tombstones: run.tombstones, mode, dir: t.dir, system: t.system, flags });

  if (out.updates.length || out.deletes.length || out.appends.length) {
    onProgress?.({ phase: 'writing', message: `Writing ${out.counts.updated + out.counts.added + out.counts.removed} changed rows…` });
  }
  if (out.updates.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, out.updates);
  if (out.deletes.length) await deps.gateway.deleteRowsByKey(t.table, KEY_COLUMN, out.deletes);
  let address = t.binding.address;
  if (out.appends.length) address = (await deps.gateway.appendRows(t.table, out.appends)).address;
  if (out.flagsChanged) await t.store.writeFlags(out.flags);

  t.state = { ...t.state, watermark: run.watermark };
  t.binding = await t.store.save({ ...t.binding, refreshedAt: new Date(deps.now()).toISOString() }, t.state, address);
  return {
    mode,
    pages: run.pages,
    upserts: run.upserts.length,
    tombstones: run.tombstones.length,
    counts: out.counts,
    newlyUpstream: out.newlyUpstream,
    watermark: run.watermark,
  };
}

export interface RefreshResult extends SyncOutcome {
  /** Why a re-pull was needed, for the pane to say. */
  note: string;
  calls: number | null;
}

/** Refresh: incremental for immutable filters, else a full re-pull (spec, incremental mode rule 6). */
export async function refresh(deps: Deps, bindingId: string, onProgress?: ProgressFn): Promise<RefreshResult> {
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  const mode: ReconcileMode = t.state.incremental ? 'incremental' : 'full';
  const note = t.state.incremental
    ? 'Incremental refresh: only rows changed since the last sync were fetched.'
    : `Full re-pull: the ${pluralNoun(mutableFilterNames(t.state.filters).length, 'filter')} ${mutableFilterNames(t.state.filters).join(', ')} can change on a transaction, and an incremental sync would miss rows that stop matching.`;
  const outcome = await syncTable(deps, t, mode, onProgress, mode === 'full' ? 'Re-pulling' : 'Refreshing', { restore: true });
  const calls = await callsSince(deps.client, snap);
  onProgress?.({
    phase: 'done',
    message: `${mode === 'full' ? 'Re-pulled' : 'Refreshed'}: ${outcome.counts.updated} updated, ${outcome.counts.added} added, ${outcome.counts.removed} removed${outcome.counts.flagged ? `, ${outcome.counts.flagged} flagged for review` : ''}.`,
  });
  return { ...outcome, note, calls };
}

/** What a company-wide sync run saw (sync/changeFeed.ts), for the tables to catch up from. */
export interface SeenRun {
  /** The run started after this watermark and ends at `to`. */
  from: number;
  to: number;
  seen: readonly { id: string; date: string | null; ownFrom: string | null }[];
}

export type CatchUp = { kind: 'unchanged' } | ({ kind: 'refreshed' } & RefreshResult);

/**
 * A table after a company-wide sync run: when the run covers everything since the table's own last sync and
 * none of its changes can be in the table (none dated inside its date range, except the table's own pushes,
 * which it already shows), the table takes the run's watermark without a call. Otherwise it refreshes.
 */
export async function catchUp(deps: Deps, bindingId: string, run: SeenRun, onProgress?: ProgressFn): Promise<CatchUp> {
  const t = await openTable(deps, bindingId);
  const { start_date: start, end_date: end } = t.state.filters;
  const inRange = (date: string | null) => date === null || ((!start || date >= start) && (!end || date <= end));
  const covered = t.state.watermark !== null && t.state.watermark >= run.from;
  const untouched = run.seen.every((c) => c.ownFrom === bindingId || !inRange(c.date));
  if (covered && untouched) {
    t.state = { ...t.state, watermark: Math.max(t.state.watermark!, run.to) };
    await t.store.save(t.binding, t.state);
    return { kind: 'unchanged' };
  }
  return { kind: 'refreshed', ...(await refresh(deps, bindingId, onProgress)) };
}