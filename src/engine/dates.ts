// Calendar dates, Excel serial numbers and the date arguments of custom functions.
//
// Dates are ISO `YYYY-MM-DD` strings everywhere in the engine: that is what the API takes and returns,
// they compare correctly as strings, and they carry no time zone to drift across. Arithmetic goes through
// day numbers computed with integer math (days since 1970-01-01, proleptic Gregorian), not through `Date`,
// whose local-time behaviour and two-digit-year quirks (Date.UTC(99, 0, 1) is 1999) have no place here.
//
// Nothing in this module reads the clock: "today" is always a parameter, so a formula's meaning depends
// only on its arguments and the injected company date.

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: string): Result<T> {
  return { ok: false, error };
}

/** Thrown by `unwrap`, for callers that prefer exceptions; the message is the user-facing one. */
export class DateArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DateArgumentError';
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new DateArgumentError(result.error);
  return result.value;
}

/** An inclusive range of calendar days with a human label (a column header, a pane caption). */
export interface Period {
  readonly start: string;
  readonly end: string;
  readonly label: string;
}

// ---------------------------------------------------------------------------------------------------
// Calendar arithmetic

/** The range every parsed date must fall in: Excel's own (1900 system start to 9999-12-31). */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '9999-12-31';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MONTH_FULL_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

export interface YearMonthDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function monthName(month: number): string {
  return MONTH_NAMES[month - 1];
}

// Howard Hinnant's days_from_civil / civil_from_days: exact for every Gregorian date, no floating point.
export function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function fromDayNumber(n: number): YearMonthDay {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function formatIsoDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** `YYYY-MM` of a year and month. */
export function formatYearMonth(year: number, month: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Splits a strict `YYYY-MM-DD` that names a real day; null otherwise. */
export function parseIsoDate(text: string): YearMonthDay | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isIsoDate(text: string): boolean {
  return parseIsoDate(text) !== null;
}

/** Parses an ISO date the engine itself produced or was handed by code; bad input is a programming error. */
export function requireIsoDate(text: string, what = 'date'): YearMonthDay {
  const ymd = parseIsoDate(text);
  if (!ymd) throw new TypeError(`${what} must be a YYYY-MM-DD calendar date, got ${JSON.stringify(text)}`);
  return ymd;
}

export function isoToDayNumber(iso: string): number {
  const { year, month, day } = requireIsoDate(iso);
  return dayNumber(year, month, day);
}

export function dayNumberToIso(n: number): string {
  const { year, month, day } = fromDayNumber(n);
  return formatIsoDate(year, month, day);
}

export function addDays(iso: string, days: number): string {
  return dayNumberToIso(isoToDayNumber(iso) + days);
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return isoToDayNumber(b) - isoToDayNumber(a);
}

/**
 * Moves by calendar months, clamping the day to the target month's length (2024-01-31 + 1 month =
 * 2024-02-29), which is how accountants read "one month later" for month-end dates.
 */
export function addMonths(iso: string, months: number): string {
  const { year, month, day } = requireIsoDate(iso);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return formatIsoDate(y, m, Math.min(day, daysInMonth(y, m)));
}

export function startOfMonth(iso: string): string {
  const { year, month } = requireIsoDate(iso);
  return formatIsoDate(year, month, 1);
}

export function endOfMonth(iso: string): string {
  const { year, month } = requireIsoDate(iso);
  return formatIsoDate(year, month, daysInMonth(year, month));
}

export function isFirstOfMonth(iso: string): boolean {
  return requireIsoDate(iso).day === 1;
}

export function isEndOfMonth(iso: string): boolean {
  const { year, month, day } = requireIsoDate(iso);
  return day === daysInMonth(year, month);
}

/** Month index counted from year 0, so month differences are plain subtraction. */
export function monthIndex(iso: string): number {
  const { year, month } = requireIsoDate(iso);
  return year * 12 + (month - 1);
}

export function monthIndexToYearMonth(index: number): { year: number; month: number } {
  const year = Math.floor(index / 12);
  return { year, month: index - year * 12 + 1 };
}

export function minDate(a: string, b: string): string {
  return a <= b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a >= b ? a : b;
}

/**
 * The calendar date at an instant in a time zone. The engine's "today" is the company's date in
 * America/Los_Angeles (the API's zone, docs/api-decisions.md), not the machine's or UTC's; callers take
 * the instant from their clock and pass the result down as `today`.
 */
export function calendarDateAt(epochMs: number, timeZone = 'America/Los_Angeles'): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit',
  }).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return formatIsoDate(get('year'), get('month'), get('day'));
}

// ---------------------------------------------------------------------------------------------------
// Excel serial numbers

export type DateSystem = '1900' | '1904';

