/** Small Office.js idioms shared by the grid and table writers. */
import { formatRuns } from '../gridPlan';
import { jsonBytes, OP_OVERHEAD_BYTES } from '../payload';

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
