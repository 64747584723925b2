/**
 * WorkbookGateway in memory: sheets of cells with formats, bold, indent, outline levels and widths, tables,
 * validations, defined names, settings and bindings. Higher layers test against it and the browser workbench
 * renders it. It keeps Excel's rules that callers can observe (unique names, text stays text, tables grow by
 * inserting rows, names move with their cells) and none of its transport (no syncs, no payload limit).
 * It does not calculate: a formula's result is what showResult says (tests) or what `calculatedCells`
 * answers (the workbench overrides it with its formula engine's results).
 */
import type { DateSystem } from '../engine/dates';
import { boxA1, cellA1, MAX_COLS, parseBox, parseCell, parseQualified, qualify, type Box } from '../engine/ports/address';
import type { SecretStore } from '../engine/ports/storage';
import {
  GatewayError,
  MAX_OUTLINE_LEVEL,
  type BindingRecord,
  type BlockLocation,
  type CellRef,
  type ChartPlacement,
  type ChartSpec,
  type ChartUpdate,
  type GridWrite,
  type Json,
  type KeyedResult,
  type RangeRead,
  type ReadValue,
  type RowUpdate,
  type SelectionRead,
  type SheetContent,
  type SheetInfo,
  type TableRead,
  type TableRef,
  type TableSpec,
  type ValuesCopy,
  type ValuesCopyOptions,
  type WorkbookGateway,
  type WriteGridOptions,
  type WriteStats,
  type WriteTarget,
  type WriteValue,
  type WrittenRange,
} from '../engine/ports/workbook';
import { fitText, GENERAL_FORMAT, planGrid, TEXT_FORMAT } from './gridPlan';
import { chartText, checkChartSpec, checkDefinedName, checkFormula, checkFormulaBlock, uniqueSheetName, uniqueTableName, unreadableSelection } from './hostRules';

export interface MemoryCell {
  value: ReadValue;
  /** Set by writeFormula only (the memory workbook does not calculate: value stays ''). */
  formula?: string;
  numberFormat: string;
  bold: boolean;
  indent: number;
}

const BLANK: MemoryCell = Object.freeze({ value: '', numberFormat: GENERAL_FORMAT, bold: false, indent: 0 });

class MemorySheet {
  visibility: 'Visible' | 'Hidden' = 'Visible';
  /** Excel's sheet protection (no password): every cell is locked, so no write reaches it. */
  protected = false;
  readonly cells = new Map<string, MemoryCell>();
  readonly widths = new Map<number, number>();
  outline = new Map<number, number>();
  constructor(public name: string) {}

  get(r: number, c: number): MemoryCell {
    return this.cells.get(`${r},${c}`) ?? BLANK;
  }

  set(r: number, c: number, patch: Partial<MemoryCell>): void {
    const next: MemoryCell = { ...this.get(r, c), ...patch };
    // A value written over a formula replaces it, as in Excel.
    if ('value' in patch && !('formula' in patch)) delete next.formula;
    this.cells.set(`${r},${c}`, next);
  }

  /** Removes sheet rows `gone` in columns [col, col+cols); the cells below close the gaps, in one pass. */
  removeRows(gone: Set<number>, col: number, cols: number): void {
    if (gone.size === 0) return;
    const sorted = [...gone].sort((a, b) => a - b);
    const above = (r: number) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] < r) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const moved: [string, MemoryCell][] = [];
    for (const [key, cell] of this.cells) {
      const [r, c] = key.split(',').map(Number);
      if (c < col || c >= col + cols || r < sorted[0]) continue;
      this.cells.delete(key);
      if (!gone.has(r)) moved.push([`${r - above(r)},${c}`, cell]);
    }
    for (const [key, cell] of moved) this.cells.set(key, cell);
  }

  /** Removes whole sheet rows [from, from+count) and moves the rows below up, outline levels too. */
  deleteRows(from: number, count: number): void {
    this.removeRows(new Set(Array.from({ length: count }, (_, i) => from + i)), 0, MAX_COLS);
    this.outline = shiftedRows(this.outline, from, -count);
  }

  /** Inserts `count` whole blank rows before row `at`, moving the rows from there down, outline levels too. */
  insertRows(at: number, count: number): void {
    this.shiftRows(at, 0, MAX_COLS, count);
    this.outline = shiftedRows(this.outline, at, count);
  }

  /** Moves the cells of columns [col, col+cols) at or below `from` by `delta` rows, as Excel's insert/delete do. */
  shiftRows(from: number, col: number, cols: number, delta: number): void {
    const moved: [string, MemoryCell][] = [];
    for (const [key, cell] of this.cells) {
      const [r, c] = key.split(',').map(Number);
      if (r >= from && c >= col && c < col + cols) {
        this.cells.delete(key);
        moved.push([`${r + delta},${c}`, cell]);
      }
    }
    for (const [key, cell] of moved) this.cells.set(key, cell);
  }
}

/** Row-keyed entries (outline levels) after rows from `from` move by `delta` (rows deleted when negative). */
function shiftedRows<T>(rows: Map<number, T>, from: number, delta: number): Map<number, T> {
  const out = new Map<number, T>();
  for (const [r, v] of rows) {
    if (r < from) out.set(r, v);
    else if (r >= from - Math.min(0, delta)) out.set(r + delta, v);
  }
  return out;
}

/** The smallest box around cells keyed "row,col", or null for none. */
function boundingBox(keys: Iterable<string>): Box | null {
  let top = Infinity;
  let left = Infinity;
  let bottom = -1;
  let right = -1;
  for (const key of keys) {
    const [r, c] = key.split(',').map(Number);
    top = Math.min(top, r);
    left = Math.min(left, c);
    bottom = Math.max(bottom, r);
    right = Math.max(right, c);
  }
  return bottom < 0 ? null : { row: top, col: left, rows: bottom - top + 1, cols: right - left + 1 };
}

