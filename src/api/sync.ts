import { ApiError, localError } from './errors';
import { invalidResponse, ITERATE_PAGE_LIMIT, MAX_LIST_PAGES, PageBudget, walkCursors } from './paging';
import { callOptions, type CallOptions } from './transport';
import type { ListPage, Transaction, TransactionListParams, TransactionTombstone } from './types';

// Incremental sync of /transactions, as the spec lays it out:
//  - a run starts from 0 (a new mirror) or the stored watermark, and carries that same updated_after on
//    every page together with starting_after;
//  - the server pins a watermark when the run starts; it is stored only after the page with has_more
//    false has been handled, so a run that dies half way is simply repeated from the old watermark;
//  - an unusable cursor (404 resource_missing, param starting_after) means "start the run again from the
//    stored watermark"; restarts are bounded so a persistent fault cannot spend the monthly cap.
// The client never derives a watermark from its own clock.

export const MAX_UPDATED_AFTER = 253402300799;

export interface SyncOptions extends CallOptions {
  /** The stored watermark; absent, null or 0 starts a full mirror. */
  watermark?: number | null;
  /**
   * Filters combined with updated_after. They match current state, so a row that stops matching
   * vanishes without a tombstone: persistent mirrors should sync with none, or only immutable ones
   * (source_vendor, source_type, start_date, end_date).
   */
  filters?: Omit<TransactionListParams, 'limit' | 'starting_after' | 'updated_after'>;
  /** Page size (default 500, the maximum: each page is a counted call). */
  limit?: number;
  /**
   * Receives each page. The first page is handled before the next is asked for (the caller can still stop
   * the run there, one call spent); from the second on, the next page is on its way while one is handled,
   * so a page that fails in here has cost the one asked for after it. The last page is handled before the
   * run commits.
   */
  onPage?: (page: SyncPage) => void | Promise<void>;
  /** Receives the new watermark once, after the last page was handled. Store it here. */
  onCommit?: (watermark: number) => void | Promise<void>;
  /** Restarts allowed after unusable cursors (default 3). */
  maxRestarts?: number;
  /**
   * Start this many seconds before the stored watermark, for callers that cannot tolerate a write landing
   * just behind it (spec, incremental mode rule 7). Default 0: re-delivered rows are harmless upserts.
   */
  overlapSeconds?: number;
  /** Calls the run may spend, restarts included (default MAX_LIST_PAGES); one more is page_limit_exceeded. */
  maxPages?: number;
}

export interface SyncPage {
  /** Rows to insert or replace in the mirror. */
  upserts: Transaction[];
  /** Deleted transactions: remove them (skip ids the mirror never held). */
  tombstones: TransactionTombstone[];
  /** The run's pinned watermark (do not store it yet). */
  watermark: number;
  hasMore: boolean;
  /** 0-based page number within the current run. */
  pageIndex: number;
  /** How many times the run was restarted so far; after a restart pages already seen may come again. */
  restarts: number;
}

export interface SyncResult {
  /** The committed watermark: pass it as `watermark` next time. */
  watermark: number;
  pages: number;
  upserts: number;
  tombstones: number;
  restarts: number;
}

type ListFn = (params: TransactionListParams, opts?: CallOptions) => Promise<ListPage<Transaction>>;
type SyncListPage = ListPage<Transaction> & { watermark?: unknown };

function isUnusableCursor(error: unknown): boolean {
  // GET /transactions has no path id, so a 404 with a cursor can only be about the cursor; the spec
  // names param starting_after, an absent param is accepted as the same thing.
  return (
    error instanceof ApiError &&
    error.status === 404 &&
    error.code === 'resource_missing' &&
    (error.param === 'starting_after' || error.param === null)
  );
}

function startingPoint(options: SyncOptions): number {
  const stored = options.watermark ?? 0;
  if (!Number.isInteger(stored) || stored < 0 || stored > MAX_UPDATED_AFTER) {
    throw localError(`watermark must be an integer from 0 to ${MAX_UPDATED_AFTER} (Unix seconds).`, 'updated_after', {
      method: 'GET',
      path: '/transactions',
      query: '',
    });
  }
  const overlap = Math.max(0, Math.floor(options.overlapSeconds ?? 0));
  return Math.max(0, stored - overlap);
}

