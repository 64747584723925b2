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
