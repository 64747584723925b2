// Delays between attempts. Exponential with "equal jitter": half the step is fixed (so a retry is
// never immediate and a struggling server gets real relief), half is random (so clients that failed
// together do not come back together).

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random: () => number;
}

/** Delay before retry number `retryIndex` (0 for the first retry). */
export function backoffDelay(retryIndex: number, opts: BackoffOptions): number {
  const step = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, retryIndex));
  const r = Math.min(1, Math.max(0, opts.random()));
  return Math.round(step / 2 + (step / 2) * r);
}

/**
 * Retry-After in ms. The API sends seconds; an HTTP date is accepted too because proxies send it.
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
