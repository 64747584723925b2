// The monthly cap as the add-in remembers it. After the API refuses a call with monthly_limit_exceeded,
// nothing is sent for that company until the reset instant: every further request would be refused
// too (for free, but slowly, and the pane would show a dozen identical failures). The block is kept in
// the persistent store, so a reopened workbook knows it without a call.

import { DateTime } from 'luxon';
import { CAP_ZONE } from '../../api/calendar';
import { MonthlyLimitError } from '../../api/errors';
import type { CacheStore } from '../ports/storage';

export interface CapBlock {
  /** The cap the server quoted, when its message had one. */
  cap: number | null;
  /** The Pacific date of the reset, as shown to the user. */
  resetDate: string;
  resetEpochMs: number;
}

const STATE_PREFIX = 'fin-state:';

export function capBlockKey(companyId: string): string {
  return `${STATE_PREFIX}${companyId}:monthly-limit`;
}

/** "Monthly API call limit of 10 reached ..." -> 10; null when the wording carries no number. */
export function capFromMessage(message: string): number | null {
  const m = /limit of\s+([\d,]+)/i.exec(message);
  if (!m) return null;
  const n = Number(m[1].replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** The block a refusal by the server means: until the date the server stated, else our computed reset. */
export function blockFrom(error: MonthlyLimitError): CapBlock {
  const stated = error.statedResetDate ? DateTime.fromISO(error.statedResetDate, { zone: CAP_ZONE }) : null;
  const resetEpochMs = stated && stated.isValid ? stated.toMillis() : error.computedReset.epochMs;
  return { cap: capFromMessage(error.message), resetDate: error.resetDate, resetEpochMs };
}

/**
 * The error a blocked request fails with: the same MonthlyLimitError as the server's refusal (so every
 * caller words it once), with no status, because nothing was sent.
 */
export function blockedError(block: CapBlock, path: string, nowMs: number): MonthlyLimitError {
  const cap = block.cap === null ? '' : ` of ${block.cap} calls`;
  return new MonthlyLimitError(
    {
      message: `Monthly API limit${cap} reached; the limit resets on ${block.resetDate} at 00:00 Pacific Time (not sent)`,
      status: null,
      type: 'limit_error',
      code: 'monthly_limit_exceeded',
      request: { method: 'GET', path, query: '' },
      attempts: 0,
    },
    nowMs,
  );
}

export async function loadBlock(store: CacheStore, companyId: string): Promise<CapBlock | null> {
  try {
    const text = await store.get(capBlockKey(companyId));
    if (!text) return null;
    const parsed = JSON.parse(text) as CapBlock;
    return typeof parsed?.resetEpochMs === 'number' && typeof parsed.resetDate === 'string' ? parsed : null;
  } catch {
    // Unreadable state is no state: the worst case is one call that the server refuses for free.
    return null;
  }
}

export async function saveBlock(store: CacheStore, companyId: string, block: CapBlock | null): Promise<void> {
  const key = capBlockKey(companyId);
  await (block ? store.set(key, JSON.stringify(block)) : store.remove([key])).catch(() => undefined);
}
