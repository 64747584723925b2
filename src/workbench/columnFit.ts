// A number in a column too narrow for it, as Excel shows it: in the General format it is rounded to what
// fits (fewer decimals, then scientific notation with fewer digits); in any other format, or when not even
// that fits, the cell fills with #. Text is left alone (it is clipped, or runs into empty neighbours).

import { formatGeneral, roundHalfAway, type Formatted } from './numberFormat';

/** The width of a text on screen, in pixels. */
export type Measure = (text: string) => number;

/** Significant digits a General text shows ("0.00012" 2, "1.2E-05" 2, "1235" 4). */
function significant(text: string): number {
  const digits = text.replace(/E.*$/, '').replace(/[^0-9]/g, '').replace(/^0+/, '');
  return Math.max(1, digits.length);
}

/**
 * The General text of a number in `width`: the widest rounding of its decimals that fits, or scientific
 * notation with as many digits as fit when that shows more of the number (a tiny fraction rounded to
 * 0.00001 says less than 1.2E-05); null when neither fits.
 */
function fitGeneral(value: number, width: number, measure: Measure): string | null {
  const full = formatGeneral(value);
  let decimal: string | null = null;
  if (!/E/.test(full)) {
    const decimals = full.includes('.') ? full.length - full.indexOf('.') - 1 : 0;
    for (let d = decimals - 1; d >= 0 && decimal === null; d--) {
      const rounded = roundHalfAway(value, d);
      if (rounded === 0) break;
      const text = rounded.toFixed(d);
      const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
      if (measure(trimmed) <= width) decimal = trimmed;
    }
  }
  let scientific: string | null = null;
  for (let d = 4; d >= 0 && scientific === null && value !== 0; d--) {
    const text = value
      .toExponential(d)
      .replace(/\.?0+e/, 'e')
      .replace(/e([+-])(\d)$/, 'e$10$2')
      .toUpperCase();
    if (measure(text) <= width) scientific = text;
  }
  if (decimal !== null && (scientific === null || significant(decimal) >= significant(scientific))) return decimal;
  return scientific;
}

function hashes(width: number, measure: Measure): Formatted {
  const one = Math.max(1, measure('#'));
  return { text: '#'.repeat(Math.max(1, Math.floor(width / one))), align: 'left' };
}

/**
 * A number's formatted text fitted into `width` pixels. `general` says whether the format is General
 * (rounded to fit) or not (#### when it does not fit).
 */
export function fitNumber(value: number, formatted: Formatted, general: boolean, width: number, measure: Measure): Formatted {
  if (measure(formatted.text) <= width) return formatted;
  if (general) {
    const fits = fitGeneral(value, width, measure);
    if (fits !== null) return { ...formatted, text: fits };
  }
  return hashes(width, measure);
}
