// What the board pack's FIN formulas read, request by request: the same requests FIN.PNL and FIN.BALANCE make
// for a month, so the cache shares them with the pack's blocks and the cost shown is the cost spent.

import { formatYearMonth, lastDayOf, type YearMonth } from '../dates';
import type { ReadRequest } from '../reader/requestCache';

export const CATEGORIES_READ: ReadRequest = { path: '/categories' };

export function incomeStatementRead(m: YearMonth): ReadRequest {
  return { path: '/reports/income_statement', query: { start_date: `${formatYearMonth(m.year, m.month)}-01`, end_date: lastDayOf(m.year, m.month) } };
}

export function balanceSheetRead(m: YearMonth): ReadRequest {
  return { path: '/reports/balance_sheet', query: { date: lastDayOf(m.year, m.month) } };
}

/** Amounts as the statements show them, without the symbol: the pane does not know the currency before a report. */
export const MONEY_FORMAT = '#,##0.00_);(#,##0.00)';
