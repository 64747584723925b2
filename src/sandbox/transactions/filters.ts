import type { Db } from '../db/open';
import { invalidDateRange, invalidRequest } from '../http/errors';
import { optBool, optEnum, optFilterDate, optString } from '../http/params';
import { CATEGORIZED_SQL } from './wire';

type Query = Record<string, string | string[] | undefined>;

export const STATUSES = ['approved', 'pending'] as const;
export const TRANSACTION_TYPES = ['standard', 'transfer', 'split'] as const;
const SOURCE_TYPES = ['bank', 'credit', 'reimbursement'] as const;

/** SQL conditions (on alias t) and their arguments. */
export interface Where {
  sql: string[];
  args: unknown[];
}

function nonBlank(q: Query, name: string): string | undefined {
  const v = optString(q, name);
  if (v !== undefined && v.trim() === '') throw invalidRequest(`${name} must not be blank.`, name);
  return v;
}

/**
 * The filters of GET /transactions, validated. An unknown or foreign category is an invalid filter (400),
 * like any other value the company does not have, so a typo never reads as "no transactions".
 */
export function listFilters(db: Db, companyId: string, q: Query): Where {
  const w: Where = { sql: [], args: [] };
  const add = (sql: string, ...args: unknown[]) => {
    w.sql.push(sql);
    w.args.push(...args);
  };

  const status = optEnum(q, 'status', STATUSES);
  if (status) add('t.status = ?', status);

  const categoryId = nonBlank(q, 'category_id');
  if (categoryId !== undefined) {
    const known = /^cat_[A-Za-z0-9]+$/.test(categoryId) && db.prepare('SELECT 1 FROM categories WHERE id = ? AND company_id = ?').get(categoryId, companyId);
    if (!known) throw invalidRequest(`No such category: '${categoryId}'.`, 'category_id');
    add('t.category_id = ?', categoryId);
  }

  const type = optEnum(q, 'transaction_type', TRANSACTION_TYPES);
  if (type) add('t.transaction_type = ?', type);

  const categorized = optBool(q, 'categorized');
  if (categorized !== undefined) add(`${CATEGORIZED_SQL} = ?`, categorized ? 1 : 0);

  const merchant = nonBlank(q, 'merchant');
  if (merchant !== undefined) add('instr(lower(t.merchant), lower(?)) > 0', merchant);

  const vendor = nonBlank(q, 'source_vendor');
  if (vendor !== undefined) add('lower(t.source_vendor) = lower(?)', vendor);

  const sourceType = optEnum(q, 'source_type', SOURCE_TYPES, true);
  if (sourceType) add('lower(t.source_type) = ?', sourceType);

  const start = optFilterDate(q, 'start_date');
  const end = optFilterDate(q, 'end_date');
  if (start && end && start > end) throw invalidDateRange();
  if (start) add('t.date >= ?', start);
  if (end) add('t.date <= ?', end);
  return w;
}

export const MAX_UPDATED_AFTER = 253402300799;

/** updated_after: an integer from 0 to 253402300799 (seconds, so milliseconds are out of range). */
export function optUpdatedAfter(q: Query): number | undefined {
  const v = optString(q, 'updated_after');
  if (v === undefined) return undefined;
  const n = /^\d{1,12}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n <= MAX_UPDATED_AFTER)) {
    throw invalidRequest(`updated_after must be an integer number of Unix seconds from 0 to ${MAX_UPDATED_AFTER}.`, 'updated_after');
  }
  return n;
}
