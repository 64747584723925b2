// The date arguments of the FIN functions, as Excel hands them over: serial numbers and text such as
// 2026-07-31, 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD or TTM, and a month with an offset and a view
// (2026-10-1M, 2026-10 YTD: periodText.ts), read into a date or a period.
//
// The `2026-Q3` form is a calendar quarter, since it names a calendar year; `FY2026-Q1` is the fiscal one.

import { fail, ok, type Result } from '../result';
import { daysInMonth, formatIsoDate, monthFullName, requireIsoDate } from './calendar';
import { fiscalQuarterPeriod, fiscalStartMonthOf, fiscalYearPeriod } from './fiscal';
import { monthPeriod, quarterPeriod, type Period } from './period';
import { periodOfMonth, readKeyedPeriodText, shiftMonth } from './periodText';
import { trailingTwelveMonths, yearToDate, type RelativePeriodOptions } from './relative';
import { MAX_DATE, MIN_DATE, serialToIso, type DateSystem } from './serials';

/** `today` is required so that no parse ever reads a clock. */
export interface DateArgumentOptions extends RelativePeriodOptions {
  /** The workbook's date system; Excel on the Mac once defaulted to 1904. Default 1900. */
  readonly dateSystem?: DateSystem;
}

export type DateArgument =
  | { readonly kind: 'date'; readonly date: string }
  | { readonly kind: 'period'; readonly period: Period };

export const ACCEPTED_DATE_FORMS = 'use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD, TTM, 2026-07-1M or 2026-07 YTD';

function badText(text: string, reason: string | null): Result<never> {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return fail(`Bad date "${shown}": ${reason ? `${reason}; ` : ''}${ACCEPTED_DATE_FORMS}`);
}

function inExcelRange(start: string, end: string): boolean {
  return start >= MIN_DATE && end <= MAX_DATE;
}

const RANGE_REASON = `dates must fall between ${MIN_DATE} and ${MAX_DATE}`;

function periodResult(text: string, period: Period): Result<DateArgument> {
  return inExcelRange(period.start, period.end) ? ok({ kind: 'period', period }) : badText(text, RANGE_REASON);
}

/**
 * Reads a date argument as Excel hands it over: a number is a serial in the workbook's date system;
 * text is an ISO date or one of the period forms. Text is trimmed and case-insensitive (fy2026, 2026-q3,
 * ytd) because users type it; otherwise the forms are strict, so `2026-7`, `7/15/2026` or `2026-02-30`
 * fail with a message naming what is wrong instead of being guessed at.
 */
export function parseDateArgument(input: unknown, options: DateArgumentOptions): Result<DateArgument> {
  requireIsoDate(options.today, 'today');
  const fyStart = fiscalStartMonthOf(options);

  if (typeof input === 'number') {
    const iso = serialToIso(input, options.dateSystem ?? 1900);
    return iso.ok ? ok({ kind: 'date', date: iso.value }) : iso;
  }
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    return fail(`Missing date: ${ACCEPTED_DATE_FORMS}`);
  }
  if (typeof input !== 'string') {
    return fail(`Bad date ${JSON.stringify(input) ?? String(input)}: ${ACCEPTED_DATE_FORMS}`);
  }

  const text = input.trim();
  const upper = text.toUpperCase();
  let m: RegExpExecArray | null;

  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(upper))) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month < 1 || month > 12) return badText(text, `month ${m[2]} does not exist`);
    if (day < 1 || day > daysInMonth(year, month)) {
      return badText(text, `${monthFullName(month)} ${year} has ${daysInMonth(year, month)} days`);
    }
    const date = formatIsoDate(year, month, day);
    if (!inExcelRange(date, date)) return badText(text, RANGE_REASON);
    return ok({ kind: 'date', date });
  }
  const keyed = readKeyedPeriodText(upper);
  if (keyed) {
    if (keyed.month.month < 1 || keyed.month.month > 12) return badText(text, `month ${upper.slice(5, 7)} does not exist`);
    if (keyed.shift === 0 && keyed.view === 'month') return periodResult(text, monthPeriod(keyed.month.year, keyed.month.month));
    return periodResult(text, periodOfMonth(shiftMonth(keyed.month, keyed.shift), keyed.view, fyStart));
  }
  if ((m = /^(\d{4})-Q(\d)$/.exec(upper))) {
    const quarter = Number(m[2]);
    if (quarter < 1 || quarter > 4) return badText(text, `quarter Q${m[2]} does not exist (Q1-Q4)`);
    return periodResult(text, quarterPeriod(Number(m[1]), quarter));
  }
  if ((m = /^FY(\d{4})(?:-Q(\d))?$/.exec(upper))) {
    const fy = Number(m[1]);
    if (m[2] === undefined) return periodResult(text, fiscalYearPeriod(fy, fyStart));
    const quarter = Number(m[2]);
    if (quarter < 1 || quarter > 4) return badText(text, `quarter Q${m[2]} does not exist (Q1-Q4)`);
    return periodResult(text, fiscalQuarterPeriod(fy, quarter, fyStart));
  }
  if (upper === 'YTD') return periodResult(text, yearToDate(options.today, fyStart));
  if (upper === 'TTM') return periodResult(text, trailingTwelveMonths(options.today));

  // Near misses get a specific hint; everything else gets the list of forms.
  if (/^\d{4}-\d{1,2}(-\d{1,2})?$/.test(upper)) return badText(text, 'months and days need two digits');
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(upper)) return badText(text, 'a time of day is not accepted');
  if (/^FY\s*\d{2}$/.test(upper)) return badText(text, 'the fiscal year needs four digits');
  if (/^\d+(\.\d+)?$/.test(upper)) return badText(text, 'a serial number must be a number, not text');
  if (/^\d{4}-\d{2}\s*[+-]\s*\d+$/.test(upper)) return badText(text, 'a shift needs its unit: M, Q or Y (2026-07-1M)');
  if (/^\d{4}-\d{2}(?!\d)/.test(upper)) return badText(text, 'after the month comes a shift (-1M, +1Q, -1Y), then a view (QTR, FY, YTD or TTM)');
  return badText(text, null);
}

/** The date a point-in-time figure (a balance) should be read at: a period's last day. */
export function argumentEndDate(arg: DateArgument): string {
  return arg.kind === 'date' ? arg.date : arg.period.end;
}

/**
 * The range that one or two date arguments name, for periodic figures: a single date is that one day;
 * with two, the range runs from the first one's start to the second one's end, so `=X("2026-Q1","2026-Q2")`
 * is the half year and a start date after the end is an error the user sees.
 */
export function argumentsToPeriod(first: DateArgument, second?: DateArgument): Result<Period> {
  const start = first.kind === 'date' ? first.date : first.period.start;
  const last = second ?? first;
  const end = argumentEndDate(last);
  if (start > end) return fail(`Bad dates: the start ${start} is after the end ${end}`);
  if (second === undefined && first.kind === 'period') return ok(first.period);
  const label = start === end ? start : `${start} to ${end}`;
  return ok({ start, end, label });
}
