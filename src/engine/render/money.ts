// The one place cents become display numbers (docs/architecture.md, "Where cents become units"). Everything
// upstream stays integer cents; everything that shows an amount, statements and single-value formulas
// alike, comes through here.

export type Scale = 'units' | 'thousands' | 'millions';

export const SCALE_DIVISOR: Readonly<Record<Scale, number>> = { units: 1, thousands: 1_000, millions: 1_000_000 };

export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/** Throws on anything that is not whole cents: a fractional or huge "cents" value means a broken contract. */
export function assertCents(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new RenderError(`${what} must be an integer number of cents, got ${JSON.stringify(value) ?? String(value)}`);
  }
}

/**
 * cents / 100 / scale, computed as one division by the exact integer 100 * scale so the result is the
 * correctly rounded quotient. The value is deliberately not rounded to the displayed decimals: the number
 * format rounds on screen, and a column of pre-rounded lines would stop adding up to its total.
 */
export function centsToDisplay(cents: number, scale: Scale): number {
  assertCents(cents, 'amount');
  const value = cents / (100 * SCALE_DIVISOR[scale]);
  return value === 0 ? 0 : value; // no -0: it would print as "(0)" in some formats
}

/** Decimals shown: cents in units, whole numbers once scaled (a thousandth of a thousand is noise). */
export function displayDecimals(scale: Scale): number {
  return scale === 'units' ? 2 : 0;
}

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£' };

/** The symbol shown for an ISO 4217 code: $, €, £, else the code itself. */
export function currencySymbol(currency: string): string {
  const code = currency.trim().toUpperCase();
  return SYMBOLS[code] ?? code;
}

/**
 * Excel's accounting format (the built-in `_($* #,##0.00_)...` family) for a currency and scale.
 * `$` is a literal in number formats; any other symbol is quoted, and a currency that is not a plain
 * three-letter code is left out, since the API's text must not be able to inject format syntax.
 */
export function accountingFormat(currency: string, scale: Scale): string {
  const code = currency.trim().toUpperCase();
  let symbol = '';
  if (code === 'USD') symbol = '$';
  else if (/^[A-Z]{3}$/.test(code)) symbol = `"${currencySymbol(code)}"`;
  const digits = displayDecimals(scale) === 2 ? '#,##0.00' : '#,##0';
  const zero = displayDecimals(scale) === 2 ? '"-"??' : '"-"';
  return `_(${symbol}* ${digits}_);_(${symbol}* (${digits});_(${symbol}* ${zero}_);_(@_)`;
}

/** The units line under a statement's title: "USD", "USD, thousands", "USD, millions". */
export function unitsNote(currency: string, scale: Scale): string {
  const code = currency.trim().toUpperCase();
  return scale === 'units' ? code : `${code}, ${scale}`;
}
