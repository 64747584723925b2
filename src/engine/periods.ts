// Period algebra for the task pane: named periods relative to today, splitting a range into columns,
// comparison periods, reporting dates, and the month granularity of /aggregations/total.
//
// Quarters here follow the fiscal year (Q1 starts in the fiscal start month), because the pane speaks the
// company's calendar; with the default January start they are the calendar quarters. The `2026-Q3` text
// form of dates.ts stays a calendar quarter since it names a calendar year; `FY2026-Q1` is the fiscal one.

import {
  Period,
  Result,
  addDays,
  addMonths,
  checkFiscalYearStartMonth,
  daysBetween,
  daysInMonth,
  endOfMonth,
  fail,
  fiscalQuarterPeriod,
  fiscalYearOf,
  fiscalYearPeriod,
  fiscalYearStart,
  formatIsoDate,
  formatYearMonth,
  isEndOfMonth,
  isFirstOfMonth,
  maxDate,
  minDate,
  monthIndex,
  monthIndexToYearMonth,
  monthName,
  monthPeriod,
  ok,
  parseIsoDate,
  requireIsoDate,
  startOfMonth,
  trailingTwelveMonths,
  yearToDate,
} from './dates';

export type { Period } from './dates';

export interface PeriodOptions {
  /** 1-12, default 1 (January). */
  readonly fiscalYearStartMonth?: number;
}

export interface RelativePeriodOptions extends PeriodOptions {
  /** The company's calendar date, injected (see calendarDateAt in dates.ts). */
  readonly today: string;
}

function fyStartOf(options?: PeriodOptions): number {
  const m = options?.fiscalYearStartMonth ?? 1;
  checkFiscalYearStartMonth(m);
  return m;
}

// ---------------------------------------------------------------------------------------------------
// Shape tests and labels

/** True when the period starts on a 1st and ends on a month's last day. */
export function isWholeMonths(period: Pick<Period, 'start' | 'end'>): boolean {
  return isFirstOfMonth(period.start) && isEndOfMonth(period.end);
}

/** Months spanned by a period, counting partial ones. */
export function monthCount(period: Pick<Period, 'start' | 'end'>): number {
  return monthIndex(period.end) - monthIndex(period.start) + 1;
}

export interface FiscalQuarter {
  readonly fiscalYear: number;
  readonly quarter: number;
}

export function fiscalQuarterOf(iso: string, options?: PeriodOptions): FiscalQuarter {
  const fyStart = fyStartOf(options);
  const fiscalYear = fiscalYearOf(iso, fyStart);
  const first = fiscalYearStart(fiscalYear, fyStart);
  const offset = monthIndex(iso) - (first.year * 12 + first.month - 1);
  return { fiscalYear, quarter: Math.floor(offset / 3) + 1 };
}

function quarterLabel(q: FiscalQuarter, fyStart: number): string {
  // With a January start the fiscal and calendar quarters coincide, and "Q3 2026" is what people write.
  return fyStart === 1 ? `Q${q.quarter} ${q.fiscalYear}` : `FY${q.fiscalYear} Q${q.quarter}`;
}

/**
 * A short label for a range: `Jul 2026`, `Q3 2026` (or `FY2027 Q1` off a January year start), `FY2026`,
 * a single date, `Jul 2026 to Sep 2026` for other whole months, else `2026-07-15 to 2026-08-10`.
 */
export function periodLabel(start: string, end: string, options?: PeriodOptions): string {
  const fyStart = fyStartOf(options);
  requireIsoDate(start, 'start');
  requireIsoDate(end, 'end');
  if (start === end) return start;
  if (!isWholeMonths({ start, end })) return `${start} to ${end}`;
  const months = monthCount({ start, end });
  const s = requireIsoDate(start);
  const e = requireIsoDate(end);
  if (months === 1) return `${monthName(s.month)} ${s.year}`;
  const q = fiscalQuarterOf(start, { fiscalYearStartMonth: fyStart });
  if (months === 3 && fiscalQuarterPeriod(q.fiscalYear, q.quarter, fyStart).start === start) {
    return quarterLabel(q, fyStart);
  }
  if (months === 3 && (s.month - 1) % 3 === 0) return `Q${(s.month - 1) / 3 + 1} ${s.year}`;
  const fy = fiscalYearOf(start, fyStart);
  if (months === 12 && fiscalYearPeriod(fy, fyStart).start === start) return `FY${fy}`;
  return `${monthName(s.month)} ${s.year} to ${monthName(e.month)} ${e.year}`;
}

