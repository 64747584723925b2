/**
 * The add-in's only view of a workbook: the port the engine and the task pane talk to. Host-free on purpose;
 * src/excel implements it (OfficeGateway in Excel, MemoryGateway for tests and the browser workbench).
 */

import type { DateSystem } from '../dates';

/**
 * A value the add-in writes. A string is always written as text: it can never become a formula or a number.
 * Text longer than Excel's 32,767-character cell limit is cut to it.
 */
export type WriteValue = string | number | null;

/** A value read back from a cell, as Excel reports it: '' for a blank, booleans if the user typed TRUE/FALSE. */
export type ReadValue = string | number | boolean;

/**
 * Deepest outline level of a row in a GridWrite, counted in nested row groups. Excel speaks of eight outline
 * levels, but its first level is the rows in no group, so a row can sit inside at most seven groups.
 */
export const MAX_OUTLINE_LEVEL = 7;

/**
 * A rendered block (a statement, a report). The pane maps the renderer's grid onto this shape, so the port
 * does not depend on the renderer's types.
 */
export interface GridWrite {
  /** Rows of cells; ragged rows are padded with blanks. string = text, number = number, null = blank. */
  values: WriteValue[][];
  /** Number format per column, for number and blank cells (text cells always get '@'). */
  columnFormats?: (string | null | undefined)[];
  /**
   * Per-cell number formats for number and blank cells, over the column's; sparse rows are fine. The
   * renderer's full format matrix can be passed as is: text cells get '@' whatever it says, and '@' on a
   * blank cell is ignored, so a number typed there later is still a number.
   */
  cellFormats?: (string | null | undefined)[][];
  /** Indexes (0-based, within the grid) of rows written bold. */
  boldRows?: number[];
  /** Indent level per row (0-based index), applied to the cell in `indentColumn`. */
  indentLevels?: (number | null | undefined)[];
  /** Column (0-based, within the grid) that carries the indent; default 0 (the label column). */
  indentColumn?: number;
  /**
   * Outline level per row: 0 = not grouped, n = inside n nested row groups (at most MAX_OUTLINE_LEVEL). Excel
   * folds a group into the row right after it (its +/- sits there; no API puts it above), so a group is made
   * only where that row is its total: in the grid, one level up. Rows right under a row one level up that
   * carries figures (a parent with their subtotal) stay in the enclosing group.
   */
  outlineLevels?: (number | null | undefined)[];
  /** Column widths in points (Excel's unit for columnWidth); null keeps the current width. */
  columnWidths?: (number | null | undefined)[];
}

/** Where a block goes: at a cell of an existing sheet, or on a new sheet named after `name` (made unique). */
export type WriteTarget =
  | { kind: 'anchor'; sheet: string; cell: string }
  | { kind: 'newSheet'; name: string; activate?: boolean };

/** Rows a write grouped (one Range.group by rows): 0-based within the block. */
export interface RowGroup {
  start: number;
  count: number;
}

export interface WriteGridOptions {
  /**
   * The block this one replaces (a refresh in place): its cells are cleared first, and the row groups it made
   * (`rowGroups`, as its write returned them) are undone, last first. Excel cannot report how deeply rows are
   * grouped, and ungrouping takes a level off every row it covers, whoever grouped it: only what the block
   * grouped is ungrouped, so the user's own groups around it stay. A block recorded before its groups were
   * (`outlineDepth` only) has all its rows ungrouped that many times.
   */
  replace?: { address: string; rowGroups?: RowGroup[]; outlineDepth?: number };
  /**
   * Gives the written block a workbook-scoped defined name, which Excel moves with the cells (rows inserted
   * above or inside, the sheet renamed), so a refresh finds the block where it is now (locateBlock). A name
   * already defined is pointed at the new block. The name is hidden (not in the Name box, the Name Manager
   * or formula autocomplete): it is the add-in's bookkeeping, like a binding, and the user cannot break it
   * by editing names, only by editing cells, which locateBlock reports. Excel's rules apply: up to 255
   * characters, a letter, _ or \ first, then letters, digits, _ . ? or \, never a cell reference; names are
   * compared case-insensitively.
   */
  name?: string;
  /**
   * The name is one the user writes in formulas (the reporting period, FIN_PERIOD): visible in the Name box,
   * the Name Manager and formula autocomplete, unlike a block's bookkeeping name.
   */
  nameVisible?: boolean;
}

/** Where a block written with a name is now (locateBlock). */
export type BlockLocation =
  /** The cells the name refers to, wherever Excel has moved them; sheet-qualified ("'P&L 2026'!A4:M43"). */
  | { state: 'found'; sheet: string; address: string; rowCount: number; columnCount: number }
  /** No name of that name in the workbook. */
  | { state: 'missing' }
  /** The name refers to #REF!: every row (or column) of the block, or its sheet, was deleted. */
  | { state: 'broken' };

