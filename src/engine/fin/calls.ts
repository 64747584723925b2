// A FIN cell's call, as Excel makes it: the function's name and its arguments in the function's order. The
// call alone says what to evaluate, so the custom functions hand over nothing else (no closure of their own):
// Excel calls a recalculation's thousands of cells in one synchronous loop that the add-in cannot slice, and
// what each cell costs there is what the task pane waits for (issue 17). The arguments are read out of the
// call when the evaluation's turn comes (turns.ts), not in that loop.

import type { Evaluation } from './reads';
import * as lists from './lists';
import type { Matrix } from './matrix';
import * as statements from './statements';
import * as values from './values';

/** One FIN function call as a cell made it. */
export interface FinCall {
  /** The function (FIN.<name>), upper case as functions.ts names it. */
  readonly name: string;
  /** Its arguments as Excel gave them, the company (when the function takes one) last. */
  readonly args: readonly unknown[];
  /** The cell's address as Excel gives it ("Sheet1!B2"), where the function asks for it. */
  readonly address?: string;
  /** The company argument as the runtime picks a connection by it (trimmed; none: the default connection). */
  readonly company?: string;
}

/** One attempt of an evaluation of a call (turns.ts): the call's arguments read by position. */
export type CallAttempt = (parts: values.ValueParts, args: readonly unknown[], ev: Evaluation) => unknown;

/** Every FIN function that is an evaluation of the service, by name (FIN.PERIOD reads nothing: service.ts). */
export const CALL_ATTEMPTS: Readonly<Record<string, CallAttempt>> = {
  TOTAL: (parts, a, ev): number => values.total(parts, { category: a[0], start: a[1], end: a[2], merchant: a[3] }, ev),
  PNL: (parts, a, ev): number => values.pnl(parts, { line: a[0], start: a[1], end: a[2] }, ev),
  BALANCE: (parts, a, ev): number => values.balance(parts, { category: a[0], date: a[1] }, ev),
  CASHFLOW: (parts, a, ev): number => values.cashflow(parts, { line: a[0], start: a[1], end: a[2] }, ev),
  INCOME_STATEMENT: (parts, a, ev): Matrix => statements.incomeStatement(parts, { start: a[0], end: a[1], scale: a[2] }, ev),
  BALANCE_SHEET: (parts, a, ev): Matrix => statements.balanceSheet(parts, { date: a[0], scale: a[1] }, ev),
  CASH_FLOW: (parts, a, ev): Matrix => statements.cashFlowStatement(parts, { start: a[0], end: a[1], scale: a[2] }, ev),
  TRANSACTIONS: (parts, a, ev): Promise<Matrix> =>
    lists.transactions(parts, { start: a[0], end: a[1], category: a[2], status: a[3], maxRows: a[4] }, ev),
  CATEGORIES: (parts, _, ev): Matrix => lists.categories(parts, ev),
  DEPARTMENTS: (parts, _, ev): Matrix => lists.departments(parts, ev),
  MERCHANTS: (parts, a, ev): Promise<Matrix> => lists.merchants(parts, { category: a[0] }, ev),
};
