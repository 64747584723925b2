import type { Db } from '../db/open';
import { effectiveDate, parseSpread } from '../ledger/posting';

// The transaction as stored, joined with the names it shows, and its wire object. Every read of a
// transaction (list, retrieve, update, sync) goes through TXN_SELECT so the derived fields agree everywhere.

export interface TxnRow {
  id: string;
  company_id: string;
  date: string;
  accounting_date_override: string | null;
  amount_cents: number;
  currency: string;
  merchant: string | null;
  description: string | null;
  category_id: string | null;
  category_name: string | null;
  department_id: string | null;
  department_name: string | null;
  department_source: string | null;
  transaction_type: string;
  account_id: string;
  card_id: string | null;
  source_vendor: string;
  source_type: string;
  source_account_name: string | null;
  status: string;
  spread: string | null;
  transfer_id: string | null;
  hidden: number;
  deleted: number;
  created: number;
  updated: number;
  update_seq: number;
  categorized: number;
}

/** A split is categorized when every part is; any other transaction when it has a category. */
export const CATEGORIZED_SQL = `(CASE WHEN t.transaction_type = 'split'
  THEN NOT EXISTS (SELECT 1 FROM transaction_splits s WHERE s.transaction_id = t.id AND s.category_id IS NULL)
  ELSE t.category_id IS NOT NULL END)`;

export const TXN_SELECT = `SELECT t.*, c.name AS category_name, d.name AS department_name, ${CATEGORIZED_SQL} AS categorized
  FROM transactions t
  LEFT JOIN categories c ON c.id = t.category_id AND c.company_id = t.company_id
  LEFT JOIN departments d ON d.id = t.department_id AND d.company_id = t.company_id`;

export type Spread = NonNullable<ReturnType<typeof parseSpread>>;

export function toTransaction(row: TxnRow) {
  return {
    id: row.id,
    object: 'transaction' as const,
    date: row.date,
    accounting_date: effectiveDate(row),
    amount_cents: row.amount_cents,
    currency: row.currency,
    merchant: row.merchant,
    description: row.description,
    categorized: row.categorized === 1,
    category_id: row.category_id,
    category_name: row.category_name,
    department_id: row.department_id,
    department_name: row.department_name,
    transaction_type: row.transaction_type,
    source: { vendor: row.source_vendor, type: row.source_type, account_name: row.source_account_name },
    status: row.status,
    spread: parseSpread(row.spread),
    transfer_id: row.transfer_id,
    created: row.created,
    updated: row.updated,
    deleted: row.deleted === 1,
  };
}

/** A transaction the caller may see by id: of its company, neither hidden nor deleted. */
export function findVisibleTransaction(db: Db, companyId: string, id: string): TxnRow | undefined {
  return db
    .prepare(`${TXN_SELECT} WHERE t.id = ? AND t.company_id = ? AND t.hidden = 0 AND t.deleted = 0`)
    .get(id, companyId) as TxnRow | undefined;
}
