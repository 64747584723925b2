// A row's fingerprint as pulled: its identity, the columns the API cannot change through this table
// (Date, Amount, Currency, Merchant, Description, Category, Type, Status, Source) and the two values as
// pulled. Written in the Row check column with the row; a row whose cells no longer give the same
// fingerprint was changed where a change is never sent (a typed-over Amount, a pasted Merchant, a hand-
// edited "Pulled department"), and the push refuses it until Refresh puts the pulled values back.
//
// Accidents are what it catches, not forgery: a small, fast, stable hash (FNV-1a over two 32-bit lanes)
// of the cells as written and as Excel reads them back, not a cryptographic one.

import type { ReadValue, WriteValue } from '../ports/workbook';

/** The cells a row check covers, in a fixed order (column names, see columns.ts COL). */
export const CHECKED_COLUMNS = [
  'Pulled id',
  'Date',
  'Amount',
  'Currency',
  'Merchant',
  'Description',
  'Category',
  'Type',
  'Status',
  'Source',
  'Pulled department',
  'Pulled accounting date',
] as const;

/** One cell as the check reads it: what was written and what Excel gives back compare equal. */
function cellKey(v: ReadValue | WriteValue | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number') return `n${v}`;
  if (typeof v === 'boolean') return `b${v}`;
  return `s${v}`;
}

function fnv1a(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The check of a row's cells, given by column name. */
export function rowCheck(get: (column: (typeof CHECKED_COLUMNS)[number]) => ReadValue | WriteValue | undefined): string {
  const text = CHECKED_COLUMNS.map((c) => cellKey(get(c))).join('\u001f');
  const a = fnv1a(text, 0x811c9dc5);
  const b = fnv1a(text, 0x050c5d1f);
  return `${a.toString(36).padStart(7, '0')}${b.toString(36).padStart(7, '0')}`;
}
