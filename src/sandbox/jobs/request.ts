import type { Db } from '../db/open';
import { ApiError, invalidRequest, resourceMissing } from '../http/errors';
import { isPlainObject, rejectUnknownKeys } from '../http/body';
import { STATUSES, TRANSACTION_TYPES, type Where } from '../transactions/filters';
import { quote, readDate, readEdit, readShift, resolveReferences, type Edit } from '../transactions/edits';

// The body of POST /transactions/bulk/update. parseBulkBody is pure (type and shape, 400) so the worker
// can read a stored body again; checkReferences is the submission-time lookup of the ids it names.

export const MAX_TARGETS = 5000;
export const FILTER_FIELDS = [
  'account_id',
  'card_id',
  'category_id',
  'department_id',
  'merchant',
  'status',
  'transaction_type',
  'start_date',
  'end_date',
] as const;
const UPDATE_FIELDS = ['department_id', 'spread', 'accounting_date', 'accounting_shift', 'category_id'] as const;
const TXN_ID = /^txn_[A-Za-z0-9]+$/;

export interface BulkFilters {
  account_id?: string;
  card_id?: string | null;
  category_id?: string | null;
  department_id?: string | null;
  merchant?: string | null;
  status?: string;
  transaction_type?: string;
  start_date?: string;
  end_date?: string;
}

export type Selector = { kind: 'ids'; ids: string[] } | { kind: 'filters'; filters: BulkFilters };

export interface BulkRequest {
  selector: Selector;
  edit: Edit;
}

export function parseBulkBody(body: Record<string, unknown>): BulkRequest {
  rejectUnknownKeys(body, ['filters', 'transaction_ids', 'updates']);
  const hasFilters = body.filters !== undefined;
  const hasIds = body.transaction_ids !== undefined;
  if (hasFilters && hasIds) throw invalidRequest('Send exactly one selector: filters or transaction_ids, not both.', 'transaction_ids');
  if (!hasFilters && !hasIds) {
    throw new ApiError(400, 'invalid_request_error', 'parameter_missing', 'Send exactly one selector: filters or transaction_ids.', 'filters');
  }
  const selector: Selector = hasIds ? { kind: 'ids', ids: readIds(body.transaction_ids) } : { kind: 'filters', filters: readFilters(body.filters) };
  return { selector, edit: readUpdates(body.updates) };
}

function readIds(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_TARGETS) {
    throw invalidRequest(`transaction_ids must be an array of 1-${MAX_TARGETS} transaction ids.`, 'transaction_ids');
  }
  const seen = new Set<string>();
  v.forEach((id, i) => {
    if (typeof id !== 'string' || !TXN_ID.test(id)) throw invalidRequest(`transaction_ids[${i}] is not a transaction id (txn_...).`, `transaction_ids[${i}]`);
    if (seen.has(id)) throw invalidRequest(`transaction_ids[${i}] repeats ${id}; ids must be unique.`, `transaction_ids[${i}]`);
    seen.add(id);
  });
  return v as string[];
}

function readFilters(v: unknown): BulkFilters {
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    throw invalidRequest(`filters must be a non-empty object of up to nine fields: ${FILTER_FIELDS.join(', ')}.`, 'filters');
  }
  for (const k of Object.keys(v)) {
    if (k === 'source_vendor' || k === 'source_type') throw invalidRequest(`filters.${k} is not accepted in a bulk update.`, `filters.${k}`);
  }
  rejectUnknownKeys(v, FILTER_FIELDS, 'filters.');
  const f: BulkFilters = {};
  const param = (k: string) => `filters.${k}`;
  // An account or card id of any form is looked up at submission (unknown: 404); category and
  // department filters are not, so their prefix is checked here.
  const readId = (k: 'account_id' | 'card_id' | 'category_id' | 'department_id', nullable: boolean, prefix?: string) => {
    const x = v[k];
    if (x === undefined) return;
    if (x === null && nullable) {
      f[k] = null as never;
      return;
    }
    if (typeof x !== 'string' || x.trim() === '' || (prefix !== undefined && !x.startsWith(prefix))) {
      throw invalidRequest(`${param(k)} must be ${prefix ? `a ${prefix} id` : 'an id'}${nullable ? ' or null' : ''}.`, param(k));
    }
    f[k] = x;
  };
  readId('account_id', false);
  readId('card_id', true);
  readId('category_id', true, 'cat_');
  readId('department_id', true, 'dept_');
  if (v.merchant !== undefined) {
    if (v.merchant !== null && (typeof v.merchant !== 'string' || v.merchant === '' || v.merchant.length > 200)) {
      throw invalidRequest('filters.merchant must be null or a string of 1-200 characters (exact match).', 'filters.merchant');
    }
    f.merchant = v.merchant as string | null;
  }
  const oneOf = (k: 'status' | 'transaction_type', allowed: readonly string[]) => {
    if (v[k] === undefined) return;
    if (typeof v[k] !== 'string' || !allowed.includes(v[k] as string)) throw invalidRequest(`${param(k)} must be one of: ${allowed.join(', ')}.`, param(k));
    f[k] = v[k] as string;
  };
  oneOf('status', STATUSES);
  oneOf('transaction_type', TRANSACTION_TYPES);
  for (const k of ['start_date', 'end_date'] as const) {
    if (v[k] !== undefined) f[k] = readDate(v[k], param(k));
  }
  if (f.start_date && f.end_date && f.start_date > f.end_date) {
    throw invalidRequest('filters.start_date must be on or before filters.end_date.', 'filters.start_date');
  }
  return f;
}

