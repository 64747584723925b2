// How old an answer of the team's gateway a read accepts (the Cache-Control it sends, docs/api-decisions.md
// "The team's gateway"), by the add-in's own freshness rules: an answer is kept until a refresh makes it due.
//   - A refresh (Refresh all, Refresh changes, a refresh of the sheet or the selection, Refresh this block)
//     fetches an answer again because it may be behind: it asks the API (no-cache).
//   - A first read (a typed formula, a block or a board pack inserted) takes a teammate's answer fetched after
//     the last refresh that concerned the request, and at most TEAM_ANSWER_MAX_AGE_SECONDS old: the answer is
//     then what this add-in would itself still be showing had it fetched the request then.
//   - A request wholly within the closed months (closedBooks.ts) never changes: any answer will do.
// The answer keeps the stamp the API gave it (Date minus Age), so it is shown as of then, never as of now.

/** A teammate's answer up to an hour old is taken by a first read; older, the API is asked. */
export const TEAM_ANSWER_MAX_AGE_SECONDS = 3_600;

/** Closed months: an answer of any age (a year, the largest max-age caches commonly honour). */
export const CLOSED_MAX_AGE_SECONDS = 31_536_000;

/** What a fetch of the cache is told, and tells back. */
export interface Fetching {
  /** The oldest answer of the team's gateway this fetch accepts; undefined: ask the API. */
  maxAgeSeconds?: number;
  /** When the API gave an answer the fetch received (null: just now); a walk tells it once per page. */
  answered(at: number | null): void;
}

/**
 * The max-age of a first read of a request last made due at `lastMarkMs` (0: never), or undefined when it
 * must ask the API (a refresh of this request is under a second old).
 */
export function firstReadMaxAge(closed: boolean, lastMarkMs: number, nowMs: number): number | undefined {
  if (closed) return CLOSED_MAX_AGE_SECONDS;
  const sinceMark = lastMarkMs > 0 ? Math.floor((nowMs - lastMarkMs) / 1000) : Infinity;
  const seconds = Math.min(TEAM_ANSWER_MAX_AGE_SECONDS, sinceMark);
  return seconds >= 1 ? seconds : undefined;
}
