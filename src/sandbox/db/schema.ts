// The sandbox's SQLite schema. One database holds every demo company; every table that holds company
// data carries company_id and every query filters on it, so no request can see another company's rows.
// Money is INTEGER cents everywhere; dates are 'YYYY-MM-DD' TEXT (they sort and compare as strings);
// timestamps are INTEGER Unix seconds.

export const SCHEMA_VERSION = 1;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS companies (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  legal_name TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  federal_ein_last4 TEXT NOT NULL,
  incorporation_date TEXT,
  incorporation_state TEXT,
  address_line_1 TEXT, address_line_2 TEXT, address_city TEXT, address_state TEXT,
  address_postal_code TEXT, address_country TEXT,
  plan TEXT NOT NULL,                       -- formation | startup | growth
  plan_status TEXT NOT NULL,                -- active | trialing | ended
  rbac_enabled INTEGER NOT NULL,            -- role-based access control on (1) or off (0)
  status TEXT NOT NULL,                     -- active | closed
  monthly_cap_override INTEGER,             -- temporary override of the plan's cap
  currency TEXT NOT NULL DEFAULT 'USD',
  fiscal_year_start_month INTEGER NOT NULL DEFAULT 1,
  created INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
);

-- permissions: JSON object area -> level ('none' | 'view' | 'manage'), see src/sandbox/permissions.ts
CREATE TABLE IF NOT EXISTS memberships (
  company_id TEXT NOT NULL REFERENCES companies(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,                        -- admin | read_only | custom
  permissions TEXT NOT NULL,
  status TEXT NOT NULL,                      -- active | removed
  created INTEGER NOT NULL,
  PRIMARY KEY (company_id, user_id)
);

CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  label TEXT,
  user_id TEXT NOT NULL REFERENCES users(id),
  company_id TEXT NOT NULL REFERENCES companies(id),
  revoked INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL
);