/**
 * A workbook-scoped defined name. `box` is null once Excel has turned the reference into #REF! (every row of
 * it, or its sheet, deleted).
 */
interface MemoryName {
  name: string;
  sheet: MemorySheet;
  box: Box | null;
  visible: boolean;
}

interface MemoryTable {
  name: string;
  sheet: MemorySheet;
  /** Header row and first column. */
  row: number;
  col: number;
  columns: string[];
  formats: string[];
  rows: number;
  validations: Map<string, string>;
}

/** Cells a chart reads; box null once Excel made the reference #REF! (its rows or its sheet deleted). */
interface MemoryRef {
  sheet: MemorySheet;
  box: Box | null;
}

interface MemoryChart {
  name: string;
  sheet: MemorySheet;
  /** 'line' or 'column' for the add-in's; a user's chart may be of any kind Excel has. */
  kind: string;
  title: string;
  /** The cells it covers (it moves with them, as Excel's default "move and size with cells"). */
  over: Box;
  series: { name: string; values: MemoryRef | null; categories: MemoryRef | null }[];
}

/** A chart as the workbook shows it (tests and the workbench): its cells and the values they hold now. */
export interface MemoryChartView {
  name: string;
  sheet: string;
  kind: string;
  title: string;
  /** The cells it covers, on its sheet ("P2:W18"). */
  over: string;
  /** The number format of its first series' first cell: Excel's value axis is "linked to source" by default. */
  valueFormat: string;
  series: {
    name: string;
    /** Sheet-qualified, or null for #REF!. */
    values: string | null;
    categories: string | null;
    /** What the chart plots: each cell's value as calculated. */
    shown: ReadValue[];
    labels: ReadValue[];
  }[];
}

/** A reference after rows from `from` of its sheet move by `delta` (deleted when negative), as names move. */
function movedBox(box: Box, from: number, delta: number): Box | null {
  if (delta >= 0) {
    if (from <= box.row) return { ...box, row: box.row + delta };
    if (from < box.row + box.rows) return { ...box, rows: box.rows + delta };
    return box;
  }
  const end = from - delta;
  const lost = Math.max(0, Math.min(end, box.row + box.rows) - Math.max(from, box.row));
  if (end <= box.row) return { ...box, row: box.row + delta };
  if (lost === box.rows) return null;
  if (lost > 0) return { ...box, row: Math.min(box.row, from), rows: box.rows - lost };
  return box;
}

export const MEMORY_LISTS_SHEET = 'FinLists';

/** Excel refuses every change to a protected sheet's cells (they are all locked), and to its charts. */
function writable(sheet: MemorySheet): MemorySheet {
  if (sheet.protected) throw new GatewayError('Protected', `The sheet ${sheet.name} is protected: unprotect it (Review > Unprotect Sheet) to change it.`, 'AccessDenied');
  return sheet;
}

function memoryStats(operation: string, rows: number): WriteStats {
  return { operation, rows, syncs: 0, chunks: 1, rowsPerChunk: rows, largestPayloadBytes: 0, retries: 0 };
}

function keyOf(v: ReadValue | WriteValue): string {
  return v === null ? '' : String(v);
}

export interface MemoryGatewayOptions {
  dateSystem?: DateSystem;
  /** Sheets to start with; the first is active. Default: one "Sheet1". */
  sheets?: string[];
}

export class MemoryGateway implements WorkbookGateway {
  private readonly sheets: MemorySheet[] = [];
  private readonly tables: MemoryTable[] = [];
  private readonly settings = new Map<string, string>();
  private readonly bindings = new Map<string, string>();
  /** By lower-cased name: Excel compares names case-insensitively. */
  private readonly names = new Map<string, MemoryName>();
  private readonly charts: MemoryChart[] = [];
  /** Results shown by showResult, by sheet and anchor cell ("row,col"). */
  private readonly shown = new Map<MemorySheet, Map<string, ReadValue | ReadValue[][]>>();
  private readonly dateSystem: DateSystem;
  private active: MemorySheet;
  /** The selected areas; the active cell is the top-left cell of the first. */
  private selection: { sheet: MemorySheet; areas: Box[] };
  private stats: WriteStats | undefined;

  constructor(options: MemoryGatewayOptions = {}) {
    for (const name of options.sheets ?? ['Sheet1']) this.sheets.push(new MemorySheet(name));
    this.active = this.sheets[0];
    this.selection = { sheet: this.active, areas: [{ row: 0, col: 0, rows: 1, cols: 1 }] };
    this.dateSystem = options.dateSystem ?? 1900;
  }

  get lastWriteStats(): WriteStats | undefined {
    return this.stats;
  }

  // Inspection (tests and the workbench) ------------------------------------------------------------

  sheetNames(): string[] {
    return this.sheets.map((s) => s.name);
  }

  cell(sheet: string, a1: string): MemoryCell {
    const { row, col } = parseCell(a1);
    return { ...this.sheet(sheet).get(row, col) };
  }

  outlineLevel(sheet: string, row: number): number {
    return this.sheet(sheet).outline.get(row) ?? 0;
  }

  columnWidth(sheet: string, col: number): number | undefined {
    return this.sheet(sheet).widths.get(col);
  }

  visibility(sheet: string): 'Visible' | 'Hidden' {
    return this.sheet(sheet).visibility;
  }

  activeSheetName(): string {
    return this.active.name;
  }

  /** The list source of the validation on a cell, if a table column there has one. */
  validationSource(sheet: string, a1: string): string | undefined {
    const { row, col } = parseCell(a1);
    const t = this.tables.find((t) => t.sheet.name === sheet && row > t.row && row <= t.row + Math.max(1, t.rows) && col >= t.col && col < t.col + t.columns.length);
    return t?.validations.get(t.columns[col - t.col]);
  }