/** 9999-12-31, Excel's last date, in each system. */
export const MAX_SERIAL: Readonly<Record<DateSystem, number>> = { '1900': 2958465, '1904': 2957003 };
const MIN_SERIAL: Readonly<Record<DateSystem, number>> = { '1900': 1, '1904': 0 };

// Day numbers of each system's serial 0: 1899-12-31 (1900 system, before its fake leap day) and
// 1904-01-01. From serial 61 on, the 1900 system counts Lotus's fictitious 1900-02-29, so those serials
// sit one day later than a plain count would put them.
const DAY_OF_SERIAL_ZERO_1900 = dayNumber(1899, 12, 31);
const DAY_OF_SERIAL_ZERO_1904 = dayNumber(1904, 1, 1);
const FAKE_LEAP_DAY_SERIAL = 60;

/**
 * Excel serial -> ISO date. The fraction (a time of day) is dropped: a serial of 46218.75 is a moment on
 * 2026-07-15, and every API parameter is a whole day. Serial 60 of the 1900 system is the day Excel
 * believes to be 1900-02-29; no such day exists, so it is rejected rather than silently moved to a
 * neighbour (a user typing 2/29/1900 has made a mistake the API could not represent anyway).
 */
export function serialToIso(serial: number, system: DateSystem = '1900'): Result<string> {
  if (typeof serial !== 'number' || !Number.isFinite(serial)) {
    return fail(`Bad date ${String(serial)}: not a number of days`);
  }
  const whole = Math.floor(serial);
  const min = MIN_SERIAL[system];
  const max = MAX_SERIAL[system];
  if (whole < min || whole > max) {
    const first = system === '1900' ? '1 (1900-01-01)' : '0 (1904-01-01)';
    return fail(
      `Bad date ${serial}: in the ${system} date system serial numbers run from ${first} to ${max} (9999-12-31)`,
    );
  }
  if (system === '1904') return ok(dayNumberToIso(DAY_OF_SERIAL_ZERO_1904 + whole));
  if (whole === FAKE_LEAP_DAY_SERIAL) {
    return fail(
      `Bad date ${serial}: serial 60 is Excel's 1900-02-29, a day that never existed; use 59 (1900-02-28) or 61 (1900-03-01)`,
    );
  }
  const shift = whole > FAKE_LEAP_DAY_SERIAL ? 1 : 0;
  return ok(dayNumberToIso(DAY_OF_SERIAL_ZERO_1900 + whole - shift));
}

/** ISO date -> Excel serial (whole days). Dates before the system's first day are an error. */
export function isoToSerial(iso: string, system: DateSystem = '1900'): Result<number> {
  const ymd = parseIsoDate(iso);
  if (!ymd) return fail(`Bad date "${iso}": not a YYYY-MM-DD calendar date`);
  const n = dayNumber(ymd.year, ymd.month, ymd.day);
  if (system === '1904') {
    const serial = n - DAY_OF_SERIAL_ZERO_1904;
    if (serial < 0) return fail(`Bad date "${iso}": the 1904 date system starts at 1904-01-01`);
    return ok(serial);
  }
  const plain = n - DAY_OF_SERIAL_ZERO_1900;
  if (plain < 1) return fail(`Bad date "${iso}": the 1900 date system starts at 1900-01-01`);
  // 1900-03-01 is plain day 60 but Excel serial 61, because serial 60 is the fake leap day.
  return ok(plain >= FAKE_LEAP_DAY_SERIAL ? plain + 1 : plain);
}

// ---------------------------------------------------------------------------------------------------
// Periods that date arguments name

export function checkFiscalYearStartMonth(month: number): void {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`fiscal year start month must be an integer 1-12, got ${month}`);
  }
}

export function monthPeriod(year: number, month: number): Period {
  return {
    start: formatIsoDate(year, month, 1),
    end: formatIsoDate(year, month, daysInMonth(year, month)),
    label: `${monthName(month)} ${year}`,
  };
}

/** A period of whole months, `count` months from the first; the caller supplies the label. */
export function monthsPeriod(firstYear: number, firstMonth: number, count: number, label: string): Period {
  const first = firstYear * 12 + (firstMonth - 1);
  const last = monthIndexToYearMonth(first + count - 1);
  return {
    start: formatIsoDate(firstYear, firstMonth, 1),
    end: formatIsoDate(last.year, last.month, daysInMonth(last.year, last.month)),
    label,
  };
}

/** Calendar quarter: Q1 = January-March. */
export function quarterPeriod(year: number, quarter: number): Period {
  return monthsPeriod(year, (quarter - 1) * 3 + 1, 3, `Q${quarter} ${year}`);
}

/**
 * The first month of a fiscal year. Convention: a fiscal year is named by the calendar year it ends in,
 * so with a July start FY2026 runs 2025-07-01 to 2026-06-30; with a January start FY2026 is calendar 2026.
 */
