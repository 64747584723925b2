// The transactions table: its columns, how a Transaction becomes a row, and how a row read back from the
// workbook is looked at. Host-free: the gateway's value types only.
//
// The table carries, per row, the editable values (Department, Accounting date) and the same two values
// as they were last pulled from the API (Pulled department, Pulled accounting date, at the far right).
// An edit is a difference between the two, so edits survive saving, closing and reopening the workbook
// with nothing stored anywhere else. Next to them, the row's identity as pulled (Pulled id: the key every
// write and every push uses, so a typo in the Id cell can never send an edit to another transaction) and
// its Row check (rowCheck.ts: a change where a change is never sent is seen and refused).

import type { TableColumnSpec, TableRead, ReadValue, WriteValue } from '../ports/workbook';
import type { Transaction } from '../../api';
import { centsToDisplay } from '../render/money';
import { isoToSerial, serialToIso, parseIsoDate, type DateSystem } from '../dates';
import { normalizePath } from '../tree';
import { pluralNoun } from '../text/plural';
import type { DepartmentDirectory } from './departments';
import { rowCheck } from './rowCheck';

export const COL = {
  date: 'Date',
  accountingDate: 'Accounting date',
  amount: 'Amount',
  currency: 'Currency',
  merchant: 'Merchant',
  description: 'Description',
  category: 'Category',
  department: 'Department',
  type: 'Type',
  status: 'Status',
  source: 'Source',
  id: 'Id',
  pushStatus: 'Push status',
  pulledDepartment: 'Pulled department',
  pulledAccountingDate: 'Pulled accounting date',
  pulledId: 'Pulled id',
  rowCheck: 'Row check',
} as const;

/** The column every keyed write and delete finds its row by: the identity the row was pulled with. */
export const KEY_COLUMN = COL.pulledId;

export type ColumnKey = keyof typeof COL;
export type ColumnName = (typeof COL)[ColumnKey];

export const DATE_FORMAT = 'yyyy-mm-dd';
/** Amounts in display units with the Currency column beside them (rows may mix currencies). */
export const AMOUNT_FORMAT = '#,##0.00_);(#,##0.00);"-"??_)';

export const TABLE_COLUMNS: readonly TableColumnSpec[] = [
  { name: COL.date, kind: 'number', numberFormat: DATE_FORMAT, width: 70 },
  { name: COL.accountingDate, kind: 'number', numberFormat: DATE_FORMAT, width: 90 },
  { name: COL.amount, kind: 'number', numberFormat: AMOUNT_FORMAT, width: 80 },
  { name: COL.currency, kind: 'text', width: 50 },
  { name: COL.merchant, kind: 'text', width: 140 },
  { name: COL.description, kind: 'text', width: 200 },
  { name: COL.category, kind: 'text', width: 140 },
  { name: COL.department, kind: 'text', width: 260 },
  { name: COL.type, kind: 'text', width: 60 },
  { name: COL.status, kind: 'text', width: 60 },
  { name: COL.source, kind: 'text', width: 160 },
  { name: COL.id, kind: 'text', width: 150 },
  { name: COL.pushStatus, kind: 'text', width: 260 },
  { name: COL.pulledDepartment, kind: 'text', width: 260 },
  { name: COL.pulledAccountingDate, kind: 'number', numberFormat: DATE_FORMAT, width: 90 },
  { name: COL.pulledId, kind: 'text', width: 150 },
  { name: COL.rowCheck, kind: 'text', width: 90 },
];

export const COLUMN_NAMES: readonly ColumnName[] = TABLE_COLUMNS.map((c) => c.name as ColumnName);

