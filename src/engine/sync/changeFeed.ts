// What changed in the company's transactions since the last refresh, for one sync run's worth of calls
// (issue 14, item 3). The add-in keeps, per company, the watermark of GET /transactions?updated_after= and
// stores it only after the run's last page was handled (spec, incremental mode), so a run that dies is
// simply repeated. Each changed or deleted transaction marks the cached answers it may have changed
// (reader/touched.ts); changes the add-in made itself were marked when it made them and are not marked
// again. With no stored watermark (first use, or after a full refresh started a new one) nothing is known
// about what changed since the cached answers were fetched: the caller refreshes everything.
//
// What a sync cannot see: journal entries that come from no transaction (depreciation, accruals, a rebuild
// of the books) and the accounting date a transaction had before someone else moved it a second time (the
// API gives rows as they are, not their history: a change is taken to move from the transaction's date).

import { MAX_UPDATED_AFTER } from '../../api/sync';
import type { CallOptions } from '../../api/transport';
import type { SyncOptions, SyncResult } from '../../api/sync';
import type { Transaction, TransactionTombstone } from '../../api/types';
import type { CachedReader } from '../reader/cachedReader';
import type { CacheStore } from '../ports/storage';
import type { TransactionChange } from '../reader/touched';
import { touchedBy } from '../reader/touched';

/** The client's incremental sync (src/api/sync.ts), as the feed uses it. */
export interface SyncClient {
  transactions: { sync(options: SyncOptions): Promise<SyncResult> };
}

export interface FeedDeps {
  client: SyncClient;
  reader: CachedReader;
  /** Where the watermark is kept (the add-in's storage, next to the cached answers it is about). */
  store: CacheStore;
}

/** A change the sync saw: the transaction's date (what list filters use) and the add-in's part in it. */
export interface SeenChange {
  id: string;
  date: string | null;
  /** The table the add-in made this change from; null when someone else made it. */
  ownFrom: string | null;
}

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
}

const watermarkKey = (companyId: string) => `fin-sync:${companyId}:watermark`;

export async function storedWatermark(store: CacheStore, companyId: string): Promise<number | null> {
  const text = await store.get(watermarkKey(companyId)).catch(() => undefined);
  const value = text === undefined ? NaN : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

async function storeWatermark(store: CacheStore, companyId: string, watermark: number): Promise<void> {
  await store.set(watermarkKey(companyId), String(watermark));
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
  return result.watermark;
}

function dateOf(row: Transaction | TransactionTombstone): string | null {
  return typeof row.date === 'string' ? row.date.slice(0, 10) : null;
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

  const seen: SeenChange[] = [];
  const changes: TransactionChange[] = [];
  let unplaceable = false;
  for (const row of rows.values()) {
    const own = deps.reader.takeOwnChange(row.id);
    const date = dateOf(row);
    const accounting = typeof row.accounting_date === 'string' ? row.accounting_date.slice(0, 10) : date;
    // The add-in's own change, as it made it: marked when it was made.
    if (own && row.deleted !== true && accounting === own.accountingAfter) {
      seen.push({ id: row.id, date, ownFrom: own.bindingId });
      continue;
    }
    seen.push({ id: row.id, date, ownFrom: null });
    if (date === null || accounting === null) unplaceable = true;
    // Someone else's change: the rows say how things are, not what changed, so the amounts may have moved,
    // from the transaction's date (where an accounting date starts) to where it is now.
    else changes.push({ id: row.id, date, accountingBefore: date, accountingAfter: accounting, postings: true });
  }
  let marked = 0;
  if (unplaceable) marked = await deps.reader.markAllStale();
  else if (changes.length) marked = (await deps.reader.markStale(touchedBy(changes))).length;
  // Marked first, then the watermark: a crash in between marks the same changes again next time.
  await storeWatermark(deps.store, companyId, result.watermark);
  return { kind: unplaceable ? 'unknown' : 'synced', calls: pages, seen, marked, reason: unplaceable ? 'a deleted transaction came without its dates' : undefined, from, to: result.watermark };
}
