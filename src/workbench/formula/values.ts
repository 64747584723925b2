// What a workbench formula computes with: Excel's values (numbers, text, booleans, blanks and errors),
// arrays of them, and references to cells on a sheet, plus the conversions Excel's operators apply.

/** An Excel error value. `message` says why, for the formula bar (Excel keeps a custom function's message). */
export class CellError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

/** A blank cell (an empty reference, an omitted argument) is null. */
export type Value = number | string | boolean | null | CellError;

export type Matrix = Value[][];

/** A rectangle of cells, 0-based, on a sheet (named as the formula wrote it; compared case-insensitively). */
export interface Reference {
  kind: 'reference';
  sheet: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** What evaluating part of a formula gives: a value, an array, or a reference not yet read. */
export type Result = Value | Matrix | Reference;

export const ERROR_CODES = ['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#SPILL!', '#CALC!', '#BUSY!'] as const;

export const errors = {
  value: (message?: string) => new CellError('#VALUE!', message),
  name: (message?: string) => new CellError('#NAME?', message),
  ref: (message?: string) => new CellError('#REF!', message),
  na: (message?: string) => new CellError('#N/A', message),
  num: (message?: string) => new CellError('#NUM!', message),
  div0: () => new CellError('#DIV/0!'),
};

/** A cell still calculating (an answer not yet in, or a cell it reads that is not): shown as #BUSY!. */
export const BUSY = new CellError('#BUSY!');

export function isError(v: unknown): v is CellError {
  return v instanceof CellError;
}

export function isReference(v: unknown): v is Reference {
  return typeof v === 'object' && v !== null && (v as Reference).kind === 'reference';
}

export function isMatrix(v: unknown): v is Matrix {
  return Array.isArray(v);
}

/** Text that reads as an error literal ("#N/A") in a cell is that error, as in Excel. */
export function errorFromText(text: string): CellError | null {
  return (ERROR_CODES as readonly string[]).includes(text) ? new CellError(text) : null;
}

/** Excel's number from a value: TRUE is 1, a blank 0, numeric text its number; other text is #VALUE!. */
export function toNumber(v: Value): number | CellError {
  if (typeof v === 'number') return v;
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isError(v)) return v;
  const text = v.trim();
  const percent = text.endsWith('%');
  const n = Number((percent ? text.slice(0, -1) : text).replace(/,/g, ''));
  if (text === '' || !Number.isFinite(n)) return errors.value(`"${v}" is not a number`);
  return percent ? n / 100 : n;
}

/** Excel's text of a number in a formula (up to 15 significant digits, no thousands separators). */
export function numberText(n: number): string {
  if (n === 0) return '0';
  const precise = Number(n.toPrecision(15));
  const abs = Math.abs(precise);
  if (abs >= 1e21 || abs < 1e-9) return precise.toExponential().toUpperCase();
  return String(precise);
}

export function toText(v: Value): string | CellError {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (isError(v)) return v;
  return numberText(v);
}

export function toBoolean(v: Value): boolean | CellError {
  if (typeof v === 'boolean') return v;
  if (v === null) return false;
  if (typeof v === 'number') return v !== 0;
  if (isError(v)) return v;
  if (/^true$/i.test(v.trim())) return true;
  if (/^false$/i.test(v.trim())) return false;
  return errors.value(`"${v}" is not TRUE or FALSE`);
}

/** A number an operator produced, as Excel shows it: no NaN or infinities. */
export function finite(n: number): number | CellError {
  return Number.isFinite(n) ? n : errors.num();
}
