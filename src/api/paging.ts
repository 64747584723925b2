import { ApiError } from './errors';
import type { CallOptions } from './transport';
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

/** Pages of a cursor-paginated list, the caller's filters re-sent with every cursor. */
export async function* iteratePages<T, P extends PageParams>(
  fetchPage: PageFetcher<T, P>,
  params: IterateParams<P>,
  path: string,
  opts?: CallOptions,
): AsyncGenerator<ListPage<T>, void, undefined> {
  const base = { ...params, limit: params.limit ?? ITERATE_PAGE_LIMIT };
  let cursor: string | undefined;
  const used = new Set<string>();
  for (;;) {
    const page = checkListPage(await fetchPage({ ...base, starting_after: cursor } as unknown as P, opts), path);
    yield page;
    if (page.has_more !== true) return;
    const next = page.next_cursor;
    // A server that hands back a cursor already used would keep this loop spending calls forever.
    if (typeof next !== 'string' || next === '' || used.has(next)) {
      throw invalidResponse(`GET ${path} said has_more but gave no new next_cursor.`, 'GET', path);
    }
    used.add(next);
    cursor = next;
  }
}

/** Items of every page, in order. Stop early by breaking out of the loop (no further page is fetched). */
export async function* iterateItems<T, P extends PageParams>(
  fetchPage: PageFetcher<T, P>,
  params: IterateParams<P>,
  path: string,
  opts?: CallOptions,
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(fetchPage, params, path, opts)) yield* page.data;
}

/** Gathers an async iterable into an array, stopping after `max` items. */
export async function collect<T>(iterable: AsyncIterable<T>, max = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  if (max <= 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
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