function readUpdates(v: unknown): Edit {
  if (v === undefined) throw new ApiError(400, 'invalid_request_error', 'parameter_missing', 'updates is required.', 'updates');
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    throw invalidRequest(`updates must be a non-empty object of: ${UPDATE_FIELDS.join(', ')}.`, 'updates');
  }
  rejectUnknownKeys(v, UPDATE_FIELDS, 'updates.');
  const edit = readEdit(v, 'updates.');
  if (v.accounting_shift !== undefined) {
    if (v.accounting_date !== undefined) {
      throw invalidRequest('updates.accounting_shift cannot be sent together with updates.accounting_date.', 'updates.accounting_shift');
    }
    edit.accounting_shift = readShift(v.accounting_shift, 'updates.accounting_shift');
  }
  return edit;
}

/**
 * Submission-time lookups: the account and card of the filters (404 naming the field; a card not on the
 * given account is 400 card_id) and the department and category the updates assign (404).
 */
export function checkReferences(db: Db, companyId: string, req: BulkRequest): void {
  resolveReferences(db, companyId, req.edit, 'updates.');
  if (req.selector.kind !== 'filters') return;
  const { account_id: accountId, card_id: cardId } = req.selector.filters;
  if (accountId !== undefined && !db.prepare('SELECT 1 FROM accounts WHERE id = ? AND company_id = ?').get(accountId, companyId)) {
    throw resourceMissing(`No such account: '${quote(accountId)}'.`, 'account_id');
  }
  if (typeof cardId !== 'string') return;
  const card = db.prepare('SELECT account_id FROM cards WHERE id = ? AND company_id = ?').get(cardId, companyId) as { account_id: string | null } | undefined;
  if (!card) throw resourceMissing(`No such card: '${quote(cardId)}'.`, 'card_id');
  if (accountId !== undefined && card.account_id !== accountId) {
    throw invalidRequest(`Card ${cardId} does not belong to account ${accountId}.`, 'card_id');
  }
}

/** SQL conditions (alias t) selecting what the filters match, before the update. */
export function filterWhere(filters: BulkFilters): Where {
  const w: Where = { sql: [], args: [] };
  const eq = (col: string, v: string | null | undefined) => {
    if (v === undefined) return;
    if (v === null) return void w.sql.push(`t.${col} IS NULL`);
    w.sql.push(`t.${col} = ?`);
    w.args.push(v);
  };
  eq('account_id', filters.account_id);
  eq('card_id', filters.card_id);
  eq('category_id', filters.category_id);
  eq('department_id', filters.department_id);
  eq('merchant', filters.merchant);
  eq('status', filters.status);
  eq('transaction_type', filters.transaction_type);
  if (filters.start_date) {
    w.sql.push('t.date >= ?');
    w.args.push(filters.start_date);
  }
  if (filters.end_date) {
    w.sql.push('t.date <= ?');
    w.args.push(filters.end_date);
  }
  return w;
}

/** JSON with object keys sorted: two bodies are "the same" when this text is equal. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
