// What each FIN function evaluates, by its name: the service looks a cell's call (finCall.ts) up here, and
// formulaCalls.ts takes the names of the functions that read.

import * as budgets from '../budgets/fin';
import type { Evaluation } from './reads';
import * as lists from './lists';
import type { Matrix } from './matrix';
import * as statements from './statements';
import * as values from './values';

/** One attempt of an evaluation of a call (turns.ts): the call's arguments read by position. */
export type CallAttempt = (parts: values.ValueParts, args: readonly unknown[], ev: Evaluation) => unknown;

/** Every FIN function that is an evaluation of the service, by name (FIN.PERIOD reads nothing: service.ts). */
export const CALL_ATTEMPTS: Readonly<Record<string, CallAttempt>> = {
  // The department comes after the company: formulas written before it existed keep their meaning.
  TOTAL: (parts, a, ev): number => values.total(parts, { category: a[0], start: a[1], end: a[2], merchant: a[3], department: a[5] }, ev),
  PNL: (parts, a, ev): number => values.pnl(parts, { line: a[0], start: a[1], end: a[2], department: a[4] }, ev),
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
  // A budget kept in the workbook (engine/budgets): the budget side reads nothing of the API.
  BUDGET: (parts, a): number => budgets.budget(parts, { budget: a[0], line: a[1], start: a[2], end: a[3] }),
  BUDGET_VARIANCE: (parts, a, ev): number => budgets.budgetVariance(parts, { budget: a[0], line: a[1], start: a[2], end: a[3] }, ev),
};
