// The workbench's workbook: the add-in's MemoryGateway, unchanged in behaviour, plus what a screen needs to
// show it and a user needs to touch it: change notifications, the used extent of each sheet, where the
// tables are, which cells hold formulas, Excel's per-sheet selection, and typing into a cell. Everything is
// layered over the gateway's public methods, so the pane sees exactly the MemoryGateway the tests use.

import { cellA1, MAX_ROWS, parseBox, parseQualified, qualify, type Box } from '../engine/ports/address';
import type {
  CellRef,
  ChartPlacement,
  ChartSpec,
  ChartUpdate,
  GridWrite,
  KeyedResult,
  RowUpdate,
  TableRef,
  ReadValue,
  TableSpec,
  ValuesCopy,
  ValuesCopyOptions,
  WriteGridOptions,
  WriteTarget,
  WriteValue,
  WrittenRange,
} from '../engine/ports/workbook';
import { planGrid } from '../excel/gridPlan';
import { MemoryGateway, type MemoryCell, type MemoryGatewayOptions } from '../excel/memoryGateway';
import type { DateSystem } from '../engine/dates';
import { classifyInput } from './cellInput';
import { isoToSerial, serialToDate } from './numberFormat';

export interface CellPosition {
  sheet: string;
  row: number;
  col: number;
}

export interface TableBox {
  name: string;
  sheet: string;
  /** Header row and first column (0-based). */
  row: number;
  col: number;
  cols: number;
  /** Data rows (0 for an empty table, which still shows one blank body row). */
  dataRows: number;
}

export interface Extent {
  rows: number;
  cols: number;
}

