import {
  DateArgument,
  argumentEndDate,
  argumentsToPeriod,
  parseDateArgument,
  trailingTwelveMonths,
  yearToDate,
} from '../../../src/engine/dates';
import { error, value } from './results';

const TODAY = '2026-07-15';

function parse(input: unknown, fiscalYearStartMonth?: number): DateArgument {
  return value(parseDateArgument(input, { today: TODAY, fiscalYearStartMonth }));
}

function parseError(input: unknown, fiscalYearStartMonth?: number): string {
  return error(parseDateArgument(input, { today: TODAY, fiscalYearStartMonth }));
}


describe('parseDateArgument', () => {
  test('ISO dates and serials are single dates', () => {
    expect(parse('2026-07-31')).toEqual({ kind: 'date', date: '2026-07-31' });
    expect(parse(' 2024-02-29 ')).toEqual({ kind: 'date', date: '2024-02-29' });
    expect(parse(46218)).toEqual({ kind: 'date', date: '2026-07-15' });
  });

  test('a month', () => {
    expect(parse('2026-07')).toEqual({ kind: 'period', period: { start: '2026-07-01', end: '2026-07-31', label: 'Jul 2026' } });
    expect(parse('2024-02')).toEqual({ kind: 'period', period: { start: '2024-02-01', end: '2024-02-29', label: 'Feb 2024' } });
    expect(parse('2023-02')).toMatchObject({ period: { end: '2023-02-28' } });
  });

  test('a calendar quarter, case-insensitive', () => {
    expect(parse('2026-Q3')).toEqual({ kind: 'period', period: { start: '2026-07-01', end: '2026-09-30', label: 'Q3 2026' } });
    expect(parse('2026-q1')).toMatchObject({ period: { start: '2026-01-01', end: '2026-03-31' } });
    expect(parse('2026-Q4')).toMatchObject({ period: { start: '2026-10-01', end: '2026-12-31' } });
    // A fiscal start month does not move a calendar quarter named by its year.
    expect(parse('2026-Q3', 7)).toMatchObject({ period: { start: '2026-07-01', end: '2026-09-30' } });
  });

  test('a fiscal year is named by the calendar year it ends in', () => {
    expect(parse('FY2026')).toEqual({ kind: 'period', period: { start: '2026-01-01', end: '2026-12-31', label: 'FY2026' } });
    expect(parse('FY2026', 7)).toEqual({ kind: 'period', period: { start: '2025-07-01', end: '2026-06-30', label: 'FY2026' } });
    expect(parse('fy2025', 4)).toMatchObject({ period: { start: '2024-04-01', end: '2025-03-31' } });
    expect(parse('FY2024', 3)).toMatchObject({ period: { start: '2023-03-01', end: '2024-02-29' } });
    expect(parse('FY2026', 12)).toMatchObject({ period: { start: '2025-12-01', end: '2026-11-30' } });
  });

  test('a fiscal quarter', () => {
    expect(parse('FY2026-Q1', 7)).toEqual({ kind: 'period', period: { start: '2025-07-01', end: '2025-09-30', label: 'FY2026 Q1' } });
    expect(parse('FY2026-Q4', 7)).toMatchObject({ period: { start: '2026-04-01', end: '2026-06-30' } });
    expect(parse('FY2026-Q2')).toMatchObject({ period: { start: '2026-04-01', end: '2026-06-30' } });
  });

  test('YTD runs from the fiscal year start to today', () => {
    expect(parse('YTD')).toEqual({ kind: 'period', period: { start: '2026-01-01', end: TODAY, label: 'YTD 2026-07-15' } });
    expect(parse('ytd', 7)).toMatchObject({ period: { start: '2026-07-01', end: TODAY, label: 'FY2027 YTD 2026-07-15' } });
    expect(parse('YTD', 8)).toMatchObject({ period: { start: '2025-08-01', end: TODAY } });
    expect(yearToDate('2026-01-01')).toMatchObject({ start: '2026-01-01', end: '2026-01-01' });
  });

  test('TTM is the twelve whole months before the current one', () => {
    expect(parse('TTM')).toEqual({ kind: 'period', period: { start: '2025-07-01', end: '2026-06-30', label: 'TTM to Jun 2026' } });
    expect(trailingTwelveMonths('2026-01-31')).toMatchObject({ start: '2025-01-01', end: '2025-12-31' });
    expect(trailingTwelveMonths('2024-03-01')).toMatchObject({ start: '2023-03-01', end: '2024-02-29' });
  });

  test('today is the only clock: the same text means another period on another day', () => {
    const a = value(parseDateArgument('YTD', { today: '2025-03-10' }));
    const b = value(parseDateArgument('YTD', { today: '2026-03-10' }));
    expect(argumentEndDate(a)).toBe('2025-03-10');
    expect(argumentEndDate(b)).toBe('2026-03-10');
  });

  test.each([
    ['2026-13', 'Bad date "2026-13": month 13 does not exist; use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD, TTM, 2026-07-1M or 2026-07 YTD'],
    ['2026-00', 'month 00 does not exist'],
    ['2026-02-30', 'February 2026 has 28 days'],
    ['2024-02-30', 'February 2024 has 29 days'],
    ['2026-04-31', 'April 2026 has 30 days'],
    ['2026-13-01', 'month 13 does not exist'],
    ['2026-Q5', 'quarter Q5 does not exist (Q1-Q4)'],
    ['2026-Q0', 'quarter Q0 does not exist'],
    ['FY2026-Q7', 'quarter Q7 does not exist'],
    ['2026-7', 'months and days need two digits'],
    ['2026-7-1', 'months and days need two digits'],
    ['2026-07-15T10:00:00Z', 'a time of day is not accepted'],
    ['FY26', 'the fiscal year needs four digits'],
    ['46218', 'a serial number must be a number, not text'],
    ['7/15/2026', 'Bad date "7/15/2026": use a date'],
    ['last month', 'Bad date "last month": use a date'],
    ['1899-12-31', 'dates must fall between 1900-01-01 and 9999-12-31'],
    ['1899-07', 'dates must fall between'],
  ])('rejects %p', (input, expected) => {
    const message = parseError(input);
    expect(message).toContain(expected);
    expect(message).toContain('2026-07, 2026-Q3, FY2026');
  });

  test('periods must fit in Excel\'s range too', () => {
    expect(parse('FY1900')).toMatchObject({ period: { start: '1900-01-01' } });
    // With a July start FY1900 would begin in 1899.
    expect(parseError('FY1900', 7)).toContain('dates must fall between 1900-01-01 and 9999-12-31');
  });

  test('missing and non-date values', () => {
    expect(parseError('')).toMatch(/^Missing date: use a date/);
    expect(parseError('   ')).toMatch(/^Missing date/);
    expect(parseError(null)).toMatch(/^Missing date/);
    expect(parseError(undefined)).toMatch(/^Missing date/);
    expect(parseError(true)).toMatch(/^Bad date true: use a date/);
    expect(parseError(60)).toContain('1900-02-29');
  });

  test('long garbage is cut in the message', () => {
    expect(parseError('x'.repeat(500)).length).toBeLessThan(200);
  });

  test('a bad today or fiscal start month is a programming error, thrown', () => {
    expect(() => parseDateArgument('YTD', { today: '2026-7-15' })).toThrow(TypeError);
    expect(() => parseDateArgument('FY2026', { today: TODAY, fiscalYearStartMonth: 13 })).toThrow(RangeError);
  });

});

describe('combining date arguments', () => {
  test('a single period or date', () => {
    expect(value(argumentsToPeriod(parse('2026-Q3')))).toEqual({ start: '2026-07-01', end: '2026-09-30', label: 'Q3 2026' });
    expect(value(argumentsToPeriod(parse('2026-07-04')))).toEqual({ start: '2026-07-04', end: '2026-07-04', label: '2026-07-04' });
  });

  test('start of the first, end of the second', () => {
    expect(value(argumentsToPeriod(parse('2026-Q1'), parse('2026-Q2')))).toMatchObject({ start: '2026-01-01', end: '2026-06-30' });
    expect(value(argumentsToPeriod(parse(46204), parse('2026-07')))).toMatchObject({ start: '2026-07-01', end: '2026-07-31' });
  });

  test('a start after the end is an error', () => {
    expect(error(argumentsToPeriod(parse('2026-08-01'), parse('2026-07')))).toBe(
      'Bad dates: the start 2026-08-01 is after the end 2026-07-31',
    );
  });

  test('a balance reads at the period end', () => {
    expect(argumentEndDate(parse('2026-Q1'))).toBe('2026-03-31');
    expect(argumentEndDate(parse('2026-02-14'))).toBe('2026-02-14');
  });
});
