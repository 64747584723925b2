// The short label of any range of days, as column headers and captions show it.

import { monthLabel, requireIsoDate } from './calendar';
import {
  fiscalQuarterLabel,
  fiscalQuarterOf,
  fiscalQuarterPeriod,
  fiscalStartMonthOf,
  fiscalYearLabel,
  fiscalYearOf,
  fiscalYearPeriod,
  type PeriodOptions,
} from './fiscal';
import { calendarQuarterLabel, isWholeMonths, monthCount } from './period';

/**
 * A short label for a range: `Jul 2026`, `Q3 2026` (or `FY2027 Q1` off a January year start), `FY2026`,
 * a single date, `Jul 2026 to Sep 2026` for other whole months, else `2026-07-15 to 2026-08-10`.
 */
export function periodLabel(start: string, end: string, options?: PeriodOptions): string {
  const fyStart = fiscalStartMonthOf(options);
  const s = requireIsoDate(start, 'start');
  const e = requireIsoDate(end, 'end');
  if (start === end) return start;
  if (!isWholeMonths({ start, end })) return `${start} to ${end}`;
  const months = monthCount({ start, end });
  if (months === 1) return monthLabel(s.year, s.month);
  const q = fiscalQuarterOf(start, { fiscalYearStartMonth: fyStart });
  if (months === 3 && fiscalQuarterPeriod(q.fiscalYear, q.quarter, fyStart).start === start) {
    return fiscalQuarterLabel(q, fyStart);
  }
  if (months === 3 && (s.month - 1) % 3 === 0) return calendarQuarterLabel(s.year, (s.month - 1) / 3 + 1);
  const fy = fiscalYearOf(start, fyStart);
  if (months === 12 && fiscalYearPeriod(fy, fyStart).start === start) return fiscalYearLabel(fy);
  return `${monthLabel(s.year, s.month)} to ${monthLabel(e.year, e.month)}`;
}
