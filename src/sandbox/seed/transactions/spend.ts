// Step 4a: the month's spend, the measure every structural amount is sized from.

import { dayOfMonth, daysBetween, monthEnd, monthOf } from '../../calendar';
import type { Row, Setting } from './feed';

/** Below this (cents) a month's spend is taken to be this: keeps tiny feeds' amounts sensible. */
const MIN_MONTHLY_SPEND = 100_000;

/**
 * Card and ACH spend of each month of the history, normalised to a full month (cents, positive), by
 * 'YYYY-MM'. A month the history covers for fewer than 10 days borrows the nearest well-covered month's.
 */
export function measureMonthlySpend(s: Setting, rows: Row[]): Map<string, number> {
  const { start, end, months } = s;
  const spend = new Map<string, number>();
  for (const r of rows) {
    if (r.flaggable && r.amount < 0 && r.kind !== 'interco') spend.set(monthOf(r.date), (spend.get(monthOf(r.date)) ?? 0) - r.amount);
  }
  const valid: { mi: number; v: number }[] = [];
  months.forEach((m, mi) => {
    const covered = daysBetween(m < start ? start : m, monthEnd(m) > end ? end : monthEnd(m)) + 1;
    const dim = dayOfMonth(monthEnd(m));
    if (covered >= 10) valid.push({ mi, v: ((spend.get(monthOf(m)) ?? 0) * dim) / covered });
  });
  const fallbackSpend = Math.max(
    MIN_MONTHLY_SPEND,
    Math.round(([...spend.values()].reduce((sum, v) => sum + v, 0) * 30) / Math.max(1, s.historyDays)),
  );
  const monthlySpend = new Map<string, number>();
  months.forEach((m, mi) => {
    let best: { mi: number; v: number } | undefined;
    for (const c of valid) if (!best || Math.abs(c.mi - mi) < Math.abs(best.mi - mi)) best = c;
    monthlySpend.set(monthOf(m), Math.max(MIN_MONTHLY_SPEND, Math.round(best ? best.v : fallbackSpend)));
  });
  return monthlySpend;
}
