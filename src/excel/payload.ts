/**
 * Request-size estimates. Excel on the web rejects a request or response over 5 MB; we estimate a batch as
 * the UTF-8 size of the JSON of what it carries, plus a fixed cost per queued operation, and stay under a
 * budget well below the limit so the estimate's error never matters.
 */

/** Excel on the web's documented limit for one request (and one response). */
export const EXCEL_PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

/** What we aim for per sync: the JSON of the values is most but not all of the real request. */
export const DEFAULT_BUDGET_BYTES = 4_000_000;

/**
 * Object path and action envelope of one queued operation on a range: measured on office-js's wire at about
 * 470 bytes (the getRangeByIndexes path, its instantiation and kept reference, the action itself).
 */
export const OP_OVERHEAD_BYTES = 500;

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? '');
}

/** Office reports these as RichApi.Error with a code; older hosts only say "payload" in the message. */
export function isPayloadLimitError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; debugInfo?: { code?: unknown } };
  const codes = [e.code, e.debugInfo?.code];
  if (codes.some((c) => c === 'RequestPayloadSizeLimitExceeded' || c === 'ResponsePayloadSizeLimitExceeded')) return true;
  return typeof e.message === 'string' && /payload/i.test(e.message);
}

/**
 * How many rows from `start` fit in `budget`: greedy on each row's own size, so one long description does
 * not shrink every chunk, and capped by `maxRows` (lowered after a payload error). Always at least one row.
 */
export function rowsThatFit(rowBytes: (i: number) => number, start: number, total: number, budget: number, maxRows: number): number {
  let used = 0;
  let n = 0;
  while (start + n < total && n < maxRows) {
    const b = rowBytes(start + n);
    if (n > 0 && used + b > budget) break;
    used += b;
    n++;
  }
  return n;
}
