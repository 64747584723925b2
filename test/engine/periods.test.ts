import { Result, addDays, daysBetween } from '../../src/engine/dates';
import {
  NamedPeriodKey,
  PERIOD_CHOICES,
  customPeriod,
  fiscalQuarterOf,
  isWholeMonths,
  monthEnds,
  monthlyCoverage,
  namedPeriod,
  periodLabel,
  pointInTimeCoverage,
  priorPeriod,
  quarterEnds,
  samePeriodLastYear,
  splitPeriod,
} from '../../src/engine/periods';

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const range = (start: string, end: string) => ({ start, end });

describe('named periods', () => {
  const today = '2026-08-14';

  test.each<[NamedPeriodKey, string, string, string]>([
    ['this_month', '2026-08-01', today, 'Aug 2026 to date'],
    ['last_month', '2026-07-01', '2026-07-31', 'Jul 2026'],
    ['this_quarter', '2026-07-01', today, 'Q3 2026 to date'],
    ['last_quarter', '2026-04-01', '2026-06-30', 'Q2 2026'],
    ['year_to_date', '2026-01-01', today, 'YTD 2026-08-14'],
    ['last_year', '2025-01-01', '2025-12-31', 'FY2025'],
    ['trailing_twelve_months', '2025-08-01', '2026-07-31', 'TTM to Jul 2026'],
  ])('%s', (key, start, end, label) => {
    expect(namedPeriod(key, { today })).toEqual({ start, end, label });
  });

  test('with a July fiscal year, quarters and years follow it', () => {
    const opts = { today, fiscalYearStartMonth: 7 };
    expect(namedPeriod('this_quarter', opts)).toEqual({ start: '2026-07-01', end: today, label: 'FY2027 Q1 to date' });
    expect(namedPeriod('last_quarter', opts)).toEqual({ start: '2026-04-01', end: '2026-06-30', label: 'FY2026 Q4' });
    expect(namedPeriod('year_to_date', opts)).toMatchObject({ start: '2026-07-01', end: today });
    expect(namedPeriod('last_year', opts)).toEqual({ start: '2025-07-01', end: '2026-06-30', label: 'FY2026' });
  });

  test('with a February fiscal year, quarters are Feb-Apr, May-Jul...', () => {
    const opts = { today, fiscalYearStartMonth: 2 };
    expect(namedPeriod('this_quarter', opts)).toMatchObject({ start: '2026-08-01', end: today });
    expect(namedPeriod('last_quarter', opts)).toMatchObject({ start: '2026-05-01', end: '2026-07-31' });
  });

  test('across a year boundary', () => {
    const jan = { today: '2026-01-05' };
    expect(namedPeriod('last_month', jan)).toMatchObject({ start: '2025-12-01', end: '2025-12-31' });
    expect(namedPeriod('last_quarter', jan)).toMatchObject({ start: '2025-10-01', end: '2025-12-31', label: 'Q4 2025' });
    expect(namedPeriod('year_to_date', jan)).toMatchObject({ start: '2026-01-01', end: '2026-01-05' });
    expect(namedPeriod('last_year', jan)).toMatchObject({ start: '2025-01-01', end: '2025-12-31' });
  });

  test('the picker lists every named period and custom', () => {
    expect(PERIOD_CHOICES.map((c) => c.key)).toEqual([
      'this_month', 'last_month', 'this_quarter', 'last_quarter', 'year_to_date', 'last_year',
      'trailing_twelve_months', 'custom',
    ]);
  });

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

describe('labels', () => {
  test.each([
    ['2026-07-01', '2026-07-31', undefined, 'Jul 2026'],
    ['2026-07-01', '2026-09-30', undefined, 'Q3 2026'],
    ['2026-07-01', '2026-09-30', 7, 'FY2027 Q1'],
    ['2026-02-01', '2026-04-30', 2, 'FY2027 Q1'],
    ['2026-08-01', '2026-10-31', 2, 'FY2027 Q3'],
    ['2026-07-01', '2026-09-30', 2, 'Q3 2026'],
    ['2026-01-01', '2026-12-31', undefined, 'FY2026'],
    ['2025-07-01', '2026-06-30', 7, 'FY2026'],
    ['2025-07-01', '2026-06-30', undefined, 'Jul 2025 to Jun 2026'],
    ['2026-01-01', '2026-02-28', undefined, 'Jan 2026 to Feb 2026'],
    ['2026-07-04', '2026-07-04', undefined, '2026-07-04'],
    ['2026-07-04', '2026-07-31', undefined, '2026-07-04 to 2026-07-31'],
  ])('%s..%s (fiscal start %p) is %p', (start, end, fy, label) => {
    expect(periodLabel(start, end, { fiscalYearStartMonth: fy })).toBe(label);
  });

  test('fiscal quarters of dates', () => {
    expect(fiscalQuarterOf('2026-07-01')).toEqual({ fiscalYear: 2026, quarter: 3 });
    expect(fiscalQuarterOf('2026-07-01', { fiscalYearStartMonth: 7 })).toEqual({ fiscalYear: 2027, quarter: 1 });
    expect(fiscalQuarterOf('2026-06-30', { fiscalYearStartMonth: 7 })).toEqual({ fiscalYear: 2026, quarter: 4 });
    expect(fiscalQuarterOf('2026-01-31', { fiscalYearStartMonth: 2 })).toEqual({ fiscalYear: 2026, quarter: 4 });
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

describe('reporting dates', () => {
  test('month ends of a leap and a common year', () => {
    expect(monthEnds(2024)).toEqual([
      '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31', '2024-06-30',
      '2024-07-31', '2024-08-31', '2024-09-30', '2024-10-31', '2024-11-30', '2024-12-31',
    ]);
    expect(monthEnds(2026)[1]).toBe('2026-02-28');
  });

  test('quarter ends, calendar and fiscal', () => {
    expect(quarterEnds(2026)).toEqual(['2026-03-31', '2026-06-30', '2026-09-30', '2026-12-31']);
    expect(quarterEnds(2026, { fiscalYearStartMonth: 7 })).toEqual(['2025-09-30', '2025-12-31', '2026-03-31', '2026-06-30']);
    expect(quarterEnds(2024, { fiscalYearStartMonth: 3 })).toEqual(['2023-05-31', '2023-08-31', '2023-11-30', '2024-02-29']);
  });
});

describe('monthly granularity of /aggregations/total', () => {
  test('whole months are taken as they are', () => {
    const c = monthlyCoverage(range('2026-01-01', '2026-03-31'));
    expect(c).toEqual({
      startMonth: '2026-01',
      endMonth: '2026-03',
      months: ['2026-01', '2026-02', '2026-03'],
      covered: { start: '2026-01-01', end: '2026-03-31', label: 'Q1 2026' },
      daysIgnored: false,
      note: null,
    });
  });

  test('days inside months are ignored, and the note says what is read instead', () => {
    const c = monthlyCoverage(range('2026-07-15', '2026-08-10'));
    expect(c.months).toEqual(['2026-07', '2026-08']);
    expect(c.covered).toMatchObject({ start: '2026-07-01', end: '2026-08-31' });
    expect(c.daysIgnored).toBe(true);
    expect(c.note).toBe('Totals come in whole months: 2026-07-15 to 2026-08-10 is read as 2026-07-01 to 2026-08-31 (Jul 2026 to Aug 2026).');
  });

  test('year to date mid-month covers the whole current month', () => {
    const ytd = namedPeriod('year_to_date', { today: '2026-08-14' });
    const c = monthlyCoverage(ytd);
    expect(c.months).toHaveLength(8);
    expect(c.daysIgnored).toBe(true);
    expect(isWholeMonths(c.covered)).toBe(true);
  });

  test('a range across years', () => {
    expect(monthlyCoverage(range('2025-11-30', '2026-02-01')).months).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  test('point-in-time totals are read at month end', () => {
    expect(pointInTimeCoverage('2026-03-31')).toEqual({ month: '2026-03', through: '2026-03-31', daysIgnored: false, note: null });
    expect(pointInTimeCoverage('2024-02-10')).toEqual({
      month: '2024-02',
      through: '2024-02-29',
      daysIgnored: true,
      note: 'Balances are read at month end: 2024-02-10 is read as 2024-02-29.',
    });
  });
});
