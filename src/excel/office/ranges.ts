/** Small Office.js idioms shared by the grid and table writers. */
import { formatRuns } from '../gridPlan';
import { jsonBytes, OP_OVERHEAD_BYTES } from '../payload';
import type { Session } from './session';

/**
 * Sets one value on every cell of a range. Office documents this ("update all cells in a range": assign a
 * single value instead of a 2-D array); the typings only admit arrays. It keeps per-column formats tiny.
 */
export function setAll(range: Excel.Range, prop: 'numberFormat' | 'values', value: string | number): void {
  (range as unknown as Record<string, unknown>)[prop] = value;
}

/**
 * Queues the number formats of rows [start, start+count) of a block at (top, left): one operation per
 * vertical run of equal formats when that is smaller than the 2-D array, else the array. Always queued
 * before the values, so a text cell is '@' when its string arrives.
 */
export function queueFormats(
  sheet: Excel.Worksheet,
  top: number,
  left: number,
  formats: string[][],
  start: number,
  count: number,
  cols: number,
): void {
  const slice = formats.slice(start, start + count);
  const runs = Array.from({ length: cols }, (_, c) => formatRuns(formats, c, start, count));
  const runCost = runs.reduce((sum, col) => sum + col.reduce((s, r) => s + OP_OVERHEAD_BYTES + jsonBytes(r.format), 0), 0);
  if (runCost < jsonBytes(slice) + OP_OVERHEAD_BYTES) {
    runs.forEach((colRuns, c) => {
      for (const run of colRuns) setAll(sheet.getRangeByIndexes(top + run.start, left + c, run.count, 1), 'numberFormat', run.format);
    });
  } else {
    sheet.getRangeByIndexes(top + start, left, count, cols).numberFormat = slice;
  }
}

/** Text Excel reads as a formula when it arrives as a value: the docs name = + and -, and @ opens one too. */
export function startsLikeFormula(v: unknown): v is string {
  return typeof v === 'string' && /^[=+\-@]/.test(v);
}

/** Request bytes the guarded writes of putValues add for these values (counted on every host: an upper bound). */
export function typedTextBytes(values: unknown[]): number {
  return values.filter(startsLikeFormula).length * OP_OVERHEAD_BYTES * 3;
}

/**
 * Writes a block of values at (top, left) whose text cells are already '@': the one way text reaches a cell.
 * Text that starts like a formula is never left to the '@' alone, which Microsoft documents for typing, not
 * for values from the API (and on some hosts it does not hold): with ExcelApi 1.16 it goes as a typed String
 * value (valuesAsJson), text whatever the format; before that it is entered as typing makes text of anything,
 * behind an apostrophe ("'=1+1" is the text =1+1; Microsoft, "Display or hide formulas" / typing a leading
 * apostrophe), into the cell set General for the write and '@' again after it.
 */
export function putValues(session: Session, sheet: Excel.Worksheet, top: number, left: number, values: (string | number)[][]): void {
  const guarded: { row: number; col: number; cells: string[] }[] = [];
  for (let c = 0; c < values[0].length; c++) {
    values.forEach((row, r) => {
      const v = row[c];
      if (!startsLikeFormula(v)) return;
      const last = guarded[guarded.length - 1];
      if (last && last.col === c && last.row + last.cells.length === r) last.cells.push(v);
      else guarded.push({ row: r, col: c, cells: [v] });
    });
  }
  const block = sheet.getRangeByIndexes(top, left, values.length, values[0].length);
  block.values = guarded.length > 0 ? values.map((row) => row.map((v) => (startsLikeFormula(v) ? '' : v))) : values;
  for (const run of guarded) {
    const cells = sheet.getRangeByIndexes(top + run.row, left + run.col, run.cells.length, 1);
    if (session.typedText) {
      cells.valuesAsJson = run.cells.map((v): Excel.CellValue[] => [{ type: 'String', basicValue: v } as Excel.StringCellValue]);
      continue;
    }
    setAll(cells, 'numberFormat', 'General');
    cells.values = run.cells.map((v) => [`'${v}`]);
    setAll(cells, 'numberFormat', '@');
  }
}
