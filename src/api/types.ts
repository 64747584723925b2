// Resource and parameter types of the Company Financial Data API (spec + docs/api-decisions.md).
//
// Readers never validate shapes strictly: the API may add fields and enum values at any time, so an
// unknown field is carried along untouched and an unknown enum value still type-checks (Open<...>).
// Money is integer cents (`*_cents: number`) everywhere; nothing here converts or formats it.

/** A string enum the API may extend: known values autocomplete, unfamiliar ones are still accepted. */
export type Open<T extends string> = T | (string & {});

/** `YYYY-MM-DD`. */
export type DateString = string;
/** Unix timestamp in integer seconds. */
export type UnixSeconds = number;
/** Integer number of cents; positive or negative per the sign rules of the field. */
export type Cents = number;

// ---------------------------------------------------------------------------------------------------
// Envelopes and paging

/** A cursor-paginated list page (/accounts, /cards, /transactions, /journal_entries, /parties/merchants,
 * /rules). `url` omits the query string, so following pages needs the filters re-sent (see paging.ts). */
export interface ListPage<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  next_cursor: string | null;
  data: T[];
}

/** An unpaginated list (/categories, /departments, /integrations): always the full set. */
export interface FullList<T> {
  object: 'list';
  url: string;
  data: T[];
  /** Absent on these endpoints; absent means this is the only page. */
  has_more?: boolean;
}

export interface PageParams {
  /** 1-500; the server default is 100. */
  limit?: number;
  /** A `next_cursor` passed back unchanged. */
  starting_after?: string;
}

/** Parameters of an auto-paging iterator: everything but the cursor, which the iterator owns. */
export type IterateParams<P extends PageParams> = Omit<P, 'starting_after'>;

// ---------------------------------------------------------------------------------------------------
// Transactions

export type TransactionType = Open<'standard' | 'transfer' | 'split'>;
export type TransactionStatus = Open<'approved' | 'pending'>;
export type SourceType = Open<'bank' | 'credit' | 'reimbursement' | 'intercompany_expense'>;

export interface TransactionSource {
  vendor: string;
  type: SourceType | null;
  account_name: string | null;
}

/** Recognition of an amount in equal monthly parts from the month of start_date to that of end_date. */
export interface Spread {
  start_date: DateString;
  end_date: DateString;
}

export interface Transaction {
  id: string;
  object: 'transaction';
  date: DateString;
  accounting_date: DateString | null;
  amount_cents: Cents;
  currency: string;
  merchant: string | null;
  description: string | null;
  categorized: boolean;
  category_id: string | null;
  category_name: string | null;
  department_id: string | null;
  department_name: string | null;
  transaction_type: TransactionType;
  source: TransactionSource;
  status: TransactionStatus;
  spread: Spread | null;
  transfer_id: string | null;
  created: UnixSeconds;
  /** `true` marks a tombstone of a deleted transaction (incremental sync only). */
  deleted?: boolean;
}

/** A deleted transaction as incremental sync reports it: id, object, deleted and the last known fields. */
export type TransactionTombstone = Partial<Transaction> & { id: string; deleted: true };

export interface TransactionListParams extends PageParams {
  status?: TransactionStatus;
  category_id?: string;
  transaction_type?: TransactionType;
  categorized?: boolean;
  /** Case-insensitive text search on the merchant name. */
  merchant?: string;
  source_vendor?: string;
  source_type?: SourceType;
  start_date?: DateString;
  end_date?: DateString;
  /** Unix seconds; switches the list into incremental mode (see sync.ts). */
  updated_after?: UnixSeconds;
}

/** The five PATCH-editable fields; send any non-empty subset. */
export interface TransactionUpdateParams {
  accounting_date?: DateString | null;
  department_id?: string | null;
  spread?: Spread | null;
  category_id?: string | null;
  /** 1-200 characters, or null. */
  merchant?: string | null;
}

/** The nine bulk-update filter fields, combined with AND. */
export interface BulkUpdateFilters {
  account_id?: string;
  card_id?: string;
  category_id?: string;
  department_id?: string;
  /** Exact match. */
  merchant?: string;
  status?: TransactionStatus;
  transaction_type?: TransactionType;
  start_date?: DateString;
  end_date?: DateString;
}