export function fiscalYearStart(fiscalYear: number, fiscalYearStartMonth = 1): { year: number; month: number } {
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
  return monthsPeriod(s.year, s.month, 12, `FY${fiscalYear}`);
}

/** Quarter 1-4 of a fiscal year; Q1 starts in the fiscal year's first month. */
export function fiscalQuarterPeriod(fiscalYear: number, quarter: number, fiscalYearStartMonth = 1): Period {
  const s = fiscalYearStart(fiscalYear, fiscalYearStartMonth);
  const first = monthIndexToYearMonth(s.year * 12 + (s.month - 1) + (quarter - 1) * 3);
  return monthsPeriod(first.year, first.month, 3, `FY${fiscalYear} Q${quarter}`);
}

/** Fiscal year start to today (inclusive). */
export function yearToDate(today: string, fiscalYearStartMonth = 1): Period {
  const fy = fiscalYearOf(today, fiscalYearStartMonth);
  const start = fiscalYearPeriod(fy, fiscalYearStartMonth).start;
  return { start, end: today, label: fiscalYearStartMonth === 1 ? `YTD ${today}` : `FY${fy} YTD ${today}` };
}

/**
 * The twelve whole months before today's month. The current month is left out even on its last day:
 * its books are still open, and a TTM figure that silently includes a partial month misleads.
 */
export function trailingTwelveMonths(today: string): Period {
  const last = monthIndexToYearMonth(monthIndex(today) - 1);
  const first = monthIndexToYearMonth(monthIndex(today) - 12);
  return monthsPeriod(first.year, first.month, 12, `TTM to ${monthName(last.month)} ${last.year}`);
}

// ---------------------------------------------------------------------------------------------------
// Date arguments of custom functions

export interface DateArgumentOptions {
  /** The company's calendar date (see calendarDateAt); required so no parse ever reads a clock. */
  readonly today: string;
  /** The workbook's date system; Excel on the Mac once defaulted to 1904. Default '1900'. */
  readonly dateSystem?: DateSystem;
  /** 1-12, default 1 (January). Only FY, fiscal quarters and YTD depend on it. */
  readonly fiscalYearStartMonth?: number;
}

export type DateArgument =
  | { readonly kind: 'date'; readonly date: string }
  | { readonly kind: 'period'; readonly period: Period };

export const ACCEPTED_DATE_FORMS = 'use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD or TTM';

function badText(text: string, reason: string | null): Result<never> {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return fail(`Bad date "${shown}": ${reason ? `${reason}; ` : ''}${ACCEPTED_DATE_FORMS}`);
}

function inRange(period: Period): boolean {
  return period.start >= MIN_DATE && period.end <= MAX_DATE;
}

const RANGE_REASON = `dates must fall between ${MIN_DATE} and ${MAX_DATE}`;

function periodResult(text: string, period: Period): Result<DateArgument> {
  return inRange(period) ? ok({ kind: 'period', period }) : badText(text, RANGE_REASON);
}

/**
 * Reads a date argument as Excel hands it over: a number is a serial in the workbook's date system;
 * text is an ISO date or one of the period forms. Text is trimmed and case-insensitive (fy2026, 2026-q3,
 * ytd) because users type it; otherwise the forms are strict, so `2026-7`, `7/15/2026` or `2026-02-30`
 * fail with a message naming what is wrong instead of being guessed at.
 */
export function parseDateArgument(input: unknown, options: DateArgumentOptions): Result<DateArgument> {
  requireIsoDate(options.today, 'today');
  const fyStart = options.fiscalYearStartMonth ?? 1;
  checkFiscalYearStartMonth(fyStart);

  if (typeof input === 'number') {
    const iso = serialToIso(input, options.dateSystem ?? '1900');
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
      return badText(text, `${MONTH_FULL_NAMES[month - 1]} ${year} has ${daysInMonth(year, month)} days`);
    }
    const date = formatIsoDate(year, month, day);
    if (date < MIN_DATE || date > MAX_DATE) return badText(text, RANGE_REASON);
    return ok({ kind: 'date', date });
  }
  if ((m = /^(\d{4})-(\d{2})$/.exec(upper))) {
    const month = Number(m[2]);
    if (month < 1 || month > 12) return badText(text, `month ${m[2]} does not exist`);
    return periodResult(text, monthPeriod(Number(m[1]), month));
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
  const end = last.kind === 'date' ? last.date : last.period.end;
  if (start > end) return fail(`Bad dates: the start ${start} is after the end ${end}`);
  if (second === undefined && first.kind === 'period') return ok(first.period);
  const label = start === end ? start : `${start} to ${end}`;
  return ok({ start, end, label });
}
