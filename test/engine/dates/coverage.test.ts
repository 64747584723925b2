import {
  isWholeMonths,
  monthlyCoverage,
  namedPeriod,
  pointInTimeCoverage,
} from '../../../src/engine/dates';

const range = (start: string, end: string) => ({ start, end });

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

  test('year to date mid-month covers the whole current month: complete as of today, nothing ignored', () => {
    const ytd = namedPeriod('year_to_date', { today: '2026-08-14' });
    const c = monthlyCoverage(ytd, { today: '2026-08-14' });
    expect(c.months).toHaveLength(8);
    expect(c.covered).toMatchObject({ start: '2026-01-01', end: '2026-08-31' });
    expect(c).toMatchObject({ daysIgnored: false, note: null });
    expect(isWholeMonths(c.covered)).toBe(true);
    // This month so far, likewise; a period that stops before today is a real partial month.
    expect(monthlyCoverage(range('2026-08-01', '2026-08-14'), { today: '2026-08-14' }).daysIgnored).toBe(false);
    expect(monthlyCoverage(range('2026-08-01', '2026-08-13'), { today: '2026-08-14' }).daysIgnored).toBe(true);
    // Starting mid-month is partial whatever the end.
    expect(monthlyCoverage(range('2026-08-02', '2026-08-14'), { today: '2026-08-14' }).daysIgnored).toBe(true);
    // Without today (or on another day) the same period is partial, as before.
    expect(monthlyCoverage(ytd).daysIgnored).toBe(true);
  });

  test('a range across years', () => {
    expect(monthlyCoverage(range('2025-11-30', '2026-02-01')).months).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  test('a point-in-time total today is today\'s balance', () => {
    expect(pointInTimeCoverage('2026-08-14', { today: '2026-08-14' })).toEqual({ month: '2026-08', through: '2026-08-31', daysIgnored: false, note: null });
    expect(pointInTimeCoverage('2026-08-13', { today: '2026-08-14' }).daysIgnored).toBe(true);
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
