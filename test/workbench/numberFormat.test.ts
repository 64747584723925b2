import { accountingFormat } from '../../src/engine/render/money';
import { AMOUNT_FORMAT, DATE_FORMAT } from '../../src/engine/transactions/columns';
import { formatCell, formatGeneral, isoToSerial, roundHalfAway, serialToDate, splitSections } from '../../src/workbench/numberFormat';

// The workbench's grid shows cells through this formatter: the formats the add-in writes must read as
// Excel shows them.

const text = (value: number | string, format: string) => formatCell(value, format).text;

describe('number formats the add-in writes', () => {
  it('shows the accounting format in units: symbol left, amount right, negatives in parentheses, zero as a dash', () => {
    const f = accountingFormat('USD', 'units');
    expect(f).toBe('_($* #,##0.00_);_($* (#,##0.00);_($* "-"??_);_(@_)');
    expect(text(1234.5, f)).toBe('$ 1,234.50');
    expect(text(-1234.5, f)).toBe('$ (1,234.50)');
    expect(text(0, f)).toBe('$ -');
    expect(text(0.004, f)).toBe('$ 0.00');
    expect(text('Revenue', f)).toBe('Revenue');
    const cell = formatCell(-1234.5, f);
    expect(cell.left).toBe('$');
    expect(cell.right?.trim()).toBe('(1,234.50)');
    expect(cell.align).toBe('right');
  });

  it('shows thousands and millions as whole numbers (the value is already scaled)', () => {
    const f = accountingFormat('USD', 'thousands');
    expect(f).toBe('_($* #,##0_);_($* (#,##0);_($* "-"_);_(@_)');
    expect(text(1234.567, f)).toBe('$ 1,235');
    expect(text(-1234.4, f)).toBe('$ (1,234)');
    expect(text(0, f)).toBe('$ -');
    expect(text(0.5, f)).toBe('$ 1');
    expect(text(-0.5, f)).toBe('$ (1)');
  });

  it('quotes other currencies', () => {
    expect(text(-12, accountingFormat('EUR', 'units'))).toBe('€ (12.00)');
  });

  it('shows the transactions table amounts and dates', () => {
    expect(text(1234.5, AMOUNT_FORMAT)).toBe('1,234.50');
    expect(text(-1234.5, AMOUNT_FORMAT)).toBe('(1,234.50)');
    expect(text(0, AMOUNT_FORMAT)).toBe('-');
    expect(text(isoToSerial('2025-12-07')!, DATE_FORMAT)).toBe('2025-12-07');
  });

  it('shows General as Excel does', () => {
    expect(text(2189534.29, 'General')).toBe('2189534.29');
    expect(text(1 / 3, 'General')).toBe('0.333333333');
    expect(text(-42, 'General')).toBe('-42');
    expect(formatGeneral(123456789012)).toBe('1.23457E+11');
    expect(formatCell('text', 'General')).toEqual({ text: 'text', align: 'left' });
    expect(formatCell(true, 'General').text).toBe('TRUE');
    expect(formatCell('#N/A', 'General')).toEqual({ text: '#N/A', align: 'center' });
  });
});

describe('the format language', () => {
  it('splits sections outside quotes, escapes and brackets', () => {
    expect(splitSections('0;"a;b";[Red]0\\;x')).toEqual(['0', '"a;b"', '[Red]0\\;x']);
  });

  it('handles placeholders, percent, scaling commas, colours and a leading minus', () => {
    expect(text(1234.5678, '0.00')).toBe('1234.57');
    expect(text(-1234.5678, '#,##0.0')).toBe('-1,234.6');
    expect(text(0.256, '0.0%')).toBe('25.6%');
    expect(text(1234567, '#,##0,')).toBe('1,235');
    expect(text(1234567, '#,##0.0,,"M"')).toBe('1.2M');
    expect(text(0, '#,###')).toBe('');
    expect(text(5, '000')).toBe('005');
    expect(text(1.5, '0.0#')).toBe('1.5');
    expect(formatCell(-5, '0;[Red]-0').color).toBe('red');
    expect(text(-0.001, '0.00')).toBe('0.00');
  });

  it('rounds half away from zero without binary surprises', () => {
    expect(roundHalfAway(1.005, 2)).toBe(1.01);
    expect(roundHalfAway(-2.5, 0)).toBe(-3);
    expect(roundHalfAway(2.345, 2)).toBe(2.35);
    expect(roundHalfAway(1e-7, 2)).toBe(0);
  });

  it('shows dates and times in the 1900 and 1904 systems', () => {
    expect(isoToSerial('1900-01-01')).toBe(1);
    expect(isoToSerial('1900-03-01')).toBe(61);
    expect(isoToSerial('2026-07-15')).toBe(46218);
    expect(serialToDate(46218).toISOString().slice(0, 10)).toBe('2026-07-15');
    expect(isoToSerial('2026-07-15', 1904)).toBe(46218 - 1462);
    expect(text(46218, 'mmm yyyy')).toBe('Jul 2026');
    expect(text(46218, 'dddd, mmmm d')).toBe('Wednesday, July 15');
    expect(text(46218.75, 'yyyy-mm-dd hh:mm')).toBe('2026-07-15 18:00');
    expect(text(46218.75, 'h:mm AM/PM')).toBe('6:00 PM');
    expect(formatCell(46218, 'yyyy-mm-dd', { dateSystem: 1904 }).text).toBe('2030-07-16');
    expect(isoToSerial('2026-02-30')).toBeNull();
  });
});
