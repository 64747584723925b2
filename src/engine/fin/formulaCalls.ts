// Which formulas are FIN cells, and how many FIN evaluations one recalculation of them starts: Refresh all
// recalculates only those cells and counts their evaluations to know when Excel has handed them all over.

import { CALL_ATTEMPTS } from './calls';

/**
 * The FIN functions whose every call is a FinService evaluation (counted by FinActivity). FIN.VERSION
 * answers at once, FIN.PERIOD reads nothing and FIN.REFRESHED streams: none is one, none spends a call.
 */
export const EVALUATED_FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(CALL_ATTEMPTS));

/** Text in double quotes ("" inside is a quote) and sheet names in single quotes: no call can hide there. */
const QUOTED = /"(?:[^"]|"")*"|'(?:[^']|'')*'/g;
/** `FIN.NAME(` not preceded by a name character (MYFIN.TOTAL is another function). */
const FIN_CALL = /(^|[^A-Za-z0-9_.\\])FIN\.([A-Za-z_][A-Za-z0-9_.]*)\s*\(/gi;

/**
 * How many FIN evaluations a formula holds: `=FIN.PNL(...)+FIN.PNL(...)` holds two, `=FIN.VERSION()` none,
 * a constant none. Excel may make fewer (arguments that are errors, a branch IF does not take), never more.
 */
export function finEvaluations(formula: string): number {
  if (!formula.startsWith('=')) return 0;
  const code = formula.replace(QUOTED, '""');
  let count = 0;
  for (const match of code.matchAll(FIN_CALL)) if (EVALUATED_FUNCTIONS.has(match[2].toUpperCase())) count += 1;
  return count;
}

/**
 * A formula whose FIN calls sit in one branch of `=IF(<number><comparison><cell>, a, b)`, as the board charts'
 * rows are written (`=IF(7>$B$37,NA(),FIN.PNL(...))`). Excel's IF evaluates only the branch it takes, so what
 * the recalculation starts depends on the cell's value: `ref` (as written, perhaps sheet-qualified) and
 * `calls(value)`. Counting both branches expects more evaluations than Excel makes in every month but the
 * last, and the refresh then waits on Excel's calculation state instead (office-js#4760: never Done on the web
 * while the workbook holds charts).
 */
export interface FinGuard {
  readonly ref: string;
  calls(value: unknown): number;
}

const GUARD = /^=IF\(\s*(-?\d+(?:\.\d+)?)\s*(>=|<=|<>|>|<|=)\s*((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(\$?[A-Za-z]{1,3}\$?\d{1,7})\s*,/i;

/** `a, b)` -> [a, b]: the two branches at the top level, quoted text and nested calls kept whole. */
function branches(rest: string): [string, string] | null {
  let depth = 0;
  let comma = -1;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i];
    if (ch === '"' || ch === "'") {
      const close = rest.indexOf(ch, i + 1);
      if (close < 0) return null;
      i = close;
    } else if (ch === '(') depth += 1;
    else if (ch === ')') {
      if (depth === 0) return comma >= 0 && i === rest.trimEnd().length - 1 ? [rest.slice(0, comma), rest.slice(comma + 1, i)] : null;
      depth -= 1;
    } else if (ch === ',' && depth === 0) {
      if (comma >= 0) return null;
      comma = i;
    }
  }
  return null;
}

function compare(k: number, op: string, value: number): boolean {
  if (op === '>') return k > value;
  if (op === '<') return k < value;
  if (op === '>=') return k >= value;
  if (op === '<=') return k <= value;
  if (op === '=') return k === value;
  return k !== value;
}

/** The formula's guard, or null for a formula whose evaluations do not depend on a cell's value. */
export function finGuard(formula: string): FinGuard | null {
  const m = GUARD.exec(formula);
  if (!m) return null;
  const parts = branches(formula.slice(m[0].length));
  if (!parts) return null;
  const [whenTrue, whenFalse] = parts.map((p) => finEvaluations(`=${p}`));
  if (whenTrue === whenFalse) return null;
  const k = Number(m[1]);
  return {
    ref: `${m[3] ?? ''}${m[4]}`,
    // A number decides; anything else (text, an error) counts the larger branch: waiting longer, never ending early.
    calls: (value) => (typeof value === 'number' ? (compare(k, m[2], value) ? whenTrue : whenFalse) : Math.max(whenTrue, whenFalse)),
  };
}
