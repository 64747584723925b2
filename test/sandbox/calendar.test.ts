import {
  addDays,
  addMonths,
  addYears,
  BEFORE_ALL_DATES,
  companyDate,
  dayStart,
  daysBetween,
  fiscalQuarterStart,
  fiscalYearStart,
  isIsoDate,
  monthDay,
  monthEnd,
  monthsBetween,
  monthStart,
  previousDay,
  weekday,
} from '../../src/sandbox/calendar';
import { Clock } from '../../src/sandbox/clock';

describe('the sandbox calendar', () => {
  it('adds and counts days across month, year and leap-day boundaries', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(daysBetween('2028-03-01', '2028-02-28')).toBe(-2);
    expect(weekday('2026-11-18')).toBe(3);
  });

  it('reads years 0-99 as written', () => {
    expect(addDays('0050-03-01', -1)).toBe('0050-02-28');
    expect(previousDay('0001-01-01')).toBe('0000-12-31');
    expect(previousDay('0000-01-01')).toBe(BEFORE_ALL_DATES);
  });

  it('validates YYYY-MM-DD dates', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
  });

  it('moves by months and years, clamping to the end of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-03-31', -13)).toBe('2025-02-28');
    expect(addMonths('2026-11-18', 14)).toBe('2028-01-18');
    expect(addYears('2028-02-29', -2)).toBe('2026-02-28');
    expect(addYears('2028-02-29', 4)).toBe('2032-02-29');
  });

  it('takes a date or a month for month starts, ends and days', () => {
    expect(monthStart('2026-11-18')).toBe('2026-11-01');
    expect(monthStart('2026-11')).toBe('2026-11-01');
    expect(monthEnd('2028-02-10')).toBe('2028-02-29');
    expect(monthEnd('2026-02')).toBe('2026-02-28');
    expect(monthDay('2026-02-01', 30)).toBe('2026-02-28');
    expect(monthDay('2026-04', 15)).toBe('2026-04-15');
    expect(monthsBetween('2025-11-30', '2026-02-01')).toEqual(['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01']);
    expect(monthsBetween('2026-02-10', '2026-01-31')).toEqual([]);
  });

  it('finds fiscal year and quarter starts for any fiscal year start month', () => {
    expect(fiscalYearStart('2026-11-18', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-03-31', 4)).toBe('2025-04-01');
    expect(fiscalYearStart('2026-04-01', 4)).toBe('2026-04-01');
    expect(fiscalQuarterStart('2026-11-18', 1)).toBe('2026-10-01');
    expect(fiscalQuarterStart('2026-01-15', 2)).toBe('2025-11-01');
  });

  it('turns instants into company dates and days into company-zone midnights, across DST', () => {
    expect(companyDate(Date.parse('2026-11-19T07:59:59Z'))).toBe('2026-11-18');
    expect(companyDate(Date.parse('2026-11-19T08:00:00Z'))).toBe('2026-11-19');
    expect(dayStart('2026-11-18')).toBe(Date.parse('2026-11-18T08:00:00Z') / 1000);
    expect(dayStart('2026-07-01')).toBe(Date.parse('2026-07-01T07:00:00Z') / 1000);
    // 8 March 2026 is 23 hours long in Los Angeles
    expect(dayStart('2026-03-09') - dayStart('2026-03-08')).toBe(23 * 3600);
  });
});

describe('Clock', () => {
  it('gives the company date, the cap month and the next reset date from its wall clock and offset', () => {
    const clock = new Clock(() => Date.parse('2026-12-01T07:30:00Z'));
    expect(clock.today()).toBe('2026-11-30');
    expect(clock.usageMonth()).toBe('2026-11');
    expect(clock.nextMonthlyReset()).toBe('2026-12-01');
    clock.offsetSeconds = 3600;
    expect(clock.today()).toBe('2026-12-01');
    expect(clock.usageMonth()).toBe('2026-12');
    expect(clock.nextMonthlyReset()).toBe('2027-01-01');
  });
});
