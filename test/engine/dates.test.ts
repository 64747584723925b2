import {
  DateArgument,
  DateArgumentError,
  Result,
  addDays,
  addMonths,
  argumentEndDate,
  argumentsToPeriod,
  calendarDateAt,
  dayNumber,
  daysBetween,
  fiscalYearOf,
  fiscalYearPeriod,
  fromDayNumber,
  isIsoDate,
  isLeapYear,
  isoToSerial,
  parseDateArgument,
  serialToIso,
  trailingTwelveMonths,
  unwrap,
  yearToDate,
} from '../../src/engine/dates';

const TODAY = '2026-07-15';

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected ok, got error: ${r.error}`);
  return r.value;
}

function error<T>(r: Result<T>): string {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
}

function parse(input: unknown, fiscalYearStartMonth?: number): DateArgument {
  return value(parseDateArgument(input, { today: TODAY, fiscalYearStartMonth }));
}

function parseError(input: unknown, fiscalYearStartMonth?: number): string {
  return error(parseDateArgument(input, { today: TODAY, fiscalYearStartMonth }));
}

// An independent reference for the 1900 system after its fake leap day: days since 1899-12-30 by Date.UTC.
function referenceSerial1900(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

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
});

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
    expect(value(serialToIso(serial, '1904'))).toBe(iso);
    expect(value(isoToSerial(iso, '1904'))).toBe(serial);
  });

  test('1904 serials are the 1900 ones minus 1462 for every shared date', () => {
    for (let serial1904 = 0; serial1904 < 60000; serial1904 += 13) {
      const iso = value(serialToIso(serial1904, '1904'));
      expect(value(isoToSerial(iso, '1900'))).toBe(serial1904 + 1462);
    }
  });

  test('out of range', () => {
    expect(error(serialToIso(-1, '1904'))).toContain('from 0 (1904-01-01) to 2957003 (9999-12-31)');
    expect(error(serialToIso(2957004, '1904'))).toMatch(/^Bad date 2957004/);
    expect(error(isoToSerial('1903-12-31', '1904'))).toContain('1904 date system starts at 1904-01-01');
  });

  test('parseDateArgument reads numbers in the workbook date system', () => {
    expect(value(parseDateArgument(0, { today: TODAY, dateSystem: '1904' }))).toEqual({ kind: 'date', date: '1904-01-01' });
    expect(parseDateArgument(0, { today: TODAY }).ok).toBe(false);
  });
});

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
    ['2026-13', 'Bad date "2026-13": month 13 does not exist; use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD or TTM'],
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

  test('unwrap throws the user-facing message', () => {
    expect(() => unwrap(parseDateArgument('2026-13', { today: TODAY }))).toThrow(DateArgumentError);
    expect(() => unwrap(parseDateArgument('2026-13', { today: TODAY }))).toThrow(/^Bad date "2026-13"/);
    expect(unwrap(parseDateArgument('2026-07-01', { today: TODAY }))).toEqual({ kind: 'date', date: '2026-07-01' });
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
});