const DATE_LIKE = /(^|[^"\\])(yy|dd|mmm)/i;

/** Excel's words when a locked cell of a protected sheet is typed into. */
const PROTECTED_CELL = "The cell or chart you're trying to change is on a protected sheet. To make a change, unprotect the sheet (Review > Unprotect Sheet).";

export function positionKey(p: CellPosition): string {
  return `${p.sheet.toLowerCase()}!${p.row},${p.col}`;
}

export function positionAddress(p: CellPosition): string {
  return qualify(p.sheet, { row: p.row, col: p.col, rows: 1, cols: 1 });
}

/** The formula engine's side of the book: its results by sheet ("row,col"), and whether it is still at work. */
export interface Calculation {
  results(sheet: string): ReadonlyMap<string, ReadValue>;
  calculating(): boolean;
}

/** The result of typing into a cell. */
export type EditOutcome = { ok: true } | { ok: false; message: string };

export class WorkbenchBook extends MemoryGateway {
  private readonly listeners = new Set<() => void>();
  private readonly formulaListeners = new Set<(at: CellPosition) => void>();
  private readonly cellListeners = new Set<(sheet: string, box: Box) => void>();
  private readonly structureListeners = new Set<() => void>();
  private formulaCheck: ((formula: string) => string | null) | null = null;
  private calculation: Calculation | null = null;
  private version = 0;
  private readonly extents = new Map<string, Extent>();
  private readonly tableBoxes = new Map<string, TableBox>();
  private readonly formulaCells = new Map<string, CellPosition>();
  private readonly selections = new Map<string, { a1: string; active?: { row: number; col: number } }>();
  private selected: CellPosition;
  private readonly system: DateSystem;

  constructor(options: MemoryGatewayOptions = {}) {
    super(options);
    this.system = options.dateSystem ?? 1900;
    const first = this.sheetNames()[0];
    this.selected = { sheet: first, row: 0, col: 0 };
  }

  // Notifications --------------------------------------------------------------------------------------

  /** Called after every change to cells, sheets, tables, selection or the active sheet. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getVersion = (): number => this.version;

  /** Called when a formula lands in a cell (typed, or written by the pane's formula helper). */
  onFormulaWritten(listener: (at: CellPosition) => void): () => void {
    this.formulaListeners.add(listener);
    return () => {
      this.formulaListeners.delete(listener);
    };
  }

  /** Called with each rectangle whose cells were written, or whose rows moved (formulas recalculate). */
  onCellsChanged(listener: (sheet: string, box: Box) => void): () => void {
    this.cellListeners.add(listener);
    return () => {
      this.cellListeners.delete(listener);
    };
  }

  private cellsChanged(sheet: string, box: Box): void {
    for (const l of [...this.cellListeners]) l(sheet, box);
  }

  /**
   * Called when rows or cells are inserted or deleted or rows grouped or ungrouped: Excel then calculates its
   * custom functions again, non-volatile ones included (OfficeDev/office-js#3332, #3911: by design).
   */
  onStructureChanged(listener: () => void): () => void {
    this.structureListeners.add(listener);
    return () => {
      this.structureListeners.delete(listener);
    };
  }

  private structureChanged(): void {
    for (const l of [...this.structureListeners]) l();
  }

  /** Table rows inserted or removed move everything below them in the table's columns. */
  private tableColumnsChanged(t: TableBox): void {
    this.cellsChanged(t.sheet, { row: t.row, col: t.col, rows: MAX_ROWS - t.row, cols: t.cols });
  }

  /** What typing a formula checks first, as Excel refuses a formula it cannot read: a reason, or null. */
  checkFormulasWith(check: (formula: string) => string | null): void {
    this.formulaCheck = check;
  }

  /** Where formula results come from (the formula engine's), so the book reads them as Excel's values do. */
  calculateWith(calculation: Calculation): void {
    this.calculation = calculation;
  }

  protected override calculatedCells(sheet: string): ReadonlyMap<string, ReadValue> {
    return this.calculation ? this.calculation.results(sheet) : super.calculatedCells(sheet);
  }

  override async isCalculating(): Promise<boolean> {
    return this.calculation?.calculating() ?? false;
  }

  private notifying: ReturnType<typeof setTimeout> | null = null;

  /**
   * For layers that change what is shown without changing the book (formula results). The version moves at
   * once; the page hears of it once per turn of the event loop: a sheet of a hundred FIN formulas answering
   * one after the other (the board pack's charts) would otherwise re-render it for each answer, faster than
   * React lets a root commit with updates still pending ("Maximum update depth exceeded").
   */
  touch(): void {
    this.version += 1;
    if (this.notifying !== null) return;
    this.notifying = setTimeout(() => {
      this.notifying = null;
      for (const l of [...this.listeners]) l();
    }, 0);
  }

  // Inspection -----------------------------------------------------------------------------------------

  /** Sheets a user sees as tabs (the hidden helper sheet of drop-down lists is left out). */
  visibleSheets(): string[] {
    return this.sheetNames().filter((s) => this.visibility(s) === 'Visible');
  }

  extent(sheet: string): Extent {
    return this.extents.get(sheet.toLowerCase()) ?? { rows: 0, cols: 0 };
  }

  cellAt(sheet: string, row: number, col: number): MemoryCell {
    return this.cell(sheet, cellA1(row, col));
  }

  tablesOn(sheet?: string): TableBox[] {
    const all = [...this.tableBoxes.values()];
    return sheet ? all.filter((t) => t.sheet.toLowerCase() === sheet.toLowerCase()) : all;
  }

  /** The table a cell belongs to, and whether it is the header row. */
  tableAt(sheet: string, row: number, col: number): { table: TableBox; header: boolean } | null {
    for (const t of this.tablesOn(sheet)) {
      const bodyRows = Math.max(1, t.dataRows);
      if (col >= t.col && col < t.col + t.cols && row >= t.row && row <= t.row + bodyRows) return { table: t, header: row === t.row };
    }
    return null;
  }

  /** Cells that hold a formula now (a value written over one removes it, as in Excel). */
  formulas(): CellPosition[] {
    const out: CellPosition[] = [];
    for (const [key, p] of this.formulaCells) {
      if (this.sheetNames().some((s) => s.toLowerCase() === p.sheet.toLowerCase()) && this.cellAt(p.sheet, p.row, p.col).formula) out.push(p);
      else this.formulaCells.delete(key);
    }
    return out;
  }

  currentCell(): CellPosition {
    return this.selected;
  }

  /** The items of the drop-down list on a cell, when a table column there has one. */
  async listItems(sheet: string, row: number, col: number): Promise<string[] | null> {
    const source = this.validationSource(sheet, cellA1(row, col));
    if (!source) return null;
    const read = await this.readRange(source.replace(/^=/, ''));
    return read.values.map((r) => String(r[0] ?? '')).filter((v) => v !== '');
  }

  // Selection and sheets -------------------------------------------------------------------------------

  /**
   * A range selection ("B2:D9") keeps its top-left cell as the current one, as Excel's Range.select does,
   * unless `active` names another cell of it: a range extended with Shift+Arrow keeps the cell it started
   * from active, wherever that is in the range.
   */
  override select(sheet: string, a1: string, active?: { row: number; col: number }): void {
    super.select(sheet, a1);
    const { row, col } = active ?? parseBox(a1);
    const name = this.sheetNames().find((s) => s.toLowerCase() === sheet.toLowerCase()) ?? sheet;
    this.selected = { sheet: name, row, col };
    this.selections.set(name.toLowerCase(), { a1, active });
    this.touch();
  }

  /** Activates a sheet and moves the selection to the cell last selected there (A1 at first), as Excel does. */
  override async activateSheet(name: string): Promise<void> {
    await super.activateSheet(name);
    this.followActiveSheet(true);
  }

  private followActiveSheet(force = false): void {
    const active = this.activeSheetName();
    if (!force && active.toLowerCase() === this.selected.sheet.toLowerCase()) return;
    const last = this.selections.get(active.toLowerCase());
    this.select(active, last?.a1 ?? 'A1', last?.active);
  }

  // Writes: the gateway's own, observed --------------------------------------------------------------

  private grow(address: string): void {
    const { sheet, box } = parseQualified(address);
    const key = sheet.toLowerCase();
    const e = this.extent(sheet);
    this.extents.set(key, { rows: Math.max(e.rows, box.row + box.rows), cols: Math.max(e.cols, box.col + box.cols) });
  }

  private changed(): void {
    this.followActiveSheet();
    this.touch();
  }

  override async writeGrid(target: WriteTarget, grid: GridWrite, options?: WriteGridOptions): Promise<WrittenRange> {
    try {
      const written = await super.writeGrid(target, grid, options);
      this.grow(written.address);
      const { sheet, box } = parseQualified(written.address);
      this.cellsChanged(sheet, box);
      if ((options?.replace?.outlineDepth ?? 0) > 0 || planGrid(grid).outlineRuns.length > 0) this.structureChanged();
      return written;
    } finally {
      this.changed();
    }
  }

  override async createTable(spec: TableSpec): Promise<TableRef> {
    try {
      const ref = await super.createTable(spec);
      const { box } = parseQualified(ref.address);
      this.tableBoxes.set(ref.name.toLowerCase(), { name: ref.name, sheet: ref.sheet, row: box.row, col: box.col, cols: box.cols, dataRows: spec.rows.length });
      this.grow(ref.address);
      this.cellsChanged(ref.sheet, box);
      return ref;
    } finally {
      this.changed();
    }
  }

  /** Tables below `t` in its columns move when rows are inserted into or removed from `t`, as in Excel. */
  private shiftTablesBelow(t: TableBox, fromRow: number, delta: number): void {
    if (delta === 0) return;
    for (const other of this.tableBoxes.values()) {
      if (other === t || other.sheet.toLowerCase() !== t.sheet.toLowerCase()) continue;
      const overlaps = other.col < t.col + t.cols && t.col < other.col + other.cols;
      if (overlaps && other.row >= fromRow) other.row += delta;
    }
  }

  override async appendRows(table: string, rows: WriteValue[][]): Promise<TableRef> {
    try {
      const ref = await super.appendRows(table, rows);
      const t = this.tableBoxes.get(ref.name.toLowerCase());
      if (t) {
        const before = Math.max(1, t.dataRows);
        t.dataRows += rows.length;
        this.shiftTablesBelow(t, t.row + 1 + before, Math.max(1, t.dataRows) - before);
        this.tableColumnsChanged(t);
      }
      this.grow(ref.address);
      if (rows.length > 0) this.structureChanged();
      return ref;
    } finally {
      this.changed();
    }
  }

  override async updateRowsByKey(table: string, keyColumn: string, updates: RowUpdate[]): Promise<KeyedResult> {
    try {
      const result = await super.updateRowsByKey(table, keyColumn, updates);
      const t = this.tableBoxes.get(table.toLowerCase());
      if (t) this.tableColumnsChanged(t);
      return result;
    } finally {
      this.changed();
    }
  }

  override async deleteRowsByKey(table: string, keyColumn: string, keys: (string | number)[]): Promise<KeyedResult> {
    try {
      const result = await super.deleteRowsByKey(table, keyColumn, keys);
      const t = this.tableBoxes.get(table.toLowerCase());
      if (t) {
        const before = Math.max(1, t.dataRows);
        t.dataRows = Math.max(0, t.dataRows - result.count);
        this.shiftTablesBelow(t, t.row + 1 + before, Math.max(1, t.dataRows) - before);
        this.tableColumnsChanged(t);
      }
      if (result.count > 0) this.structureChanged();
      return result;
    } finally {
      this.changed();
    }
  }

  override async setListValidation(table: string, column: string, items: string[], listName?: string): Promise<void> {
    try {
      await super.setListValidation(table, column, items, listName);
    } finally {
      this.changed();
    }
  }

  override async copySheetAsValues(sheet: string, options: ValuesCopyOptions): Promise<ValuesCopy> {
    try {
      const copy = await super.copySheetAsValues(sheet, options);
      // The note goes into rows inserted above the copy.
      if (options.note.length > 0) this.structureChanged();
      this.grow(copy.address);
      for (const ref of this.sheetTables(copy.sheet)) {
        const { box } = parseQualified(ref.address);
        const dataRows = (await this.readTable(ref.name)).rows.length;
        this.tableBoxes.set(ref.name.toLowerCase(), { name: ref.name, sheet: ref.sheet, row: box.row, col: box.col, cols: box.cols, dataRows });
      }
      return copy;
    } finally {
      this.changed();
    }
  }

  override async addChart(placement: ChartPlacement, spec: ChartSpec, name: string): Promise<void> {
    try {
      await super.addChart(placement, spec, name);
    } finally {
      this.changed();
    }
  }

  override async updateChart(sheet: string, name: string, spec: ChartSpec): Promise<ChartUpdate> {
    try {
      return await super.updateChart(sheet, name, spec);
    } finally {
      this.changed();
    }
  }

  override async deleteChart(sheet: string, name: string): Promise<void> {
    try {
      await super.deleteChart(sheet, name);
    } finally {
      this.changed();
    }
  }

  override async writeFormula(cell: CellRef | string, formula: string): Promise<void> {
    const address = typeof cell === 'string' ? cell : cell.address;
    await super.writeFormula(cell, formula);
    const { sheet, box } = parseQualified(address);
    const name = this.sheetNames().find((s) => s.toLowerCase() === sheet.toLowerCase()) ?? sheet;
    const at: CellPosition = { sheet: name, row: box.row, col: box.col };
    this.formulaCells.set(positionKey(at), at);
    this.grow(positionAddress(at));
    this.changed();
    for (const l of [...this.formulaListeners]) l(at);
  }

  override async writeFormulas(at: CellRef | string, formulas: readonly (readonly (string | null)[])[]): Promise<void> {
    await super.writeFormulas(at, formulas);
    const { sheet, box } = parseQualified(typeof at === 'string' ? at : at.address);
    const name = this.sheetNames().find((s) => s.toLowerCase() === sheet.toLowerCase()) ?? sheet;
    const written: CellPosition[] = [];
    formulas.forEach((row, r) => row.forEach((f, c) => f !== null && written.push({ sheet: name, row: box.row + r, col: box.col + c })));
    for (const cell of written) {
      this.formulaCells.set(positionKey(cell), cell);
      this.grow(positionAddress(cell));
    }
    this.changed();
    for (const cell of written) for (const l of [...this.formulaListeners]) l(cell);
  }

  // Typing into a cell ---------------------------------------------------------------------------------

  /**
   * What a user typing `input` into a cell does in Excel: a formula is entered as a formula, a number as a
   * number, an ISO date as a date serial, anything else as text (a text-formatted cell keeps whatever is
   * typed as text). Number format, bold and indent stay. A drop-down list refuses values not on it.
   */
  async enter(at: CellPosition, input: string): Promise<EditOutcome> {
    const parsed = classifyInput(input);
    if (await this.isSheetProtected(at.sheet)) return { ok: false, message: PROTECTED_CELL };
    if (parsed.kind === 'formula') {
      const problem = this.formulaCheck?.(parsed.formula);
      if (problem) return { ok: false, message: `There's a problem with this formula: ${problem}` };
      await this.writeFormula(positionAddress(at), parsed.formula);
      return { ok: true };
    }
    const items = await this.listItems(at.sheet, at.row, at.col);
    if (items && parsed.kind !== 'blank' && !items.includes(input.trim())) {
      return {
        ok: false,
        message: `"${input.trim()}" is not on this cell's drop-down list. Pick one of its ${items.length} values (or clear the cell).`,
      };
    }
    const current = this.cellAt(at.sheet, at.row, at.col);
    const system = this.system;
    let value: WriteValue;
    let format = current.numberFormat;
    if (current.numberFormat === '@' && parsed.kind !== 'blank') {
      value = input;
    } else {
      switch (parsed.kind) {
        case 'blank':
          value = null;
          break;
        case 'number':
          value = parsed.value;
          break;
        case 'date': {
          const serial = isoToSerial(parsed.iso, system);
          if (serial === null) {
            value = input;
          } else {
            value = serial;
            if (!DATE_LIKE.test(format)) format = 'yyyy-mm-dd';
          }
          break;
        }
        default:
          value = parsed.value;
      }
    }
    await this.writeGrid(
      { kind: 'anchor', sheet: at.sheet, cell: cellA1(at.row, at.col) },
      { values: [[value]], cellFormats: [[format]], boldRows: current.bold ? [0] : [], indentLevels: [current.indent] },
    );
    return { ok: true };
  }

  /**
   * Delete on a selection, as in Excel: the values and formulas of its cells go, their formats stay. A
   * protected sheet refuses it as a whole, with the words typing gets. Cells past the used extent are blank.
   */
  async clearCells(sheet: string, areas: readonly Box[]): Promise<EditOutcome> {
    if (await this.isSheetProtected(sheet)) return { ok: false, message: PROTECTED_CELL };
    const used = this.extent(sheet);
    for (const a of areas) {
      for (let row = a.row; row < Math.min(a.row + a.rows, used.rows); row++) {
        for (let col = a.col; col < Math.min(a.col + a.cols, used.cols); col++) {
          const cell = this.cellAt(sheet, row, col);
          if (cell.formula || (cell.value !== null && cell.value !== '')) await this.enter({ sheet, row, col }, '');
        }
      }
    }
    return { ok: true };
  }

  /** What the formula bar shows for a cell: its formula, else its value as typed. */
  inputText(at: CellPosition): string {
    const c = this.cellAt(at.sheet, at.row, at.col);
    if (c.formula) return c.formula;
    if (typeof c.value === 'number' && DATE_LIKE.test(c.numberFormat)) {
      return serialToDate(c.value, this.system).toISOString().slice(0, 10);
    }
    return typeof c.value === 'boolean' ? (c.value ? 'TRUE' : 'FALSE') : String(c.value);
  }
}
