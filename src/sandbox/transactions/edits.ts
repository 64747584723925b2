import { addMonths, addYears, isIsoDate } from '../calendar';
import type { Db } from '../db/open';
import { nextCounter } from '../db/open';
import { invalidRequest, resourceMissing } from '../http/errors';
import { isPlainObject, rejectUnknownKeys } from '../http/body';
import { effectiveDate, parseSpread, rebuildTransactionEntries } from '../ledger/posting';
import { prepared } from '../ledger/sql';
import type { Spread, TxnRow } from './wire';

// One set of edit rules for PATCH /transactions/{id} and the bulk-update worker: reading the values (400),
// resolving the ids they name (404), the bookkeeping rules (422 / job errors), and the write itself.

/** The editable fields in the order the server applies and checks them (JSON key order never matters). */
export const EDIT_FIELDS = ['accounting_date', 'department_id', 'spread', 'category_id', 'merchant'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

export interface Edit {
  accounting_date?: string | null;
  /** Bulk only: months to move the effective accounting date by. */
  accounting_shift?: number;
  department_id?: string | null;
  spread?: Spread | null;
  category_id?: string | null;
  merchant?: string | null;
}

const MAX_SHIFT_MONTHS = 1200;
const MAX_MERCHANT = 200;

/** Shortens user input quoted in a message. */
export function quote(v: string): string {
  return v.length > 60 ? `${v.slice(0, 57)}...` : v;
}

export function readDate(v: unknown, param: string): string {
  if (typeof v !== 'string' || !isIsoDate(v)) throw invalidRequest(`${param} must be a date in YYYY-MM-DD form.`, param);
  return v;
}

function readSpread(v: unknown, param: string): Spread | null {
  if (v === null) return null;
  if (!isPlainObject(v)) throw invalidRequest(`${param} must be null or an object with start_date and end_date.`, param);
  rejectUnknownKeys(v, ['start_date', 'end_date'], `${param}.`);
  const start = readDate(v.start_date, `${param}.start_date`);
  const end = readDate(v.end_date, `${param}.end_date`);
  if (start > end) throw invalidRequest(`${param}.start_date must be on or before ${param}.end_date.`, param);
  return { start_date: start, end_date: end };
}

function readId(v: unknown, param: string): string | null {
  if (v === null) return null;
  if (typeof v !== 'string') throw invalidRequest(`${param} must be a string id or null.`, param);
  return v;
}

function readMerchant(v: unknown, param: string): string | null {
  if (v === null) return null;
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_MERCHANT) {
    throw invalidRequest(`${param} must be null or a string of 1-${MAX_MERCHANT} characters.`, param);
  }
  return v;
}

export function readShift(v: unknown, param: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > MAX_SHIFT_MONTHS) {
    throw invalidRequest(`${param} must be an integer number of months from -${MAX_SHIFT_MONTHS} to ${MAX_SHIFT_MONTHS}.`, param);
  }
  return v;
}

/** Reads the edit fields present in `obj` (type and shape only); `prefix` makes the param a path. */
export function readEdit(obj: Record<string, unknown>, prefix = ''): Edit {
  const edit: Edit = {};
  const p = (f: string) => `${prefix}${f}`;
  if (obj.accounting_date !== undefined) edit.accounting_date = obj.accounting_date === null ? null : readDate(obj.accounting_date, p('accounting_date'));
  if (obj.department_id !== undefined) edit.department_id = readId(obj.department_id, p('department_id'));
  if (obj.spread !== undefined) edit.spread = readSpread(obj.spread, p('spread'));
  if (obj.category_id !== undefined) edit.category_id = readId(obj.category_id, p('category_id'));
  if (obj.merchant !== undefined) edit.merchant = readMerchant(obj.merchant, p('merchant'));
  return edit;
}

function exists(db: Db, table: 'departments' | 'categories', prefix: string, companyId: string, id: string): boolean {
  if (!id.startsWith(prefix) || id.length > 100) return false;
  return prepared(db, `SELECT 1 FROM ${table} WHERE id = ? AND company_id = ?`).get(id, companyId) !== undefined;
}

/** A missing, foreign or wrong-prefix department or category: 404 resource_missing naming the field. */
export function resolveReferences(db: Db, companyId: string, edit: Edit, prefix = ''): void {
  if (typeof edit.department_id === 'string' && !exists(db, 'departments', 'dept_', companyId, edit.department_id)) {
    throw resourceMissing(`No such department: '${quote(edit.department_id)}'.`, `${prefix}department_id`);
  }
  if (typeof edit.category_id === 'string' && !exists(db, 'categories', 'cat_', companyId, edit.category_id)) {
    throw resourceMissing(`No such category: '${quote(edit.category_id)}'.`, `${prefix}category_id`);
  }
}

export interface AccountingWindow {
  min: string;
  /** Exclusive. */
  max: string;
}

/** From the incorporation date (two years before today when none) to strictly before today + 3 years. */
export function accountingWindow(db: Db, companyId: string, today: string): AccountingWindow {
  const row = prepared(db, 'SELECT incorporation_date FROM companies WHERE id = ?').get(companyId) as
    | { incorporation_date: string | null }
    | undefined;
  return {
    min: row?.incorporation_date ?? addYears(today, -2),
    max: addYears(today, 3),
  };
}

const inWindow = (d: string, w: AccountingWindow) => d >= w.min && d < w.max;

/** The editable state of a transaction; accounting_date_override is null whenever it equals the date. */
export interface EditableState {
  accounting_date_override: string | null;
  department_id: string | null;
  department_source: string | null;
  spread: Spread | null;
  category_id: string | null;
  merchant: string | null;
}

