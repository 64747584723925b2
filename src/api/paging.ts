import { ApiError } from './errors';
import { RequestChain } from './limiter';
import { callOptions, type CallOptions } from './transport';
import type { FullList, IterateParams, ListPage, PageParams } from './types';

// Cursor paging. The envelope's `url` has no query string, so following `next_cursor` alone would
// drop the filters and silently page through everything: every page here is requested with the
// caller's full parameter set plus the cursor.

/** Iterators ask for the largest page: every page is a counted call. */
export const ITERATE_PAGE_LIMIT = 500;

export type PageFetcher<T, P extends PageParams> = (params: P, opts?: CallOptions) => Promise<ListPage<T>>;

export function invalidResponse(message: string, method: string, path: string): ApiError {
  return new ApiError({ message, status: null, type: 'api_error', code: 'invalid_response', request: { method, path, query: '' } });
}

/** Checks just enough of an envelope to page safely; extra fields pass through untouched. */
export function checkListPage<T>(page: ListPage<T>, path: string): ListPage<T> {
  if (!page || typeof page !== 'object' || !Array.isArray(page.data)) {
    throw invalidResponse(`GET ${path} did not return a list envelope.`, 'GET', path);
  }
  return page;
}

/**
 * Calls one walk of a list may spend. The largest list the add-in keeps is a transactions table, and a sheet
 * holds 1,048,576 rows: 2,098 pages of 500. A server that never ends a list stops here.
 */
export const MAX_LIST_PAGES = 2_100;

export interface PagingOptions extends CallOptions {
  /** Calls the walk may spend (default MAX_LIST_PAGES); one more is page_limit_exceeded. */
  maxPages?: number;
}

function pageLimitError(path: string, maxPages: number): ApiError {
  return new ApiError({
    message: `GET ${path} still said has_more after ${maxPages.toLocaleString('en-US')} pages; stopped so that a list without an end cannot spend the monthly cap.`,
    status: null,
    type: 'api_error',
    code: 'page_limit_exceeded',
    request: { method: 'GET', path, query: '' },
  });
}

/** The calls a walk may spend, shared by the restarts of one sync run. */
export class PageBudget {
  private spent = 0;
  constructor(
    readonly maxPages: number,
    private readonly path: string,
  ) {}

  /** Takes one call, or throws page_limit_exceeded when none is left. */
  take(): void {
    if (this.spent >= this.maxPages) throw pageLimitError(this.path, this.maxPages);
    this.spent++;
  }
}

export interface WalkOptions<P> {
  /** What the budget counts; default a new one of MAX_LIST_PAGES. */
  budget?: PageBudget;
  /** A first page already in hand (a job's embedded errors): it costs no call. */
  first?: P;
  /** The chain the walk's pages belong to, opened (and closed) by the caller; default one of the walk's own. */
  chain?: RequestChain;
}

/**
 * The one guarded way to follow next_cursor: every paging loop of the add-in goes through here. A cursor
 * handed out a second time (or none while has_more is true) is invalid_response; every fetched page takes
 * one call from the budget, so a list that never ends stops with page_limit_exceeded. The walk is one
 * RequestChain, handed to `fetchPage` for its call options and closed when the walk ends, however it ends
 * (a chain the caller gave is the caller's to close).
 */
export async function* walkCursors<T, P extends ListPage<T> = ListPage<T>>(
  fetchPage: (cursor: string | undefined, chain: RequestChain) => Promise<P>,
  path: string,
  options: WalkOptions<P> = {},
): AsyncGenerator<P, void, undefined> {
  const budget = options.budget ?? new PageBudget(MAX_LIST_PAGES, path);
  const chain = options.chain ?? new RequestChain();
  const fetchChecked = async (cursor: string | undefined): Promise<P> => {
    budget.take();
    return checkListPage(await fetchPage(cursor, chain), path) as P;
  };
  try {
    let page = options.first ? (checkListPage(options.first, path) as P) : await fetchChecked(undefined);
    const followed = new Set<string>();
    for (;;) {
      yield page;
      if (page.has_more !== true) return;
      const next = page.next_cursor;
      if (typeof next !== 'string' || next === '' || followed.has(next)) {
        throw invalidResponse(`GET ${path} said has_more but gave no new next_cursor.`, 'GET', path);
      }
      followed.add(next);
      page = await fetchChecked(next);
    }
  } finally {
    if (!options.chain) chain.close();
  }
}

/** Pages of a cursor-paginated list, the caller's filters re-sent with every cursor. */
export function iteratePages<T, P extends PageParams>(
  fetchPage: PageFetcher<T, P>,
  params: IterateParams<P>,
  path: string,
  opts?: PagingOptions,
): AsyncGenerator<ListPage<T>, void, undefined> {
  const base = { ...params, limit: params.limit ?? ITERATE_PAGE_LIMIT };
  const callOpts = callOptions(opts);
  const budget = new PageBudget(opts?.maxPages ?? MAX_LIST_PAGES, path);
  return walkCursors<T>((cursor, chain) => fetchPage({ ...base, starting_after: cursor } as unknown as P, { ...callOpts, chain }), path, { budget });
}

/** Items of every page, in order. Stop early by breaking out of the loop (no further page is fetched). */
export async function* iterateItems<T, P extends PageParams>(
  fetchPage: PageFetcher<T, P>,
  params: IterateParams<P>,
  path: string,
  opts?: PagingOptions,
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(fetchPage, params, path, opts)) yield* page.data;
}

/**
 * An unpaginated list: always the full set. An absent has_more means the only page; these endpoints
 * take no cursor, so even a has_more: true could not be followed and is ignored.
 */
export function checkFullList<T>(list: FullList<T>, path: string): FullList<T> {
  if (!list || typeof list !== 'object' || !Array.isArray(list.data)) {
    throw invalidResponse(`GET ${path} did not return a list envelope.`, 'GET', path);
  }
  return list;
}
