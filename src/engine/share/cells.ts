// What a cell's formula and value say about it for a values copy: whether it calls a FIN function, and
// whether its value is Excel's "still computing" or an error that the copy would freeze.

import type { ReadValue } from '../ports/workbook';

/**
 * What a custom function shows until its first answer, and what Range.values reads meanwhile. Calculating
 * again, Excel keeps the previous value on show instead (WorkbookGateway.isCalculating covers that case).
 */
export const BUSY_TEXT = '#BUSY!';

/** Excel's error values, as Range.values reports them (text). */
const ERROR_VALUES = new Set([
  '#NULL!',
  '#DIV/0!',
  '#VALUE!',
  '#REF!',
  '#NAME?',
  '#NUM!',
  '#N/A',
  '#GETTING_DATA',
  '#SPILL!',
  '#CALC!',
  '#FIELD!',
  '#CONNECT!',
  '#BLOCKED!',
  '#UNKNOWN!',
  '#BUSY!',
]);

/** Text literals ("...", with "" inside) are not calls: "FIN.TOTAL" typed in quotes is just text. */
const STRING_LITERAL = /"(?:[^"]|"")*"/g;
/** A FIN function called: the namespace, a dot and a name, not preceded by a name character. */
const FIN_CALL = /(^|[^A-Za-z0-9_.])FIN\.[A-Za-z]/i;

/** Whether a formula calls one of the add-in's FIN functions (anywhere in it, nested or not). */
export function callsFin(formula: string): boolean {
  return FIN_CALL.test(formula.replace(STRING_LITERAL, '""'));
}

/** How many FIN calls a formula makes (what a FinCell counts). */
export function finCallCount(formula: string): number {
  return formula.replace(STRING_LITERAL, '""').match(new RegExp(FIN_CALL.source, 'gi'))?.length ?? 0;
}

export function isBusy(value: ReadValue): boolean {
  return value === BUSY_TEXT;
}

/** An error value other than #BUSY! (which is reported apart: it goes away by waiting). */
export function isErrorValue(value: ReadValue): boolean {
  return typeof value === 'string' && value !== BUSY_TEXT && ERROR_VALUES.has(value);
}
