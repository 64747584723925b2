// Where the grid's keys take the selection, as Excel's do: a row step past the rows a collapsed group hides,
// Shift+Arrow moving the far corner of a range while its active cell stays, and the Tab run (cells typed left
// to right with Tab) that Enter closes by going back to the run's first column, one row down. Pure: the grid
// (Grid.tsx) reads the book's selection when the key is pressed and applies what these return.

import { boxA1, type Box } from '../../engine/ports/address';
import type { CellPosition } from '../book';

/** The row shown `dr` (+1 or -1) rows on from `row`; rows beyond the layout's are never hidden. */
export function stepRow(row: number, dr: number, visibleRows: readonly number[]): number {
  const lastKnown = visibleRows[visibleRows.length - 1] ?? -1;
  if (dr > 0) return row >= lastKnown ? row + 1 : (visibleRows.find((r) => r > row) ?? row + 1);
  if (row - 1 > lastKnown) return row - 1;
  for (let i = visibleRows.length - 1; i >= 0; i--) if (visibleRows[i] < row) return visibleRows[i];
  return row;
}

/**
 * The range after Shift+Arrow (or Shift+Home, `toColumn`): the corner opposite the active cell moves, the
 * active cell stays. A selection the active cell is not a corner of (several areas) starts from the cell.
 */
export function extendSelection(active: CellPosition, areas: readonly Box[], move: { dr: number; dc: number; toColumn?: number }, visibleRows: readonly number[]): string {
  const only = areas.length === 1 ? areas[0] : null;
  const corner = (start: number, size: number, at: number) => (at === start ? start + size - 1 : at === start + size - 1 ? start : null);
  const farRow = only && corner(only.row, only.rows, active.row);
  const farCol = only && corner(only.col, only.cols, active.col);
  const far = farRow != null && farCol != null ? { row: farRow, col: farCol } : active;
  const row = move.dr !== 0 ? stepRow(far.row, move.dr, visibleRows) : far.row;
  const col = move.toColumn ?? Math.max(0, far.col + move.dc);
  const box = { row: Math.min(active.row, row), col: Math.min(active.col, col), rows: Math.abs(row - active.row) + 1, cols: Math.abs(col - active.col) + 1 };
  return boxA1(box);
}

/** A run of Tabs: the row and sheet it is on, the column it started in, and the cell the next key is expected in. */
export interface TabRun {
  sheet: string;
  row: number;
  startCol: number;
  col: number;
}

function continues(run: TabRun | null, at: CellPosition): run is TabRun {
  return !!run && run.sheet.toLowerCase() === at.sheet.toLowerCase() && run.row === at.row && run.col === at.col;
}

/** The run after Tab in `at`: the same run when `at` is where it had got to, else a new one starting there. */
export function tabFrom(run: TabRun | null, at: CellPosition): TabRun {
  return { sheet: at.sheet, row: at.row, startCol: continues(run, at) ? run.startCol : at.col, col: at.col + 1 };
}

/** Where Enter in `at` goes: one row down, in the column the Tab run started in when `at` ends one. */
export function enterFrom(run: TabRun | null, at: CellPosition): { row: number; col: number } {
  return { row: at.row + 1, col: continues(run, at) ? run.startCol : at.col };
}
