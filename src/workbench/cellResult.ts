// What a formula cell holds once calculated: #BUSY! while an answer is awaited, a value, an error (with
// the message the formula bar shows), or an array that spills into the cells to its right and below.

import { CellError, isError, isMatrix, type Matrix, type Value } from './formula/values';

export type Scalar = string | number | boolean;

export type CellResult =
  | { state: 'busy' }
  | { state: 'value'; value: Scalar }
  | { state: 'error'; code: string; message?: string }
  | { state: 'spill'; rows: Scalar[][] };

export const BUSY_RESULT: CellResult = { state: 'busy' };

/** An element of a spilled array: errors show as their code, a blank as 0 (as Excel shows =A1 of a blank). */
function spilled(v: Value): Scalar {
  if (isError(v)) return v.code;
  return v === null ? 0 : v;
}

/** A formula's value as a cell result. */
export function resultOf(v: Value | Matrix): CellResult {
  if (isMatrix(v)) {
    const width = Math.max(0, ...v.map((r) => r.length));
    if (v.length === 0 || width === 0) return { state: 'error', code: '#CALC!', message: 'The array is empty' };
    if (v.length === 1 && width === 1) return resultOf(v[0][0]);
    return { state: 'spill', rows: v.map((r) => Array.from({ length: width }, (_, c) => spilled(r[c] ?? null))) };
  }
  if (isError(v)) return v.message ? { state: 'error', code: v.code, message: v.message } : { state: 'error', code: v.code };
  if (v === null) return { state: 'value', value: 0 };
  if (typeof v === 'number' && !Number.isFinite(v)) return { state: 'error', code: '#NUM!' };
  return { state: 'value', value: v };
}

/** A settled cell result as a value other formulas read (a spill's anchor reads as its top-left). */
export function valueOf(result: Exclude<CellResult, { state: 'busy' }>): Value | Matrix {
  if (result.state === 'error') return new CellError(result.code, result.message);
  if (result.state === 'value') return result.value;
  return result.rows;
}

export function sameResult(a: CellResult | undefined, b: CellResult): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
