import {
  addDays,
  fiscalQuarterOf,
  fiscalYearOf,
  fiscalYearPeriod,
} from '../../../src/engine/dates';

describe('fiscal years', () => {
  test('fiscalYearOf names the year by its end', () => {
    expect(fiscalYearOf('2026-06-30', 7)).toBe(2026);
    expect(fiscalYearOf('2026-07-01', 7)).toBe(2027);
    expect(fiscalYearOf('2026-12-31', 1)).toBe(2026);
    expect(fiscalYearOf('2026-01-31', 2)).toBe(2026);
    expect(fiscalYearOf('2026-02-01', 2)).toBe(2027);
  });

  test('every fiscal year is twelve whole months and contains its own dates', () => {
    for (let start = 1; start <= 12; start++) {
      for (let fy = 2020; fy <= 2030; fy++) {
        const p = fiscalYearPeriod(fy, start);
        expect(fiscalYearOf(p.start, start)).toBe(fy);
        expect(fiscalYearOf(p.end, start)).toBe(fy);
        expect(p.end.slice(0, 4)).toBe(String(fy));
        expect(addDays(p.end, 1)).toBe(fiscalYearPeriod(fy + 1, start).start);
      }
    }
  });

  test('fiscal quarters of dates', () => {
    expect(fiscalQuarterOf('2026-07-01')).toEqual({ fiscalYear: 2026, quarter: 3 });
    expect(fiscalQuarterOf('2026-07-01', { fiscalYearStartMonth: 7 })).toEqual({ fiscalYear: 2027, quarter: 1 });
    expect(fiscalQuarterOf('2026-06-30', { fiscalYearStartMonth: 7 })).toEqual({ fiscalYear: 2026, quarter: 4 });
    expect(fiscalQuarterOf('2026-01-31', { fiscalYearStartMonth: 2 })).toEqual({ fiscalYear: 2026, quarter: 4 });
  });
});
