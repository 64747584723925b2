// Evaluates a formula's syntax tree as Excel does: references read through the host (which records them
// as the cell's precedents), operators with Excel's conversions and element-wise over arrays, IF and its
// kin evaluating only the branch they take (so a FIN call in the other branch is never made), custom
// functions handed to the host with their arguments unread, and Excel's own functions from the library.

import { parseReference, type AstExpression } from './syntax';
import { callSheetFunction, sheetFunction } from './sheetFunctions';
import {
  CellError,
  errors,
  finite,
  isError,
  isMatrix,
  isReference,
  toBoolean,
  toNumber,
  toText,
  type Matrix,
  type Reference,
  type Result,
  type Value,
} from './values';

export interface FormulaHost {
  /** The sheet of the cell being calculated (references without a sheet are to it). */
  sheet: string;
  /** The values of a rectangle (recorded as a precedent); #REF! for a sheet that does not exist. */
  read(ref: Reference): Matrix | CellError;
  /** The range the formula in a cell spills into (A1#). */
  spillRange(anchor: Reference): Reference | CellError;
  /** Whether a function name is one of the host's custom functions (FIN.…). */
  isCustom(name: string): boolean;
  /** A custom function's answer; each argument as written (references unread), undefined when left empty. */
  callCustom(name: string, args: (Result | undefined)[]): Value | Matrix;
  /** The rectangle a workbook-scoped defined name refers to (FIN_PERIOD), or null when there is none. */
  resolveName(name: string): Reference | null;
}

/** A value or array: a reference read. A one-cell rectangle is its value. */
export function deref(r: Result, host: FormulaHost): Value | Matrix {
  if (!isReference(r)) return r;
  const m = host.read(r);
  if (isError(m)) return m;
  return m.length === 1 && m[0].length === 1 ? m[0][0] : m;
}

/** The one value of a result: an array's top-left (Excel's implicit intersection, simplified). */
export function scalar(v: Value | Matrix): Value {
  return isMatrix(v) ? (v[0]?.[0] ?? null) : v;
}

function lift1(v: Value | Matrix, f: (x: Value) => Value): Value | Matrix {
  return isMatrix(v) ? v.map((r) => r.map(f)) : f(v);
}

/** Element-wise over arrays; a single row or column stretches, cells beyond both are #N/A, as in Excel. */
function lift2(a: Value | Matrix, b: Value | Matrix, f: (x: Value, y: Value) => Value): Value | Matrix {
  if (!isMatrix(a) && !isMatrix(b)) return f(a, b);
  const A = isMatrix(a) ? a : [[a]];
  const B = isMatrix(b) ? b : [[b]];
  const rows = Math.max(A.length, B.length);
  const cols = Math.max(A[0].length, B[0].length);
  const at = (m: Matrix, r: number, c: number): Value | undefined => {
    const row = m.length === 1 ? m[0] : m[r];
    if (!row) return undefined;
    return row.length === 1 ? row[0] : row[c];
  };
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const x = at(A, r, c);
      const y = at(B, r, c);
      return x === undefined || y === undefined ? errors.na() : f(x, y);
    }),
  );
}

function arithmetic(op: string, x: Value, y: Value): Value {
  const a = toNumber(x);
  if (isError(a)) return a;
  const b = toNumber(y);
  if (isError(b)) return b;
  switch (op) {
    case '+':
      return finite(a + b);
    case '-':
      return finite(a - b);
    case '*':
      return finite(a * b);
    case '/':
      return b === 0 ? errors.div0() : finite(a / b);
    default:
      return a === 0 && b <= 0 ? (b === 0 ? errors.num() : errors.div0()) : finite(a ** b);
  }
}

/** Excel's order: numbers, then text (case-insensitive), then booleans; a blank is 0, "" or FALSE. */
function compare(op: string, x: Value, y: Value): Value {
  if (isError(x)) return x;
  if (isError(y)) return y;
  const rank = (v: Value) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  let a = x;
  let b = y;
  if (a === null) a = b === null ? 0 : typeof b === 'number' ? 0 : typeof b === 'string' ? '' : false;
  if (b === null) b = typeof a === 'number' ? 0 : typeof a === 'string' ? '' : false;
  let order: number;
  if (rank(a) !== rank(b)) order = rank(a) - rank(b);
  else if (typeof a === 'string') order = a.toUpperCase() < (b as string).toUpperCase() ? -1 : a.toUpperCase() > (b as string).toUpperCase() ? 1 : 0;
  else order = Number(a) - Number(b);
  switch (op) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    default:
      return order >= 0;
  }
}

function concatenate(x: Value, y: Value): Value {
  const a = toText(x);
  if (isError(a)) return a;
  const b = toText(y);
  return isError(b) ? b : a + b;
}

function asReference(r: Result, what: string): Reference | CellError {
  if (isError(r)) return r;
  return isReference(r) ? r : errors.value(`${what} needs references on both sides`);
}

function rangeBetween(a: Result, b: Result): Result {
  const x = asReference(a, 'The : operator');
  if (isError(x)) return x;
  const y = asReference(b, 'The : operator');
  if (isError(y)) return y;
  if (x.sheet.toLowerCase() !== y.sheet.toLowerCase()) return errors.ref('A range cannot span two sheets');
  return { ...x, top: Math.min(x.top, y.top), left: Math.min(x.left, y.left), bottom: Math.max(x.bottom, y.bottom), right: Math.max(x.right, y.right) };
}