/** A user-chosen range, checked: strict ISO days, start not after end. */
export function customPeriod(start: string, end: string, options?: PeriodOptions): Result<Period> {
  if (!parseIsoDate(start)) return fail(`Bad start date "${start}": use YYYY-MM-DD`);
  if (!parseIsoDate(end)) return fail(`Bad end date "${end}": use YYYY-MM-DD`);
  if (start > end) return fail(`Bad period: the start ${start} is after the end ${end}`);
  return ok({ start, end, label: periodLabel(start, end, options) });
}

// ---------------------------------------------------------------------------------------------------
// Named periods relative to today

export type NamedPeriodKey =
  | 'this_month'
  | 'last_month'
  | 'this_quarter'
  | 'last_quarter'
  | 'year_to_date'
  | 'last_year'
  | 'trailing_twelve_months';

/** The pane's period picker, in display order; `custom` is the pane's own date fields (customPeriod). */
export const PERIOD_CHOICES: readonly { readonly key: NamedPeriodKey | 'custom'; readonly label: string }[] = [
  { key: 'this_month', label: 'This month' },
  { key: 'last_month', label: 'Last month' },
  { key: 'this_quarter', label: 'This quarter' },
  { key: 'last_quarter', label: 'Last quarter' },
  { key: 'year_to_date', label: 'Year to date' },
  { key: 'last_year', label: 'Last year' },
  { key: 'trailing_twelve_months', label: 'Trailing twelve months' },
  { key: 'custom', label: 'Custom' },
];

/**
 * "This month" and "this quarter" end today, not at the month or quarter end: the API's own default
 * (current quarter start to today) reads that way, and a statement column dated in the future would
 * claim figures that cannot exist yet. "Last year" is the last full fiscal year; TTM is the twelve whole
 * months before the current one.
 */
export function namedPeriod(key: NamedPeriodKey, options: RelativePeriodOptions): Period {
  const today = options.today;
  requireIsoDate(today, 'today');
  const fyStart = fyStartOf(options);
  const { year, month } = requireIsoDate(today);
  switch (key) {
    case 'this_month':
      return { start: formatIsoDate(year, month, 1), end: today, label: `${monthName(month)} ${year} to date` };
    case 'last_month': {
      const prev = monthIndexToYearMonth(monthIndex(today) - 1);
      return monthPeriod(prev.year, prev.month);
    }
    case 'this_quarter': {
      const q = fiscalQuarterOf(today, { fiscalYearStartMonth: fyStart });
      const start = fiscalQuarterPeriod(q.fiscalYear, q.quarter, fyStart).start;
      return { start, end: today, label: `${quarterLabel(q, fyStart)} to date` };
    }
    case 'last_quarter': {
      const q = fiscalQuarterOf(today, { fiscalYearStartMonth: fyStart });
      const prev: FiscalQuarter = q.quarter === 1
        ? { fiscalYear: q.fiscalYear - 1, quarter: 4 }
        : { fiscalYear: q.fiscalYear, quarter: q.quarter - 1 };
      const p = fiscalQuarterPeriod(prev.fiscalYear, prev.quarter, fyStart);
      return { ...p, label: quarterLabel(prev, fyStart) };
    }
    case 'year_to_date':
      return yearToDate(today, fyStart);
    case 'last_year':
      return fiscalYearPeriod(fiscalYearOf(today, fyStart) - 1, fyStart);
    case 'trailing_twelve_months':
      return trailingTwelveMonths(today);
  }
}

// ---------------------------------------------------------------------------------------------------
// Splitting and comparing

export type SplitUnit = 'month' | 'quarter';

/**
 * Cuts a period at month or (fiscal) quarter boundaries, for periods side by side. The first and last
 * pieces are clipped to the period, so a range that starts mid-month yields a partial first column
 * (labelled with its dates) rather than silently widening what the user asked for.
 */
