// The month granularity of GET /aggregations/total: which days a total really covers, and the sentence
// that tells the user when that is more than they asked for.

import { endOfMonth, formatYearMonth, monthIndex, monthIndexToYearMonth, requireIsoDate, startOfMonth } from './calendar';
import type { PeriodOptions } from './fiscal';
import { periodLabel } from './labels';
import { isWholeMonths, type Period } from './period';

export interface MonthlyCoverage {
  /** `YYYY-MM` of the first and last month the API will total. */
  readonly startMonth: string;
  readonly endMonth: string;
  /** Every month covered, in order. */
  readonly months: string[];
  /** The days the API actually totals: the whole of every month touched. */
  readonly covered: Period;
  /** True when the requested days were not whole months, so the API's answer covers more days. */
  readonly daysIgnored: boolean;
  /** A sentence for the user when daysIgnored; null otherwise. */
  readonly note: string | null;
}

/** The company's today: a period that ends on it is complete as of today (its month has no later days yet). */
export interface CoverageOptions extends PeriodOptions {
  readonly today?: string;
}

/**
 * /aggregations/total takes full dates but ignores the day: a periodic total covers both end months
 * whole. The pane and the functions show `note` instead of letting 2026-07-15 quietly mean 2026-07-01.
 * A period ending today (YTD, this month, this quarter so far) is not such a case: the rest of the month
 * has not happened, so the whole month is the month to date.
 */
export function monthlyCoverage(period: Pick<Period, 'start' | 'end'>, options?: CoverageOptions): MonthlyCoverage {
  requireIsoDate(period.start, 'start');
  requireIsoDate(period.end, 'end');
  if (period.start > period.end) throw new RangeError(`period start ${period.start} is after its end ${period.end}`);
  const first = monthIndex(period.start);
  const last = monthIndex(period.end);
  const months: string[] = [];
  for (let i = first; i <= last; i++) {
    const { year, month } = monthIndexToYearMonth(i);
    months.push(formatYearMonth(year, month));
  }
  const start = startOfMonth(period.start);
  const end = endOfMonth(period.end);
  const covered: Period = { start, end, label: periodLabel(start, end, options) };
  const endsToday = options?.today !== undefined && period.end === options.today;
  const daysIgnored = !isWholeMonths(period) && !(endsToday && isWholeMonths({ start: period.start, end: endOfMonth(period.end) }));
  return {
    startMonth: months[0],
    endMonth: months[months.length - 1],
    months,
    covered,
    daysIgnored,
    note: daysIgnored
      ? `Totals come in whole months: ${period.start} to ${period.end} is read as ${start} to ${end} (${covered.label}).`
      : null,
  };
}

export interface PointInTimeCoverage {
  /** `YYYY-MM` the API will read the balance in. */
  readonly month: string;
  /** The day the balance is actually taken at: the month's last day. */
  readonly through: string;
  readonly daysIgnored: boolean;
  readonly note: string | null;
}

/** A point-in-time (balance) total is cumulative through the whole selected month; today's is today's. */
export function pointInTimeCoverage(date: string, options?: { today?: string }): PointInTimeCoverage {
  const { year, month } = requireIsoDate(date, 'date');
  const through = endOfMonth(date);
  const daysIgnored = date !== through && date !== options?.today;
  return {
    month: formatYearMonth(year, month),
    through,
    daysIgnored,
    note: daysIgnored ? `Balances are read at month end: ${date} is read as ${through}.` : null,
  };
}