/** A written block. `address` is sheet-qualified, as Excel prints it ("'P&L 2026'!A1:M40"). */
export interface WrittenRange {
  sheet: string;
  address: string;
  rowCount: number;
  columnCount: number;
  /** The row groups the write made, in the order it made them (outer levels first); absent when none. */
  rowGroups?: RowGroup[];
}

export interface TableColumnSpec {
  name: string;
  /** text columns are formatted '@' before any value lands, so API strings stay text. */
  kind: 'text' | 'number';
  /** For number columns: accounting, date ('yyyy-mm-dd') and so on. Defaults to 'General'. */
  numberFormat?: string;
  /** Points. */
  width?: number;
}

export interface TableSpec {
  /** Requested table name; made unique in the workbook (Excel requires that). */
  name: string;
  columns: TableColumnSpec[];
  rows: WriteValue[][];
  target: WriteTarget;
  /** An Excel table style such as 'TableStyleLight9'. */
  style?: string;
}

export interface TableRef {
  name: string;
  sheet: string;
  /** Sheet-qualified address of the whole table, header included. */
  address: string;
}

export interface TableRead extends TableRef {
  columns: string[];
  /**
   * Data rows in sheet order, raw values as the user left them (what Excel's `values` returns), so edited
   * cells can be compared with the as-pulled columns stored in the same row.
   */
  rows: ReadValue[][];
}

export interface RowUpdate {
  key: string | number;
  /** Column name -> new value; columns not named are left alone. */
  values: Record<string, WriteValue>;
}

export interface KeyedResult {
  /** Rows touched. */
  count: number;
  /** Keys not found in the key column. */
  missing: (string | number)[];
}

export interface RangeRead {
  address: string;
  values: ReadValue[][];
  numberFormats: string[][];
}

export interface CellRef {
  sheet: string;
  /** A1 address on the sheet, no sheet prefix ("C5"). */
  cell: string;
  /** Sheet-qualified ("Sheet1!C5"). */
  address: string;
}

/** The selected range and what its top-left cell holds. */
export interface SelectionRead {
  sheet: string;
  /** Sheet-qualified ("Sheet1!B2:D9", or "Sheet1!B2" for one cell). */
  address: string;
  rowCount: number;
  columnCount: number;
  /** The top-left cell: its formula (null when it holds a plain value) and its value. */
  topLeft: { formula: string | null; value: ReadValue };
}

/** A sheet of the workbook, as the tabs list it. */
export interface SheetInfo {
  name: string;
  /** False for a hidden (or very hidden) sheet: the add-in's helper sheet of drop-down lists, for one. */
  visible: boolean;
}

/**
 * What a sheet holds, as Excel reports it (Range.values and Range.formulas of its used range), for a values
 * copy: every cell's value as calculated and the formula behind it, if any.
 */
export interface SheetContent {
  sheet: string;
  /** Sheet-qualified used range (values and formulas; formats alone do not count), or null when it is empty. */
  address: string | null;
  /**
   * Values as Excel shows them: a formula's result, the cells a dynamic array spills into, '#BUSY!' while a
   * custom function is still computing, error codes ('#N/A', '#VALUE!') as text, '' for a blank.
   */
  values: ReadValue[][];
  /** The formula of each cell ('=...'), null where the cell holds a constant or a value spilled into it. */
  formulas: (string | null)[][];
}

export interface ValuesCopyOptions {
  /** Requested name of the copy; made legal and unique as Excel requires. */
  name: string;
  /** Lines of text put above the copied cells (one row each, then a blank row), written as text. */
  note: string[];
}

/** A values copy made (copySheetAsValues). */
export interface ValuesCopy {
  /** The copy's name. */
  sheet: string;
  /** Sheet-qualified used range of the copy, note included. */
  address: string;
}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A block the pane wrote, recorded in the workbook so Refresh all can rebuild it in place. */
export interface BindingRecord {
  id: string;
  /** 'statement', 'transactions', ... (the engine owns the vocabulary). */
  kind: string;
  parameters: { [key: string]: Json };
  company: string;
  /** ISO 8601 timestamp of the last successful refresh (for a statement: when its oldest figure was fetched). */
  refreshedAt: string;
  /** ISO 8601 time the block was last written: a change known after it leaves the block behind. */
  writtenAt?: string;
  /** Sheet-qualified address of the block as last written. */
  address: string;
  /** Set when the block is an Excel table: the table name survives rows being inserted above it. */
  table?: string;
  /**
   * The defined name the block was written with (WriteGridOptions.name): Excel moves it with the block's
   * cells, so a refresh finds the block by it. Bindings written before names were used have none.
   */
  name?: string;
  /** The row groups the block's last write made, so a refresh ungroups exactly those (see WriteGridOptions). */
  rowGroups?: RowGroup[];
  /** Recorded by earlier versions instead of rowGroups: the deepest outline level the block was written with. */
  outlineDepth?: number;
}