/** One run as an async iterator. The commit happens when the consumer asks for more after the last page. */
export async function* syncPages(list: ListFn, options: Omit<SyncOptions, 'onPage'>): AsyncGenerator<SyncPage, SyncResult, undefined> {
  const updatedAfter = startingPoint(options);
  const maxRestarts = options.maxRestarts ?? 3;
  const limit = options.limit ?? ITERATE_PAGE_LIMIT;
  const callOpts: CallOptions = callOptions(options);
  // One budget for the whole run, restarts included: a server that keeps refusing cursors late in a long
  // run cannot make each restart spend the pages again without end.
  const budget = new PageBudget(options.maxPages ?? MAX_LIST_PAGES, '/transactions');
  let restarts = 0;
  const totals = { pages: 0, upserts: 0, tombstones: 0 };

  for (;;) {
    let pageIndex = 0;
    let runWatermark: number | undefined;
    let cursor: string | undefined;
    // A restarted run may hand out the cursors of the abandoned one again, so each attempt is a walk of its own.
    const walk = walkCursors<Transaction, SyncListPage>(
      (next, chain) => {
        cursor = next;
        return list({ ...options.filters, limit, updated_after: updatedAfter, starting_after: next }, { ...callOpts, chain });
      },
      '/transactions',
      { budget, chain: options.chain },
    );
    let last = false;
    try {
      for await (const page of walk) {
        const watermark = page.watermark;
        if (typeof watermark !== 'number' || !Number.isInteger(watermark) || watermark < 0) {
          throw invalidResponse('GET /transactions in incremental mode returned no integer watermark.', 'GET', '/transactions');
        }
        // The watermark is pinned per run; if pages ever disagreed, keeping the smallest can only cause
        // rows to be delivered again, never skipped.
        runWatermark = runWatermark === undefined ? watermark : Math.min(runWatermark, watermark);

        const upserts: Transaction[] = [];
        const tombstones: TransactionTombstone[] = [];
        for (const row of page.data) {
          if (row.deleted === true) tombstones.push(row as TransactionTombstone);
          else upserts.push(row);
        }
        totals.pages++;
        totals.upserts += upserts.length;
        totals.tombstones += tombstones.length;

        last = page.has_more !== true;
        yield { upserts, tombstones, watermark: runWatermark, hasMore: !last, pageIndex, restarts };
        pageIndex++;
      }
    } catch (error) {
      if (cursor !== undefined && isUnusableCursor(error) && restarts < maxRestarts) {
        restarts++;
        continue;
      }
      throw error;
    }
    // The walk ends only after a page with has_more false (anything else threw above).
    if (!last || runWatermark === undefined) throw invalidResponse('GET /transactions ended without a last page.', 'GET', '/transactions');
    await options.onCommit?.(runWatermark);
    return { watermark: runWatermark, restarts, ...totals };
  }
}

/**
 * One run with a page callback; resolves after the watermark was committed. A page's handling (a pull makes
 * its 500 table rows) is off the chain of requests from the second page on: 17 pages in a row would
 * otherwise each wait for it.
 */
export async function syncTransactions(list: ListFn, options: SyncOptions): Promise<SyncResult> {
  const run = syncPages(list, options);
  let step = await run.next();
  for (let handled = 0; !step.done; handled++) {
    // Not after the last page: asking for more then commits the run, which waits for that page's handling.
    const ahead = handled > 0 && step.value.hasMore ? run.next() : undefined;
    ahead?.catch(() => undefined); // its failure is met below, once this page is handled
    try {
      await options.onPage?.(step.value);
    } catch (error) {
      // The page was not handled, so the run ends here without committing (the page asked for is dropped).
      await ahead?.catch(() => undefined);
      await run.return(undefined as never);
      throw error;
    }
    step = await (ahead ?? run.next());
  }
  return step.value;
}
