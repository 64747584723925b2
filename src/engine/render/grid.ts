// The host-free grid a renderer produces and the workbook gateway writes. It holds values, never formulas:
// every string is a text cell, and its number format is `@`, so a category named "=HYPERLINK(...)" or
// "+1" or "2026-07" lands in the sheet as those characters and nothing else.

export interface TextCell {
  readonly kind: 'text';
  readonly value: string;
}

export interface NumberCell {
  readonly kind: 'number';
  readonly value: number;
}

export interface EmptyCell {
  readonly kind: 'empty';
}

export type Cell = TextCell | NumberCell | EmptyCell;

/** Excel keeps at most 32,767 characters in a cell; longer text would make the whole write fail. */
export const MAX_CELL_TEXT = 32767;

export const TEXT_FORMAT = '@';
export const GENERAL_FORMAT = 'General';

export const EMPTY: EmptyCell = Object.freeze({ kind: 'empty' });

export function text(value: string): TextCell {
  return { kind: 'text', value: value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value };
}

export function num(value: number): NumberCell {
  if (!Number.isFinite(value)) throw new RangeError(`a number cell needs a finite value, got ${value}`);
  return { kind: 'number', value };
}

/** Zero-based, relative to the grid's top-left cell. */
export interface GridArea {
  readonly row: number;
  readonly column: number;
  readonly rowCount: number;
  readonly columnCount: number;
}

/**
 * The plain values matrix (empty cells as ""), for a host API that takes one. Text cells must still be
 * written with their `@` number format set first, or the host may parse them.
 */
export function cellValues(rows: readonly (readonly Cell[])[]): (string | number)[][] {
  return rows.map((row) => row.map((cell) => (cell.kind === 'empty' ? '' : cell.value)));
}
