// The report shapes the renderer reads, declared structurally so rendering does not wait on (or break
// with) the API client's own types: any object with these fields renders, and extra fields are ignored.
// Everything is readonly so both mutable and frozen API objects are accepted.

export type Cents = number;

/** One statement line. Income statement and cash flow lines carry amount_cents, balance sheet lines balance_cents. */
export interface ReportLine {
  readonly category_id: string;
  readonly name: string;
  readonly position: number;
  readonly parent_category_id: string | null;
  readonly amount_cents?: Cents;
  readonly balance_cents?: Cents;
}

/** total_cents equals the sum of the root-level lines (parents already hold their children's subtotal). */
export interface ReportSection {
  readonly total_cents: Cents;
  readonly categories: readonly ReportLine[];
}

export interface IncomeStatementReport {
  readonly object: 'income_statement';
  readonly start_date: string;
  readonly end_date: string;
  readonly currency: string;
  readonly refreshed_at: number | null;
  readonly revenue: ReportSection;
  readonly expenses: ReportSection;
  readonly operating_income_cents: Cents;
  readonly non_operating_income: ReportSection;
  readonly net_income_cents: Cents;
  /** Optional sections: present only when the period has such activity. */
  readonly uncategorized_income?: ReportSection | null;
  readonly uncategorized_expenses?: ReportSection | null;
  readonly taxes?: ReportSection | null;
}

export interface BalanceSheetReport {
  readonly object: 'balance_sheet';
  readonly date: string;
  readonly currency: string;
  readonly refreshed_at: number | null;
  readonly cash_cents?: Cents;
  readonly assets: ReportSection;
  readonly liabilities: ReportSection;
  readonly equity: ReportSection & {
    readonly retained_earnings?: {
      readonly beginning_balance_cents: Cents;
      readonly net_income_cents: Cents;
      readonly ending_balance_cents: Cents;
    };
  };
  readonly liabilities_and_equity_cents: Cents;
}

/** The spec leaves most of the cash flow open: the client reads it into these names (src/api/reports.ts). */
export interface CashFlowReport {
  readonly object: 'cash_flow';
  readonly start_date: string;
  readonly end_date: string;
  readonly currency: string;
  readonly refreshed_at: number | null;
  readonly net_income_cents?: Cents;
  readonly beginning_cash_cents?: Cents | null;
  readonly ending_cash_cents?: Cents | null;
  readonly change_in_cash_cents: Cents;
  readonly operating_activities: ReportSection;
  readonly investing_activities?: ReportSection | null;
  readonly financing_activities?: ReportSection | null;
  /** Beginning and ending cash were taken from the balance sheets (engine/reader/cashFlowCash.ts). */
  readonly cash_from_balance_sheets?: true;
}

export type StatementReport = IncomeStatementReport | BalanceSheetReport | CashFlowReport;
export type StatementKind = StatementReport['object'];
