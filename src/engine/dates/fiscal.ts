// Fiscal years and fiscal quarters.
//
// Convention: a fiscal year is named by the calendar year it ends in, so with a July start FY2026 runs
// 2025-07-01 to 2026-06-30; with a January start FY2026 is calendar 2026. Fiscal quarters follow the fiscal
// year (Q1 starts in the fiscal start month); with the default January start they are the calendar quarters.

import { monthIndex, monthIndexToYearMonth, requireIsoDate, yearMonthToMonthIndex, type YearMonth } from './calendar';
import { calendarQuarterLabel, monthsPeriod, type Period } from './period';

export interface PeriodOptions {
  /** 1-12, default 1 (January). */
  readonly fiscalYearStartMonth?: number;
}

function checkFiscalYearStartMonth(month: number): void {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`fiscal year start month must be an integer 1-12, got ${month}`);
  }
}

/** The fiscal start month the options name (January when they name none), checked. */
export function fiscalStartMonthOf(options?: PeriodOptions): number {
  const month = options?.fiscalYearStartMonth ?? 1;
  checkFiscalYearStartMonth(month);
  return month;
}

/** `FY2026`. */
export function fiscalYearLabel(fiscalYear: number): string {
  return `FY${fiscalYear}`;
}

/** `FY2026 Q1`: a fiscal quarter named in full, whatever the start month. */
function fiscalQuarterName(fiscalYear: number, quarter: number): string {
  return `${fiscalYearLabel(fiscalYear)} Q${quarter}`;
}

/** The first month of a fiscal year. */
export function fiscalYearStart(fiscalYear: number, fiscalYearStartMonth = 1): YearMonth {
  checkFiscalYearStartMonth(fiscalYearStartMonth);
  return { year: fiscalYearStartMonth === 1 ? fiscalYear : fiscalYear - 1, month: fiscalYearStartMonth };
}

/** The fiscal year (named by its end year) that contains a date. */
export function fiscalYearOf(iso: string, fiscalYearStartMonth = 1): number {
  checkFiscalYearStartMonth(fiscalYearStartMonth);
  const { year, month } = requireIsoDate(iso);
  if (fiscalYearStartMonth === 1) return year;
  return month >= fiscalYearStartMonth ? year + 1 : year;
}

export function fiscalYearPeriod(fiscalYear: number, fiscalYearStartMonth = 1): Period {
  const s = fiscalYearStart(fiscalYear, fiscalYearStartMonth);
  return monthsPeriod(s.year, s.month, 12, fiscalYearLabel(fiscalYear));
}

/** Quarter 1-4 of a fiscal year; Q1 starts in the fiscal year's first month. */
export function fiscalQuarterPeriod(fiscalYear: number, quarter: number, fiscalYearStartMonth = 1): Period {
  const s = fiscalYearStart(fiscalYear, fiscalYearStartMonth);
  const first = monthIndexToYearMonth(yearMonthToMonthIndex(s.year, s.month) + (quarter - 1) * 3);
  return monthsPeriod(first.year, first.month, 3, fiscalQuarterName(fiscalYear, quarter));
}

export interface FiscalQuarter {
  readonly fiscalYear: number;
  readonly quarter: number;
}

export function fiscalQuarterOf(iso: string, options?: PeriodOptions): FiscalQuarter {
  const fyStart = fiscalStartMonthOf(options);
  const fiscalYear = fiscalYearOf(iso, fyStart);
  const first = fiscalYearStart(fiscalYear, fyStart);
  const offset = monthIndex(iso) - yearMonthToMonthIndex(first.year, first.month);
  return { fiscalYear, quarter: Math.floor(offset / 3) + 1 };
}

export function previousFiscalQuarter(q: FiscalQuarter): FiscalQuarter {
  return q.quarter === 1 ? { fiscalYear: q.fiscalYear - 1, quarter: 4 } : { fiscalYear: q.fiscalYear, quarter: q.quarter - 1 };
}

export function fiscalQuarterLabel(q: FiscalQuarter, fiscalYearStartMonth: number): string {
  // With a January start the fiscal and calendar quarters coincide, and "Q3 2026" is what people write.
  return fiscalYearStartMonth === 1
    ? calendarQuarterLabel(q.fiscalYear, q.quarter)
    : fiscalQuarterName(q.fiscalYear, q.quarter);
}
