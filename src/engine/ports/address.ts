/**
 * A1 addresses and sheet-qualified addresses, computed locally: asking Excel for an address would cost a sync.
 */
import { GatewayError } from './workbook';

/** A rectangle on a sheet, 0-based like Excel's getRangeByIndexes. */
export interface Box {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export const MAX_ROWS = 1_048_576;
export const MAX_COLS = 16_384;
/** Every cell of a sheet, as a box. */
export const WHOLE_SHEET: Box = { row: 0, col: 0, rows: MAX_ROWS, cols: MAX_COLS };

export function columnLetters(col: number): string {
  let n = col + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

export function parseCell(a1: string): { row: number; col: number } {
  const m = CELL.exec(a1.trim());
  if (!m) throw new GatewayError('InvalidInput', `Not a cell address: ${a1}`);
  const col = columnIndex(m[1]);
  const row = Number(m[2]) - 1;
  if (col >= MAX_COLS || row < 0 || row >= MAX_ROWS) throw new GatewayError('InvalidInput', `Cell off the sheet: ${a1}`);
  return { row, col };
}

const WHOLE_COLUMNS = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/;
const WHOLE_ROWS = /^\$?(\d{1,7}):\$?(\d{1,7})$/;

/**
 * "B2", "$B$2:D9", and whole columns ("A:C") or rows ("5:9"): Excel gives a selection of whole columns or
 * rows (a header clicked, Ctrl+A) in those forms, as Microsoft's "Work with multiple ranges" shows
 * (Sheet1!H:H). A whole sheet is whole rows (1:1048576).
 */
export function parseBox(a1: string): Box {
  const columns = WHOLE_COLUMNS.exec(a1.trim());
  if (columns) {
    const [a, b] = [columnIndex(columns[1]), columnIndex(columns[2])];
    if (Math.max(a, b) >= MAX_COLS) throw new GatewayError('InvalidInput', `Column off the sheet: ${a1}`);
    return { row: 0, col: Math.min(a, b), rows: MAX_ROWS, cols: Math.abs(a - b) + 1 };
  }
  const rows = WHOLE_ROWS.exec(a1.trim());
  if (rows) {
    const [a, b] = [Number(rows[1]) - 1, Number(rows[2]) - 1];
    if (Math.min(a, b) < 0 || Math.max(a, b) >= MAX_ROWS) throw new GatewayError('InvalidInput', `Row off the sheet: ${a1}`);
    return { row: Math.min(a, b), col: 0, rows: Math.abs(a - b) + 1, cols: MAX_COLS };
  }
  const [from, to = from] = a1.split(':');
  const a = parseCell(from);
  const b = parseCell(to);
  const row = Math.min(a.row, b.row);
  const col = Math.min(a.col, b.col);
  return { row, col, rows: Math.abs(a.row - b.row) + 1, cols: Math.abs(a.col - b.col) + 1 };
}

export function cellA1(row: number, col: number, absolute = false): string {
  const d = absolute ? '$' : '';
  return `${d}${columnLetters(col)}${d}${row + 1}`;
}

/** A box as Excel writes it: whole rows as "5:9" (a whole sheet as 1:1048576), whole columns as "A:C". */
export function boxA1(box: Box, absolute = false): string {
  const d = absolute ? '$' : '';
  if (box.col === 0 && box.cols === MAX_COLS) return `${d}${box.row + 1}:${d}${box.row + box.rows}`;
  if (box.row === 0 && box.rows === MAX_ROWS) return `${d}${columnLetters(box.col)}:${d}${columnLetters(box.col + box.cols - 1)}`;
  const first = cellA1(box.row, box.col, absolute);
  if (box.rows === 1 && box.cols === 1) return first;
  return `${first}:${cellA1(box.row + box.rows - 1, box.col + box.cols - 1, absolute)}`;
}

const PLAIN_SHEET = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\u00C0-\uFFFF]*$/;
const LOOKS_LIKE_REF = /^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]?\d*|[Cc]\d*)$/;

/** True for a name Excel would read as a cell reference, A1 ("AB12") or R1C1 ("R1C1", "C3"). */
export function looksLikeReference(name: string): boolean {
  return LOOKS_LIKE_REF.test(name);
}

/** Sheet name as Excel prints it in an address: quoted only when it has to be. */
export function quoteSheet(name: string): string {
  if (PLAIN_SHEET.test(name) && !looksLikeReference(name)) return name;
  return `'${name.replace(/'/g, "''")}'`;
}

export function qualify(sheet: string, box: Box, absolute = false): string {
  return `${quoteSheet(sheet)}!${boxA1(box, absolute)}`;
}

/** "'P&L ''26'!A1:B2" -> { sheet: "P&L '26", box }. */
export function parseQualified(address: string): { sheet: string; box: Box } {
  const bang = address.lastIndexOf('!');
  if (bang < 1) throw new GatewayError('InvalidInput', `Address has no sheet: ${address}`);
  let sheet = address.slice(0, bang);
  if (sheet.startsWith("'")) {
    if (!sheet.endsWith("'") || sheet.length < 3) throw new GatewayError('InvalidInput', `Bad sheet quoting: ${address}`);
    sheet = sheet.slice(1, -1).replace(/''/g, "'");
  }
  return { sheet, box: parseBox(address.slice(bang + 1)) };
}
