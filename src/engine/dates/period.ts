// A period: an inclusive range of calendar days with a label, and the periods made of whole months.

import {
  firstDayOf,
  isEndOfMonth,
  isFirstOfMonth,
  lastDayOf,
  monthIndex,
  monthIndexToYearMonth,
  monthLabel,
  yearMonthToMonthIndex,
} from './calendar';

/** An inclusive range of calendar days with a human label (a column header, a pane caption). */
export interface Period {
  readonly start: string;
  readonly end: string;
  readonly label: string;
}

/** `Q3 2026`: a calendar quarter (Q1 = January-March) named by its year. */
export function calendarQuarterLabel(year: number, quarter: number): string {
  return `Q${quarter} ${year}`;
}

export function monthPeriod(year: number, month: number): Period {
  return { start: firstDayOf(year, month), end: lastDayOf(year, month), label: monthLabel(year, month) };
}

/** A period of whole months, `count` months from the first; the caller supplies the label. */
export function monthsPeriod(firstYear: number, firstMonth: number, count: number, label: string): Period {
  const last = monthIndexToYearMonth(yearMonthToMonthIndex(firstYear, firstMonth) + count - 1);
  return { start: firstDayOf(firstYear, firstMonth), end: lastDayOf(last.year, last.month), label };
}

/** Calendar quarter: Q1 = January-March. */
export function quarterPeriod(year: number, quarter: number): Period {
  return monthsPeriod(year, (quarter - 1) * 3 + 1, 3, calendarQuarterLabel(year, quarter));
}

/** True when the period starts on a 1st and ends on a month's last day. */
export function isWholeMonths(period: Pick<Period, 'start' | 'end'>): boolean {
  return isFirstOfMonth(period.start) && isEndOfMonth(period.end);
}

/** Months spanned by a period, counting partial ones. */
export function monthCount(period: Pick<Period, 'start' | 'end'>): number {
  return monthIndex(period.end) - monthIndex(period.start) + 1;
}
