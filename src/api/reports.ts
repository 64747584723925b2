import { checkText, REPORT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { BalanceSheet, CashFlow, IncomeStatement, ReportDateParams, ReportPeriodParams } from './types';

// The three statements. Each call returns the full statement for one date or period; there is no
// section filter, so a sheet showing several periods costs one call per period.

export function reportsApi(transport: Transport) {
  return {
    /** GET /reports/balance_sheet (default date: today in the company's zone). */
    balanceSheet: async (params: ReportDateParams = {}, opts?: CallOptions): Promise<BalanceSheet> =>
      checkText((await transport.request<BalanceSheet>({ method: 'GET', path: '/reports/balance_sheet', query: { ...params }, ...callOptions(opts) })).body, REPORT_TEXT, 'GET', '/reports/balance_sheet'),

    /** GET /reports/income_statement (default: current quarter start to today). */
    incomeStatement: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<IncomeStatement> =>
      checkText(
        (await transport.request<IncomeStatement>({ method: 'GET', path: '/reports/income_statement', query: { ...params }, ...callOptions(opts) })).body,
        REPORT_TEXT,
        'GET',
        '/reports/income_statement',
      ),

    /** GET /reports/cash_flow. */
    cashFlow: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<CashFlow> =>
      checkText((await transport.request<CashFlow>({ method: 'GET', path: '/reports/cash_flow', query: { ...params }, ...callOptions(opts) })).body, REPORT_TEXT, 'GET', '/reports/cash_flow'),
  };
}

export type ReportsApi = ReturnType<typeof reportsApi>;