export function splitPeriod(period: Pick<Period, 'start' | 'end'>, unit: SplitUnit, options?: PeriodOptions): Period[] {
  const fyStart = fyStartOf(options);
  requireIsoDate(period.start, 'start');
  requireIsoDate(period.end, 'end');
  if (period.start > period.end) throw new RangeError(`period start ${period.start} is after its end ${period.end}`);
  const step = unit === 'month' ? 1 : 3;
  // Quarter pieces start on months congruent to the fiscal start month (mod 3).
  const first = monthIndex(period.start);
  const align = unit === 'month' ? 0 : ((first - (fyStart - 1)) % 3 + 3) % 3;
  const pieces: Period[] = [];
  for (let index = first - align; index <= monthIndex(period.end); index += step) {
    const a = monthIndexToYearMonth(index);
    const b = monthIndexToYearMonth(index + step - 1);
    const start = maxDate(formatIsoDate(a.year, a.month, 1), period.start);
    const end = minDate(formatIsoDate(b.year, b.month, daysInMonth(b.year, b.month)), period.end);
    pieces.push({ start, end, label: periodLabel(start, end, { fiscalYearStartMonth: fyStart }) });
  }
  return pieces;
}

/**
 * The period of the same length just before this one. Whole-month periods step back by whole months
 * (Q3 -> Q2, although Q3 has 92 days and Q2 91), since that is the comparison a reader expects; any
 * other range steps back by its number of days, ending the day before it starts.
 */
export function priorPeriod(period: Pick<Period, 'start' | 'end'>, options?: PeriodOptions): Period {
  let start: string;
  let end: string;
  if (isWholeMonths(period)) {
    const n = monthCount(period);
    start = addMonths(period.start, -n);
    end = endOfMonth(addMonths(period.start, -1));
  } else {
    const days = daysBetween(period.start, period.end) + 1;
    end = addDays(period.start, -1);
    start = addDays(end, -(days - 1));
  }
  return { start, end, label: periodLabel(start, end, options) };
}

/**
 * The same period one year earlier. Month ends stay month ends (Feb 2024 -> Feb 2023 ends on the 28th,
 * and the reverse ends on the 29th); other days move by twelve calendar months, 02-29 becoming 02-28.
 */
export function samePeriodLastYear(period: Pick<Period, 'start' | 'end'>, options?: PeriodOptions): Period {
  const start = addMonths(period.start, -12);
  const end = isEndOfMonth(period.end) ? endOfMonth(addMonths(period.end, -12)) : addMonths(period.end, -12);
  return { start, end, label: periodLabel(start, end, options) };
}

/** The twelve month-end dates of a calendar year. */
export function monthEnds(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => formatIsoDate(year, i + 1, daysInMonth(year, i + 1)));
}

/** The four quarter-end dates of a fiscal year (the calendar year with the default January start). */
export function quarterEnds(fiscalYear: number, options?: PeriodOptions): string[] {
  const fyStart = fyStartOf(options);
  return [1, 2, 3, 4].map((q) => fiscalQuarterPeriod(fiscalYear, q, fyStart).end);
}

// ---------------------------------------------------------------------------------------------------
// The month granularity of GET /aggregations/total

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

/**
 * /aggregations/total takes full dates but ignores the day: a periodic total covers both end months
 * whole. The pane and the functions show `note` instead of letting 2026-07-15 quietly mean 2026-07-01.
 */
export function monthlyCoverage(period: Pick<Period, 'start' | 'end'>, options?: PeriodOptions): MonthlyCoverage {
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
  const daysIgnored = !isWholeMonths(period);
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

/** A point-in-time (balance) total is cumulative through the whole selected month. */
export function pointInTimeCoverage(date: string): PointInTimeCoverage {
  const { year, month } = requireIsoDate(date, 'date');
  const through = endOfMonth(date);
  const daysIgnored = date !== through;
  return {
    month: formatYearMonth(year, month),
    through,
    daysIgnored,
    note: daysIgnored ? `Balances are read at month end: ${date} is read as ${through}.` : null,
  };
}
