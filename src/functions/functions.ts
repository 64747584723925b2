// Custom functions (namespace FIN, set in manifest.xml). Each function is a JSDoc-tagged top-level function:
// custom-functions-metadata-plugin reads the tags to write functions.json and appends the
// CustomFunctions.associate(...) calls to this file at build time. Keep them thin: arguments -> engine ->
// cells or errors (docs/architecture.md). Everything else (dates, names, the cache, the call budget, the
// monthly cap, cents -> units) is src/engine/fin's FinService, reached through the shared runtime.
//
// Every function but FIN.VERSION takes an optional argument naming the connection (its short name or the
// company id), last but for FIN.TOTAL and FIN.PNL, whose department comes after it (so formulas written
// before departments keep their meaning); omitted, the default connection is read.
//
// Every function settles: whatever goes wrong becomes a CustomFunctions.Error (#VALUE! for a wrong
// argument, #N/A for data that is not available), and a time limit stops anything that would leave
// #BUSY! behind.

/* eslint-disable @typescript-eslint/no-explicit-any -- custom-functions-metadata maps keyword types only, so a
   spilled array of text, numbers and booleans must be declared any[][] (it becomes "dimensionality: matrix"). */
import { FinError, isFinError, type EvalContext, type FinCall } from '../engine/fin';
import { evaluateFin, onDataChange, refreshedText } from '../runtime';
import { isValuePreview } from './valuePreview';

/** Replaced by webpack's DefinePlugin with package.json's version; undefined when run outside the bundle. */
declare const __ADDIN_VERSION__: string | undefined;

/** A FinError (or anything else thrown) as the error a cell shows. */
export function toCellError(error: unknown): CustomFunctions.Error {
  const fin = isFinError(error)
    ? error
    : new FinError('na', `Unexpected error: ${error instanceof Error ? error.message : String(error)}`, 'internal');
  const code = fin.kind === 'value' ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, fin.message);
}

/** Every cell evaluation fails with the error a cell shows (made from the FinError where it settles). */
const CELL: EvalContext = { preview: false, failure: toCellError };
const PREVIEW: EvalContext = { preview: true, failure: toCellError };

/**
 * Runs one evaluation through the runtime (which keeps a call that finds no connection, to recalculate it
 * once connected): preview flag, errors as cell errors. The service bounds the evaluation in time
 * (turns.ts) and the runtime the wait for the connection, so no cell stays at #BUSY!. The call is all the
 * service needs (engine/fin/calls.ts): the function's name, its arguments (the company last), and the cell's
 * address (@requiresAddress) so the runtime notes which requests each cell reads -- a refresh of the selection
 * or the sheet knows its cost (engine/fin/cellReads.ts). Excel calls a recalculation's cells in one synchronous
 * loop the add-in cannot slice: each cell makes this one object there, and its turn comes later.
 */
function evaluate<T>(invocation: CustomFunctions.Invocation | undefined, name: string, args: unknown[], company: unknown = args[args.length - 1]): Promise<T> {
  const call: FinCall = { name, args, address: invocation?.address, company: connectionArg(company) };
  return evaluateFin<T>(call, isValuePreview(invocation) ? PREVIEW : CELL);
}

/** The company argument as the runtime takes it: Excel passes null for an omitted one, a number as typed. */
function connectionArg(company: unknown): string | undefined {
  if (company === null || company === undefined) return undefined;
  const text = String(company).trim();
  return text === '' ? undefined : text;
}

/**
 * Returns the version of the Financial Reporting add-in, for example "0.1.0".
 * @customfunction VERSION
 * @returns The add-in version.
 */
export function version(): string {
  return typeof __ADDIN_VERSION__ === 'string' ? __ADDIN_VERSION__ : 'dev';
}

/**
 * Total of a category and its subcategories, in currency units. Income and expense categories add up
 * whole months from start to end; balance categories (such as Cash) are read at the end of the month of start.
 * @customfunction TOTAL
 * @requiresAddress
 * @param category Category name, path ("Operating Expenses > Rent") or id (cat_...).
 * @param start A date, a month ("2026-07"), a quarter ("2026-Q3"), "FY2026" or "YTD".
 * @param [end] Last month (default: the end of start's period). Leave empty for balance categories.
 * @param [merchant] Only this merchant (exact, case-sensitive name).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param [department] Only this department and those under it: a name, path ("Go-to-Market > Sales") or id (dept_...).
 * @param invocation Invocation of the function.
 * @returns The total in currency units.
 */
