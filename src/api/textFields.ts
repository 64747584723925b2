import { invalidResponse } from './paging';

// Text the add-in writes into cells (names, merchants, dates, ids, messages) must be text. A field the API
// documents as a string that arrives as an object, an array, a number or a boolean is invalid_response
// here, in the client, so no reader downstream (a FIN function, a table, a statement) can pass it into a
// cell. Null and absent pass (readers already show them as empty, or fall back to an id), and so does
// every field the client does not name.

export type TextFields = readonly string[];

export const TRANSACTION_TEXT: TextFields = [
  'id',
  'date',
  'accounting_date',
  'currency',
  'merchant',
  'description',
  'category_id',
  'category_name',
  'department_id',
  'department_name',
  'transaction_type',
  'status',
  'transfer_id',
];
export const CATEGORY_TEXT: TextFields = ['id', 'name', 'account_type', 'parent_id'];
export const DEPARTMENT_TEXT: TextFields = ['id', 'name', 'parent_id'];
export const JOURNAL_ENTRY_TEXT: TextFields = ['id', 'date', 'kind', 'memo', 'transaction_id'];
export const JOURNAL_LINE_TEXT: TextFields = ['category_id', 'department_id'];
export const JOB_ERROR_TEXT: TextFields = ['type', 'code', 'message', 'transaction_id'];
export const COMPANY_TEXT: TextFields = ['id', 'name'];
/** Statements and totals: their amounts are checked where cents are rendered, their line names fall back to ids. */
export const REPORT_TEXT: TextFields = ['object', 'currency'];

function fieldProblem(item: unknown, fields: TextFields): string | null {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return 'an item that is not an object';
  const record = item as Record<string, unknown>;
  for (const name of fields) {
    const value = record[name];
    if (value !== undefined && value !== null && typeof value !== 'string') return `a ${name} that is not text`;
  }
  return null;
}

/** Returns `item` when its text fields are text (or null, or absent); else invalid_response naming the field. */
export function checkText<T>(item: T, fields: TextFields, method: string, path: string): T {
  const problem = fieldProblem(item, fields);
  if (problem) throw invalidResponse(`${method} ${path} returned ${problem}.`, method, path);
  return item;
}

/** checkText for every item of a list. */
export function checkTextOfEach<T>(items: readonly T[], fields: TextFields, method: string, path: string): void {
  for (const item of items) checkText(item, fields, method, path);
}
