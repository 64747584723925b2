import {
  addDays,
  addMonths,
  calendarDateAt,
  dayNumber,
  daysBetween,
  fromDayNumber,
  isIsoDate,
  isLeapYear,
} from '../../../src/engine/dates';

describe('calendar arithmetic', () => {
  test('leap years follow the Gregorian rule', () => {
    expect([1900, 2000, 2023, 2024, 2100, 2400].map(isLeapYear)).toEqual([false, true, false, true, false, true]);
  });

  test('day numbers round-trip across four centuries and agree with Date.UTC', () => {
    for (let n = dayNumber(1899, 1, 1); n <= dayNumber(2300, 12, 31); n += 17) {
      const { year, month, day } = fromDayNumber(n);
      expect(dayNumber(year, month, day)).toBe(n);
      expect(Date.UTC(year, month - 1, day) / 86_400_000).toBe(n);
    }
  });

  test('strict ISO dates must be real days', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-7-01')).toBe(false);
    expect(isIsoDate('2026-07-01T00:00:00Z')).toBe(false);
  });

  test('month arithmetic clamps to the target month', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2024-02-29', -12)).toBe('2023-02-28');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-11-30', 14)).toBe('2028-01-30');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
  });

  test('calendarDateAt reads the date in the company zone, not UTC', () => {
    // 2026-07-01T05:00Z is still June 30 in Los Angeles (UTC-7 in summer).
    expect(calendarDateAt(Date.UTC(2026, 6, 1, 5, 0))).toBe('2026-06-30');
    expect(calendarDateAt(Date.UTC(2026, 6, 1, 8, 0))).toBe('2026-07-01');
    expect(calendarDateAt(Date.UTC(2026, 6, 1, 5, 0), 'UTC')).toBe('2026-07-01');
  });

  test('calendarDateAt answers asked again and again, across midnight, in several zones at once', () => {
    // Los Angeles' midnight (07:00Z in summer): the last second of June 30, then the first of July 1.
    const midnight = Date.UTC(2026, 6, 1, 7, 0);
    const asked: [number, string | undefined, string][] = [
      [midnight - 1000, undefined, '2026-06-30'],
      [midnight - 1, undefined, '2026-06-30'],
      [midnight - 1, 'UTC', '2026-07-01'],
      [midnight, undefined, '2026-07-01'],
      [midnight - 1000, undefined, '2026-06-30'],
      [midnight + 59_999, undefined, '2026-07-01'],
      [midnight, 'Asia/Kolkata', '2026-07-01'],
      // Kolkata is UTC+5:30: its midnight falls on a half hour of UTC.
      [Date.UTC(2026, 6, 1, 18, 29, 59), 'Asia/Kolkata', '2026-07-01'],
      [Date.UTC(2026, 6, 1, 18, 30), 'Asia/Kolkata', '2026-07-02'],
      [Date.UTC(2026, 6, 1, 18, 30), undefined, '2026-07-01'],
    ];
    for (const [at, zone, date] of asked) expect([at, zone, calendarDateAt(at, zone)]).toEqual([at, zone, date]);
  });
});
