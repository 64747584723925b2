// Excel's formula grammar, from @borgar/fx: a formula's text as a syntax tree, and a reference's text
// ("B2", "$A$1:C9", "'P&L FY2025'!B4", "A:A") as a rectangle. The only module that knows the library.

import { parse, parseA1Ref, tokenize, type AstExpression } from '@borgar/fx';
import { MAX_COLS, MAX_ROWS } from '../../engine/ports/address';
import type { Reference } from './values';

export type { AstExpression } from '@borgar/fx';

export type ParsedFormula = { ok: true; ast: AstExpression } | { ok: false; message: string };

/** Parses a formula, with or without its leading =. */
export function parseFormula(formula: string): ParsedFormula {
  const text = formula.trim().replace(/^=/, '');
  if (text === '') return { ok: false, message: 'The formula is empty' };
  try {
    // Unary minus stays an operator, so -2^2 is (-2)^2 as in Excel.
    return { ok: true, ast: parse(tokenize(text, { negativeNumbers: false }), {}) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export type ParsedReference = { kind: 'reference'; reference: Reference } | { kind: 'name'; name: string } | { kind: 'invalid' };

/**
 * A reference's text as a rectangle on `sheet` (the formula's own sheet unless it names one). Whole columns
 * and rows (A:A, 3:3) reach the sheet's edges; the reader trims them to what is used.
 */
export function parseReference(text: string, sheet: string): ParsedReference {
  const ref = parseA1Ref(text, { allowNamed: true, allowTernary: false });
  if (!ref) return { kind: 'invalid' };
  if ('name' in ref) return { kind: 'name', name: ref.name };
  const context = ref.context ?? [];
  if (context.length > 1) return { kind: 'invalid' }; // another workbook
  const r = ref.range;
  const top = r.top ?? 0;
  const left = r.left ?? 0;
  const bottom = r.bottom ?? (r.top === null ? MAX_ROWS - 1 : top);
  const right = r.right ?? (r.left === null ? MAX_COLS - 1 : left);
  return {
    kind: 'reference',
    reference: {
      kind: 'reference',
      sheet: context[0] ?? sheet,
      top: Math.min(top, bottom),
      left: Math.min(left, right),
      bottom: Math.max(top, bottom),
      right: Math.max(left, right),
    },
  };
}
