import {
  RenderError,
  accountingFormat,
  centsToDisplay,
  currencySymbol,
  displayDecimals,
  unitsNote,
} from '../../../src/engine/render/money';

describe('cents to display units', () => {
  test('divides by 100 and the scale, without rounding', () => {
    expect(centsToDisplay(49900, 'units')).toBe(499);
    expect(centsToDisplay(12_345_678, 'units')).toBe(123456.78);
    expect(centsToDisplay(12_345_678, 'thousands')).toBe(123.45678);
    expect(centsToDisplay(12_345_678, 'millions')).toBe(0.12345678);
    expect(centsToDisplay(1, 'millions')).toBe(1e-8);
    expect(centsToDisplay(-250_001, 'thousands')).toBe(-2.50001);
  });

  test('zero is never negative zero', () => {
    expect(Object.is(centsToDisplay(0, 'thousands'), 0)).toBe(true);
    expect(Object.is(centsToDisplay(-0, 'units'), 0)).toBe(true);
  });

  test('is the correctly rounded quotient, one division', () => {
    for (const cents of [1, 7, 333, 123_456_789, -987_654_321, 9_007_199_254_740_991]) {
      expect(centsToDisplay(cents, 'thousands')).toBe(cents / 100_000);
      expect(centsToDisplay(cents, 'millions')).toBe(cents / 100_000_000);
    }
  });

  test.each([1.5, Number.NaN, Infinity, 2 ** 53, '100' as unknown as number])('rejects %p', (bad) => {
    expect(() => centsToDisplay(bad, 'units')).toThrow(RenderError);
  });
});

describe('number formats', () => {
  test('USD in units is the accounting format with cents', () => {
    expect(accountingFormat('USD', 'units')).toBe('_($* #,##0.00_);_($* (#,##0.00);_($* "-"??_);_(@_)');
  });

  test('scaled amounts show whole numbers', () => {
    expect(accountingFormat('USD', 'thousands')).toBe('_($* #,##0_);_($* (#,##0);_($* "-"_);_(@_)');
    expect(accountingFormat('USD', 'millions')).toBe(accountingFormat('USD', 'thousands'));
    expect(displayDecimals('units')).toBe(2);
    expect(displayDecimals('thousands')).toBe(0);
  });

  test('the symbol follows the currency', () => {
    expect(accountingFormat('EUR', 'units')).toBe('_("€"* #,##0.00_);_("€"* (#,##0.00);_("€"* "-"??_);_(@_)');
    expect(accountingFormat('gbp', 'thousands')).toBe('_("£"* #,##0_);_("£"* (#,##0);_("£"* "-"_);_(@_)');
    expect(accountingFormat('CHF', 'units')).toBe('_("CHF"* #,##0.00_);_("CHF"* (#,##0.00);_("CHF"* "-"??_);_(@_)');
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('GBP')).toBe('£');
    expect(currencySymbol('JPY')).toBe('JPY');
  });

  test('a currency that is not a plain code cannot inject format syntax', () => {
    expect(accountingFormat('US"D;@', 'units')).toBe('_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)');
  });

  test('units notes', () => {
    expect(unitsNote('USD', 'units')).toBe('USD');
    expect(unitsNote('USD', 'thousands')).toBe('USD, thousands');
    expect(unitsNote('eur', 'millions')).toBe('EUR, millions');
  });
});
