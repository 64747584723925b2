// Excel serial numbers <-> ISO dates, in both of Excel's date systems.

import { fail, ok, type Result } from '../result';
import { dayNumber, dayNumberToIso, parseIsoDate } from './calendar';

/**
 * A workbook's date system, spelled as Excel and the workbook gateway report it (DATE(2000,1,1) tells them
 * apart by number), so the value goes from the host to the serial maths without a conversion.
 */
export type DateSystem = 1900 | 1904;

/** The range every date must fall in: Excel's own (1900 system start to 9999-12-31). */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '9999-12-31';

/** 9999-12-31, Excel's last date, in each system. */
export const MAX_SERIAL: Readonly<Record<DateSystem, number>> = { 1900: 2958465, 1904: 2957003 };
const MIN_SERIAL: Readonly<Record<DateSystem, number>> = { 1900: 1, 1904: 0 };

// Day numbers of each system's serial 0: 1899-12-31 (1900 system, before its fake leap day) and
// 1904-01-01. From serial 61 on, the 1900 system counts Lotus's fictitious 1900-02-29, so those serials
// sit one day later than a plain count would put them.
const DAY_OF_SERIAL_ZERO_1900 = dayNumber(1899, 12, 31);
const DAY_OF_SERIAL_ZERO_1904 = dayNumber(1904, 1, 1);
const FAKE_LEAP_DAY_SERIAL = 60;

/**
 * Excel serial -> ISO date. The fraction (a time of day) is dropped: a serial of 46218.75 is a moment on
 * 2026-07-15, and every API parameter is a whole day. Serial 60 of the 1900 system is the day Excel
 * believes to be 1900-02-29; no such day exists, so it is rejected rather than silently moved to a
 * neighbour (a user typing 2/29/1900 has made a mistake the API could not represent anyway).
 */
export function serialToIso(serial: number, system: DateSystem = 1900): Result<string> {
  if (typeof serial !== 'number' || !Number.isFinite(serial)) {
    return fail(`Bad date ${String(serial)}: not a number of days`);
  }
  const whole = Math.floor(serial);
  const min = MIN_SERIAL[system];
  const max = MAX_SERIAL[system];
  if (whole < min || whole > max) {
    const first = system === 1900 ? '1 (1900-01-01)' : '0 (1904-01-01)';
    return fail(
      `Bad date ${serial}: in the ${system} date system serial numbers run from ${first} to ${max} (9999-12-31)`,
    );
  }
  if (system === 1904) return ok(dayNumberToIso(DAY_OF_SERIAL_ZERO_1904 + whole));
  if (whole === FAKE_LEAP_DAY_SERIAL) {
    return fail(
      `Bad date ${serial}: serial 60 is Excel's 1900-02-29, a day that never existed; use 59 (1900-02-28) or 61 (1900-03-01)`,
    );
  }
  const shift = whole > FAKE_LEAP_DAY_SERIAL ? 1 : 0;
  return ok(dayNumberToIso(DAY_OF_SERIAL_ZERO_1900 + whole - shift));
}

/** ISO date -> Excel serial (whole days). Dates before the system's first day are an error. */
export function isoToSerial(iso: string, system: DateSystem = 1900): Result<number> {
  const ymd = parseIsoDate(iso);
  if (!ymd) return fail(`Bad date "${iso}": not a YYYY-MM-DD calendar date`);
  const n = dayNumber(ymd.year, ymd.month, ymd.day);
  if (system === 1904) {
    const serial = n - DAY_OF_SERIAL_ZERO_1904;
    if (serial < 0) return fail(`Bad date "${iso}": the 1904 date system starts at 1904-01-01`);
    return ok(serial);
  }
  const plain = n - DAY_OF_SERIAL_ZERO_1900;
  if (plain < 1) return fail(`Bad date "${iso}": the 1900 date system starts at 1900-01-01`);
  // 1900-03-01 is plain day 60 but Excel serial 61, because serial 60 is the fake leap day.
  return ok(plain >= FAKE_LEAP_DAY_SERIAL ? plain + 1 : plain);
}