export function total(
  category: string,
  start: number | string,
  end?: number | string,
  merchant?: string,
  company?: string,
  department?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<number> {
  return evaluate(invocation, 'TOTAL', [category, start, end, merchant, company, department], company);
}

/**
 * One line of the income statement for a period, in currency units: a category, "Net Income" or "Operating Income".
 * @customfunction PNL
 * @requiresAddress
 * @param category Category name, path or id, or "Net Income" / "Operating Income".
 * @param start A date or a period ("2026-07", "2026-Q3", "FY2026", "YTD").
 * @param [end] The last day or period (default: the end of start's period).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param [department] Only this department and those under it: a name, path ("Go-to-Market > Sales") or id (dept_...).
 * @param invocation Invocation of the function.
 * @returns The line's amount in currency units.
 */
export function pnl(
  category: string,
  start: number | string,
  end?: number | string,
  company?: string,
  department?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<number> {
  return evaluate(invocation, 'PNL', [category, start, end, company, department], company);
}

/**
 * One line of the balance sheet at a date, in currency units.
 * @customfunction BALANCE
 * @requiresAddress
 * @param category Category name, path or id (an asset, liability or equity category).
 * @param date A date, or a period whose last day is meant ("2026-Q3" is 2026-09-30).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The balance in currency units.
 */
export function balance(category: string, date: number | string, company?: string, invocation?: CustomFunctions.Invocation): Promise<number> {
  return evaluate(invocation, 'BALANCE', [category, date, company]);
}

/**
 * One line of the cash flow statement for a period, in currency units.
 * @customfunction CASHFLOW
 * @requiresAddress
 * @param line A balance-sheet category, a group ("Changes in Working Capital", "Non-Cash Expenses"), "Net Income" or "Change in Cash".
 * @param start A date or a period ("2026-07", "2026-Q3", "FY2026", "YTD").
 * @param [end] The last day or period (default: the end of start's period).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The line's amount in currency units.
 */
export function cashFlowLine(
  line: string,
  start: number | string,
  end?: number | string,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<number> {
  return evaluate(invocation, 'CASHFLOW', [line, start, end, company]);
}

/**
 * The income statement for a period, spilled: names and amounts.
 * @customfunction INCOME_STATEMENT
 * @requiresAddress
 * @param start A date or a period ("2026-07", "2026-Q3", "FY2026", "YTD").
 * @param [end] The last day or period (default: the end of start's period).
 * @param [scale] "units" (default), "thousands" or "millions" (or 1, 1000, 1000000).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The statement as rows.
 */
export function incomeStatement(
  start: number | string,
  end?: number | string,
  scale?: number | string,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<any[][]> {
  return evaluate(invocation, 'INCOME_STATEMENT', [start, end, scale, company]);
}

/**
 * The balance sheet at a date, spilled: names and balances.
 * @customfunction BALANCE_SHEET
 * @requiresAddress
 * @param date A date, or a period whose last day is meant.
 * @param [scale] "units" (default), "thousands" or "millions" (or 1, 1000, 1000000).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The statement as rows.
 */
export function balanceSheet(date: number | string, scale?: number | string, company?: string, invocation?: CustomFunctions.Invocation): Promise<any[][]> {
  return evaluate(invocation, 'BALANCE_SHEET', [date, scale, company]);
}

/**
 * The cash flow statement for a period, spilled: names and amounts.
 * @customfunction CASH_FLOW
 * @requiresAddress
 * @param start A date or a period ("2026-07", "2026-Q3", "FY2026", "YTD").
 * @param [end] The last day or period (default: the end of start's period).
 * @param [scale] "units" (default), "thousands" or "millions" (or 1, 1000, 1000000).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The statement as rows.
 */
export function cashFlowStatement(
  start: number | string,
  end?: number | string,
  scale?: number | string,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<any[][]> {
  return evaluate(invocation, 'CASH_FLOW', [start, end, scale, company]);
}

/**
 * Transactions dated from start to end (newest first), spilled with a header row.
 * @customfunction TRANSACTIONS
 * @requiresAddress
 * @param start First day or period.
 * @param [end] Last day or period (default: the end of start's period).
 * @param [category] Only this category (exactly this one, not its subcategories).
 * @param [status] "approved" or "pending" (default: both).
 * @param [max_rows] At most this many rows (default 1000, at most 10000).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns Date, accounting date, amount, currency, merchant, description, category, department, status, id.
 */
export function transactions(
  start: number | string,
  end?: number | string,
  category?: string,
  status?: string,
  max_rows?: number,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<any[][]> {
  return evaluate(invocation, 'TRANSACTIONS', [start, end, category, status, max_rows, company]);
}

/**
 * Every category with its full path, id, account type and whether it is a balance (point in time).
 * @customfunction CATEGORIES
 * @requiresAddress
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns One row per category, with a header row.
 */
export function categories(company?: string, invocation?: CustomFunctions.Invocation): Promise<any[][]> {
  return evaluate(invocation, 'CATEGORIES', [company]);
}

/**
 * Every department with its full path, id and whether transactions can be assigned to it.
 * @customfunction DEPARTMENTS
 * @requiresAddress
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns One row per department, with a header row.
 */
export function departments(company?: string, invocation?: CustomFunctions.Invocation): Promise<any[][]> {
  return evaluate(invocation, 'DEPARTMENTS', [company]);
}

/**
 * Merchant names recorded for a category and its subcategories, over all months.
 * @customfunction MERCHANTS
 * @requiresAddress
 * @param category Category name, path or id.
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns One merchant per row, with a header row.
 */
export function merchants(category: string, company?: string, invocation?: CustomFunctions.Invocation): Promise<any[][]> {
  return evaluate(invocation, 'MERCHANTS', [category, company]);
}

/**
 * One line of a budget kept in the workbook over a period, in units as typed there. Reads only the budget: spends no call.
 * @customfunction BUDGET
 * @requiresAddress
 * @param budget The budget: the name it was kept under (Reports tab), or its cells, months across the top.
 * @param category The budget line's name or path, as in the budget's first column; a parent sums the lines typed under it.
 * @param start A month or a period of whole months ("2026-07", "2026-Q3", "FY2026", "2026-07 YTD", FIN_PERIOD).
 * @param [end] The last month (default: the end of start's period).
 * @param [company] The company whose fiscal year and today the period is read by (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The budget in currency units, in the budget's own signs.
 */
export function budget(
  budget: any[][],
  category: string,
  start: number | string,
  end?: number | string,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<number> {
  return evaluate(invocation, 'BUDGET', [budget, category, start, end, company]);
}

/**
 * Actual minus budget for an income-statement line over a period, favourable positive, in units.
 * @customfunction BUDGET_VARIANCE
 * @requiresAddress
 * @param budget The budget: the name it was kept under (Reports tab), or its cells, months across the top.
 * @param category Category name, path or id, or "Net Income" / "Operating Income".
 * @param start A month or a period of whole months ("2026-07", "2026-Q3", "FY2026", "2026-07 YTD", FIN_PERIOD).
 * @param [end] The last month (default: the end of start's period).
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Invocation of the function.
 * @returns The variance in currency units: positive when better than budget.
 */
export function budgetVariance(
  budget: any[][],
  category: string,
  start: number | string,
  end?: number | string,
  company?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<number> {
  return evaluate(invocation, 'BUDGET_VARIANCE', [budget, category, start, end, company]);
}

/**
 * A period keyed on a month, as text every FIN function takes: the month, quarter, fiscal year, year to date or
 * trailing twelve months of base, shifted by offset. Spends no call.
 * @customfunction PERIOD
 * @param base A month ("2026-10", or the reporting period FIN_PERIOD), a date, or a period (its last month).
 * @param [offset] Steps of the kind to move, -1 for the one before: months (for a month, a YTD, a TTM), quarters or fiscal years.
 * @param [kind] "month" (default), "quarter", "fy", "ytd" or "ttm".
 * @param invocation Invocation of the function.
 * @returns Period text such as "2026-09", "2026-Q4", "FY2027", "2026-10 YTD" or "2026-10 TTM".
 */
export function period(base: number | string, offset?: number | string, kind?: string, invocation?: CustomFunctions.Invocation): Promise<string> {
  // Through the runtime for the connection's fiscal year, but no evaluation Refresh all counts: it reads nothing.
  return evaluateFin({ name: 'PERIOD', args: [base, offset, kind] }, isValuePreview(invocation) ? PREVIEW : CELL);
}

/**
 * When the data the FIN formulas show was fetched from the API, such as "2026-11-21 14:03 UTC". Spends no call.
 * @customfunction REFRESHED
 * @param [company] The company: a connection's short name or company id (default: the default connection).
 * @param invocation Streaming invocation: the cell follows refreshes.
 */
export function refreshed(company: string | null, invocation: CustomFunctions.StreamingInvocation<string>): void {
  let closed = false;
  let latest = 0;
  const push = (): void => {
    const seq = ++latest;
    refreshedText(connectionArg(company)).then(
      (text) => {
        if (!closed && seq === latest) invocation.setResult(text);
      },
      (error: unknown) => {
        if (!closed && seq === latest) invocation.setResult(toCellError(error));
      },
    );
  };
  const unsubscribe = onDataChange(push);
  invocation.onCanceled = () => {
    closed = true;
    unsubscribe();
  };
  push();
}
