// Calendar arithmetic on ISO `YYYY-MM-DD` dates, and the company's date at an instant.
//
// Dates are ISO strings everywhere in the engine: that is what the API takes and returns, they compare
// correctly as strings, and they carry no time zone to drift across. Arithmetic goes through day numbers
// computed with integer math (days since 1970-01-01, proleptic Gregorian), not through `Date`, whose
// local-time behaviour and two-digit-year quirks (Date.UTC(99, 0, 1) is 1999) have no place here.
//
// Nothing here reads the clock: "today" is always a parameter, so a formula's meaning depends only on its
// arguments and the injected company date.

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

export interface YearMonth {
  readonly year: number;
  readonly month: number;
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

export function monthFullName(month: number): string {
  return MONTH_FULL_NAMES[month - 1];
}

/** `Jul 2026`: how a single month is named in labels. */
export function monthLabel(year: number, month: number): string {
  return `${monthName(month)} ${year}`;
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

/** The first day of a month, as an ISO date. */
export function firstDayOf(year: number, month: number): string {
  return formatIsoDate(year, month, 1);
}

/** The last day of a month, as an ISO date. */
export function lastDayOf(year: number, month: number): string {
  return formatIsoDate(year, month, daysInMonth(year, month));
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

/** Month index counted from year 0, so month differences are plain subtraction. */
export function yearMonthToMonthIndex(year: number, month: number): number {
  return year * 12 + (month - 1);
}

export function monthIndexToYearMonth(index: number): YearMonth {
  const year = Math.floor(index / 12);
  return { year, month: index - year * 12 + 1 };
}

/** The month index (see yearMonthToMonthIndex) of an ISO date's month. */
export function monthIndex(iso: string): number {
  const { year, month } = requireIsoDate(iso);
  return yearMonthToMonthIndex(year, month);
}

/**
 * Moves by calendar months, clamping the day to the target month's length (2024-01-31 + 1 month =
 * 2024-02-29), which is how accountants read "one month later" for month-end dates.
 */
export function addMonths(iso: string, months: number): string {
  const { year, month, day } = requireIsoDate(iso);
  const target = monthIndexToYearMonth(yearMonthToMonthIndex(year, month) + months);
  return formatIsoDate(target.year, target.month, Math.min(day, daysInMonth(target.year, target.month)));
}

export function startOfMonth(iso: string): string {
  const { year, month } = requireIsoDate(iso);
  return firstDayOf(year, month);
}

export function endOfMonth(iso: string): string {
  const { year, month } = requireIsoDate(iso);
  return lastDayOf(year, month);
}

export function isFirstOfMonth(iso: string): boolean {
  return requireIsoDate(iso).day === 1;
}

export function isEndOfMonth(iso: string): boolean {
  const { year, month, day } = requireIsoDate(iso);
  return day === daysInMonth(year, month);
}

export function minDate(a: string, b: string): string {
  return a <= b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a >= b ? a : b;
}

// Building an Intl.DateTimeFormat costs far more than using one, and using one costs far more than a cached
// FIN evaluation may spend: each evaluation asks for today. Every time zone in use is a whole number of
// minutes off UTC, so a zone's date only changes on a UTC minute boundary, and each zone keeps one formatter
// and the date of the last minute asked for.
interface ZoneDates {
  formatter: Intl.DateTimeFormat;
  minute: number;
  date: string;
}

const zones = new Map<string, ZoneDates>();

function zoneDates(timeZone: string): ZoneDates {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = { formatter: new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), minute: NaN, date: '' };
    zones.set(timeZone, zone);
  }
  return zone;
}

/**
 * The calendar date at an instant in a time zone. The engine's "today" is the company's date in
 * America/Los_Angeles (the API's zone, docs/api-decisions.md), not the machine's or UTC's; callers take
 * the instant from their clock and pass the result down as `today`.
 */
export function calendarDateAt(epochMs: number, timeZone = 'America/Los_Angeles'): string {
  const zone = zoneDates(timeZone);
  const minute = Math.floor(epochMs / 60_000);
  if (minute !== zone.minute) {
    const parts = zone.formatter.formatToParts(new Date(epochMs));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
    zone.date = formatIsoDate(get('year'), get('month'), get('day'));
    zone.minute = minute;
  }
  return zone.date;
}
