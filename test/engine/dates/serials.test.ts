import {
  dayNumber,
  fromDayNumber,
  isoToSerial,
  parseDateArgument,
  serialToIso,
} from '../../../src/engine/dates';
import { error, value } from './results';

const TODAY = '2026-07-15';

// An independent reference for the 1900 system after its fake leap day: days since 1899-12-30 by Date.UTC.
function referenceSerial1900(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

describe('Excel serials, 1900 date system', () => {
  test.each([
    [1, '1900-01-01'],
    [2, '1900-01-02'],
    [31, '1900-01-31'],
    [59, '1900-02-28'],
    [61, '1900-03-01'],
    [366, '1900-12-31'],
    [367, '1901-01-01'],
    [1462, '1904-01-01'],
    [36526, '2000-01-01'],
    [36585, '2000-02-29'],
    [45351, '2024-02-29'],
    [46218, '2026-07-15'],
    [2958465, '9999-12-31'],
  ])('serial %d is %s and back', (serial, iso) => {
    expect(value(serialToIso(serial))).toBe(iso);
    expect(value(isoToSerial(iso))).toBe(serial);
  });

  test('serial 60, the fictitious 1900-02-29, is rejected with the reason and the neighbours', () => {
    const message = error(serialToIso(60));
    expect(message).toContain('1900-02-29');
    expect(message).toContain('never existed');
    expect(message).toContain('59 (1900-02-28)');
    expect(message).toContain('61 (1900-03-01)');
    expect(error(serialToIso(60.25))).toContain('1900-02-29');
    expect(error(isoToSerial('1900-02-29'))).toContain('not a YYYY-MM-DD calendar date');
  });

  test('fractions (times of day) are dropped', () => {
    expect(value(serialToIso(46218.999))).toBe('2026-07-15');
    expect(value(serialToIso(46218.0001))).toBe('2026-07-15');
    expect(value(serialToIso(59.9))).toBe('1900-02-28');
    expect(value(serialToIso(1.5))).toBe('1900-01-01');
  });

  test.each([0, 0.5, -1, 2958466, Number.NaN, Number.POSITIVE_INFINITY])('serial %p is out of range', (serial) => {
    const message = error(serialToIso(serial));
    expect(message).toMatch(/^Bad date /);
  });

  test('the out-of-range message gives the valid range', () => {
    expect(error(serialToIso(0))).toBe(
      'Bad date 0: in the 1900 date system serial numbers run from 1 (1900-01-01) to 2958465 (9999-12-31)',
    );
  });

  test('dates before 1900 have no serial', () => {
    expect(error(isoToSerial('1899-12-31'))).toContain('starts at 1900-01-01');
  });

  test('every date from 1900-03-01 on matches an independent Date.UTC count', () => {
    for (let n = dayNumber(1900, 3, 1); n <= dayNumber(2100, 12, 31); n += 7) {
      const { year, month, day } = fromDayNumber(n);
      const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      expect(value(isoToSerial(iso))).toBe(referenceSerial1900(iso));
    }
  });

  test('round trip over the first years, around the fake leap day', () => {
    for (let serial = 1; serial < 3000; serial++) {
      if (serial === 60) continue;
      expect(value(isoToSerial(value(serialToIso(serial))))).toBe(serial);
    }
  });
});

describe('Excel serials, 1904 date system', () => {
  test.each([
    [0, '1904-01-01'],
    [1, '1904-01-02'],
    [59, '1904-02-29'],
    [60, '1904-03-01'],
    [44756, '2026-07-15'],
    [2957003, '9999-12-31'],
  ])('serial %d is %s and back', (serial, iso) => {
    expect(value(serialToIso(serial, 1904))).toBe(iso);
    expect(value(isoToSerial(iso, 1904))).toBe(serial);
  });

  test('1904 serials are the 1900 ones minus 1462 for every shared date', () => {
    for (let serial1904 = 0; serial1904 < 60000; serial1904 += 13) {
      const iso = value(serialToIso(serial1904, 1904));
      expect(value(isoToSerial(iso, 1900))).toBe(serial1904 + 1462);
    }
  });

  test('out of range', () => {
    expect(error(serialToIso(-1, 1904))).toContain('from 0 (1904-01-01) to 2957003 (9999-12-31)');
    expect(error(serialToIso(2957004, 1904))).toMatch(/^Bad date 2957004/);
    expect(error(isoToSerial('1903-12-31', 1904))).toContain('1904 date system starts at 1904-01-01');
  });

  test('parseDateArgument reads numbers in the workbook date system', () => {
    expect(value(parseDateArgument(0, { today: TODAY, dateSystem: 1904 }))).toEqual({ kind: 'date', date: '1904-01-01' });
    expect(parseDateArgument(0, { today: TODAY }).ok).toBe(false);
  });
});