  /** Selects a cell ("C5"), a range ("B2:D9") or several areas ("A1:B2,D4"); the active cell is the first's top-left. */
  select(sheet: string, a1: string): void {
    this.selection = { sheet: this.sheet(sheet), areas: a1.split(',').map((area) => parseBox(area)) };
    // As in Excel, the selection is on the active sheet.
    this.active = this.selection.sheet;
  }

  /** The selected areas and their sheet (the workbench draws them). */
  selectedAreas(): { sheet: string; areas: Box[] } {
    return { sheet: this.selection.sheet.name, areas: this.selection.areas.map((a) => ({ ...a })) };
  }

  /** The tables on a sheet, as Excel's Table Design tab would name them. */
  sheetTables(sheet: string): TableRef[] {
    const s = this.sheet(sheet);
    return this.tables.filter((t) => t.sheet === s).map((t) => this.tableRef(t));
  }

  /** The defined names, as the Name Manager would list them if it showed hidden ones. */
  definedNames(): { name: string; visible: boolean; address: string | null }[] {
    return [...this.names.values()].map((n) => ({ name: n.name, visible: n.visible, address: n.box && qualify(n.sheet.name, n.box) }));
  }

  // What a user does in Excel (tests and the workbench) ------------------------------------------------

  /** The user types a value into a cell. */
  typeValue(sheet: string, a1: string, value: string | number): void {
    const { row, col } = parseCell(a1);
    this.sheet(sheet, 'write').set(row, col, { value });
  }

  /**
   * What Excel calculated for the formula in a cell, since the memory workbook cannot: a value, an error code
   * ('#N/A'), '#BUSY!' while a custom function computes, or a matrix that spills right and down from the cell
   * as a dynamic array does (into blank cells only; '#SPILL!' otherwise).
   */
  showResult(sheet: string, a1: string, result: ReadValue | ReadValue[][]): void {
    const s = this.sheet(sheet);
    const { row, col } = parseCell(a1);
    const results = this.shown.get(s) ?? new Map<string, ReadValue | ReadValue[][]>();
    results.set(`${row},${col}`, result);
    this.shown.set(s, results);
  }

  /**
   * The calculated values of a sheet's formula cells and of the cells their arrays spill into, by "row,col"
   * (0-based). Cells holding a constant are not in it.
   */
  protected calculatedCells(sheet: string): ReadonlyMap<string, ReadValue> {
    const s = this.sheet(sheet);
    const out = new Map<string, ReadValue>();
    for (const [key, result] of this.shown.get(s) ?? []) {
      const [row, col] = key.split(',').map(Number);
      if (s.get(row, col).formula === undefined) continue; // a value typed over the formula replaced it
      if (!Array.isArray(result)) {
        out.set(key, result);
        continue;
      }
      const blocked = result.some((r, i) => r.some((_, j) => (i > 0 || j > 0) && (s.get(row + i, col + j).value !== '' || s.get(row + i, col + j).formula !== undefined)));
      if (blocked) {
        out.set(key, '#SPILL!');
        continue;
      }
      result.forEach((r, i) => r.forEach((v, j) => out.set(`${row + i},${col + j}`, v)));
    }
    return out;
  }

  /** The user groups `count` whole rows from 1-based row `first` (Data > Group): each goes one level deeper. */
  groupSheetRows(sheet: string, first: number, count: number): void {
    const s = this.sheet(sheet, 'write');
    for (let r = first - 1; r < first - 1 + count; r++) s.outline.set(r, Math.min(MAX_OUTLINE_LEVEL, (s.outline.get(r) ?? 0) + 1));
  }

  /**
   * The user inserts `count` whole rows before 1-based row `before`: the cells, tables and names below move
   * down, and a name or table the rows land inside grows, as in Excel.
   */
  insertSheetRows(sheet: string, before: number, count: number): void {
    const s = this.sheet(sheet, 'write');
    const at = before - 1;
    s.insertRows(at, count);
    this.chartRowsMoved(s, at, count);
    for (const t of this.tables) {
      if (t.sheet !== s) continue;
      if (at <= t.row) t.row += count;
      else if (at <= t.row + Math.max(1, t.rows)) t.rows += count;
    }
    for (const n of this.names.values()) {
      if (n.sheet !== s || !n.box) continue;
      if (at <= n.box.row) n.box = { ...n.box, row: n.box.row + count };
      else if (at < n.box.row + n.box.rows) n.box = { ...n.box, rows: n.box.rows + count };
    }
  }

  /**
   * The user deletes whole 1-based rows [first, first+count): the rows below move up, a name loses the rows
   * it had among them and becomes #REF! when it loses them all, as in Excel. (Rows through a table are not
   * modelled.)
   */
  deleteSheetRows(sheet: string, first: number, count: number): void {
    const s = this.sheet(sheet, 'write');
    const from = first - 1;
    const end = from + count;
    for (const t of this.tables) {
      if (t.sheet !== s) continue;
      if (end <= t.row) t.row -= count;
      else if (from <= t.row + Math.max(1, t.rows)) throw new GatewayError('Host', 'memory: deleting rows through a table is not modelled');
    }
    s.deleteRows(from, count);
    this.chartRowsMoved(s, from, -count);
    for (const n of this.names.values()) {
      if (n.sheet !== s || !n.box) continue;
      const { row, rows } = n.box;
      const lost = Math.max(0, Math.min(end, row + rows) - Math.max(from, row));
      if (end <= row) n.box = { ...n.box, row: row - count };
      else if (lost === rows) n.box = null;
      else if (lost > 0) n.box = { ...n.box, row: Math.min(row, from), rows: rows - lost };
    }
  }

