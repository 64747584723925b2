// Beginning and ending cash of a cash flow the API gives without them. The spec lists only the cash flow's
// change_in_cash_cents; docs/api-decisions.md chose beginning_cash_cents and ending_cash_cents, and an API
// may give neither. The balance sheet's cash_cents is documented ("same value as the Cash category under
// assets"), so the cash at the start of a period is the balance sheet's the day before it, and the cash
// at its end the balance sheet's at its last day. Taken so, they are checked against the change in cash
// before anything is written: figures that do not agree are refused, not shown.

import { UnreadableAnswer } from '../../api/answerShape';
import type { BalanceSheet, CashFlow, ReportDateParams } from '../../api/types';
import { addDays } from '../dates';
import type { ReadRequest } from './requestCache';

/** True when the API gave the cash flow no beginning and ending cash (the client keeps both or neither). */
export function lacksCash(report: CashFlow): boolean {
  return report.beginning_cash_cents === undefined || report.ending_cash_cents === undefined;
}

/** The two balance sheet requests whose cash a cash flow over [start, end] takes: the day before, and end. */
export function cashRequests(start: string, end: string): [opening: ReadRequest, closing: ReadRequest] {
  const at = (date: string): ReadRequest => {
    const query: ReportDateParams = { date };
    return { path: '/reports/balance_sheet', query: { ...query } };
  };
  return [at(addDays(start, -1)), at(end)];
}

/** The requests of `request` (a cash flow) that pricing must count on an API whose cash flows lack cash. */
export function cashRequestsOf(request: ReadRequest): ReadRequest[] {
  const q = request.query ?? {};
  if (request.path !== '/reports/cash_flow' || typeof q.start_date !== 'string' || typeof q.end_date !== 'string') return [];
  return cashRequests(q.start_date, q.end_date);
}

/** The cash flow with the balance sheets' cash as its beginning and ending cash, or a refusal saying why not. */
export function withCashFrom(report: CashFlow, opening: BalanceSheet, closing: BalanceSheet): CashFlow {
  const begin = opening.cash_cents;
  const end = closing.cash_cents;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
  if (!whole(begin) || !whole(end)) {
    throw new UnreadableAnswer({
      endpoint: '/reports/balance_sheet',
      expected: 'cash_cents',
      found: Object.keys(whole(begin) ? closing : opening),
      detail: `The API's cash flow for ${report.start_date} to ${report.end_date} gives no beginning or ending cash, and its balance sheet has no cash_cents to take them from`,
    });
  }
  if (begin + report.change_in_cash_cents !== end) {
    throw new UnreadableAnswer({
      endpoint: '/reports/cash_flow',
      expected: 'beginning and ending cash',
      found: [],
      detail:
        `The API's cash flow for ${report.start_date} to ${report.end_date} gives no beginning or ending cash, and the balance sheets' cash ` +
        `(${begin} cents on ${opening.date}, ${end} cents on ${closing.date}) does not differ by its change in cash of ${report.change_in_cash_cents} cents`,
    });
  }
  return { ...report, beginning_cash_cents: begin, ending_cash_cents: end, cash_from_balance_sheets: true };
}
