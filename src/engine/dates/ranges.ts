// Ranges a statement puts side by side: a checked custom range, a range cut into months or quarters,
// the comparison periods (prior period, same period last year).

import { fail, ok, type Result } from '../result';
import {
  addDays,
  addMonths,
  daysBetween,
  endOfMonth,
  firstDayOf,
  isEndOfMonth,
  lastDayOf,
  maxDate,
  minDate,
  monthIndex,
  monthIndexToYearMonth,
  parseIsoDate,
  requireIsoDate,
} from './calendar';
import { fiscalStartMonthOf, type PeriodOptions } from './fiscal';
import { periodLabel } from './labels';
import { isWholeMonths, monthCount, type Period } from './period';

/** A user-chosen range, checked: strict ISO days, start not after end. */
export function customPeriod(start: string, end: string, options?: PeriodOptions): Result<Period> {
  if (!parseIsoDate(start)) return fail(`Bad start date "${start}": use YYYY-MM-DD`);
  if (!parseIsoDate(end)) return fail(`Bad end date "${end}": use YYYY-MM-DD`);
  if (start > end) return fail(`Bad period: the start ${start} is after the end ${end}`);
  return ok({ start, end, label: periodLabel(start, end, options) });
}

export type SplitUnit = 'month' | 'quarter';

/**
 * Cuts a period at month or (fiscal) quarter boundaries, for periods side by side. The first and last
 * pieces are clipped to the period, so a range that starts mid-month yields a partial first column
 * (labelled with its dates) rather than silently widening what the user asked for.
 */
export function splitPeriod(period: Pick<Period, 'start' | 'end'>, unit: SplitUnit, options?: PeriodOptions): Period[] {
  const fyStart = fiscalStartMonthOf(options);
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
    const start = maxDate(firstDayOf(a.year, a.month), period.start);
    const end = minDate(lastDayOf(b.year, b.month), period.end);
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
