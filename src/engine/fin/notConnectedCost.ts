// What recalculating the formulas that showed "Not connected" may spend, found without spending a call.
// Each distinct call is evaluated in value preview (the cache only), which names the requests it reads up to
// the first one the cache cannot answer; the reader prices those (cached and current: free; missing or
// stale: one call each, a request several formulas share once). What a call would read after that first
// miss cannot be known without the answer: its function's plan (plannedRequests) says what at most, in
// terms that let formulas share (the statement of one period serves every line of it).

import { isMissing, parseMaxRows } from './args';
import { isFinError } from './errors';
import { CASH_FLOW_FIGURES, figureKey } from './lines';
import { MAX_MERCHANTS, MERCHANTS_PAGE_SIZE, TRANSACTIONS_PAGE_SIZE } from './lists';
import type { FinCall } from './finCall';
import type { FinService } from './service';
import type { CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';

/** The same call from any cell: one key, so a formula copied down a column is priced once. */
export function callKey(call: FinCall): string {
  return JSON.stringify([call.name.toUpperCase(), ...call.args.map((a) => (a === undefined ? null : a))]);
}

/** A request as the estimate names it: the real one where it is known without an answer. */
const requestName = (req: ReadRequest): string => JSON.stringify(req);
const CATEGORIES = requestName({ path: '/categories' });
const DEPARTMENTS = requestName({ path: '/departments' });

/** A statement for the period the arguments give (as typed: two spellings of one period count twice). */
const statement = (kind: string, ...args: unknown[]): string => JSON.stringify([kind, ...args.map((a) => (isMissing(a) ? null : a))]);

const pages = (kind: string, call: FinCall, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${kind} ${callKey(call)} page ${i + 1}`);

function transactionPages(maxRows: unknown): number {
  try {
    return Math.ceil(parseMaxRows(maxRows) / TRANSACTIONS_PAGE_SIZE);
  } catch {
    return 0; // a bad max_rows is refused before any call
  }
}

const isFigure = (table: Readonly<Record<string, string>>, line: unknown): boolean =>
  typeof line === 'string' && figureKey(table, line) !== undefined;

/** The requests each function reads on an empty cache, at most and in the order it reads them. */
const PLANS: Readonly<Record<string, (call: FinCall) => string[]>> = {
  // With a department (after the company: calls.ts), the department list and the period's journal walk,
  // counted here as its first page (its pages are known only once read); the statement checks it.
  TOTAL: (call) =>
    isMissing(call.args[5])
      ? [CATEGORIES, `total ${callKey(call)}`]
      : [DEPARTMENTS, CATEGORIES, statement('income_statement', call.args[1], call.args[2]), statement('journal_activity', call.args[1], call.args[2])],
  PNL: ({ args: [, start, end, , department] }) => [
    ...(isMissing(department) ? [] : [DEPARTMENTS]),
    // A line the spec names is read as such only where no category has its name: the chart is read either way.
    CATEGORIES,
    statement('income_statement', start, end),
    ...(isMissing(department) ? [] : [statement('journal_activity', start, end)]),
  ],
  BALANCE: ({ args: [, date] }) => [CATEGORIES, statement('balance_sheet', date)],
  // The cash flow first (a figure or group name is read from it), then the category list for a category.
  CASHFLOW: ({ args: [line, start, end] }) => {
    const named = isFigure(CASH_FLOW_FIGURES, line) || (typeof line === 'string' && line.trim().startsWith('grp_'));
    return [statement('cash_flow', start, end), ...(named ? [] : [CATEGORIES])];
  },
  INCOME_STATEMENT: ({ args: [start, end] }) => [statement('income_statement', start, end)],
  BALANCE_SHEET: ({ args: [date] }) => [statement('balance_sheet', date)],
  CASH_FLOW: ({ args: [start, end] }) => [statement('cash_flow', start, end)],
  CATEGORIES: () => [CATEGORIES],
  DEPARTMENTS: () => [DEPARTMENTS],
  TRANSACTIONS: (call) => [...(isMissing(call.args[2]) ? [] : [CATEGORIES]), ...pages('transactions', call, transactionPages(call.args[4]))],
  MERCHANTS: (call) => [CATEGORIES, ...pages('merchants', call, Math.ceil(MAX_MERCHANTS / MERCHANTS_PAGE_SIZE))],
  // The budget is the workbook's: FIN.BUDGET reads nothing; its variance reads what FIN.PNL of the period does.
  BUDGET: () => [],
  BUDGET_VARIANCE: ({ args: [, , start, end] }) => [CATEGORIES, statement('income_statement', start, end)],
};

export function plannedRequests(call: FinCall): string[] {
  return PLANS[call.name.toUpperCase()]?.(call) ?? [];
}

/** The bound without looking at the cache: every planned request of every formula, each once. */
export function callsAtMost(formulas: readonly FinCall[]): number {
  return new Set(formulas.flatMap((call) => plannedRequests(call))).size;
}

/**
 * Calls that evaluating these formulas again may spend, at most. A formula whose arguments are wrong stops
 * at the same #VALUE! for free; one that stops at a request the cache cannot answer may still read the
 * rest of its plan.
 */
export async function recalculationCost(formulas: readonly FinCall[], service: FinService, reader: CachedReader): Promise<number> {
  const read: ReadRequest[] = [];
  const readNames = new Set<string>();
  const rest = new Set<string>();
  await Promise.all(
    formulas.map(async (call) => {
      const own = new Set<string>();
      const noteRead = (req: ReadRequest): void => {
        read.push(req);
        own.add(requestName(req));
      };
      try {
        await service.evaluate(call, { preview: true, noteRead });
      } catch (error) {
        if (isFinError(error) && error.kind === 'value') return;
        for (const name of plannedRequests(call).slice(own.size)) rest.add(name);
      } finally {
        for (const name of own) readNames.add(name);
      }
    }),
  );
  const unread = [...rest].filter((name) => !readNames.has(name)).length;
  return (await reader.cost(read)).calls + unread;
}
