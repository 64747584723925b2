import {
  NamedPeriodKey,
  PERIOD_CHOICES,
  namedPeriod,
} from '../../../src/engine/dates';

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
});