export function isoToCell(iso: string, system: DateSystem): number {
  const r = isoToSerial(iso, system);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** A serial back to ISO; undefined when it is not a usable date. */
export function cellToIso(serial: number, system: DateSystem): string | undefined {
  const r = serialToIso(serial, system);
  return r.ok ? r.value : undefined;
}

/** The effective accounting date: the override, else the transaction date. */
export function effectiveAccountingDate(t: Pick<Transaction, 'accounting_date' | 'date'>): string {
  return t.accounting_date ?? t.date;
}

function sourceLabel(t: Transaction): string {
  const s = t.source ?? ({} as Transaction['source']);
  const kind = [s.vendor, s.type].filter((x): x is string => typeof x === 'string' && x !== '').join(' ');
  return [kind, s.account_name].filter((x): x is string => typeof x === 'string' && x !== '').join(' · ');
}

/** What the Department cell shows for a transaction: the full path, else the API's name. */
export function departmentText(t: Pick<Transaction, 'department_id' | 'department_name'>, dir: DepartmentDirectory): string {
  if (t.department_id === null || t.department_id === undefined) return '';
  return dir.pathOf(t.department_id) ?? t.department_name ?? t.department_id;
}

/** The values a transaction puts in each column, by column name (Push status left out). */
export function serverValues(t: Transaction, dir: DepartmentDirectory, system: DateSystem): Record<ColumnName, WriteValue> {
  const dept = departmentText(t, dir);
  const accounting = isoToCell(effectiveAccountingDate(t), system);
  const values: Record<ColumnName, WriteValue> = {
    [COL.date]: isoToCell(t.date, system),
    [COL.accountingDate]: accounting,
    [COL.amount]: centsToDisplay(t.amount_cents, 'units'),
    [COL.currency]: t.currency ?? '',
    [COL.merchant]: t.merchant ?? null,
    [COL.description]: t.description ?? null,
    [COL.category]: t.category_name ?? null,
    [COL.department]: dept || null,
    [COL.type]: t.transaction_type,
    [COL.status]: t.status,
    [COL.source]: sourceLabel(t) || null,
    [COL.id]: t.id,
    [COL.pushStatus]: null,
    [COL.pulledDepartment]: dept || null,
    [COL.pulledAccountingDate]: accounting,
    [COL.pulledId]: t.id,
    [COL.rowCheck]: null,
  };
  values[COL.rowCheck] = rowCheck((c) => values[c]);
  return values;
}

/** A new row for the table, in column order. */
export function transactionRow(t: Transaction, dir: DepartmentDirectory, system: DateSystem): WriteValue[] {
  const v = serverValues(t, dir, system);
  return COLUMN_NAMES.map((name) => v[name]);
}

/** Newest first, then by id, like the API's classic listing. */
export function compareForTable(a: Transaction, b: Transaction): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// Reading rows back

export interface RowView {
  /** 0-based index in the table body. */
  index: number;
  /** The identity the row was pulled with (Pulled id): what every write and push uses. */
  id: string;
  cells: ReadValue[];
  get(name: ColumnName): ReadValue;
  /**
   * Why the row cannot be pushed as it stands, before any edit is looked at: its Id cell no longer shows
   * the id it was pulled with, it repeats another row, or a column that is never sent was changed.
   */
  problem?: RowProblem;
}

export type RowProblem =
  | { kind: 'idChanged'; shown: string }
  | { kind: 'duplicate' }
  | { kind: 'changedReadOnly' };

/** A row that lost its identity (Pulled id cleared) but still holds values: accounted for by position. */
export interface OrphanRow {
  /** 0-based index in the table body; the sheet row is the table's header row + 1 + index. */
  index: number;
  shownId: string;
}

export class TableShapeError extends Error {
  override name = 'TableShapeError';
}

/** A read table with column lookups by name (a user may move columns; names are what we trust). */
export class TableView {
  readonly rows: RowView[];
  readonly byId = new Map<string, RowView>();
  /** Rows with values but no Pulled id: they can be neither pushed nor refreshed (say so, by position). */
  readonly orphans: OrphanRow[] = [];
  private readonly index = new Map<string, number>();

  constructor(readonly read: TableRead) {
    read.columns.forEach((c, i) => this.index.set(c, i));
    const missing = COLUMN_NAMES.filter((c) => !this.index.has(c));
    if (missing.length) {
      throw new TableShapeError(
        `The table ${read.name} has lost its ${pluralNoun(missing.length, 'column')} ${missing.map((m) => `'${m}'`).join(', ')}; pull the transactions again into a new table.`,
      );
    }
    const keyCol = this.index.get(KEY_COLUMN)!;
    const shownCol = this.index.get(COL.id)!;
    const seen = new Map<string, RowView>();
    this.rows = [];
    read.rows.forEach((cells, i) => {
      const id = String(cells[keyCol] ?? '').trim();
      const shown = String(cells[shownCol] ?? '').trim();
      if (!id) {
        // A blank row the user added is not ours; one that still holds values lost its identity.
        if (cells.some((c) => c !== '' && c !== null && c !== undefined)) this.orphans.push({ index: i, shownId: shown });
        return;
      }
      const get = (name: ColumnName) => cells[this.index.get(name)!] ?? '';
      const row: RowView = { index: i, id, cells, get };
      if (shown !== id) row.problem = { kind: 'idChanged', shown };
      else if (cellText(get(COL.rowCheck)) !== rowCheck(get)) row.problem = { kind: 'changedReadOnly' };
      const first = seen.get(id);
      if (first) {
        first.problem = { kind: 'duplicate' };
        row.problem = { kind: 'duplicate' };
      } else seen.set(id, row);
      this.rows.push(row);
      if (!this.byId.has(id)) this.byId.set(id, row);
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Cell values -> editable values

/** A department cell as compared (engine/tree's path form): case, spacing and separator spacing do not make an edit. */
export function normPath(v: ReadValue | WriteValue | undefined): string {
  return v === null || v === undefined ? '' : normalizePath(String(v));
}

export function cellText(v: ReadValue | undefined): string {
  if (v === undefined || v === null) return '';
  return String(v).trim();
}

export type DateCell = { kind: 'blank' } | { kind: 'date'; serial: number } | { kind: 'invalid'; text: string };

/** Reads a date cell: a serial (the fraction of a time is dropped), an ISO text, or blank. */
export function readDateCell(v: ReadValue | undefined, system: DateSystem): DateCell {
  if (v === '' || v === undefined || v === null) return { kind: 'blank' };
  if (typeof v === 'number') {
    const serial = Math.floor(v);
    return cellToIso(serial, system) ? { kind: 'date', serial } : { kind: 'invalid', text: String(v) };
  }
  if (typeof v === 'string') {
    const text = v.trim();
    if (text === '') return { kind: 'blank' };
    if (parseIsoDate(text)) return { kind: 'date', serial: isoToCell(text, system) };
    return { kind: 'invalid', text };
  }
  return { kind: 'invalid', text: String(v) };
}
