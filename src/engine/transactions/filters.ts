// The filters of GET /transactions as the pane offers them, checked before any call, and the spec's rule
// about which of them an incremental refresh may use.
//
// Incremental mode rule 6: filters combine with updated_after and match *current* state, so a row that
// stops matching (its status, category, merchant... changed) disappears with no tombstone. A table pulled
// with such a filter would keep that row forever if refreshed incrementally. Only filters on values that
// never change (source_vendor, source_type, start_date, end_date: source and date are fixed at ingestion)
// are safe; a table with any other filter is re-pulled on refresh.

import { parseIsoDate } from '../dates';
import { fail, ok, type Result } from '../result';
import type { TransactionListParams } from '../../api';

export interface TransactionFilters {
  status?: 'approved' | 'pending';
  category_id?: string;
  transaction_type?: 'standard' | 'transfer' | 'split';
  categorized?: boolean;
  /** Case-insensitive text search on the merchant name. */
  merchant?: string;
  /** Case-insensitive exact match. */
  source_vendor?: string;
  source_type?: 'bank' | 'credit' | 'reimbursement';
  /** Inclusive bounds on the transaction date. */
  start_date?: string;
  end_date?: string;
}

export const FILTER_KEYS = [
  'status',
  'category_id',
  'transaction_type',
  'categorized',
  'merchant',
  'source_vendor',
  'source_type',
  'start_date',
  'end_date',
] as const satisfies readonly (keyof TransactionFilters)[];

/** Filters on values fixed at ingestion: safe with updated_after (spec, incremental mode rule 6). */
export const IMMUTABLE_FILTERS: readonly (keyof TransactionFilters)[] = ['source_vendor', 'source_type', 'start_date', 'end_date'];

const STATUSES = ['approved', 'pending'];
const TYPES = ['standard', 'transfer', 'split'];
const SOURCE_TYPES = ['bank', 'credit', 'reimbursement'];

/** Trims, drops blanks, checks every value; the result is what gets sent and stored with the table. */
export function normalizeFilters(input: Partial<Record<keyof TransactionFilters, unknown>>): Result<TransactionFilters> {
  const out: TransactionFilters = {};
  const text = (k: keyof TransactionFilters): string | undefined => {
    const v = input[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') return undefined;
    const t = v.trim();
    return t === '' ? undefined : t;
  };
  const status = text('status');
  if (status !== undefined) {
    if (!STATUSES.includes(status)) return fail(`Status must be approved or pending, not '${status}'.`);
    out.status = status as TransactionFilters['status'];
  }
  const category = text('category_id');
  if (category !== undefined) {
    if (!/^cat_[A-Za-z0-9_]+$/.test(category)) return fail(`Category must be a category id (cat_...), not '${category}'.`);
    out.category_id = category;
  }
  const type = text('transaction_type');
  if (type !== undefined) {
    if (!TYPES.includes(type)) return fail(`Type must be standard, transfer or split, not '${type}'.`);
    out.transaction_type = type as TransactionFilters['transaction_type'];
  }
  const categorized = input.categorized;
  if (categorized === true || categorized === false) out.categorized = categorized;
  else if (categorized === 'true' || categorized === 'false') out.categorized = categorized === 'true';
  const merchant = text('merchant');
  if (merchant !== undefined) out.merchant = merchant;
  const vendor = text('source_vendor');
  if (vendor !== undefined) out.source_vendor = vendor;
  const sourceType = text('source_type');
  if (sourceType !== undefined) {
    const lower = sourceType.toLowerCase();
    if (!SOURCE_TYPES.includes(lower)) return fail(`Source type must be bank, credit or reimbursement, not '${sourceType}'.`);
    out.source_type = lower as TransactionFilters['source_type'];
  }
  for (const k of ['start_date', 'end_date'] as const) {
    const d = text(k);
    if (d === undefined) continue;
    if (!parseIsoDate(d)) return fail(`${k === 'start_date' ? 'From' : 'To'} date must be a date like 2026-01-31, not '${d}'.`);
    out[k] = d;
  }
  if (out.start_date && out.end_date && out.start_date > out.end_date) return fail('The From date is after the To date.');
  return ok(out);
}

/** True when every filter is on an immutable value (or there is none): refresh may be incremental. */
export function allowsIncrementalRefresh(filters: TransactionFilters): boolean {
  return FILTER_KEYS.every((k) => filters[k] === undefined || IMMUTABLE_FILTERS.includes(k));
}

/** The filters that force a re-pull on refresh, for the pane to name. */
export function mutableFilterNames(filters: TransactionFilters): string[] {
  return FILTER_KEYS.filter((k) => filters[k] !== undefined && !IMMUTABLE_FILTERS.includes(k));
}

export function toListParams(filters: TransactionFilters): Omit<TransactionListParams, 'limit' | 'starting_after' | 'updated_after'> {
  const p: Omit<TransactionListParams, 'limit' | 'starting_after' | 'updated_after'> = {};
  for (const k of FILTER_KEYS) {
    const v = filters[k];
    if (v !== undefined) (p as Record<string, unknown>)[k] = v;
  }
  return p;
}

/** "status approved, merchant 'aws', 2025-01-01 to 2025-03-31" for captions. */
export function describeFilters(filters: TransactionFilters): string {
  const parts: string[] = [];
  if (filters.start_date || filters.end_date) parts.push(`${filters.start_date ?? 'start'} to ${filters.end_date ?? 'today'}`);
  if (filters.status) parts.push(filters.status);
  if (filters.transaction_type) parts.push(filters.transaction_type);
  if (filters.categorized !== undefined) parts.push(filters.categorized ? 'categorized' : 'uncategorized');
  if (filters.category_id) parts.push(`category ${filters.category_id}`);
  if (filters.merchant) parts.push(`merchant contains '${filters.merchant}'`);
  if (filters.source_vendor) parts.push(`source ${filters.source_vendor}`);
  if (filters.source_type) parts.push(`${filters.source_type} accounts`);
  return parts.length ? parts.join(', ') : 'all transactions';
}
