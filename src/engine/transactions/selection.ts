// Which rows of a transactions table the user's selection covers: "Use selected rows" takes the id each
// row was pulled with (Pulled id) for every table row the selection touches, whatever columns of it are selected (several rows at once, or
// cells beside the table on the same rows, are fine).

import { parseQualified } from '../ports/address';
import { KEY_COLUMN } from './columns';

/** A table as read from the workbook: its sheet-qualified address (header row first), columns and data rows. */
export interface TableSnapshot {
  address: string;
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
}

/**
 * The Ids of the table's data rows that the selection (a sheet-qualified address) covers, in table order,
 * each once; none when the selection is on another sheet or misses the data rows.
 */
export function idsInSelection(selectionAddress: string, table: TableSnapshot): string[] {
  const selection = parseQualified(selectionAddress);
  const at = parseQualified(table.address);
  if (selection.sheet.toLowerCase() !== at.sheet.toLowerCase()) return [];
  const idColumn = table.columns.indexOf(KEY_COLUMN);
  if (idColumn < 0) return [];
  // Data row i sits on sheet row at.box.row + 1 + i (the header is the table's first row). Only the
  // overlap is walked, so selecting whole columns costs no more than selecting the table.
  const firstDataRow = at.box.row + 1;
  const from = Math.max(selection.box.row, firstDataRow) - firstDataRow;
  const to = Math.min(selection.box.row + selection.box.rows, firstDataRow + table.rows.length) - firstDataRow;
  const ids = new Set<string>();
  for (let i = from; i < to; i++) {
    const id = table.rows[i][idColumn];
    if (id !== undefined && id !== null && id !== '') ids.add(String(id));
  }
  return [...ids];
}