export interface BulkUpdates {
  department_id?: string | null;
  spread?: Spread | null;
  accounting_date?: DateString | null;
  /** Whole months; cannot be sent together with accounting_date. */
  accounting_shift?: number;
  category_id?: string | null;
}

/** Exactly one selector (filters or transaction_ids) plus non-empty updates. */
export type BulkUpdateParams =
  | { filters: BulkUpdateFilters; transaction_ids?: never; updates: BulkUpdates }
  | { transaction_ids: string[]; filters?: never; updates: BulkUpdates };

// ---------------------------------------------------------------------------------------------------
// Bulk-update jobs

export type JobStatus = Open<'queued' | 'processing' | 'success' | 'failed'>;

export interface JobError {
  type: Open<'invalid_request_error' | 'permission_error' | 'api_error'>;
  code: Open<'transaction_limit_exceeded' | 'transaction_update_failed' | 'transaction_conflict' | 'permission_denied' | 'update_failed'>;
  message: string;
  /** Null when the error is about the whole job. */
  transaction_id: string | null;
}

export interface BulkUpdateJob {
  id: string;
  object: 'bulk_update_job';
  status: JobStatus;
  matched_count: number | null;
  updated_count: number;
  created: UnixSeconds;
  errors: ListPage<JobError>;
}

export type JobRetrieveParams = PageParams;

// ---------------------------------------------------------------------------------------------------
// Accounts and cards

export interface Account {
  id: string;
  object: 'account';
  /** Lowercase, normalized for display. */
  vendor: string;
  type: SourceType | null;
  account_name: string | null;
  manual: boolean;
  created: UnixSeconds;
}

export interface AccountCreateParams {
  account_name: string;
  vendor: string;
  type: 'bank' | 'credit';
}

export interface Card {
  id: string;
  object: 'card';
  name: string | null;
  last_four: string | null;
  account_id: string | null;
  type: Open<'physical' | 'virtual'> | null;
  status: Open<'active' | 'inactive'> | null;
  created: UnixSeconds;
}

export interface CardListParams extends PageParams {
  account_id?: string;
}

export type AccountListParams = PageParams;

// ---------------------------------------------------------------------------------------------------
// Journal entries

export interface JournalLine {
  category_id: string;
  department_id: string | null;
  debit_cents: Cents;
  credit_cents: Cents;
  /** Read from one signed amount (debit positive) where the API gives no debit_cents and credit_cents. */
  signed?: true;
  /**
   * The line's fields, where its department could not be read (src/api/journal.ts): department_id is then
   * null for want of a reading, not because the API said so. Figures by department refuse such a line.
   */
  department_unread?: readonly string[];
}

/** As the client reads it (src/api/journal.ts): whatever the API calls these fields. */
export interface JournalEntry {
  id: string;
  object: 'journal_entry';
  date: DateString;
  transaction_id: string | null;
  /** Null where the API's entries have no `kind` (the name docs/api-decisions.md chose; no rule finds another). */
  kind: Open<'transaction' | 'opening' | 'depreciation' | 'accrual' | 'spread'> | null;
  memo: string | null;
  created: UnixSeconds;
  lines: JournalLine[];
  /** The labels the API's entry does not carry under these names (`kind`, `memo`): shown empty. */
  unnamed?: readonly ('kind' | 'memo')[];
}

export interface JournalEntryListParams extends PageParams {
  category_id?: string;
  transaction_id?: string;
  department_id?: string;
  start_date?: DateString;
  end_date?: DateString;
}

// ---------------------------------------------------------------------------------------------------
// Aggregations and merchants

/**
 * A periodic category takes start_date/end_date, a point-in-time one takes date; the day is ignored
 * (monthly granularity). start_month/end_month (YYYY-MM) are deprecated but accepted; never mix the forms.
 */
export interface AggregationTotalParams {
  category_id: string;
  start_date?: DateString;
  end_date?: DateString;
  date?: DateString;
  /** @deprecated use start_date */
  start_month?: string;
  /** @deprecated use end_date */
  end_month?: string;
  /** Exact, case-sensitive merchant or counterparty name. */
  merchant?: string;
}

