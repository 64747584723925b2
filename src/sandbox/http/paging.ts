import { optInt, optString } from './params';

export const API_PREFIX = '/api/v1';

export interface Page<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  next_cursor: string | null;
  data: T[];
}

/** Reads limit (1-500, default 100) and starting_after from the query. */
export function pageParams(q: Record<string, string | string[] | undefined>): { limit: number; startingAfter?: string } {
  const limit = optInt(q, 'limit', 1, 500) ?? 100;
  const startingAfter = optString(q, 'starting_after');
  return { limit, startingAfter: startingAfter === undefined ? undefined : startingAfter };
}

/**
 * Builds the list envelope from rows fetched with LIMIT limit + 1: the extra row only tells whether
 * there is more. cursorOf gives the cursor of the last row returned.
 */
export function pageOf<R, T>(path: string, rows: R[], limit: number, toItem: (r: R) => T, cursorOf: (r: R) => string): Page<T> {
  const hasMore = rows.length > limit;
  const slice = hasMore ? rows.slice(0, limit) : rows;
  return {
    object: 'list',
    url: `${API_PREFIX}${path}`,
    has_more: hasMore,
    next_cursor: hasMore ? cursorOf(slice[slice.length - 1]) : null,
    data: slice.map(toItem),
  };
}

/** Envelope of an unpaginated list (always the full set). */
export function fullList<T>(path: string, data: T[]): { object: 'list'; url: string; data: T[] } {
  return { object: 'list', url: `${API_PREFIX}${path}`, data };
}
