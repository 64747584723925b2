/**
 * A GridWrite checked and flattened into what any workbook needs: a rectangle of values, the number format
 * of every cell, and runs of rows for bold, indent and outline. Host-free; both gateways use it.
 */
import { GatewayError, MAX_OUTLINE_LEVEL, type GridWrite } from '../engine/ports/workbook';

export const TEXT_FORMAT = '@';
export const GENERAL_FORMAT = 'General';
/** Excel's API accepts indent levels 0..250. */
export const MAX_INDENT = 250;
/** Excel refuses a longer cell, and with it the whole request. */
export const MAX_CELL_TEXT = 32_767;

/** Cuts text Excel could not hold: losing the tail of a huge memo beats failing a 50,000-row write. */
export function fitText(s: string): string {
  return s.length > MAX_CELL_TEXT ? s.slice(0, MAX_CELL_TEXT) : s;
}

export interface Run {
  start: number;
  count: number;
}

export interface GridPlan {
  rows: number;
  cols: number;
  /** '' for blanks: Excel clears a cell written with ''. */
  values: (string | number)[][];
  formats: string[][];
  boldRuns: Run[];
  indentRuns: (Run & { level: number })[];
  indentColumn: number;
  /**
   * The row groups to make, outer levels first (grouping grouped rows nests them one level deeper): one per
   * level and contiguous rows at or deeper than it, where Excel's +/- lands on the group's total (see planGrid).
   */
  outlineRuns: (Run & { level: number })[];
  maxOutline: number;
  columnWidths: (number | null)[];
}

function runsOf<T>(count: number, valueAt: (i: number) => T, keep: (v: T) => boolean): (Run & { value: T })[] {
  const runs: (Run & { value: T })[] = [];
  for (let i = 0; i < count; i++) {
    const v = valueAt(i);
    const last = runs[runs.length - 1];
    if (!keep(v)) continue;
    if (last && last.start + last.count === i && last.value === v) last.count++;
    else runs.push({ start: i, count: 1, value: v });
  }
  return runs;
}

function intIn(v: unknown, lo: number, hi: number, what: string): number {
  if (v === null || v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new GatewayError('InvalidInput', `${what} must be an integer from ${lo} to ${hi}, got ${String(v)}`);
  }
  return v;
}

export function planGrid(grid: GridWrite): GridPlan {
  const rows = grid.values.length;
  const cols = Math.max(0, ...grid.values.map((r) => r.length), grid.columnFormats?.length ?? 0, grid.columnWidths?.length ?? 0);
  if (rows === 0 || cols === 0) throw new GatewayError('InvalidInput', 'A grid needs at least one cell');
  const values: (string | number)[][] = [];
  const formats: string[][] = [];
  for (let r = 0; r < rows; r++) {
    const src = grid.values[r];
    const vRow: (string | number)[] = new Array(cols);
    const fRow: string[] = new Array(cols);
    for (let c = 0; c < cols; c++) {
      const v = src[c] ?? null;
      const format = grid.cellFormats?.[r]?.[c] || grid.columnFormats?.[c] || GENERAL_FORMAT;
      if (typeof v === 'string') {
        vRow[c] = fitText(v);
        fRow[c] = TEXT_FORMAT;
      } else if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw new GatewayError('InvalidInput', `Cell ${r},${c} is not a finite number`);
        vRow[c] = v;
        fRow[c] = format;
      } else if (v === null) {
        vRow[c] = '';
        fRow[c] = format === TEXT_FORMAT ? GENERAL_FORMAT : format;
      } else {
        throw new GatewayError('InvalidInput', `Cell ${r},${c} has an unsupported value type ${typeof v}`);
      }
    }
    values.push(vRow);
    formats.push(fRow);
  }

  const bold = new Set(grid.boldRows ?? []);
  for (const r of bold) if (!Number.isInteger(r) || r < 0 || r >= rows) throw new GatewayError('InvalidInput', `Bold row ${r} is outside the grid`);
  const boldRuns = runsOf(rows, (i) => bold.has(i), (v) => v).map(({ start, count }) => ({ start, count }));

  const indentColumn = grid.indentColumn ?? 0;
  if (!Number.isInteger(indentColumn) || indentColumn < 0 || indentColumn >= cols) {
    throw new GatewayError('InvalidInput', `indentColumn ${indentColumn} is outside the grid`);
  }
  const indents = Array.from({ length: rows }, (_, i) => intIn(grid.indentLevels?.[i], 0, MAX_INDENT, 'Indent level'));
  const indentRuns = runsOf(rows, (i) => indents[i], (v) => v > 0).map(({ start, count, value }) => ({ start, count, level: value }));

  const levels = Array.from({ length: rows }, (_, i) => intIn(grid.outlineLevels?.[i], 0, MAX_OUTLINE_LEVEL, 'Outline level'));
  const maxOutline = Math.max(0, ...levels);
  const outlineRuns: (Run & { level: number })[] = [];
  const hasFigures = (r: number) => values[r].some((v) => typeof v === 'number');
  for (let level = 1; level <= maxOutline; level++) {
    for (const run of runsOf(rows, (i) => levels[i] >= level, (v) => v)) {
      // Excel puts a group's +/- on the row right after it (summary rows below detail) and no API puts it
      // above. So a run is grouped only where that row is its total: inside the block (not the user's row
      // below it) and one level up; and not where a row one level up right above it carries figures (a
      // parent with its children's subtotal, as statement lines are: their +/- would sit on the next
      // sibling). Those rows stay in the enclosing group.
      const after = run.start + run.count;
      const before = run.start - 1;
      const totalBelow = after < rows && levels[after] < level;
      const summaryAbove = before >= 0 && levels[before] === level - 1 && hasFigures(before);
      if (totalBelow && !summaryAbove) outlineRuns.push({ start: run.start, count: run.count, level });
    }
  }

  const columnWidths = Array.from({ length: cols }, (_, c) => {
    const w = grid.columnWidths?.[c];
    if (w === null || w === undefined) return null;
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new GatewayError('InvalidInput', `Column width ${String(w)} is invalid`);
    return w;
  });

  return { rows, cols, values, formats, boldRuns, indentRuns, indentColumn, outlineRuns, maxOutline, columnWidths };
}

/** Vertical runs of one format in a column slice: most statement columns are one or two runs. */
export function formatRuns(formats: string[][], col: number, start: number, count: number): (Run & { format: string })[] {
  return runsOf(count, (i) => formats[start + i][col], () => true).map(({ start: s, count: n, value }) => ({
    start: start + s,
    count: n,
    format: value,
  }));
}
