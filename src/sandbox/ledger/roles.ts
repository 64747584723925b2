// Fixed places in a company's chart of accounts that the ledger needs to find by role
// (categories.role). The seed creates exactly one category per role for every company.
export const CATEGORY_ROLES = [
  'cash',                    // asset, point in time, named "Cash"; bank accounts post here; cash_cents on the balance sheet
  'card_liability',          // liability; credit-card accounts post here
  'accounts_receivable',     // asset (working capital)
  'prepaid_expenses',        // asset (working capital); spread transactions park the amount here
  'accumulated_depreciation',// asset with a credit balance (contra asset); cash flow "Non-Cash Expenses"
  'accrued_liabilities',     // liability (working capital)
  'retained_earnings',       // equity; its balance is computed, never posted to
  'opening_equity',          // equity (financing); opening capital
  'depreciation_expense',    // expense
  'uncategorized_income',    // revenue-side, own optional section "uncategorized_income"
  'uncategorized_expense',   // expense-side, own optional section "uncategorized_expenses"
] as const;
export type CategoryRole = (typeof CATEGORY_ROLES)[number];

// categories.cash_flow_class for point-in-time categories (inherited from the nearest ancestor when null):
export const CASH_FLOW_CLASSES = ['cash', 'working_capital', 'non_cash', 'investing', 'financing', 'none'] as const;
export type CashFlowClass = (typeof CASH_FLOW_CLASSES)[number];