-- role: the ledger's fixed places (cash, card_liability, retained_earnings, opening_equity,
--   uncategorized_income, uncategorized_expense, accumulated_depreciation, depreciation_expense, ...)
-- cash_flow_class: for point-in-time categories, where the indirect cash flow puts their change:
--   cash | working_capital | investing | financing | none (retained earnings)
CREATE TABLE IF NOT EXISTS categories (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL,
  account_type TEXT NOT NULL,               -- asset | liability | equity | revenue | expense | other_income | other_expense | tax
  point_in_time INTEGER NOT NULL,
  tier INTEGER NOT NULL,
  position INTEGER NOT NULL,
  parent_id TEXT REFERENCES categories(id),
  selectable INTEGER NOT NULL DEFAULT 1,    -- may be assigned to a transaction
  role TEXT,
  cash_flow_class TEXT,
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS categories_company ON categories(company_id, tier, position, name);

CREATE TABLE IF NOT EXISTS departments (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL,
  tier INTEGER NOT NULL,
  parent_id TEXT REFERENCES departments(id),
  position INTEGER NOT NULL,                -- display order over the whole tree (depth-first)
  assignable INTEGER NOT NULL,
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS departments_company ON departments(company_id, position);

-- seq orders "oldest identity first" and is the keyset for paging.
CREATE TABLE IF NOT EXISTS accounts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id),
  vendor TEXT NOT NULL,                     -- normalized, lowercase
  type TEXT,
  account_name TEXT,
  manual INTEGER NOT NULL DEFAULT 0,
  category_id TEXT REFERENCES categories(id), -- the balance-sheet category it posts to
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS accounts_company ON accounts(company_id, seq);

CREATE TABLE IF NOT EXISTS cards (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id),
  name TEXT,
  last_four TEXT,
  account_id TEXT REFERENCES accounts(id),
  type TEXT,                                -- physical | virtual
  status TEXT,                              -- active | inactive
  provider TEXT,
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cards_company ON cards(company_id, seq);
CREATE INDEX IF NOT EXISTS cards_account ON cards(company_id, account_id, seq);

-- A transaction row is the feed record. accounting_date_override NULL means accounting date = date.
-- department_source: 'rule' | 'manual' | NULL. updated is the Unix second of the last change
-- (incremental sync), update_seq a company-wide monotonic counter breaking ties inside a second.
-- A split's parts live in transaction_splits; transfers pair two rows through transfer_id.
CREATE TABLE IF NOT EXISTS transactions (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  date TEXT NOT NULL,
  accounting_date_override TEXT,
  amount_cents INTEGER NOT NULL,
  currency TEXT NOT NULL,
  merchant TEXT,
  description TEXT,
  category_id TEXT REFERENCES categories(id),
  department_id TEXT REFERENCES departments(id),
  department_source TEXT,
  transaction_type TEXT NOT NULL,           -- standard | transfer | split
  account_id TEXT NOT NULL REFERENCES accounts(id),
  card_id TEXT REFERENCES cards(id),
  source_vendor TEXT NOT NULL,
  source_type TEXT NOT NULL,
  source_account_name TEXT,
  status TEXT NOT NULL,                     -- approved | pending
  spread TEXT,                              -- JSON or NULL
  transfer_id TEXT,
  hidden INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  update_seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS transactions_list ON transactions(company_id, date DESC, id DESC);
-- The incremental sync's keyset, id included: a page seeks to its cursor and reads in order, no sort.
DROP INDEX IF EXISTS transactions_sync;
CREATE INDEX IF NOT EXISTS transactions_sync_keyset ON transactions(company_id, updated, update_seq, id);
CREATE INDEX IF NOT EXISTS transactions_category ON transactions(company_id, category_id);
CREATE INDEX IF NOT EXISTS transactions_account ON transactions(company_id, account_id);

CREATE TABLE IF NOT EXISTS transaction_splits (
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  part INTEGER NOT NULL,
  category_id TEXT REFERENCES categories(id),
  department_id TEXT REFERENCES departments(id),
  amount_cents INTEGER NOT NULL,
  PRIMARY KEY (transaction_id, part)
);

-- Journal entries: one per posted transaction (or per non-transaction event such as depreciation).
-- Rebuilding a transaction's books deletes its entries and inserts new ones with new ids.
CREATE TABLE IF NOT EXISTS journal_entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id),
  transaction_id TEXT,
  date TEXT NOT NULL,
  kind TEXT NOT NULL,                       -- transaction | opening | depreciation | accrual | ...
  memo TEXT,
  created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_entries_company ON journal_entries(company_id, date, seq);
CREATE INDEX IF NOT EXISTS journal_entries_txn ON journal_entries(transaction_id);

CREATE TABLE IF NOT EXISTS journal_lines (
  entry_id TEXT NOT NULL REFERENCES journal_entries(id),
  line INTEGER NOT NULL,
  company_id TEXT NOT NULL,
  date TEXT NOT NULL,                       -- copy of the entry date, for range aggregates
  category_id TEXT NOT NULL REFERENCES categories(id),
  department_id TEXT,
  merchant TEXT,                            -- counterparty as recorded (NULL when none)
  debit_cents INTEGER NOT NULL,
  credit_cents INTEGER NOT NULL,
  PRIMARY KEY (entry_id, line)
);
CREATE INDEX IF NOT EXISTS journal_lines_category ON journal_lines(company_id, category_id, date);
CREATE INDEX IF NOT EXISTS journal_lines_date ON journal_lines(company_id, date);

-- Automation rules. owner: 'user' rules are visible through the API; 'global', 'internal',
-- 'category', 'department' are provider-owned and hidden (404).
CREATE TABLE IF NOT EXISTS rules (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id),
  owner TEXT NOT NULL,
  definition TEXT NOT NULL,                 -- canonical JSON of {conditions, actions}
  created_by TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rules_company ON rules(company_id, seq);

CREATE TABLE IF NOT EXISTS invitations (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  email TEXT NOT NULL,
  first_name TEXT,
  last_name TEXT,
  access_template TEXT,                     -- admin | read_only | NULL when custom
  permissions TEXT,                         -- JSON when custom
  status TEXT NOT NULL,                     -- pending | accepted
  invited_by TEXT,
  accepted_user_id TEXT,
  expires_at INTEGER NOT NULL,
  sent_count INTEGER NOT NULL DEFAULT 1,
  created INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS integrations (
  company_id TEXT NOT NULL REFERENCES companies(id),
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,                     -- connected | not_connected
  api_connectable INTEGER NOT NULL,
  available INTEGER NOT NULL DEFAULT 1,
  position INTEGER NOT NULL,
  PRIMARY KEY (company_id, key)
);

CREATE TABLE IF NOT EXISTS connect_requests (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL,
  integration_key TEXT NOT NULL,
  user_id TEXT NOT NULL,
  url TEXT NOT NULL,
  created INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

-- Bulk-update jobs. body_hash identifies the request for Idempotency-Key replays; targets is the
-- frozen snapshot taken when the job starts (JSON), checked again at commit.
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,                     -- queued | processing | success | failed
  matched_count INTEGER,
  updated_count INTEGER NOT NULL DEFAULT 0,
  targets TEXT,
  created INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  UNIQUE (company_id, user_id, idempotency_key)
);

CREATE TABLE IF NOT EXISTS job_errors (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  transaction_id TEXT,
  PRIMARY KEY (job_id, seq)
);

-- Monthly call counter per company; month is 'YYYY-MM' in Pacific time.
CREATE TABLE IF NOT EXISTS usage (
  company_id TEXT NOT NULL,
  month TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (company_id, month)
);

-- Company-wide counters (update_seq of transactions, id sequences).
CREATE TABLE IF NOT EXISTS counters (
  company_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (company_id, name)
);
`;
