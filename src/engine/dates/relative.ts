// Periods named relative to today: year to date, the trailing twelve months, and the pane's period picker.

import { firstDayOf, monthIndex, monthIndexToYearMonth, monthLabel, requireIsoDate } from './calendar';
import {
  fiscalQuarterLabel,
  fiscalQuarterOf,
  fiscalQuarterPeriod,
  fiscalStartMonthOf,
  fiscalYearLabel,
  fiscalYearOf,
  fiscalYearPeriod,
  previousFiscalQuarter,
  type PeriodOptions,
} from './fiscal';
import { monthPeriod, monthsPeriod, type Period } from './period';

export interface RelativePeriodOptions extends PeriodOptions {
  /** The company's calendar date, injected (see calendarDateAt). */
  readonly today: string;
}

/** Fiscal year start to today (inclusive). */
export function yearToDate(today: string, fiscalYearStartMonth = 1): Period {
  const fy = fiscalYearOf(today, fiscalYearStartMonth);
  const start = fiscalYearPeriod(fy, fiscalYearStartMonth).start;
  return { start, end: today, label: fiscalYearStartMonth === 1 ? `YTD ${today}` : `${fiscalYearLabel(fy)} YTD ${today}` };
}

/**
 * The twelve whole months before today's month. The current month is left out even on its last day:
 * its books are still open, and a TTM figure that silently includes a partial month misleads.
 */
export function trailingTwelveMonths(today: string): Period {
  const last = monthIndexToYearMonth(monthIndex(today) - 1);
  const first = monthIndexToYearMonth(monthIndex(today) - 12);
  return monthsPeriod(first.year, first.month, 12, `TTM to ${monthLabel(last.year, last.month)}`);
}

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
  const { year, month } = requireIsoDate(today, 'today');
  const fyStart = fiscalStartMonthOf(options);
  switch (key) {
    case 'this_month':
      return { start: firstDayOf(year, month), end: today, label: `${monthLabel(year, month)} to date` };
    case 'last_month': {
      const prev = monthIndexToYearMonth(monthIndex(today) - 1);
      return monthPeriod(prev.year, prev.month);
    }
    case 'this_quarter': {
      const q = fiscalQuarterOf(today, { fiscalYearStartMonth: fyStart });
      const start = fiscalQuarterPeriod(q.fiscalYear, q.quarter, fyStart).start;
      return { start, end: today, label: `${fiscalQuarterLabel(q, fyStart)} to date` };
    }
    case 'last_quarter': {
      const prev = previousFiscalQuarter(fiscalQuarterOf(today, { fiscalYearStartMonth: fyStart }));
      const p = fiscalQuarterPeriod(prev.fiscalYear, prev.quarter, fyStart);
      return { ...p, label: fiscalQuarterLabel(prev, fyStart) };
    }
    case 'year_to_date':
      return yearToDate(today, fyStart);
    case 'last_year':
      return fiscalYearPeriod(fiscalYearOf(today, fyStart) - 1, fyStart);
    case 'trailing_twelve_months':
      return trailingTwelveMonths(today);
  }
}
