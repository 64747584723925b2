// A budget figure is what the user typed in currency units; the engine keeps integer cents. This is the one
// place a typed unit becomes cents: once, where the budget is read, rounded to the cent as Excel's ROUND does
// (half away from zero, on the number's 15 significant digits, so 1.005 typed is 1.01 and not the 1.00 its
// binary value would give). The way back to units is render/money.ts, like every other amount.

/** Past this, cents stop being exact integers in a double (about 90 trillion units). */
const MAX_UNITS = Number.MAX_SAFE_INTEGER / 100;

/** Typed units -> integer cents; null for what is not a finite number within range. */
export function unitsToCents(units: number): number | null {
  if (typeof units !== 'number' || !Number.isFinite(units) || Math.abs(units) > MAX_UNITS) return null;
  const hundredths = Number((Math.abs(units) * 100).toPrecision(15));
  const cents = Math.floor(hundredths + 0.5);
  return units < 0 && cents !== 0 ? -cents : cents;
}
