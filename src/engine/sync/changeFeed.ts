// What changed in the company's transactions since the last refresh, for one sync run's worth of calls
// (issue 14, item 3). The add-in keeps, per company, the watermark of GET /transactions?updated_after= and
// stores it only after the run's last page was handled (spec, incremental mode), so a run that dies is
// simply repeated. Each changed or deleted transaction marks the cached answers it may have changed
// (reader/touched.ts); changes the add-in made itself were marked when it made them and are not marked
// again. With no stored watermark (first use, or after a full refresh started a new one) nothing is known
// about what changed since the cached answers were fetched: the caller refreshes everything.
//
// The API gives rows as they are, not their history: where a changed transaction posted before comes from
// the placement memory (placements.ts, placeChanges.ts), kept from every run and from a mirror a full refresh
// starts; a change it cannot place (never seen, a spread of unreadable shape, no dates) makes the run
// `unknown`, so the refresh runs as a full one and says why. What a sync cannot see at all: journal entries
// that come from no transaction (depreciation, accruals, a rebuild of the books): Full refresh.

import { MAX_UPDATED_AFTER } from '../../api/sync';
import type { CallOptions } from '../../api/transport';
import type { SyncOptions, SyncResult } from '../../api/sync';
import type { Transaction, TransactionTombstone } from '../../api/types';
import type { CachedReader } from '../reader/cachedReader';
import type { CacheStore } from '../ports/storage';
import { touchedBy } from '../reader/touched';
import { placeRows, type SeenChange } from './placeChanges';
import type { ReferenceClient } from './referenceChanges';
import { PlacementMemory, placeOf, placementOf, watermarkKey } from './placements';

/** The client's incremental sync (src/api/sync.ts), as the feed uses it. */
export interface SyncClient {
  transactions: { sync(options: SyncOptions): Promise<SyncResult> };
}

export interface FeedDeps {
  /** With the lists of categories and departments, Refresh changes also learns their changes (referenceChanges.ts). */
  client: SyncClient & Partial<ReferenceClient>;
  reader: CachedReader;
  /** Where the watermark is kept (the add-in's storage, next to the cached answers it is about). */
  store: CacheStore;
}

export type { SeenChange } from './placeChanges';

export interface FeedResult {
  /** synced: the changes since the stored watermark are known and marked. unknown: nothing is known
   * (no watermark yet, or more changes than refreshing everything costs): everything is due. */
  kind: 'synced' | 'unknown';
  /** Pages the run spent (each a counted call), the watermark bootstrap included. */
  calls: number;
  seen: SeenChange[];
  /** Cached answers marked stale by changes the add-in did not make. */
  marked: number;
  /** Why nothing is known, for the pane. */
  reason?: string;
  /** The watermarks the run went from and to (from is null when there was none). */
  from: number | null;
  to: number;
  /** Transactions whose place the memory now holds (sync/placements.ts), and whether it holds every one. */
  placements?: number;
  mirrored?: boolean;
}


