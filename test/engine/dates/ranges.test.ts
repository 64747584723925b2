import {
  addDays,
  customPeriod,
  daysBetween,
  priorPeriod,
  samePeriodLastYear,
  splitPeriod,
} from '../../../src/engine/dates';
import { value } from './results';

const range = (start: string, end: string) => ({ start, end });

describe('custom periods', () => {
  test('custom periods are checked', () => {
    expect(value(customPeriod('2026-02-01', '2026-02-28'))).toEqual({ start: '2026-02-01', end: '2026-02-28', label: 'Feb 2026' });
    expect(value(customPeriod('2026-02-03', '2026-02-20')).label).toBe('2026-02-03 to 2026-02-20');
    expect(customPeriod('2026-02-30', '2026-03-01')).toEqual({ ok: false, error: 'Bad start date "2026-02-30": use YYYY-MM-DD' });
    expect(customPeriod('2026-03-01', '2026-3-31')).toEqual({ ok: false, error: 'Bad end date "2026-3-31": use YYYY-MM-DD' });
    expect(customPeriod('2026-03-02', '2026-03-01')).toEqual({
      ok: false, error: 'Bad period: the start 2026-03-02 is after the end 2026-03-01',
    });
  });
});

describe('splitting a range', () => {
  test('a year into months, for twelve columns side by side', () => {
    const months = splitPeriod(range('2025-01-01', '2025-12-31'), 'month');
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ start: '2025-01-01', end: '2025-01-31', label: 'Jan 2025' });
    expect(months[1]).toEqual({ start: '2025-02-01', end: '2025-02-28', label: 'Feb 2025' });
    expect(months[11]).toEqual({ start: '2025-12-01', end: '2025-12-31', label: 'Dec 2025' });
  });

  test('pieces tile the range exactly, with clipped partial ends', () => {
    const pieces = splitPeriod(range('2026-01-15', '2026-04-10'), 'month');
    expect(pieces.map((p) => [p.start, p.end])).toEqual([
      ['2026-01-15', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-31'],
      ['2026-04-01', '2026-04-10'],
    ]);
    expect(pieces[0].label).toBe('2026-01-15 to 2026-01-31');
    for (let i = 1; i < pieces.length; i++) expect(pieces[i].start).toBe(addDays(pieces[i - 1].end, 1));
  });

  test('quarters, calendar and fiscal', () => {
    expect(splitPeriod(range('2026-01-01', '2026-12-31'), 'quarter').map((p) => p.label)).toEqual([
      'Q1 2026', 'Q2 2026', 'Q3 2026', 'Q4 2026',
    ]);
    const fiscal = splitPeriod(range('2025-07-01', '2026-06-30'), 'quarter', { fiscalYearStartMonth: 7 });
    expect(fiscal.map((p) => p.label)).toEqual(['FY2026 Q1', 'FY2026 Q2', 'FY2026 Q3', 'FY2026 Q4']);
    const feb = splitPeriod(range('2026-01-01', '2026-06-30'), 'quarter', { fiscalYearStartMonth: 2 });
    expect(feb.map((p) => [p.start, p.end])).toEqual([
      ['2026-01-01', '2026-01-31'],
      ['2026-02-01', '2026-04-30'],
      ['2026-05-01', '2026-06-30'],
    ]);
  });

  test('a single day is one piece', () => {
    expect(splitPeriod(range('2026-03-31', '2026-03-31'), 'quarter')).toEqual([
      { start: '2026-03-31', end: '2026-03-31', label: '2026-03-31' },
    ]);
  });

  test('a reversed range is a programming error', () => {
    expect(() => splitPeriod(range('2026-03-02', '2026-03-01'), 'month')).toThrow(RangeError);
  });
});

describe('comparison periods', () => {
  test('prior period of whole months steps back by months', () => {
    expect(priorPeriod(range('2026-07-01', '2026-09-30'))).toEqual({ start: '2026-04-01', end: '2026-06-30', label: 'Q2 2026' });
    expect(priorPeriod(range('2026-03-01', '2026-03-31'))).toEqual({ start: '2026-02-01', end: '2026-02-28', label: 'Feb 2026' });
    expect(priorPeriod(range('2026-01-01', '2026-12-31'))).toMatchObject({ start: '2025-01-01', end: '2025-12-31' });
    expect(priorPeriod(range('2026-01-01', '2026-02-28'))).toMatchObject({ start: '2025-11-01', end: '2025-12-31' });
  });

  test('prior period of other ranges has the same number of days, ending the day before', () => {
    const p = { start: '2026-03-10', end: '2026-03-24' };
    const prior = priorPeriod(p);
    expect(prior).toMatchObject({ start: '2026-02-23', end: '2026-03-09' });
    expect(daysBetween(prior.start, prior.end)).toBe(daysBetween(p.start, p.end));
    expect(priorPeriod(range('2026-07-01', '2026-07-15'))).toMatchObject({ start: '2026-06-16', end: '2026-06-30' });
  });

  test('same period last year keeps month ends', () => {
    expect(samePeriodLastYear(range('2024-02-01', '2024-02-29'))).toEqual({ start: '2023-02-01', end: '2023-02-28', label: 'Feb 2023' });
    expect(samePeriodLastYear(range('2025-02-01', '2025-02-28'))).toEqual({ start: '2024-02-01', end: '2024-02-29', label: 'Feb 2024' });
    expect(samePeriodLastYear(range('2026-07-01', '2026-09-30'))).toMatchObject({ start: '2025-07-01', end: '2025-09-30', label: 'Q3 2025' });
    expect(samePeriodLastYear(range('2026-01-01', '2026-07-15'))).toMatchObject({ start: '2025-01-01', end: '2025-07-15' });
    expect(samePeriodLastYear(range('2024-02-29', '2024-02-29'))).toMatchObject({ start: '2023-02-28', end: '2023-02-28' });
  });
});