export interface AggregationTotal {
  object: 'aggregation_total';
  category_id: string;
  total_cents: Cents;
  currency: string;
  start_date: DateString | null;
  end_date: DateString | null;
  start_month: string | null;
  end_month: string | null;
  date: DateString | null;
  month: string | null;
  merchant: string | null;
  refreshed_at: UnixSeconds | null;
}

export interface Merchant {
  object: 'merchant';
  name: string;
}

export interface MerchantListParams extends PageParams {
  category_id: string;
}

// ---------------------------------------------------------------------------------------------------
// Reports

export interface ReportDateParams {
  /** Strict ISO 8601 date or datetime; absent means today (balance sheet). */
  date?: string;
}

export interface ReportPeriodParams {
  start_date?: string;
  end_date?: string;
}

export interface BalanceSheetEntry {
  category_id: string;
  name: string;
  balance_cents: Cents;
  position: number;
  parent_category_id: string | null;
}

export interface BalanceSheetSection {
  total_cents: Cents;
  categories: BalanceSheetEntry[];
}

export interface BalanceSheet {
  object: 'balance_sheet';
  date: DateString;
  currency: string;
  refreshed_at: UnixSeconds | null;
  cash_cents: Cents;
  assets: BalanceSheetSection;
  liabilities: BalanceSheetSection;
  equity: BalanceSheetSection & {
    retained_earnings: {
      beginning_balance_cents: Cents;
      net_income_cents: Cents;
      ending_balance_cents: Cents;
    };
  };
  liabilities_and_equity_cents: Cents;
}

/** An income statement or cash flow line. Parents hold subtotals: sum root entries only. */
export interface ActivityEntry {
  category_id: string;
  name: string;
  amount_cents: Cents;
  position: number;
  parent_category_id: string | null;
}

export interface ActivitySection {
  total_cents: Cents;
  categories: ActivityEntry[];
}

export interface IncomeStatement {
  object: 'income_statement';
  start_date: DateString;
  end_date: DateString;
  currency: string;
  refreshed_at: UnixSeconds | null;
  revenue: ActivitySection;
  expenses: ActivitySection;
  operating_income_cents: Cents;
  non_operating_income: ActivitySection;
  net_income_cents: Cents;
  uncategorized_income?: ActivitySection;
  uncategorized_expenses?: ActivitySection;
  taxes?: ActivitySection;
}