export async function storedWatermark(store: CacheStore, companyId: string): Promise<number | null> {
  const text = await store.get(watermarkKey(companyId)).catch(() => undefined);
  const value = text === undefined ? NaN : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

async function storeWatermark(store: CacheStore, companyId: string, watermark: number): Promise<void> {
  await store.set(watermarkKey(companyId), String(watermark));
}

// Answers fetched after a refresh settled (a FIN formula typed, Refresh this sheet) may hold a changed
// transaction where it was only in between two changes (re-dated twice between two Refresh changes): the
// memory knows the first place, the next run the last, neither the one such an answer holds. So a run that
// sees any change marks every answer fetched since the company's last refresh settled (found by the
// property test: a total typed after the first move, wrong after the second). A refresh settles when it
// has fetched what it refreshes (workbookRefresh.ts); a run settles too, so a refresh that dies part way
// leaves what it fetched counted as fetched since.
const settledKey = (companyId: string) => `fin-sync:${companyId}:settled`;

/** The refresh is done: answers fetched from now on count as fetched between runs (reader's clock, ms). */
export async function settleRefresh(store: CacheStore, companyId: string, at: number): Promise<void> {
  await store.set(settledKey(companyId), String(at)).catch(() => undefined);
}

/** When the company's last refresh settled; 0 when not known (every answer then counts as fetched since). */
async function settledAt(store: CacheStore, companyId: string): Promise<number> {
  const value = Number(await store.get(settledKey(companyId)).catch(() => undefined));
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * Starts a new watermark (one call: a run asked only for changes after the end of time returns none, and
 * the server's pinned watermark). A full refresh takes it first, so a change made while it runs arrives next
 * time rather than never.
 */
export async function startWatermark(deps: FeedDeps): Promise<number> {
  const companyId = await deps.reader.companyId();
  const result = await deps.reader.call('/transactions', (o: CallOptions) => deps.client.transactions.sync({ ...o, watermark: MAX_UPDATED_AFTER, limit: 1 }));
  await storeWatermark(deps.store, companyId, result.watermark);
  await settleRefresh(deps.store, companyId, deps.reader.clock());
  return result.watermark;
}

/**
 * Starts the placement memory from a mirror (spec, incremental mode 4: `updated_after=0` "is the way to start
 * a mirror"): every transaction's place, in pages of 500, at most `maxPages` calls. Its pinned watermark is
 * stored with it, so every change made while it runs arrives in the next sync. A full refresh runs it before
 * it fetches anything (a row it read then changed is re-reported next time, placed from what it read). Cut
 * short, the memory keeps what it read and the rest counts as never seen.
 */
export async function startMirror(deps: FeedDeps, options: { maxPages: number; pageSize?: number }): Promise<{ calls: number; placements: number; complete: boolean; watermark: number }> {
  const companyId = await deps.reader.companyId();
  const memory = PlacementMemory.empty();
  let pages = 0;
  let watermark: number | null = null;
  let complete = false;
  let overflow = false;
  try {
    const result = await deps.reader.call(
      '/transactions',
      (o: CallOptions) =>
        deps.client.transactions.sync({
          ...o,
          watermark: 0,
          maxPages: Math.max(1, options.maxPages),
          limit: options.pageSize ?? 500,
          onPage: (page) => {
            pages += 1;
            watermark = page.watermark;
            for (const row of page.upserts) {
              const place = placeOf(row);
              if (!place || !memory.set(row.id, placementOf(place))) overflow = true;
            }
            for (const row of page.tombstones) memory.delete(row.id);
          },
        }),
      { timeoutMs: 20 * 60_000 },
    );
    watermark = result.watermark;
    complete = true;
  } catch (error) {
    if ((error as { code?: unknown })?.code !== 'page_limit_exceeded' || watermark === null) throw error;
  }
  // A row it could not keep (the bound, no dates) leaves it partial: such a transaction counts as never seen.
  memory.complete = complete && !overflow;
  // Not saved (the storage refused it): nothing is recorded, and the refresh says so.
  if (!(await memory.save(deps.store, companyId, watermark!))) return { calls: pages, placements: 0, complete: false, watermark: await restart(deps, companyId, watermark!) };
  await storeWatermark(deps.store, companyId, watermark!);
  await settleRefresh(deps.store, companyId, deps.reader.clock());
  return { calls: pages, placements: memory.size, complete: memory.complete, watermark: watermark! };
}

/** The watermark stored after a mirror that could not be saved (its run is still what was read). */
async function restart(deps: FeedDeps, companyId: string, watermark: number): Promise<number> {
  await storeWatermark(deps.store, companyId, watermark);
  await settleRefresh(deps.store, companyId, deps.reader.clock());
  return watermark;
}

/**
 * One sync run from the stored watermark: every change seen marks what it touches, then the new watermark
 * is stored. `maxPages`: a run longer than this (a bank import of thousands of rows) costs more than
 * refreshing everything, so it stops before spending more and reports `unknown`.
 */
export async function syncChanges(deps: FeedDeps, options: { maxPages: number; pageSize?: number }): Promise<FeedResult> {
  const companyId = await deps.reader.companyId();
  const from = await storedWatermark(deps.store, companyId);
  if (from === null) {
    const to = await startWatermark(deps);
    return { kind: 'unknown', calls: 1, seen: [], marked: 0, reason: 'no record yet of what changed since the figures were fetched', from, to };
  }
  const rows = new Map<string, Transaction | TransactionTombstone>();
  let pages = 0;
  let result: SyncResult;
  try {
    result = await deps.reader.call(
      '/transactions',
      (o: CallOptions) =>
        deps.client.transactions.sync({
          ...o,
          watermark: from,
          maxPages: Math.max(1, options.maxPages),
          limit: options.pageSize,
          onPage: (page) => {
            pages += 1;
            // A restarted run delivers rows again: the last state of each wins.
            for (const row of [...page.upserts, ...page.tombstones]) rows.set(row.id, row);
          },
        }),
      { timeoutMs: 20 * 60_000 },
    );
  } catch (error) {
    if ((error as { code?: unknown })?.code !== 'page_limit_exceeded') throw error;
    const to = await startWatermark(deps);
    return { kind: 'unknown', calls: pages + 1, seen: [], marked: 0, reason: `more changes than refreshing everything costs (over ${options.maxPages} pages)`, from, to };
  }

  const memory = await PlacementMemory.load(deps.store, companyId, from);
  const placed = placeRows(deps.reader, memory, rows.values());
  const { seen, changes, unplaceable } = placed;
  let marked = 0;
  if (unplaceable) marked = await deps.reader.markAllStale();
  else if (rows.size > 0) {
    const touched = new Set(changes.length ? await deps.reader.markStale(touchedBy(changes)) : []);
    for (const key of await deps.reader.markFetchedAfter(await settledAt(deps.store, companyId))) touched.add(key);
    marked = touched.size;
  }
  // Marked first, then the memory and the watermark it is true at: a crash in between marks the same
  // changes again next time (a memory whose stamp is not the stored watermark is not trusted).
  await memory.save(deps.store, companyId, result.watermark);
  await storeWatermark(deps.store, companyId, result.watermark);
  await settleRefresh(deps.store, companyId, deps.reader.clock());
  return { kind: unplaceable ? 'unknown' : 'synced', calls: pages, seen, marked, reason: unplaceable ?? undefined, from, to: result.watermark, placements: memory.size, mirrored: memory.complete };
}