function intersection(a: Result, b: Result): Result {
  const x = asReference(a, 'The intersection operator');
  if (isError(x)) return x;
  const y = asReference(b, 'The intersection operator');
  if (isError(y)) return y;
  const top = Math.max(x.top, y.top);
  const left = Math.max(x.left, y.left);
  const bottom = Math.min(x.bottom, y.bottom);
  const right = Math.min(x.right, y.right);
  if (x.sheet.toLowerCase() !== y.sheet.toLowerCase() || top > bottom || left > right) return new CellError('#NULL!', 'The ranges do not intersect');
  return { ...x, top, left, bottom, right };
}

type Node = AstExpression | null;

function evaluateCall(node: Extract<AstExpression, { type: 'CallExpression' }>, host: FormulaHost): Result {
  if (node.callee.type !== 'Identifier') return errors.name('LAMBDA is not supported in the workbench');
  const name = node.callee.name.toUpperCase().replace(/^_XLFN\./, '');
  const args = node.arguments as Node[];
  const value = (n: Node | undefined): Value | Matrix => (n === undefined ? false : n === null ? null : deref(evaluate(n, host), host));
  const test = (n: Node): boolean | CellError => {
    const v = scalar(value(n));
    return isError(v) ? v : toBoolean(v);
  };
  switch (name) {
    case 'IF': {
      if (args.length < 2 || args.length > 3) return errors.value('IF takes 2 or 3 arguments');
      const t = test(args[0]);
      if (isError(t)) return t;
      const branch = t ? args[1] : args[2];
      if (branch === undefined) return false;
      return branch === null ? 0 : evaluate(branch, host);
    }
    case 'IFERROR':
    case 'IFNA': {
      if (args.length !== 2) return errors.value(`${name} takes 2 arguments`);
      const v = value(args[0]);
      const caught = (x: Value) => isError(x) && (name === 'IFERROR' || x.code === '#N/A');
      const hasError = isMatrix(v) ? v.some((r) => r.some(caught)) : caught(v);
      if (!hasError) return v;
      const fallback = scalar(value(args[1]));
      return lift1(v, (x) => (caught(x) ? fallback : x));
    }
    case 'IFS': {
      if (args.length < 2 || args.length % 2 !== 0) return errors.value('IFS takes pairs of a test and a value');
      for (let i = 0; i < args.length; i += 2) {
        const t = test(args[i]);
        if (isError(t)) return t;
        if (t) return args[i + 1] === null ? 0 : evaluate(args[i + 1]!, host);
      }
      return errors.na('No test in IFS was TRUE');
    }
    case 'CHOOSE': {
      const index = toNumber(scalar(value(args[0] ?? null)));
      if (isError(index)) return index;
      const pick = Math.trunc(index);
      if (pick < 1 || pick >= args.length) return errors.value(`CHOOSE has no value number ${pick}`);
      const chosen = args[pick];
      return chosen === null ? 0 : evaluate(chosen!, host);
    }
  }
  if (host.isCustom(name)) return host.callCustom(name, args.map((a) => (a === null ? undefined : evaluate(a, host))));
  const fn = sheetFunction(name);
  if (!fn) return errors.name(`${name} is not a function the workbench knows`);
  return callSheetFunction(fn, args.map((a) => value(a)));
}

/** Evaluates a formula's tree (or part of it) for the host's cell. */
export function evaluate(node: AstExpression, host: FormulaHost): Result {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'ErrorLiteral':
      return new CellError(node.value.toUpperCase());
    case 'ReferenceIdentifier': {
      if (node.kind === 'table') return errors.name(`Table references such as ${node.value} are not supported in the workbench: use the cells' addresses`);
      const parsed = parseReference(node.value, host.sheet);
      if (parsed.kind === 'name') return host.resolveName(parsed.name) ?? errors.name(`There is no name "${parsed.name}" in this workbook`);
      if (parsed.kind === 'invalid') return errors.ref(`${node.value} is not a reference the workbench can read`);
      return parsed.reference;
    }
    case 'ArrayExpression':
      return node.elements.map((row) => row.map((el) => scalar(deref(evaluate(el, host), host))));
    case 'UnaryExpression': {
      const [arg] = node.arguments as AstExpression[];
      if (node.operator === '#') {
        const anchor = evaluate(arg, host);
        return isReference(anchor) ? host.spillRange(anchor) : errors.ref('# follows the address of a cell whose formula spills');
      }
      const v = deref(evaluate(arg, host), host);
      if (node.operator === '@') return scalar(v);
      return lift1(v, (x) => {
        const n = toNumber(x);
        if (isError(n)) return n;
        return node.operator === '-' ? -n || 0 : node.operator === '%' ? n / 100 : n;
      });
    }
    case 'BinaryExpression': {
      const [left, right] = node.arguments as AstExpression[];
      const op = node.operator;
      if (op === ':') return rangeBetween(evaluate(left, host), evaluate(right, host));
      if (op === ' ') return intersection(evaluate(left, host), evaluate(right, host));
      if (op === ',') return errors.value('Unions of ranges, such as (A1:A3,C1:C3), are not supported in the workbench');
      const a = deref(evaluate(left, host), host);
      const b = deref(evaluate(right, host), host);
      if (op === '&') return lift2(a, b, concatenate);
      if (op === '=' || op === '<>' || op === '<' || op === '>' || op === '<=' || op === '>=') return lift2(a, b, (x, y) => compare(op, x, y));
      return lift2(a, b, (x, y) => arithmetic(op, x, y));
    }
    case 'CallExpression':
      return evaluateCall(node, host);
    default:
      return errors.name('LAMBDA and LET are not supported in the workbench');
  }
}