export interface CashFlow {
  object: 'cash_flow';
  start_date: DateString;
  end_date: DateString;
  currency: string;
  refreshed_at: UnixSeconds | null;
  /** Absent where the API's cash flow does not give it (the spec lists only change_in_cash_cents). */
  net_income_cents?: Cents;
  /** Absent where the API does not give them; the engine then takes them from the balance sheets (cashFrom). */
  beginning_cash_cents?: Cents;
  ending_cash_cents?: Cents;
  change_in_cash_cents: Cents;
  /** Includes synthetic `grp_` entries (not categories; unusable with /journal_entries). */
  operating_activities: ActivitySection;
  /** Under these names whatever the API calls them (src/api/reports.ts readCashFlow). */
  investing_activities?: ActivitySection;
  financing_activities?: ActivitySection;
  /** Set by the engine when beginning and ending cash were taken from the balance sheets' cash_cents. */
  cash_from_balance_sheets?: true;
  /** The answer's top-level field names as the API sent them (readCashFlow), for messages naming what was received. */
  received_fields?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------
// Setup: categories, departments, company

export interface Category {
  id: string;
  object: 'category';
  name: string;
  account_type: Open<'asset' | 'liability' | 'equity' | 'revenue' | 'expense' | 'other_income' | 'other_expense' | 'tax'>;
  /** true: totals are cumulative balances (use `date`); false: periodic activity (use a range). */
  point_in_time: boolean;
  tier: number;
  position: number;
  parent_id: string | null;
  created: UnixSeconds;
}

export interface Department {
  id: string;
  object: 'department';
  name: string;
  tier: number;
  parent_id: string | null;
  /** Only assignable leaves can be set on a transaction. */
  assignable: boolean;
}

export interface Company {
  id: string;
  object: 'company';
  name: string;
  legal_name: string;
  entity_type: string;
  federal_ein_last4: string;
  incorporation: { date: DateString | null; state: string | null };
  legal_address: {
    line_1: string | null;
    line_2: string | null;
    city: string | null;
    state: string | null;
    postal_code: string | null;
    country: string | null;
  };
  created: UnixSeconds;
}

// ---------------------------------------------------------------------------------------------------
// Integrations

export interface Integration {
  key: string;
  object: 'integration';
  name: string;
  type: Open<'banking' | 'cap_table'>;
  status: Open<'connected' | 'not_connected'>;
  api_connectable: boolean;
}

export interface IntegrationConnection {
  object: 'integration_connection';
  integration_key: string;
  /** The link a person opens to connect; valid 15 minutes. */
  url: string;
  created: UnixSeconds;
  expires_at: UnixSeconds;
}

// ---------------------------------------------------------------------------------------------------
// Rules

export type RuleTextField = 'merchant' | 'description';
export type RuleCondition =
  | { field: RuleTextField; operator: Open<'equals' | 'contains' | 'starts_with'>; value: string }
  | { field: 'amount_cents'; operator: Open<'equals' | 'greater_than' | 'less_than'>; value: Cents }
  | { field: 'amount_cents'; operator: 'between'; min: Cents; max: Cents }
  | { field: 'account_id' | 'card_id'; operator: 'equals'; value: string }
  // Read side only: conditions the API may add later, or legacy ones stored before.
  | { field: string & {}; operator: string; value?: unknown; min?: unknown; max?: unknown };

export interface RuleActions {
  merchant_name?: string | null;
  category_id?: string | null;
  department_id?: string | null;
  spread?: Spread | null;
}

export interface Rule {
  id: string;
  object: 'rule';
  conditions: RuleCondition[];
  actions: RuleActions;
  created: UnixSeconds;
  updated: UnixSeconds;
}

export interface RuleCreateParams {
  conditions: RuleCondition[];
  /** At least one action; null values are rejected on create. */
  actions: RuleActions;
  /** Also needs Transactions: Manage. */
  apply_to_existing?: boolean;
}

/** Changes future matching only. A null action value removes that action. */
export interface RuleUpdateParams {
  conditions?: RuleCondition[];
  actions?: RuleActions;
}

export type RuleListParams = PageParams;

// ---------------------------------------------------------------------------------------------------
// Team and invitations

export type PermissionArea =
  | 'api_access'
  | 'company'
  | 'team_access'
  | 'accounting_setup'
  | 'integrations'
  | 'reports'
  | 'transactions';
export type PermissionLevel = Open<'none' | 'view' | 'manage'>;
export type Permissions = Record<PermissionArea, PermissionLevel>;
export type AccessTemplate = 'admin' | 'read_only';

export interface TeamMember {
  object: 'team_member';
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  access_template: Open<AccessTemplate> | null;
  permissions: Permissions;
  status: Open<'active' | 'inactive'>;
}

export interface Invitation {
  id: string;
  object: 'invitation';
  email: string;
  first_name: string | null;
  last_name: string | null;
  access_template: Open<AccessTemplate> | null;
  permissions: Permissions;
  status: Open<'pending'>;
  expired: boolean;
  expires_at: UnixSeconds;
  created: UnixSeconds;
}

/** GET /team: both arrays always present. No list envelope. */
export interface TeamDocument {
  members: TeamMember[];
  invitations: Invitation[];
  object?: string;
}

/** Access is either a template or a complete custom permission set, never both. */
export type InvitationAccess =
  | { access_template: AccessTemplate; permissions?: never }
  | { permissions: Permissions; access_template?: never };

export type InvitationCreateParams = {
  email: string;
  first_name?: string;
  last_name?: string;
} & InvitationAccess;

/** Access only; names, email and version are rejected. */
export type InvitationUpdateParams = InvitationAccess;
