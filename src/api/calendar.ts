import { DateTime } from 'luxon';

// The monthly call cap is counted per Pacific-time month and resets at local midnight on the 1st, so
// UTC month arithmetic would be off by 7-8 hours around every boundary (and by a whole month for
// requests sent in those hours).

export const CAP_ZONE = 'America/Los_Angeles';

/** The cap month (`YYYY-MM`) that an instant falls in. */
export function capMonthOf(epochMs: number): string {
  return DateTime.fromMillis(epochMs, { zone: CAP_ZONE }).toFormat('yyyy-MM');
}

export interface MonthlyReset {
  /** The Pacific calendar date of the reset (`YYYY-MM-DD`, always the 1st). */
  date: string;
  /** The reset instant with its Pacific offset, e.g. `2026-12-01T00:00:00.000-08:00`. */
  iso: string;
  epochMs: number;
}

/** Midnight Pacific on the 1st of the month after the one `epochMs` falls in. */
export function nextMonthlyReset(epochMs: number): MonthlyReset {
  const reset = DateTime.fromMillis(epochMs, { zone: CAP_ZONE }).startOf('month').plus({ months: 1 });
  return { date: reset.toISODate()!, iso: reset.toISO()!, epochMs: reset.toMillis() };
}

/**
 * The reset date the server wrote into a monthly_limit_exceeded message ("...resets on 2026-12-01 at
 * 00:00 Pacific Time."). Messages may change wording, so null (not an exception) when absent.
 */
export function resetDateFromMessage(message: string): string | null {
  const m = /resets?\s+on\s+(\d{4}-\d{2}-\d{2})\b/i.exec(message);
  if (!m) return null;
  return DateTime.fromISO(m[1], { zone: CAP_ZONE }).isValid ? m[1] : null;
}