/**
 * Excel's chart kinds the add-in makes: lines (a trend by period) and clustered columns (periods side by
 * side). Real Excel charts: the user restyles them in Excel as any other.
 */
export type ChartKind = 'line' | 'column';

/** One series of a chart: its legend text and the cells of its figures. */
export interface ChartSeriesSpec {
  /** Shown in the legend; text, never a formula or a reference (see ChartSpec.title). */
  name: string;
  /** Sheet-qualified range of one row or one column of figures ("'P&L'!C12:N12"). */
  values: string;
}

/**
 * What a chart shows: series of cells, against the cells of their category labels. The chart reads the cells,
 * so it follows whatever is written there (a refresh, a roll forward) with nothing to redo.
 */
export interface ChartSpec {
  kind: ChartKind;
  /** Text: a title or series name from the API that starts like a formula ("=", "+", "-", "@") stays text. */
  title: string;
  /** Sheet-qualified range of the category labels (the periods), as long as each series' values. */
  categories: string;
  series: ChartSeriesSpec[];
}

/** Where a chart goes: on `sheet`, over the cells `over` (an A1 range of that sheet, "P2:W18"). */
export interface ChartPlacement {
  sheet: string;
  over: string;
}

/** What updateChart found. */
export type ChartUpdate = 'updated' | 'missing';

/** What the last large operation cost in round trips and request size (for benches and diagnostics). */
export interface WriteStats {
  operation: string;
  rows: number;
  /** Every context.sync(), including failed attempts and the ones that only read. */
  syncs: number;
  chunks: number;
  /** Most data rows sent in one request. */
  rowsPerChunk: number;
  /** Largest estimated request size sent in one sync (UTF-8 bytes of the JSON of values and formats). */
  largestPayloadBytes: number;
  /** Chunks retried at half size after a payload-limit error. */
  retries: number;
}

export interface WorkbookGateway {
  // Blocks ------------------------------------------------------------------------------------------
  writeGrid(target: WriteTarget, grid: GridWrite, options?: WriteGridOptions): Promise<WrittenRange>;
  /** Values and number formats of a sheet-qualified range ("Sheet1!A1:D9"), e.g. a bound block. */
  readRange(address: string): Promise<RangeRead>;
  /**
   * The part of a sheet-qualified range that holds anything typed (values or formulas; formats alone do not
   * count), as the smallest range around it, or null when all of it is blank: where a growing block would go.
   */
  findContent(address: string): Promise<string | null>;
  /** Where the block written with this name is now, or that the name is gone or refers to #REF!. */
  locateBlock(name: string): Promise<BlockLocation>;
  /** Deletes a defined name (the cells it referred to stay as they are); nothing happens when there is none. */
  deleteName(name: string): Promise<void>;
  /**
   * Names cells the user typed (a budget), with a visible workbook-scoped name formulas can use
   * (=FIN.BUDGET(Budget_2026, …)); a name already defined is pointed at these cells. Excel moves it with them
   * as it moves a block's name (rows inserted inside grow it). Names Excel would refuse are refused first.
   */
  nameRange(address: string, name: string): Promise<void>;

  // Tables ------------------------------------------------------------------------------------------
  createTable(spec: TableSpec): Promise<TableRef>;
  appendRows(table: string, rows: WriteValue[][]): Promise<TableRef>;
  updateRowsByKey(table: string, keyColumn: string, updates: RowUpdate[]): Promise<KeyedResult>;
  deleteRowsByKey(table: string, keyColumn: string, keys: (string | number)[]): Promise<KeyedResult>;
  readTable(table: string): Promise<TableRead>;
  /**
   * A drop-down list on a table column. The items live on a hidden helper sheet and the rule points at
   * them, because an inline list is limited to 255 characters. An empty list removes the validation.
   */
  setListValidation(table: string, column: string, items: string[], listName?: string): Promise<void>;

  // Workbook ----------------------------------------------------------------------------------------
  getDateSystem(): Promise<DateSystem>;
  getSelectedCell(): Promise<CellRef>;
  /** The selected range (not just the active cell), in one round trip. */
  getSelection(): Promise<SelectionRead>;
  activateSheet(name: string): Promise<void>;
  /**
   * Puts a formula (text starting with '=') in one cell: a CellRef, or a sheet-qualified address
   * ("'P&L'!B4"). A text-formatted ('@') cell gets the General format first, or Excel would keep the
   * formula as text; any other number format the user chose stays. The pane's formula helper only.
   */
  writeFormula(cell: CellRef | string, formula: string): Promise<void>;
  /**
   * Puts a block of formulas in one round trip: `formulas[r][c]` in the cell r rows down and c columns right
   * of `at` (a CellRef or a sheet-qualified address of the block's top-left cell); null leaves a cell as it
   * is. Each cell as writeFormula (a text-formatted cell gets General first). Only for formulas the engine
   * built (the board pack's chart table): every entry must be a formula Excel can hold, and the block
   * rectangular, checked before anything is written; text from the API or the user never goes through here.
   */
  writeFormulas(at: CellRef | string, formulas: readonly (readonly (string | null)[])[]): Promise<void>;

