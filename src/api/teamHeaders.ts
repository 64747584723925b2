// What the team's gateway (src/gateway; the contract in docs/api-decisions.md, "The team's gateway") says on
// every answer, read strictly: the company's count of calls for the Pacific month through the gateway, and
// how old an answer served from the team's cache is. A header that is not exactly what the contract says
// (a duplicate joined with a comma, a sign, a fraction, an impossible month) is ignored as a whole: the
// add-in then falls back to its own count, which is low but never wrong, rather than show a wrong one.
//
// And what the add-in asks of it: Cache-Control, standard request directives (RFC 9111): no-cache (ask the
// API) unless the reader says how old an answer may be.

/** The team's count for one Pacific month, as the gateway sent it. */
export interface TeamCount {
  /** `YYYY-MM`, the Pacific cap month the count is for. */
  month: string;
  count: number;
  /** The gateway could not count some of this month's calls (its shared store was unreachable): the count may be low. */
  uncertain: boolean;
}

/** The headers of an answer, by name (fetch's Headers.get: null when absent, duplicates joined by ", "). */
export type HeaderLookup = (name: string) => string | null;

/** A count the contract can mean: a plain non-negative decimal integer (no sign, no fraction, no padding beyond digits). */
const COUNT = /^[0-9]{1,15}$/;
const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

/** The team's count an answer carries, or null when it carries none or any of the three headers is malformed. */
export function readTeamCount(header: HeaderLookup): TeamCount | null {
  const calls = header('x-fin-team-calls');
  const month = header('x-fin-team-month');
  if (calls === null || month === null) return null;
  const count = calls.trim();
  const cap = month.trim();
  if (!COUNT.test(count) || !MONTH.test(cap)) return null;
  const value = Number(count);
  if (!Number.isSafeInteger(value)) return null;
  const uncertainText = header('x-fin-team-calls-uncertain');
  // Present only when the count may be low, and then exactly "1": anything else could be a wrong "certain".
  if (uncertainText !== null && uncertainText.trim() !== '1') return null;
  return { month: cap, count: value, uncertain: uncertainText !== null };
}

/**
 * When the API gave an answer the team's cache served: the gateway's Date minus Age (RFC 9111 section 5.1),
 * never later than now. Null for an answer fresh from the API (no Age, or Age 0) or an Age that is not a
 * plain number of seconds; the caller then stamps it with its own clock, as before.
 */
export function answeredAt(header: HeaderLookup, nowMs: number): number | null {
  const ageText = header('age');
  if (ageText === null || !COUNT.test(ageText.trim())) return null;
  const age = Number(ageText.trim());
  if (age === 0) return null;
  const dateText = header('date');
  const date = dateText === null ? NaN : Date.parse(dateText);
  // Without a readable Date, the age is counted back from this clock: the answer is at least that old.
  const base = Number.isFinite(date) ? Math.min(date, nowMs) : nowMs;
  return base - age * 1000;
}

/**
 * Whether the team's gateway served this answer from its cache (Cache-Status, RFC 9211: its entry
 * `fin-gateway` with the `hit` parameter): such an answer cost the company no call, so the meter does not
 * count it. Anything else (no header, another cache's entry, `fwd=...`) was forwarded and counts.
 */
export function servedFromTeamCache(header: HeaderLookup): boolean {
  const text = header('cache-status');
  if (text === null) return false;
  return text.split(',').some((entry) => {
    const [name, ...params] = entry.split(';').map((part) => part.trim());
    return name === 'fin-gateway' && params.some((param) => param === 'hit');
  });
}

/** The oldest answer a request accepts from the team's cache (CallOptions.maxAgeSeconds); undefined: ask the API. */
export function cacheControlOf(method: string, maxAgeSeconds: number | undefined): string {
  if (method !== 'GET' || maxAgeSeconds === undefined || !Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds <= 0) return 'no-cache';
  return `max-age=${maxAgeSeconds}`;
}
