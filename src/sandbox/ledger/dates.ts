import { daysInMonth } from '../http/params';
import { BEFORE_ALL_DATES } from './sql';

// Calendar arithmetic on 'YYYY-MM-DD' / 'YYYY-MM' strings (no time zone involved).

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const monthOf = (date: string) => date.slice(0, 7);
export const firstDayOfMonth = (month: string) => `${month}-01`;

export function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${pad(daysInMonth(y, m), 2)}`;
}

export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${pad(y + 1, 4)}-01` : `${pad(y, 4)}-${pad(m + 1, 2)}`;
}

/** The day before; BEFORE_ALL_DATES for the first day of year 0000. */
export function previousDay(date: string): string {
  if (date <= '0000-01-01') return BEFORE_ALL_DATES;
  const [y, m, d] = date.split('-').map(Number);
  if (d > 1) return `${date.slice(0, 8)}${pad(d - 1, 2)}`;
  if (m > 1) return lastDayOfMonth(`${pad(y, 4)}-${pad(m - 1, 2)}`);
  return `${pad(y - 1, 4)}-12-31`;
}

/** First day of the period of `monthsPerPeriod` months holding date, periods counted from the fiscal year start. */
function periodStart(date: string, fiscalYearStartMonth: number, monthsPerPeriod: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const sinceFiscalStart = (month - fiscalYearStartMonth + 12) % 12;
  const startMonthIndex = month - 1 - (sinceFiscalStart % monthsPerPeriod);
  const y = startMonthIndex < 0 ? year - 1 : year;
  if (y < 0) return '0000-01-01';
  return `${pad(y, 4)}-${pad(((startMonthIndex + 12) % 12) + 1, 2)}-01`;
}

export const fiscalYearStart = (date: string, fiscalYearStartMonth: number) => periodStart(date, fiscalYearStartMonth, 12);
export const fiscalQuarterStart = (date: string, fiscalYearStartMonth: number) => periodStart(date, fiscalYearStartMonth, 3);