  /** The user renames a sheet: names and tables on it follow (they refer to the sheet, not its name). */
  renameSheet(from: string, to: string): void {
    const s = this.sheet(from);
    if (this.sheets.some((other) => other !== s && other.name.toLowerCase() === to.toLowerCase())) throw new GatewayError('InvalidInput', `A sheet named ${to} exists`);
    s.name = to;
  }

  /** The user deletes a sheet: its tables go, and names on it become #REF!. */
  deleteSheet(name: string): void {
    const s = this.sheet(name);
    if (this.sheets.length === 1) throw new GatewayError('Host', 'A workbook keeps one sheet');
    this.sheets.splice(this.sheets.indexOf(s), 1);
    for (let i = this.tables.length - 1; i >= 0; i--) if (this.tables[i].sheet === s) this.tables.splice(i, 1);
    for (const n of this.names.values()) if (n.sheet === s) n.box = null;
    // Its charts go with it; charts elsewhere that read it show #REF!.
    for (let i = this.charts.length - 1; i >= 0; i--) if (this.charts[i].sheet === s) this.charts.splice(i, 1);
    for (const ref of this.chartRefs()) if (ref.sheet === s) ref.box = null;
    if (this.active === s) this.active = this.sheets[0];
    if (this.selection.sheet === s) this.selection = { sheet: this.active, areas: [{ row: 0, col: 0, rows: 1, cols: 1 }] };
  }

  // Blocks -----------------------------------------------------------------------------------------

