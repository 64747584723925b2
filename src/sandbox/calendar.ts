import { DateTime } from 'luxon';

// The sandbox's calendar: every date computation of the server and the seed.
//
// Dates are civil dates written 'YYYY-MM-DD' and months 'YYYY-MM', in the proleptic Gregorian calendar
// with no zone: as strings they sort in date order, which is how SQL compares them. The seed and the
// reports run these functions hundreds of thousands of times, so they are integer and string
// arithmetic; luxon does the zone work (a luxon date costs tens of microseconds here).
// Instants are Unix seconds or milliseconds; the company zone turns them into dates and back.

/** The zone the demo companies keep their books in, and the zone of the monthly cap's reset. */
export const COMPANY_ZONE = 'America/Los_Angeles';

/** Bounds that sort before and after every date: the open ends of a date range. */
export const BEFORE_ALL_DATES = '';
export const AFTER_ALL_DATES = '~';

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const formatDate = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** UTC midnight of a civil date, in ms. setUTCFullYear, unlike Date.UTC, reads years 0-99 as written. */
function utcMs(year: number, monthIndex: number, day: number): number {
  return new Date(0).setUTCFullYear(year, monthIndex, day);
}

const msOf = (date: string) => utcMs(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

function dateOfMs(ms: number): string {
  const d = new Date(ms);
  return formatDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

// ---- days ---------------------------------------------------------------------------------------

/** Days in a month (1-12) of a year. */
export const daysInMonth = (year: number, month: number): number => new Date(utcMs(year, month, 0)).getUTCDate();

/** True when s is a real calendar date in YYYY-MM-DD form. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

export const dayOfMonth = (date: string): number => Number(date.slice(8, 10));

/** The month of a date or month as a number, 1-12. */
export const monthOfYear = (dateOrMonth: string): number => Number(dateOrMonth.slice(5, 7));

/** 0 Sunday ... 6 Saturday. */
export const weekday = (date: string): number => new Date(msOf(date)).getUTCDay();

export const addDays = (date: string, n: number): string => dateOfMs(msOf(date) + n * DAY_MS);

export const daysBetween = (from: string, to: string): number => Math.round((msOf(to) - msOf(from)) / DAY_MS);

/** The day before; BEFORE_ALL_DATES for 0000-01-01, the first date the form can write. */
export const previousDay = (date: string): string => (date <= '0000-01-01' ? BEFORE_ALL_DATES : addDays(date, -1));

/** The same day n months later (or earlier), clamped to the last day of a shorter month. */
export function addMonths(date: string, n: number): string {
  const index = Number(date.slice(0, 4)) * 12 + monthOfYear(date) - 1 + n;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return formatDate(year, month, Math.min(dayOfMonth(date), daysInMonth(year, month)));
}

/** The same day n years later (or earlier); 29 February becomes 28 February in a common year. */
export const addYears = (date: string, n: number): string => addMonths(date, 12 * n);

// ---- months: each takes a date or a month ------------------------------------------------------

/** The month (YYYY-MM) of a date. */
export const monthOf = (date: string): string => date.slice(0, 7);

/** First day of the month of a date or month. */
export const monthStart = (dateOrMonth: string): string => `${monthOf(dateOrMonth)}-01`;

/** Last day of the month of a date or month. */
export function monthEnd(dateOrMonth: string): string {
  const year = Number(dateOrMonth.slice(0, 4));
  const month = monthOfYear(dateOrMonth);
  return formatDate(year, month, daysInMonth(year, month));
}

/** Day `day` of the month of a date or month, or the month's last day when it is shorter. */
export function monthDay(dateOrMonth: string, day: number): string {
  const year = Number(dateOrMonth.slice(0, 4));
  const month = monthOfYear(dateOrMonth);
  return formatDate(year, month, Math.min(day, daysInMonth(year, month)));
}

/** First days (YYYY-MM-01) of the months from the month of date `from` through the month of date `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = monthStart(from); m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

// ---- fiscal periods -----------------------------------------------------------------------------

/** First day of the period of `monthsPerPeriod` months holding date, periods counted from the fiscal year start. */
function periodStart(date: string, fiscalYearStartMonth: number, monthsPerPeriod: number): string {
  const year = Number(date.slice(0, 4));
  const month = monthOfYear(date);
  const sinceFiscalStart = (month - fiscalYearStartMonth + 12) % 12;
  const startMonthIndex = month - 1 - (sinceFiscalStart % monthsPerPeriod);
  const y = startMonthIndex < 0 ? year - 1 : year;
  if (y < 0) return '0000-01-01';
  return formatDate(y, ((startMonthIndex + 12) % 12) + 1, 1);
}

/** First day of the fiscal year holding date; fiscalYearStartMonth is 1-12. */
export const fiscalYearStart = (date: string, fiscalYearStartMonth: number) => periodStart(date, fiscalYearStartMonth, 12);

/** First day of the fiscal quarter holding date. */
export const fiscalQuarterStart = (date: string, fiscalYearStartMonth: number) => periodStart(date, fiscalYearStartMonth, 3);

// ---- the company zone ---------------------------------------------------------------------------

/** The date (YYYY-MM-DD) an instant (Unix ms) falls on in the company zone. */
export const companyDate = (epochMs: number): string => DateTime.fromMillis(epochMs, { zone: COMPANY_ZONE }).toISODate()!;

// A seed asks for the start of the same few hundred days tens of thousands of times; the answer never
// changes, and luxon takes tens of microseconds to give it.
const dayStarts = new Map<string, number>();

/** Unix seconds of 00:00 of a date in the company zone. */
export function dayStart(date: string): number {
  let v = dayStarts.get(date);
  if (v === undefined) {
    v = Math.floor(DateTime.fromISO(date, { zone: COMPANY_ZONE }).toSeconds());
    dayStarts.set(date, v);
  }
  return v;
}
