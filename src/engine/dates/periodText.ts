// Period text keyed on a month, with an offset and a view: what the reporting period (a cell holding a month
// such as 2026-10) turns into when a formula asks for "last month", "the year to date" or "the same period
// last year". One small grammar, kept small on purpose:
//
//   <month> [<shift>] [<view>]
//   month  YYYY-MM
//   shift  a sign, a whole number and a unit: -1M (months), +2Q (quarters), -1Y (years); a space before it is optional
//   view   QTR (the fiscal quarter holding the month), FY (its fiscal year), YTD (fiscal year start to the
//          month's end) or TTM (the twelve months ending with the month); the month alone when omitted
//
// so `2026-10-1M` is September 2026, `2026-10 YTD` the fiscal year to October, `2026-10-1Y YTD` the same span a
// year earlier, `2026-10 -1Q QTR` the quarter before October's. The shift moves the month first, the view then
// widens it. FIN.PERIOD writes the same text (formatPeriodText), so what it returns reads back here.

import { lastDayOf, monthIndexToYearMonth, monthLabel, yearMonthToMonthIndex, type YearMonth } from './calendar';
import { fiscalQuarterLabel, fiscalQuarterOf, fiscalQuarterPeriod, fiscalYearLabel, fiscalYearOf, fiscalYearPeriod } from './fiscal';
import { monthPeriod, monthsPeriod, type Period } from './period';

export type PeriodView = 'month' | 'quarter' | 'fy' | 'ytd' | 'ttm';

/** The view words of the text form, by view (the month has none: it is the text without one). */
const VIEW_WORDS: Readonly<Record<Exclude<PeriodView, 'month'>, string>> = { quarter: 'QTR', fy: 'FY', ytd: 'YTD', ttm: 'TTM' };

/** Months per unit of a shift. */
const SHIFT_UNITS: Readonly<Record<string, number>> = { M: 1, Q: 3, Y: 12 };

/** Upper-cased, trimmed text. The month is checked by the caller (it knows how to word a bad one). */
const KEYED = /^(\d{4})-(\d{2})(?:\s*([+-])\s*(\d{1,4})\s*([MQY]))?(?:\s+(QTR|FY|YTD|TTM))?$/;

export interface KeyedPeriodText {
  /** The month as written, before the shift. */
  readonly month: YearMonth;
  /** The shift in months (0 when none). */
  readonly shift: number;
  readonly view: PeriodView;
}

/**
 * Reads upper-cased, trimmed text of the grammar above; null when it is not of that shape (plain `2026-10`
 * is of it: the month with no shift and no view). The month is not checked here.
 */
export function readKeyedPeriodText(upper: string): KeyedPeriodText | null {
  const m = KEYED.exec(upper);
  if (!m) return null;
  const shift = m[3] === undefined ? 0 : (m[3] === '-' ? -1 : 1) * Number(m[4]) * SHIFT_UNITS[m[5]];
  const word = m[6];
  const view = (Object.keys(VIEW_WORDS) as (keyof typeof VIEW_WORDS)[]).find((v) => VIEW_WORDS[v] === word) ?? 'month';
  return { month: { year: Number(m[1]), month: Number(m[2]) }, shift, view };
}

/** `YTD Oct 2026`, or `FY2027 YTD Oct 2026` when the fiscal year does not start in January. */
function yearToDateLabel(month: YearMonth, fiscalYearStartMonth: number): string {
  const fy = fiscalYearOf(lastDayOf(month.year, month.month), fiscalYearStartMonth);
  const prefix = fiscalYearStartMonth === 1 ? '' : `${fiscalYearLabel(fy)} `;
  return `${prefix}YTD ${monthLabel(month.year, month.month)}`;
}

/** The period a view of a month names, under the company's fiscal year. */
export function periodOfMonth(month: YearMonth, view: PeriodView, fiscalYearStartMonth: number): Period {
  const end = lastDayOf(month.year, month.month);
  switch (view) {
    case 'month':
      return monthPeriod(month.year, month.month);
    case 'quarter': {
      const q = fiscalQuarterOf(end, { fiscalYearStartMonth });
      return { ...fiscalQuarterPeriod(q.fiscalYear, q.quarter, fiscalYearStartMonth), label: fiscalQuarterLabel(q, fiscalYearStartMonth) };
    }
    case 'fy':
      return fiscalYearPeriod(fiscalYearOf(end, fiscalYearStartMonth), fiscalYearStartMonth);
    case 'ytd':
      return { start: fiscalYearPeriod(fiscalYearOf(end, fiscalYearStartMonth), fiscalYearStartMonth).start, end, label: yearToDateLabel(month, fiscalYearStartMonth) };
    case 'ttm': {
      const first = monthIndexToYearMonth(yearMonthToMonthIndex(month.year, month.month) - 11);
      return monthsPeriod(first.year, first.month, 12, `TTM to ${monthLabel(month.year, month.month)}`);
    }
  }
}

/** A month moved by whole months. */
export function shiftMonth(month: YearMonth, months: number): YearMonth {
  return monthIndexToYearMonth(yearMonthToMonthIndex(month.year, month.month) + months);
}

/**
 * The text of a view of a month, in forms every FIN function reads: `2026-10`, a quarter (`2026-Q4`, or
 * `FY2027-Q2` when the fiscal year starts in another month), `FY2027`, `2026-10 YTD`, `2026-10 TTM`.
 */
export function formatPeriodText(month: YearMonth, view: PeriodView, fiscalYearStartMonth: number): string {
  const text = `${month.year}-${String(month.month).padStart(2, '0')}`;
  const end = lastDayOf(month.year, month.month);
  switch (view) {
    case 'month':
      return text;
    case 'quarter': {
      const q = fiscalQuarterOf(end, { fiscalYearStartMonth });
      return fiscalYearStartMonth === 1 ? `${q.fiscalYear}-Q${q.quarter}` : `${fiscalYearLabel(q.fiscalYear)}-Q${q.quarter}`;
    }
    case 'fy':
      return fiscalYearLabel(fiscalYearOf(end, fiscalYearStartMonth));
    default:
      return `${text} ${VIEW_WORDS[view]}`;
  }
}
