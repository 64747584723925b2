// Excel's own functions (SUM, ROUND, IFERROR, VLOOKUP, NPV, ...) for workbench formulas, from
// @formulajs/formulajs: arguments and answers converted between the workbench's values and the library's.
// The library has one Error object per code; an error argument that comes back out keeps its message.

import * as formulajs from '@formulajs/formulajs';
import { CellError, errors, isError, isMatrix, type Matrix, type Value } from './values';

// Dates as Excel serial numbers, not JavaScript Dates: cells hold serials.
formulajs.utils.date.useSerial();

const LIBRARY_ERRORS = new Map<string, Error>(Object.values(formulajs.utils.errors).map((e) => [e.message, e]));

type LibraryFunction = (...args: unknown[]) => unknown;

/** The library's function for an Excel name: "SUM", "NORM.DIST" (a member of NORM), case-insensitive. */
export function sheetFunction(name: string): LibraryFunction | undefined {
  let node: unknown = formulajs;
  for (const part of name.toUpperCase().split('.')) {
    if ((typeof node !== 'object' && typeof node !== 'function') || node === null || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'function' ? (node as LibraryFunction) : undefined;
}

function fromLibrary(v: unknown, passed: Map<Error, CellError>): Value | Matrix {
  if (v instanceof Error) return passed.get(v) ?? new CellError(LIBRARY_ERRORS.has(v.message) ? v.message : '#VALUE!', LIBRARY_ERRORS.has(v.message) ? undefined : v.message);
  if (Array.isArray(v)) {
    const rows = v.every((r) => Array.isArray(r)) ? (v as unknown[][]) : [v];
    return rows.map((r) => r.map((x) => {
      const one = fromLibrary(x, passed);
      return isMatrix(one) ? errors.value() : one;
    }));
  }
  if (v instanceof Date) return errors.value('The function returned a date the workbench cannot place');
  if (typeof v === 'number') return Number.isFinite(v) ? v : errors.num();
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return 0; // undefined or null: Excel shows an empty answer as 0
}

/** Calls a library function; arguments are values or arrays (references already read), null when omitted. */
export function callSheetFunction(fn: LibraryFunction, args: (Value | Matrix)[]): Value | Matrix {
  const passed = new Map<Error, CellError>();
  const toLibrary = (v: Value): unknown => {
    if (!isError(v)) return v;
    const e = LIBRARY_ERRORS.get(v.code) ?? LIBRARY_ERRORS.get('#VALUE!')!;
    if (!passed.has(e)) passed.set(e, v);
    return e;
  };
  const converted = args.map((a) => (isMatrix(a) ? a.map((r) => r.map(toLibrary)) : toLibrary(a)));
  try {
    return fromLibrary(fn(...converted), passed);
  } catch (error) {
    return errors.value(error instanceof Error ? error.message : String(error));
  }
}