export function currentState(row: TxnRow): EditableState {
  const override = effectiveDate(row);
  return {
    accounting_date_override: override === row.date ? null : override,
    department_id: row.department_id,
    department_source: row.department_source,
    spread: parseSpread(row.spread),
    category_id: row.category_id,
    merchant: row.merchant,
  };
}

/** The state after the edit. A department set by hand is a manual assignment, even when it was already there. */
function plannedState(row: TxnRow, edit: Edit): EditableState {
  const next = currentState(row);
  let accounting = effectiveDate(row);
  if (edit.accounting_date !== undefined) accounting = edit.accounting_date ?? row.date;
  if (edit.accounting_shift) accounting = addMonths(accounting, edit.accounting_shift);
  next.accounting_date_override = accounting === row.date ? null : accounting;
  if (edit.department_id !== undefined) {
    next.department_id = edit.department_id;
    next.department_source = edit.department_id === null ? null : 'manual';
  }
  if (edit.spread !== undefined) next.spread = edit.spread;
  if (edit.category_id !== undefined) next.category_id = edit.category_id;
  if (edit.merchant !== undefined) next.merchant = edit.merchant;
  return next;
}

const sameSpread = (a: Spread | null, b: Spread | null) =>
  a === b || (a !== null && b !== null && a.start_date === b.start_date && a.end_date === b.end_date);

function isChange(before: EditableState, after: EditableState): boolean {
  return (
    before.accounting_date_override !== after.accounting_date_override ||
    before.department_id !== after.department_id ||
    before.department_source !== after.department_source ||
    !sameSpread(before.spread, after.spread) ||
    before.category_id !== after.category_id ||
    before.merchant !== after.merchant
  );
}

export interface Violation {
  /** The field the rule is about (the param of a 422). */
  field: EditField | 'accounting_shift';
  message: string;
}

/** The fields an edit touches, in server order (a shift stands where accounting_date would). */
function editedFields(edit: Edit): Violation['field'][] {
  const fields: Violation['field'][] = [];
  for (const f of EDIT_FIELDS) {
    if (f === 'accounting_date' && edit.accounting_shift !== undefined) fields.push('accounting_shift');
    if (edit[f] !== undefined) fields.push(f);
  }
  return fields;
}

/**
 * The first bookkeeping or eligibility rule the edit breaks on this transaction, checked in server order;
 * undefined when the edit may apply. Ids it names are assumed to exist in the company (resolveReferences),
 * but a vanished one is still reported rather than trusted.
 */
export function firstViolation(db: Db, row: TxnRow, edit: Edit, window: AccountingWindow): Violation | undefined {
  const fields = editedFields(edit);
  if (row.transaction_type === 'transfer' || row.transaction_type === 'split') {
    return { field: fields[0], message: `${capitalize(row.transaction_type)} transactions cannot be edited (${row.id}).` };
  }
  for (const field of fields) {
    const message = ruleBroken(db, row, edit, field, window);
    if (message) return { field, message };
  }
  return undefined;
}

function ruleBroken(db: Db, row: TxnRow, edit: Edit, field: Violation['field'], w: AccountingWindow): string | undefined {
  const outside = `must be on or after ${w.min} and before ${w.max}`;
  switch (field) {
    case 'accounting_date':
      if (edit.accounting_date && !inWindow(edit.accounting_date, w)) return `accounting_date ${outside}.`;
      return undefined;
    case 'accounting_shift': {
      if (!edit.accounting_shift) return undefined;
      const moved = addMonths(effectiveDate(row), edit.accounting_shift);
      return inWindow(moved, w) ? undefined : `The shifted accounting date of ${row.id} (${moved}) ${outside}.`;
    }
    case 'department_id': {
      if (edit.department_id == null) return undefined;
      const ok = prepared(
        db,
        `SELECT 1 FROM departments d WHERE d.id = ? AND d.company_id = ? AND d.assignable = 1
           AND NOT EXISTS (SELECT 1 FROM departments c WHERE c.parent_id = d.id)`,
      ).get(edit.department_id, row.company_id);
      return ok ? undefined : `Department ${edit.department_id} cannot be assigned: only assignable leaf departments can.`;
    }
    case 'spread':
      if (edit.spread && !(inWindow(edit.spread.start_date, w) && inWindow(edit.spread.end_date, w))) return `spread dates ${outside}.`;
      return undefined;
    case 'category_id': {
      if (edit.category_id == null) return undefined;
      const ok = prepared(db, 'SELECT 1 FROM categories WHERE id = ? AND company_id = ? AND selectable = 1').get(edit.category_id, row.company_id);
      return ok ? undefined : `Category ${edit.category_id} cannot be assigned to a transaction.`;
    }
    case 'merchant':
      return undefined;
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Applies an edit that passed firstViolation: writes the new state, bumps the sync position and rebuilds
 * the transaction's books. False, writing nothing, when the edit changes nothing.
 */
export function applyEdit(db: Db, row: TxnRow, edit: Edit, now: number): boolean {
  const next = plannedState(row, edit);
  if (!isChange(currentState(row), next)) return false;
  writeState(db, row, next, now);
  return true;
}

function writeState(db: Db, row: TxnRow, next: EditableState, now: number): void {
  const seq = nextCounter(db, row.company_id, 'update_seq');
  prepared(
    db,
    `UPDATE transactions SET accounting_date_override = ?, department_id = ?, department_source = ?, spread = ?,
            category_id = ?, merchant = ?, updated = ?, update_seq = ?
      WHERE id = ? AND company_id = ?`,
  ).run(
    next.accounting_date_override,
    next.department_id,
    next.department_source,
    next.spread === null ? null : JSON.stringify(next.spread),
    next.category_id,
    next.merchant,
    now,
    seq,
    row.id,
    row.company_id,
  );
  rebuildTransactionEntries(db, row.id, now);
}