  /** The sheet; for a write, refused as Excel refuses it while the sheet is protected (AccessDenied). */
  private sheet(name: string, use: 'read' | 'write' = 'read'): MemorySheet {
    const s = this.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!s) throw new GatewayError('NotFound', `No sheet named ${name}`);
    if (use === 'write') writable(s);
    return s;
  }

  private resolve(target: WriteTarget): { sheet: MemorySheet; row: number; col: number; isNew: boolean } {
    if (target.kind === 'anchor') {
      const cell = target.cell.includes('!') ? parseQualified(target.cell).box : parseBox(target.cell);
      return { sheet: this.sheet(target.sheet, 'write'), row: cell.row, col: cell.col, isNew: false };
    }
    const sheet = new MemorySheet(uniqueSheetName(target.name, this.sheetNames()));
    this.sheets.push(sheet);
    if (target.activate !== false) this.showSheet(sheet);
    return { sheet, row: 0, col: 0, isNew: true };
  }

  async writeGrid(target: WriteTarget, grid: GridWrite, options: WriteGridOptions = {}): Promise<WrittenRange> {
    const plan = planGrid(grid);
    if (options.name !== undefined) checkDefinedName(options.name);
    if (target.kind === 'anchor') this.sheet(target.sheet, 'write');
    if (options.replace) {
      const old = parseQualified(options.replace.address);
      const sheet = this.sheet(old.sheet, 'write');
      // What the block grouped, undone (see WriteGridOptions.replace): each row loses the levels it gained.
      const groups = options.replace.rowGroups ?? Array.from({ length: options.replace.outlineDepth ?? 0 }, () => ({ start: 0, count: old.box.rows }));
      for (const g of groups) {
        for (let r = old.box.row + g.start; r < old.box.row + Math.min(old.box.rows, g.start + g.count); r++) {
          const level = Math.max(0, (sheet.outline.get(r) ?? 0) - 1);
          if (level) sheet.outline.set(r, level);
          else sheet.outline.delete(r);
        }
      }
      for (let r = old.box.row; r < old.box.row + old.box.rows; r++) {
        for (let c = old.box.col; c < old.box.col + old.box.cols; c++) sheet.cells.delete(`${r},${c}`);
      }
    }
    const at = this.resolve(target);
    const bold = new Set(plan.boldRuns.flatMap((run) => Array.from({ length: run.count }, (_, i) => run.start + i)));
    const indent = new Map(plan.indentRuns.flatMap((run) => Array.from({ length: run.count }, (_, i) => [run.start + i, run.level] as const)));
    for (let r = 0; r < plan.rows; r++) {
      for (let c = 0; c < plan.cols; c++) {
        at.sheet.set(at.row + r, at.col + c, {
          value: plan.values[r][c],
          numberFormat: plan.formats[r][c],
          bold: bold.has(r),
          indent: c === plan.indentColumn ? (indent.get(r) ?? 0) : at.sheet.get(at.row + r, at.col + c).indent,
        });
      }
    }
    plan.columnWidths.forEach((w, c) => {
      if (w !== null) at.sheet.widths.set(at.col + c, w);
    });
    for (const run of plan.outlineRuns) {
      for (let r = at.row + run.start; r < at.row + run.start + run.count; r++) {
        at.sheet.outline.set(r, Math.min(MAX_OUTLINE_LEVEL, (at.sheet.outline.get(r) ?? 0) + 1));
      }
    }
    this.stats = memoryStats('writeGrid', plan.rows);
    const box = { row: at.row, col: at.col, rows: plan.rows, cols: plan.cols };
    if (options.name !== undefined) this.names.set(options.name.toLowerCase(), { name: options.name, sheet: at.sheet, box, visible: options.nameVisible === true });
    const rowGroups = plan.outlineRuns.map(({ start, count }) => ({ start, count }));
    return { sheet: at.sheet.name, address: qualify(at.sheet.name, box), rowCount: plan.rows, columnCount: plan.cols, ...(rowGroups.length > 0 ? { rowGroups } : {}) };
  }

  async readRange(address: string): Promise<RangeRead> {
    const { sheet: name, box } = parseQualified(address);
    const sheet = this.sheet(name);
    const cells = (r: number) => Array.from({ length: box.cols }, (_, c) => sheet.get(box.row + r, box.col + c));
    const rows = Array.from({ length: box.rows }, (_, r) => cells(r));
    this.stats = memoryStats('readRange', box.rows);
    return {
      address: qualify(sheet.name, box),
      values: rows.map((row) => row.map((c) => c.value)),
      numberFormats: rows.map((row) => row.map((c) => c.numberFormat)),
    };
  }

  async findContent(address: string): Promise<string | null> {
    const { sheet: name, box } = parseQualified(address);
    const sheet = this.sheet(name);
    let found: Box | null = null;
    for (let r = box.row; r < box.row + box.rows; r++) {
      for (let c = box.col; c < box.col + box.cols; c++) {
        const cell = sheet.get(r, c);
        if (cell.value === '' && cell.formula === undefined) continue;
        const top = Math.min(found?.row ?? r, r);
        const left = Math.min(found?.col ?? c, c);
        const bottom = Math.max(found ? found.row + found.rows - 1 : r, r);
        const right = Math.max(found ? found.col + found.cols - 1 : c, c);
        found = { row: top, col: left, rows: bottom - top + 1, cols: right - left + 1 };
      }
    }
    return found && qualify(sheet.name, found);
  }

  async locateBlock(name: string): Promise<BlockLocation> {
    const n = this.names.get(name.toLowerCase());
    if (!n) return { state: 'missing' };
    if (!n.box) return { state: 'broken' };
    return { state: 'found', sheet: n.sheet.name, address: qualify(n.sheet.name, n.box), rowCount: n.box.rows, columnCount: n.box.cols };
  }

  async deleteName(name: string): Promise<void> {
    this.names.delete(name.toLowerCase());
  }

  async nameRange(address: string, name: string): Promise<void> {
    checkDefinedName(name);
    const { sheet, box } = parseQualified(address);
    this.names.set(name.toLowerCase(), { name, sheet: this.sheet(sheet), box, visible: true });
  }

  // Tables -----------------------------------------------------------------------------------------

  private table(name: string): MemoryTable {
    const t = this.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (!t) throw new GatewayError('NotFound', `No table named ${name}`);
    return t;
  }

  private tableRef(t: MemoryTable): TableRef {
    const box: Box = { row: t.row, col: t.col, rows: 1 + Math.max(1, t.rows), cols: t.columns.length };
    return { name: t.name, sheet: t.sheet.name, address: qualify(t.sheet.name, box) };
  }

  private column(t: MemoryTable, name: string): number {
    const c = t.columns.indexOf(name);
    if (c < 0) throw new GatewayError('NotFound', `Table ${t.name} has no column ${name}`);
    return c;
  }

  /** Same conversions as Excel gets from OfficeGateway: text columns hold text, numbers never become text. */
  private convert(text: boolean, v: WriteValue | undefined, strict: boolean, where: string): ReadValue {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new GatewayError('InvalidInput', `${where}: not a finite number`);
      return text ? String(v) : v;
    }
    if (typeof v === 'string') {
      if (strict && !text) throw new GatewayError('InvalidInput', `${where}: text in a number column`);
      return fitText(v);
    }
    throw new GatewayError('InvalidInput', `${where}: unsupported value type ${typeof v}`);
  }

  private put(t: MemoryTable, r: number, c: number, value: ReadValue): void {
    const numberFormat = typeof value === 'string' && value !== '' ? TEXT_FORMAT : t.formats[c];
    t.sheet.set(t.row + 1 + r, t.col + c, { value, numberFormat });
  }

  async createTable(spec: TableSpec): Promise<TableRef> {
    if (spec.columns.length === 0) throw new GatewayError('InvalidInput', 'A table needs at least one column');
    const names = new Set<string>();
    for (const col of spec.columns) {
      const key = col.name.trim().toLowerCase();
      if (!key || names.has(key)) throw new GatewayError('InvalidInput', `Blank or duplicate table column ${col.name}`);
      names.add(key);
    }
    spec.rows.forEach((row, r) => {
      if (row.length > spec.columns.length) throw new GatewayError('InvalidInput', `Row ${r} has ${row.length} cells for ${spec.columns.length} columns`);
    });
    const formats = spec.columns.map((c) => (c.kind === 'text' ? TEXT_FORMAT : c.numberFormat || GENERAL_FORMAT));
    const values = spec.rows.map((row, r) => spec.columns.map((col, c) => this.convert(col.kind === 'text', row[c], true, `Row ${r}, column ${col.name}`)));
    const at = this.resolve(spec.target);
    const box = { row: at.row, col: at.col, rows: 1 + Math.max(1, spec.rows.length), cols: spec.columns.length };
    const overlaps = this.tables.some(
      (t) => t.sheet === at.sheet && t.row < box.row + box.rows && box.row < t.row + 1 + Math.max(1, t.rows) && t.col < box.col + box.cols && box.col < t.col + t.columns.length,
    );
    if (overlaps) throw new GatewayError('InvalidInput', 'A table cannot overlap another table');
    const t: MemoryTable = {
      name: uniqueTableName(spec.name, this.tables.map((x) => x.name)),
      sheet: at.sheet,
      row: at.row,
      col: at.col,
      columns: spec.columns.map((c) => c.name),
      formats,
      rows: spec.rows.length,
      validations: new Map(),
    };
    spec.columns.forEach((col, c) => {
      at.sheet.set(at.row, at.col + c, { value: col.name, numberFormat: TEXT_FORMAT });
      if (col.width !== undefined) at.sheet.widths.set(at.col + c, col.width);
    });
    values.forEach((row, r) => row.forEach((v, c) => this.put(t, r, c, v)));
    this.tables.push(t);
    this.stats = memoryStats('createTable', spec.rows.length);
    return this.tableRef(t);
  }

  async appendRows(table: string, rows: WriteValue[][]): Promise<TableRef> {
    const t = this.table(table);
    writable(t.sheet);
    rows.forEach((row, r) => {
      if (row.length > t.columns.length) throw new GatewayError('InvalidInput', `Row ${r} has ${row.length} cells for ${t.columns.length} columns`);
    });
    const values = rows.map((row, i) => t.columns.map((name, c) => this.convert(t.formats[c] === TEXT_FORMAT, row[c], false, `Row ${i}, column ${name}`)));
    // Excel inserts table rows: whatever sat below the table in its columns moves down. An empty table
    // already owns one blank row, which the first new row fills.
    const grow = t.rows === 0 ? Math.max(0, rows.length - 1) : rows.length;
    t.sheet.shiftRows(t.row + 1 + Math.max(1, t.rows), t.col, t.columns.length, grow);
    values.forEach((row, i) => row.forEach((v, c) => this.put(t, t.rows + i, c, v)));
    t.rows += rows.length;
    this.stats = memoryStats('appendRows', rows.length);
    return this.tableRef(t);
  }

  private keyIndex(t: MemoryTable, keyColumn: string): Map<string, number[]> {
    const c = this.column(t, keyColumn);
    const index = new Map<string, number[]>();
    for (let r = 0; r < t.rows; r++) {
      const k = keyOf(t.sheet.get(t.row + 1 + r, t.col + c).value);
      index.set(k, [...(index.get(k) ?? []), r]);
    }
    return index;
  }

  async updateRowsByKey(table: string, keyColumn: string, updates: RowUpdate[]): Promise<KeyedResult> {
    const t = this.table(table);
    writable(t.sheet);
    const index = this.keyIndex(t, keyColumn);
    const missing: (string | number)[] = [];
    let count = 0;
    for (const u of updates) {
      const rows = index.get(keyOf(u.key));
      if (!rows) {
        missing.push(u.key);
        continue;
      }
      const cells = Object.entries(u.values).map(([name, v]) => {
        const c = this.column(t, name);
        return [c, this.convert(t.formats[c] === TEXT_FORMAT, v, false, `Key ${u.key}, column ${name}`)] as const;
      });
      for (const r of rows) {
        count++;
        for (const [c, v] of cells) this.put(t, r, c, v);
      }
    }
    this.stats = memoryStats('updateRowsByKey', count);
    return { count, missing };
  }

  async deleteRowsByKey(table: string, keyColumn: string, keys: (string | number)[]): Promise<KeyedResult> {
    const t = this.table(table);
    writable(t.sheet);
    const index = this.keyIndex(t, keyColumn);
    const missing: (string | number)[] = [];
    const rows = new Set<number>();
    for (const k of keys) {
      const found = index.get(keyOf(k));
      if (!found) missing.push(k);
      else found.forEach((r) => rows.add(r));
    }
    // Excel keeps one (emptied) body row when every row goes.
    const all = rows.size === t.rows && t.rows > 0;
    const gone = new Set([...rows].filter((r) => !(all && r === 0)).map((r) => t.row + 1 + r));
    if (all) for (let c = 0; c < t.columns.length; c++) t.sheet.set(t.row + 1, t.col + c, { value: '' });
    t.sheet.removeRows(gone, t.col, t.columns.length);
    t.rows -= rows.size;
    this.stats = memoryStats('deleteRowsByKey', rows.size);
    return { count: rows.size, missing };
  }

  async readTable(table: string): Promise<TableRead> {
    const t = this.table(table);
    const rows = Array.from({ length: t.rows }, (_, r) => t.columns.map((_, c) => t.sheet.get(t.row + 1 + r, t.col + c).value));
    this.stats = memoryStats('readTable', t.rows);
    return { ...this.tableRef(t), columns: [...t.columns], rows };
  }

  async setListValidation(table: string, column: string, items: string[], listName = `${table}.${column}`): Promise<void> {
    const t = this.table(table);
    writable(t.sheet);
    this.column(t, column);
    let helper = this.sheets.find((s) => s.name === MEMORY_LISTS_SHEET);
    if (!helper) {
      helper = new MemorySheet(MEMORY_LISTS_SHEET);
      helper.visibility = 'Hidden';
      this.sheets.push(helper);
    }
    let col = 0;
    while (helper.get(0, col).value !== '' && helper.get(0, col).value !== listName) col++;
    for (const key of [...helper.cells.keys()]) if (key.endsWith(`,${col}`)) helper.cells.delete(key);
    helper.set(0, col, { value: listName, numberFormat: TEXT_FORMAT });
    items.forEach((item, i) => helper.set(1 + i, col, { value: fitText(item), numberFormat: TEXT_FORMAT }));
    if (items.length === 0) t.validations.delete(column);
    else t.validations.set(column, `=${qualify(MEMORY_LISTS_SHEET, { row: 1, col, rows: items.length, cols: 1 }, true)}`);
    this.stats = memoryStats('setListValidation', items.length);
  }

  // Sheets -----------------------------------------------------------------------------------------

  async listSheets(): Promise<SheetInfo[]> {
    return this.sheets.map((s) => ({ name: s.name, visible: s.visibility === 'Visible' }));
  }

  async readSheet(name: string): Promise<SheetContent> {
    const sheet = this.sheet(name);
    const calculated = this.calculatedCells(sheet.name);
    const filled = [...sheet.cells].filter(([, cell]) => cell.value !== '' || cell.formula !== undefined).map(([key]) => key);
    const used = boundingBox([...filled, ...calculated.keys()]);
    this.stats = memoryStats('readSheet', used?.rows ?? 0);
    if (!used) return { sheet: sheet.name, address: null, values: [], formulas: [] };
    const rows = Array.from({ length: used.rows }, (_, r) => Array.from({ length: used.cols }, (_, c) => [used.row + r, used.col + c] as const));
    return {
      sheet: sheet.name,
      address: qualify(sheet.name, used),
      values: rows.map((row) => row.map(([r, c]) => calculated.get(`${r},${c}`) ?? sheet.get(r, c).value)),
      formulas: rows.map((row) => row.map(([r, c]) => sheet.get(r, c).formula ?? null)),
    };
  }

  /** The memory workbook does not calculate; the workbench's book answers for its formula engine. */
  async isCalculating(): Promise<boolean> {
    return false;
  }

  /**
   * As Excel's Worksheet.copy then Paste Values from the original: the copy keeps formats, widths, bold,
   * indents, outline and tables (renamed, as Excel names a copied table), takes the values the original
   * shows, and loses formulas and drop-down lists; the note goes into rows inserted above.
   */
  async copySheetAsValues(name: string, options: ValuesCopyOptions): Promise<ValuesCopy> {
    const source = this.sheet(name);
    const calculated = this.calculatedCells(source.name);
    const copy = new MemorySheet(uniqueSheetName(options.name, this.sheetNames()));
    this.sheets.splice(this.sheets.indexOf(source) + 1, 0, copy);
    for (const [key, cell] of source.cells) {
      const { formula: _formula, ...plain } = cell;
      copy.cells.set(key, { ...plain, value: calculated.get(key) ?? cell.value });
    }
    for (const [key, value] of calculated) {
      if (!copy.cells.has(key)) copy.cells.set(key, { ...BLANK, value });
    }
    for (const [c, w] of source.widths) copy.widths.set(c, w);
    copy.outline = new Map(source.outline);
    const noteRows = options.note.length > 0 ? options.note.length + 1 : 0;
    for (const t of this.tables.filter((t) => t.sheet === source)) {
      this.tables.push({
        ...t,
        name: uniqueTableName(t.name, this.tables.map((x) => x.name)),
        sheet: copy,
        row: t.row + noteRows,
        columns: [...t.columns],
        formats: [...t.formats],
        validations: new Map(),
      });
    }
    // Excel's copy of a sheet keeps its charts, and a chart that read the sheet's own cells reads the copy's.
    for (const c of this.charts.filter((c) => c.sheet === source)) {
      const onCopy = (ref: MemoryRef | null): MemoryRef | null => ref && { sheet: ref.sheet === source ? copy : ref.sheet, box: ref.box && { ...ref.box } };
      this.charts.push({ ...c, sheet: copy, over: { ...c.over }, series: c.series.map((x) => ({ ...x, values: onCopy(x.values), categories: onCopy(x.categories) })) });
    }
    copy.insertRows(0, noteRows);
    this.chartRowsMoved(copy, 0, noteRows);
    options.note.forEach((line, r) => copy.set(r, 0, { value: fitText(line), numberFormat: TEXT_FORMAT }));
    // A copy of a protected sheet is protected as well (Excel copies the protection).
    copy.protected = source.protected;
    const used = await this.readSheet(copy.name);
    this.stats = memoryStats('copySheetAsValues', source.cells.size);
    return { sheet: copy.name, address: used.address ?? qualify(copy.name, { row: 0, col: 0, rows: 1, cols: 1 }) };
  }

  // Charts -----------------------------------------------------------------------------------------

  private ref(address: string): MemoryRef {
    const { sheet, box } = parseQualified(address);
    return { sheet: this.sheet(sheet), box };
  }

  private chartRefs(): MemoryRef[] {
    return this.charts.flatMap((c) => c.series.flatMap((x) => [x.values, x.categories])).filter((r): r is MemoryRef => r !== null);
  }

  /** Rows of `sheet` from `from` moved by `delta`: the charts' cells and their places follow, as names do. */
  private chartRowsMoved(sheet: MemorySheet, from: number, delta: number): void {
    if (delta === 0) return;
    for (const ref of this.chartRefs()) if (ref.sheet === sheet && ref.box) ref.box = movedBox(ref.box, from, delta);
    for (const c of this.charts) if (c.sheet === sheet) c.over = movedBox(c.over, from, delta) ?? { ...c.over, rows: 1 };
  }

  private chartNamed(sheet: MemorySheet, name: string): MemoryChart | undefined {
    return this.charts.find((c) => c.sheet === sheet && c.name === name);
  }

  private seriesOf(spec: ChartSpec): MemoryChart['series'] {
    return spec.series.map((x) => ({ name: chartText(x.name), values: this.ref(x.values), categories: this.ref(spec.categories) }));
  }

  async addChart(placement: ChartPlacement, spec: ChartSpec, name: string): Promise<void> {
    checkChartSpec(spec, (a) => parseQualified(a).box);
    const sheet = this.sheet(placement.sheet, 'write');
    this.charts.push({ name, sheet, kind: spec.kind, title: chartText(spec.title), over: parseBox(placement.over), series: this.seriesOf(spec) });
    this.stats = memoryStats('addChart', spec.series.length);
  }

  async updateChart(sheet: string, name: string, spec: ChartSpec): Promise<ChartUpdate> {
    checkChartSpec(spec, (a) => parseQualified(a).box);
    const s = this.sheet(sheet);
    const chart = this.chartNamed(s, name);
    if (!chart) return 'missing';
    writable(s);
    chart.title = chartText(spec.title);
    chart.series = this.seriesOf(spec);
    this.stats = memoryStats('updateChart', spec.series.length);
    return 'updated';
  }

  async deleteChart(sheet: string, name: string): Promise<void> {
    const s = this.sheet(sheet);
    const chart = this.chartNamed(s, name);
    if (!chart) return;
    writable(s);
    this.charts.splice(this.charts.indexOf(chart), 1);
  }

  /** The user adds a chart of their own over `over`, each series a range of the workbook (Insert > Chart). */
  addUserChart(sheet: string, over: string, series: { name: string; values: string }[], categories?: string, name = `Chart ${this.charts.length + 1}`): void {
    const s = this.sheet(sheet, 'write');
    this.charts.push({
      name,
      sheet: s,
      kind: 'user',
      title: '',
      over: parseBox(over),
      series: series.map((x) => ({ name: x.name, values: this.ref(x.values), categories: categories ? this.ref(categories) : null })),
    });
  }

  /** The charts on a sheet, with the values their cells hold now. */
  chartsOn(sheet: string): MemoryChartView[] {
    const s = this.sheet(sheet);
    const address = (ref: MemoryRef | null) => (ref?.box ? qualify(ref.sheet.name, ref.box) : null);
    const shown = (ref: MemoryRef | null): ReadValue[] => {
      if (!ref?.box) return [];
      const calculated = this.calculatedCells(ref.sheet.name);
      const out: ReadValue[] = [];
      for (let r = ref.box.row; r < ref.box.row + ref.box.rows; r++) {
        for (let c = ref.box.col; c < ref.box.col + ref.box.cols; c++) out.push(calculated.get(`${r},${c}`) ?? ref.sheet.get(r, c).value);
      }
      return out;
    };
    return this.charts
      .filter((c) => c.sheet === s)
      .map((c) => ({
        name: c.name,
        sheet: s.name,
        kind: c.kind,
        title: c.title,
        over: boxA1(c.over),
        valueFormat: c.series[0]?.values?.box ? c.series[0].values.sheet.get(c.series[0].values.box.row, c.series[0].values.box.col).numberFormat : GENERAL_FORMAT,
        series: c.series.map((x) => ({ name: x.name, values: address(x.values), categories: address(x.categories), shown: shown(x.values), labels: shown(x.categories) })),
      }));
  }

  // Sheet protection ---------------------------------------------------------------------------------

  async protectSheet(sheet: string): Promise<void> {
    this.sheet(sheet).protected = true;
  }

  async unprotectSheet(sheet: string): Promise<void> {
    this.sheet(sheet).protected = false;
  }

  async isSheetProtected(sheet: string): Promise<boolean> {
    return this.sheet(sheet).protected;
  }

  // Workbook ---------------------------------------------------------------------------------------

  async getDateSystem(): Promise<DateSystem> {
    return this.dateSystem;
  }

  async getSelectedCell(): Promise<CellRef> {
    const { sheet, areas } = this.selection;
    const { row, col } = areas[0];
    const cell = cellA1(row, col);
    return { sheet: sheet.name, cell, address: qualify(sheet.name, parseBox(cell)) };
  }

  async getSelection(): Promise<SelectionRead> {
    const { sheet, areas } = this.selection;
    if (areas.length > 1) throw unreadableSelection();
    const box = areas[0];
    const top = sheet.get(box.row, box.col);
    return {
      sheet: sheet.name,
      address: qualify(sheet.name, box),
      rowCount: box.rows,
      columnCount: box.cols,
      topLeft: { formula: top.formula ?? null, value: top.value },
    };
  }

  async writeFormula(cell: CellRef | string, formula: string): Promise<void> {
    checkFormula(formula);
    const { sheet: name, box } = parseQualified(typeof cell === 'string' ? cell : cell.address);
    const sheet = this.sheet(name, 'write');
    const current = sheet.get(box.row, box.col);
    sheet.set(box.row, box.col, {
      value: '',
      formula,
      numberFormat: current.numberFormat === TEXT_FORMAT ? GENERAL_FORMAT : current.numberFormat,
    });
    this.stats = memoryStats('writeFormula', 1);
  }

  async writeFormulas(at: CellRef | string, formulas: readonly (readonly (string | null)[])[]): Promise<void> {
    const { rows } = checkFormulaBlock(formulas);
    const { sheet: name, box } = parseQualified(typeof at === 'string' ? at : at.address);
    const sheet = this.sheet(name, 'write');
    formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        if (formula === null) return;
        const current = sheet.get(box.row + r, box.col + c);
        sheet.set(box.row + r, box.col + c, { value: '', formula, numberFormat: current.numberFormat === TEXT_FORMAT ? GENERAL_FORMAT : current.numberFormat });
      }),
    );
    this.stats = memoryStats('writeFormulas', rows);
  }

  async activateSheet(name: string): Promise<void> {
    const sheet = this.sheet(name);
    if (sheet.visibility !== 'Visible') throw new GatewayError('Host', `Sheet ${name} is hidden`);
    this.showSheet(sheet);
  }

  /** The sheet becomes the active one, and the selection moves there (Excel keeps it on the active sheet). */
  private showSheet(sheet: MemorySheet): void {
    if (this.selection?.sheet !== sheet) this.selection = { sheet, areas: [{ row: 0, col: 0, rows: 1, cols: 1 }] };
    this.active = sheet;
  }

  async readSetting(key: string): Promise<Json | undefined> {
    const raw = this.settings.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as Json);
  }

  async writeSetting(key: string, value: Json): Promise<void> {
    this.settings.set(key, JSON.stringify(value));
  }

  async removeSetting(key: string): Promise<void> {
    this.settings.delete(key);
  }

  async listBindings(): Promise<BindingRecord[]> {
    return [...this.bindings.values()].map((raw) => JSON.parse(raw) as BindingRecord).sort((a, b) => a.id.localeCompare(b.id));
  }

  async saveBinding(binding: BindingRecord): Promise<void> {
    this.bindings.set(binding.id, JSON.stringify(binding));
  }

  async removeBinding(id: string): Promise<void> {
    this.bindings.delete(id);
  }
}

/** For tests and the workbench; a browser build uses OfficeRuntimeSecretStore instead. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }

  async remove(key: string): Promise<void> {
    this.values.delete(key);
  }
}
