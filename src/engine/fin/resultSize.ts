// How big a FIN result may be. Microsoft's custom-functions runtime (custom-functions-runtime.js in
// @microsoft/office-js) sends the results of many cells to Excel in one request; when Excel refuses it as
// too large (RequestPayloadSizeLimitExceeded: 5 MB on Excel on the web), it sends them again in slices whose
// JSON is under 2,000,000 characters (`_maxResultSize = 2e6`). A single result over that fits no slice, so
// it is offered again and again and its cell stays at #BUSY!. A list is therefore cut at 1,500,000 bytes of
// JSON, counted in UTF-8 (never fewer than JSON's characters): a quarter under the slice for the envelope
// and the cells sent with it, and three such results still fit one 5 MB request. A row count alone does not
// bound it: ten columns of long descriptions weigh many times a row of short ones.

import type { CellValue, Matrix } from './matrix';

/** The largest FIN result, as UTF-8 bytes of its JSON. */
export const MAX_RESULT_BYTES = 1_500_000;

/** Kept free for the last row that says what was cut (its text and the empty cells beside it). */
const NOTE_ROOM = 512;

/** UTF-8 bytes of a string as a JSON string literal (quotes and escapes included). */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x20) bytes += 6; // \u00XX (or a shorter escape: an upper bound is what is wanted)
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** UTF-8 bytes of one cell value as JSON. */
export function cellBytes(value: CellValue): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  return String(value).length;
}

/** UTF-8 bytes of one row as a JSON array. */
export function rowBytes(row: readonly CellValue[]): number {
  let bytes = 2 + Math.max(0, row.length - 1);
  for (const value of row) bytes += cellBytes(value);
  return bytes;
}

/**
 * The rows of a list result: a header, then rows while they fit both the row limit and the size limit,
 * with room kept for the note row that says what was cut.
 */
export class ResultRows {
  readonly rows: Matrix;
  /** Why rows were left out: the row limit, the size limit, or nothing (so far). */
  cut: 'rows' | 'size' | null = null;
  private bytes: number;

  constructor(
    header: CellValue[],
    private readonly maxRows: number,
    private readonly maxBytes = MAX_RESULT_BYTES,
  ) {
    this.rows = [header];
    this.bytes = 2 + rowBytes(header) + NOTE_ROOM;
  }

  /** Rows below the header. */
  get count(): number {
    return this.rows.length - 1;
  }

  /** True once the row limit is reached: a further page is not worth asking for. */
  get full(): boolean {
    return this.count >= this.maxRows;
  }

  /** Adds a row when it fits; otherwise records why not and returns false (nothing later is added). */
  push(row: CellValue[]): boolean {
    if (this.cut) return false;
    if (this.full) {
      this.cut = 'rows';
      return false;
    }
    const bytes = rowBytes(row) + 1;
    if (this.bytes + bytes > this.maxBytes) {
      this.cut = 'size';
      return false;
    }
    this.rows.push(row);
    this.bytes += bytes;
    return true;
  }

  /** The list goes on past a full result (known without reading the next item). */
  markMore(): void {
    this.cut ??= 'rows';
  }
}