  // Sheets -----------------------------------------------------------------------------------------
  /** The workbook's sheets in tab order. */
  listSheets(): Promise<SheetInfo[]>;
  /** The used range of a sheet: values as calculated and formulas, in one read. */
  readSheet(sheet: string): Promise<SheetContent>;
  /**
   * A copy of a sheet, placed right after it, that needs nothing but Excel to open: every cell holds the
   * value the original shows (formulas, spilled arrays and custom functions become their values; number
   * formats, widths, bold, outline and tables stay), with no data validation and no defined name scoped to
   * it, and `note` in rows inserted above. The original is not changed.
   */
  copySheetAsValues(sheet: string, options: ValuesCopyOptions): Promise<ValuesCopy>;
  /**
   * Whether the host is still calculating (Excel: Application.calculationState, ExcelApi 1.9; false where it
   * cannot tell). Values read meanwhile may be old: a custom function calculating again keeps showing its
   * previous value, with a progress mark Office.js cannot read, rather than #BUSY! (OfficeDev/office-js#4152).
   */
  isCalculating(): Promise<boolean>;

  // Charts ------------------------------------------------------------------------------------------
  /**
   * Adds an Excel chart named `name` (Excel: Worksheet.charts, ExcelApi 1.1; its series, ExcelApi 1.7) over
   * the cells of `placement`. Its series read the cells `spec` names, wherever they are in the workbook.
   */
  addChart(placement: ChartPlacement, spec: ChartSpec, name: string): Promise<void>;
  /**
   * Points the chart named `name` on `sheet` at the cells of `spec` (series re-pointed, added or removed, in
   * order) and sets its title: its place, size and whatever the user restyled stay. 'missing' when the sheet
   * has no chart of that name (the user deleted or renamed it), and nothing is done.
   */
  updateChart(sheet: string, name: string, spec: ChartSpec): Promise<ChartUpdate>;
  /** Deletes the chart named `name` on `sheet`; nothing happens when there is none. */
  deleteChart(sheet: string, name: string): Promise<void>;

  // Sheet protection ---------------------------------------------------------------------------------
  /**
   * Excel's sheet protection without a password (Worksheet.protection, ExcelApi 1.2): the user cannot change
   * its cells by mistake, and can lift it with Review > Unprotect Sheet (no password asked). The add-in's own
   * writes to a protected sheet are refused too (GatewayError 'Protected'): it lifts the protection first.
   * Protecting a protected sheet, or lifting it from one that has none, does nothing.
   */
  protectSheet(sheet: string): Promise<void>;
  unprotectSheet(sheet: string): Promise<void>;
  isSheetProtected(sheet: string): Promise<boolean>;

  // Stored in the workbook (never secrets) ---------------------------------------------------------
  readSetting(key: string): Promise<Json | undefined>;
  writeSetting(key: string, value: Json): Promise<void>;
  removeSetting(key: string): Promise<void>;
  listBindings(): Promise<BindingRecord[]>;
  saveBinding(binding: BindingRecord): Promise<void>;
  removeBinding(id: string): Promise<void>;

  /** Round trips and request sizes of the last block or table operation (reads included), for benches. */
  readonly lastWriteStats: WriteStats | undefined;
}

/**
 * Inactive: Excel refused because another workbook or Excel window was in front while the add-in worked on
 * this one (the user went there during a refresh); the message says what was left and to come back and try
 * again. Nothing was taken for missing or damaged on the strength of it.
 * Protected: the sheet is protected (Excel's AccessDenied): nothing was changed on it.
 */
export type GatewayErrorCode = 'NotFound' | 'InvalidInput' | 'PayloadTooLarge' | 'Host' | 'Inactive' | 'Protected';

/** How far appendRows or updateRowsByKey got before Excel stopped it, so the caller can redo the rest. */
export interface PartialWrite {
  /** appendRows: rows in the table, counted from the first given. updateRowsByKey: updates fully written. */
  written: number;
  /** Rows given (appendRows), or updates whose key was found (updateRowsByKey). */
  total: number;
  /** updateRowsByKey: the keys of the updates fully written. */
  keys?: (string | number)[];
}

/** One error type for both implementations, so callers do not learn Office's error codes. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly hostCode?: string,
    readonly partial?: PartialWrite,
  ) {
    super(message);
  }
}
