/**
 * The workbook as Excel holds it, for tests: sheets of cells (value, formula, number format, bold, indent,
 * validation), column widths, row outline levels, tables (with their filters), settings, the selection and
 * whether the user is editing a cell. Microsoft's own client library talks to it through excelHost.ts; this
 * file knows nothing of the client API (proxies, load, sync), only Excel's rules, written from Excel's
 * documented behaviour rather than from OfficeGateway:
 *  - a string entered into a cell that is not '@' is parsed like typed input: "=..." (and "+x", "-x", "@x")
 *    becomes a formula, "123" a number, "TRUE" a boolean; in an '@' cell it stays text (unless the test says
 *    the text format does not hold); a String value written through valuesAsJson is text whatever the format;
 *  - value and format arrays must match the range's shape exactly (InvalidArgument); a single value applies
 *    to every cell ("update all cells in a range");
 *  - tables grow and shrink by shifting the cells below them, keep one body row when emptied, and refuse
 *    row deletion while filtered;
 *  - a workbook keeps one visible sheet; names are compared case-insensitively;
 *  - a defined name moves with its cells as rows are inserted or deleted (Walkenbach, "How Excel Maintains
 *    Cell and Range Names"): rows inserted above shift it, inserted inside grow it, deleted inside shrink it;
 *    when all its rows go it becomes =Sheet!#REF!, when its sheet goes =#REF!$A$1:$B$2 (OfficeDev/office-js
 *    #4772, #3583); a renamed sheet is followed (a name refers to the sheet, not to its name).
 * Assumptions where Excel's documentation is silent are marked "assumed" and are the pessimistic choice.
 * The request log (syncs, sizes, suspension) is kept here too, as the host sees it.
 */

/**
 * "Excel on the web has a payload size limit for requests and responses of 5MB. RichAPI.Error will be thrown if
 * that limit is exceeded." (Microsoft, "Resource limits and performance optimization for Office Add-ins",
 * Excel add-ins). Applied on every host profile: the pessimistic choice.
 */
export const FAKE_PAYLOAD_LIMIT = 5 * 1024 * 1024;

/** An error as the host reports it: excelHost.ts puts its code and message in the response. */
export class FakeOfficeError extends Error {
  override name = 'RichApi.Error';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const invalidArgument = (why: string) => new FakeOfficeError('InvalidArgument', `The argument is invalid or missing or has an incorrect format. (${why})`);
export const itemNotFound = (what: string) => new FakeOfficeError('ItemNotFound', `The requested resource doesn't exist. (${what})`);
export const invalidOperation = (why: string) => new FakeOfficeError('InvalidOperation', `The operation is invalid for the object. (${why})`);

export type CellValue = string | number | boolean;

export interface FakeCell {
  value: CellValue;
  formula?: string;
  numberFormat: string;
  bold: boolean;
  indent: number;
  validation?: unknown;
}

export interface Box {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export const MAX_ROWS = 1_048_576;
export const MAX_COLS = 16_384;

// Addresses (independent of src/engine/ports/address.ts on purpose) ---------------------------------------

function colIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

function colLetters(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * Cells ("B2:D9"), whole columns ("A:C") and whole rows ("5:9"), with or without $. Excel writes a range
 * of whole columns or rows in those forms, not as cells: Microsoft's "Work with multiple ranges" gives the
 * address of a selected column as "Sheet1!H:H", and a whole sheet reads "1:1048576" (whole rows, as
 * VBA's Cells.Address "$1:$1048576").
 */
export function parseA1(address: string): Box {
  const ref = address.trim();
  const columns = /^\$?([A-Z]{1,3}):\$?([A-Z]{1,3})$/i.exec(ref);
  const rows = /^\$?(\d+):\$?(\d+)$/.exec(ref);
  const m = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(ref);
  let corners: [number, number, number, number];
  if (columns) corners = [0, colIndex(columns[1]), MAX_ROWS - 1, colIndex(columns[2])];
  else if (rows) corners = [Number(rows[1]) - 1, 0, Number(rows[2]) - 1, MAX_COLS - 1];
  else if (m) corners = [Number(m[2]) - 1, colIndex(m[1]), m[4] ? Number(m[4]) - 1 : Number(m[2]) - 1, m[3] ? colIndex(m[3]) : colIndex(m[1])];
  else throw invalidArgument(`bad address ${address}`);
  const [r1, c1, r2, c2] = corners;
  const box = { row: Math.min(r1, r2), col: Math.min(c1, c2), rows: Math.abs(r2 - r1) + 1, cols: Math.abs(c2 - c1) + 1 };
  if (box.row < 0 || box.row + box.rows > MAX_ROWS || box.col + box.cols > MAX_COLS) throw invalidArgument(`off the sheet ${address}`);
  return box;
}

/** As Excel writes an address (see parseA1): whole rows first, then whole columns, then cells. */
export function a1(box: Box): string {
  if (box.col === 0 && box.cols === MAX_COLS) return `${box.row + 1}:${box.row + box.rows}`;
  if (box.row === 0 && box.rows === MAX_ROWS) return `${colLetters(box.col)}:${colLetters(box.col + box.cols - 1)}`;
  const tl = `${colLetters(box.col)}${box.row + 1}`;
  return box.rows === 1 && box.cols === 1 ? tl : `${tl}:${colLetters(box.col + box.cols - 1)}${box.row + box.rows}`;
}

export function absoluteA1(box: Box): string {
  return a1(box).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2').replace(/^(\d+):(\d+)$/, '$$$1:$$$2').replace(/^([A-Z]+):([A-Z]+)$/, '$$$1:$$$2');
}

export function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** "Sheet1!A1:B2", "'My sheet'!$A$1" -> parts; no sheet -> undefined sheet. */
export function splitSheet(address: string): { sheet?: string; a1: string } {
  const bang = address.lastIndexOf('!');
  if (bang < 0) return { a1: address };
  let sheet = address.slice(0, bang).replace(/^=/, '');
  if (sheet.startsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheet, a1: address.slice(bang + 1) };
}

export function checkBox(row: number, col: number, rows: number, cols: number): Box {
  const ok = [row, col, rows, cols].every(Number.isInteger) && row >= 0 && col >= 0 && rows > 0 && cols > 0;
  if (!ok || row + rows > MAX_ROWS || col + cols > MAX_COLS) throw invalidArgument(`range indexes ${row},${col},${rows},${cols}`);
  return { row, col, rows, cols };
}

// Workbook state -----------------------------------------------------------------------------------

export class SheetState {
  visibility: 'Visible' | 'Hidden' | 'VeryHidden' = 'Visible';
  /** Column-major, so inserting and deleting rows in some columns is a native splice. */
  private readonly columns: (FakeCell | undefined)[][] = [];
  readonly widths = new Map<number, number>();
  readonly outline = new Map<number, number>();
  /** Sheet-scoped names (worksheet.names). */
  readonly names: NameState[] = [];
  /** The charts on the sheet (worksheet.charts). */
  readonly charts: ChartState[] = [];
  /** Worksheet.protection: every cell is locked (Excel's default), so protection refuses every write. */
  protection: { protected: boolean; options: unknown; password?: string } = { protected: false, options: null };
  constructor(
    public name: string,
    readonly id: string,
  ) {}

  /** Every cell, width and outline level copied onto `to` (Worksheet.copy). */
  copyInto(to: SheetState): void {
    this.columns.forEach((col, c) => col?.forEach((cell, r) => cell && Object.assign(to.ensure(r, c), JSON.parse(JSON.stringify(cell)) as FakeCell)));
    for (const [c, w] of this.widths) to.widths.set(c, w);
    for (const [r, level] of this.outline) to.outline.set(r, level);
  }

  get(r: number, c: number): FakeCell | undefined {
    return this.columns[c]?.[r];
  }

  ensure(r: number, c: number): FakeCell {
    const col = (this.columns[c] ??= []);
    let cell = col[r];
    if (!cell) {
      cell = { value: '', numberFormat: 'General', bold: false, indent: 0 };
      col[r] = cell;
    }
    return cell;
  }

  delete(r: number, c: number): void {
    const col = this.columns[c];
    if (col && r < col.length) col[r] = undefined;
  }

  /**
   * Moves the cells of columns [col, col+cols) in rows >= from by delta rows: an insert (delta > 0) or a
   * delete of rows [from+delta, from) (delta < 0), as Excel shifts cells below a table.
   */
  shift(from: number, col: number, cols: number, delta: number): void {
    for (let c = col; c < col + cols; c++) {
      const arr = this.columns[c];
      if (!arr || arr.length <= from + Math.min(0, delta)) continue;
      if (delta > 0) this.columns[c] = arr.slice(0, from).concat(new Array<FakeCell | undefined>(delta), arr.slice(from));
      else arr.splice(from + delta, -delta);
    }
  }

  /** Whole rows at or below `from` move by `delta` (an insert, or a delete of rows [from+delta, from)), outline too. */
  shiftRows(from: number, delta: number): void {
    this.shift(from, 0, this.columns.length, delta);
    const moved = [...this.outline].filter(([r]) => r >= from + Math.min(0, delta));
    for (const [r] of moved) this.outline.delete(r);
    for (const [r, level] of moved) if (r >= from) this.outline.set(r + delta, level);
  }

  /** The used range (of the sheet, or of `within`): cells with values or formulas, or any cell touched when not valuesOnly. */
  used(valuesOnly: boolean, within?: Box): Box | null {
    let top = Infinity;
    let left = Infinity;
    let bottom = -1;
    let right = -1;
    const inside = (r: number, c: number) => !within || (r >= within.row && r < within.row + within.rows && c >= within.col && c < within.col + within.cols);
    this.columns.forEach((arr, c) => {
      arr?.forEach((cell, r) => {
        if (!cell || !inside(r, c) || (valuesOnly && cell.value === '' && cell.formula === undefined)) return;
        top = Math.min(top, r);
        left = Math.min(left, c);
        bottom = Math.max(bottom, r);
        right = Math.max(right, c);
      });
    });
    return bottom < 0 ? null : { row: top, col: left, rows: bottom - top + 1, cols: right - left + 1 };
  }
}

/** Cells a chart reads; null once Excel made the reference #REF! (its rows or its sheet deleted). */
export interface ChartRef {
  sheet: SheetState;
  box: Box;
}

export interface ChartSeriesState {
  name: string;
  /**
   * A name set to text starting with '=' links the series to a cell, as Excel's Series.Name does (assumed for
   * the API, the pessimistic choice): the name is then that formula, not text.
   */
  nameFormula?: string;
  values: ChartRef | null;
  categories: ChartRef | null;
}

export interface ChartState {
  readonly id: string;
  name: string;
  type: string;
  title: string;
  /** The cells it covers (setPosition); it moves with them, as Excel's default "move and size with cells". */
  over: Box;
  legend: { position?: unknown; visible?: unknown };
  series: ChartSeriesState[];
}

export interface NameState {
  name: string;
  /** The cells it refers to; null once Excel has made the reference #REF!. */
  target: { sheet: SheetState; box: Box } | null;
  /** The formula Excel shows once the reference is #REF!. */
  brokenFormula?: string;
  visible: boolean;
  comment: string;
  /** The sheet of a sheet-scoped name (worksheet.names); none for a workbook name. */
  scope?: SheetState;
}

export interface TableState {
  name: string;
  readonly id: string;
  sheet: SheetState;
  /** Header row included. */
  box: Box;
  style: string;
  /** A filter hides some body rows (set by a test, as a user would). */
  filtered: boolean;
}

/** A selection: one or more areas on one sheet; the active cell is the top-left cell of the first. */
export interface Selection {
  sheet: SheetState;
  areas: Box[];
}

export interface SyncRecord {
  index: number;
  actions: number;
  requestBytes: number;
  responseBytes: number;
  /** The request asked to wait for a cell edit to end (Excel.run's delayForCellEdit, flag 64). */
  delayForCellEdit: boolean;
  calcSuspended: boolean;
  screenSuspended: boolean;
  recalcs: string[];
  error?: string;
}

export interface FakeExcelOptions {
  requestLimitBytes?: number;
  responseLimitBytes?: number;
  date1904?: boolean;
  calculationMode?: 'Automatic' | 'AutomaticExceptTables' | 'Manual';
  sheets?: string[];
  /**
   * false: a value that starts like a formula becomes one even in an '@' cell. The docs promise the text
   * format for typing, not for values written through the API; the tests check the add-in under both.
   */
  textFormatHolds?: boolean;
  /**
   * Excel on the web's Worksheet.names: the sheet's own names and every workbook-scoped name too
   * (OfficeDev/office-js#1011, reported on Office Online: "The names collection of the worksheet includes
   * names scoped to the worksheet AND ALL WORKBOOK-LEVEL NAMES"). officeHarness sets it for the web profile.
   */
  sheetNamesIncludeWorkbook?: boolean;
}

/**
 * Excel's calculation, when a test plugs one in (fakeCalc.ts); without it the fake calculates nothing and
 * the calculate methods are accepted and do nothing.
 */
export interface CalcModel {
  /** Range.calculate, RangeAreas.calculate. */
  calculate(sheet: SheetState, boxes: Box[]): void;
  /** Worksheet.calculate. */
  calculateSheet(sheet: SheetState, markAllDirty: boolean): void;
  /** Application.calculate. */
  calculateAll(type: string): void;
  /** Range.getDependents (every level) or getDirectDependents, as cells; ItemNotFound when there are none. */
  dependents(sheet: SheetState, box: Box, direct: boolean): { sheet: SheetState; box: Box }[];
  /** Rows or cells inserted or deleted, rows grouped or ungrouped. */
  structureChanged(): void;
}

/** A fault a test plants: the n-th request from now fails with `code`, after `afterActions` of its actions ran. */
export interface PlantedFault {
  request: number;
  code: string;
  afterActions?: number;
}

/**
 * Typed input, as Excel parses it when a cell is not text-formatted ('@'), or whatever the format where the
 * text format does not hold for values from the API (`textFormatHolds` false).
 */
export function enter(cell: FakeCell, v: CellValue, textFormatHolds = true): void {
  cell.formula = undefined;
  if (typeof v !== 'string' || (cell.numberFormat === '@' && textFormatHolds)) {
    cell.value = v;
    return;
  }
  const numeric = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v);
  if (v === '') cell.value = '';
  else if (v.startsWith("'")) cell.value = v.slice(1);
  else if (numeric) cell.value = Number(v);
  else if (v.length > 1 && /^[=+\-@]/.test(v)) {
    // The fake does not evaluate formulas; what matters is that the text became one.
    cell.formula = v.startsWith('=') ? v : `=${v}`;
    cell.value = '#NAME?';
  } else if (/^(true|false)$/i.test(v)) cell.value = v.toLowerCase() === 'true';
  else cell.value = v;
}

export function checkValue(v: unknown): CellValue {
  if (typeof v === 'string' && v.length > 32_767) throw invalidArgument('a cell holds at most 32,767 characters');
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw invalidArgument(`unsupported cell value ${String(v)}`);
}

/** A cell accessor for a write: a 2-D array of exactly the range's shape, or one value for every cell. */
export function rectangular(input: unknown, rows: number, cols: number): (r: number, c: number) => unknown {
  if (!Array.isArray(input)) {
    if (input === null || input === undefined || typeof input === 'object') throw invalidArgument('not an array or a value');
    return () => input;
  }
  if (input.length !== rows || input.some((row) => !Array.isArray(row) || row.length !== cols)) {
    throw invalidArgument(`the input array is not ${rows} x ${cols}`);
  }
  return (r, c) => (input as unknown[][])[r][c];
}

function forEachCell(sheet: SheetState, box: Box, f: (cell: FakeCell) => void): void {
  for (let r = box.row; r < box.row + box.rows; r++) for (let c = box.col; c < box.col + box.cols; c++) f(sheet.ensure(r, c));
}

function overlaps(a: Box, b: Box): boolean {
  return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

export class FakeExcel {
  readonly sheets: SheetState[] = [];
  readonly tables: TableState[] = [];
  readonly names: NameState[] = [];
  readonly settings = new Map<string, unknown>();
  /** Every request of the add-in: one per context.sync() that had something to send. */
  readonly syncs: SyncRecord[] = [];
  /** Requests the library sends on its own after an Excel.run, to release the objects it kept. */
  cleanups = 0;
  active: SheetState;
  selection: Selection;
  date1904: boolean;
  calculationMode: string;
  /** Application.calculationState: Done, or Calculating / Pending while custom functions work. */
  calculationState: 'Done' | 'Calculating' | 'Pending' = 'Done';
  /** Cells were written while calculation was suspended and nothing has recalculated since. */
  dirtyWhileSuspended = false;
  /** Excel's calculation, when the test plugs one in (fakeCalc.ts). */
  calc?: CalcModel;
  /** Every Range.getSpecialCells: the sheet and the address searched. */
  readonly searches: { sheet: string; address: string }[] = [];
  /** Every calculate the add-in asked for: what (Range, RangeAreas, Worksheet), on which sheet, of which cells. */
  readonly calculations: { what: string; sheet: string; address: string }[] = [];
  requestLimit: number;
  responseLimit: number;
  readonly textFormatHolds: boolean;
  readonly sheetNamesIncludeWorkbook: boolean;
  /**
   * The user has gone to another Excel window or workbook while the add-in works on this one. What Excel
   * then does, as reported (excelHost.ts applies it): NamedItem.type reads null (office-js#5504, #2078);
   * Worksheet.names throws InvalidSelection while workbook.names works (#6365); getActiveCell and
   * getSelectedRange throw InvalidSelection (#5319, #561); names.add fails with ItemNotFound (#2078); deleting
   * a name has crashed Excel (#2983), which the fake stands in for by failing the request (assumed).
   */
  elsewhere = false;
  /**
   * A chart the user has clicked: getSelectedRange then throws InvalidSelection, by design
   * (OfficeDev/office-js#2268); workbook.getActiveChart (ExcelApi 1.9) gives the chart.
   */
  selectedChart: ChartState | null = null;
  /**
   * The user has selected several sheets (a group of sheets): every API call fails, "strange errors and
   * sometimes General Error" (office-js#2266); the fake answers every request with GeneralException.
   */
  sheetsGrouped = false;
  readonly faults: PlantedFault[] = [];
  private cellEdit: { ended: Promise<void>; end: () => void } | undefined;
  private sheetCounter = 0;
  private tableCounter = 0;
  private chartCounter = 0;

  constructor(options: FakeExcelOptions = {}) {
    for (const name of options.sheets ?? ['Sheet1']) this.sheets.push(new SheetState(name, this.nextSheetId()));
    this.active = this.sheets[0];
    this.selection = { sheet: this.active, areas: [{ row: 0, col: 0, rows: 1, cols: 1 }] };
    this.date1904 = options.date1904 ?? false;
    this.calculationMode = options.calculationMode ?? 'Automatic';
    this.requestLimit = options.requestLimitBytes ?? FAKE_PAYLOAD_LIMIT;
    this.responseLimit = options.responseLimitBytes ?? FAKE_PAYLOAD_LIMIT;
    this.textFormatHolds = options.textFormatHolds ?? true;
    this.sheetNamesIncludeWorkbook = options.sheetNamesIncludeWorkbook ?? false;
  }

  // What a user does -------------------------------------------------------------------------------

  /** Selects one range ("B2:D9") or several areas ("A1:B2,D4"), as the user would. */
  select(sheet: string, address: string): void {
    this.selection = { sheet: this.sheet(sheet), areas: address.split(',').map((a) => parseA1(a)) };
    this.selectedChart = null;
  }

  /** The user starts typing in a cell; requests wait (delayForCellEdit) or fail until endCellEdit(). */
  startCellEdit(): void {
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.cellEdit = { ended, end };
  }

  endCellEdit(): void {
    this.cellEdit?.end();
    this.cellEdit = undefined;
  }

  get editingCell(): Promise<void> | undefined {
    return this.cellEdit?.ended;
  }

  /** The user types into a cell, as typed input is parsed. */
  type(sheet: string, address: string, v: CellValue): void {
    const b = parseA1(address);
    enter(this.editable(this.sheet(sheet)).ensure(b.row, b.col), v);
  }

  /** The user inserts `count` whole rows before 0-based row `at`: cells, outline, tables and names below move down. */
  insertRows(sheetName: string, at: number, count: number): void {
    const sheet = this.sheet(sheetName);
    this.editable(sheet);
    sheet.shiftRows(at, count);
    for (const t of this.tables) {
      if (t.sheet !== sheet) continue;
      if (at <= t.box.row) t.box = { ...t.box, row: t.box.row + count };
      else if (at < t.box.row + t.box.rows) t.box = { ...t.box, rows: t.box.rows + count };
    }
    for (const n of this.names) {
      if (n.target?.sheet !== sheet) continue;
      const box = n.target.box;
      if (at <= box.row) n.target = { sheet, box: { ...box, row: box.row + count } };
      else if (at < box.row + box.rows) n.target = { sheet, box: { ...box, rows: box.rows + count } };
    }
    this.chartRowsMoved(sheet, at, count);
  }

  /** The user deletes `count` whole rows from 0-based row `from`: what is below moves up, names shrink or become #REF!. */
  deleteRows(sheetName: string, from: number, count: number): void {
    const sheet = this.sheet(sheetName);
    this.editable(sheet);
    const end = from + count;
    for (const t of this.tables) {
      if (t.sheet !== sheet) continue;
      if (end <= t.box.row) t.box = { ...t.box, row: t.box.row - count };
      else if (from < t.box.row + t.box.rows) throw new FakeOfficeError('NotImplemented', 'fake: deleting sheet rows through a table');
    }
    sheet.shiftRows(end, -count);
    for (const n of this.names) {
      if (n.target?.sheet !== sheet) continue;
      const { row, rows } = n.target.box;
      const lost = Math.max(0, Math.min(end, row + rows) - Math.max(from, row));
      if (end <= row) n.target = { sheet, box: { ...n.target.box, row: row - count } };
      else if (lost === rows) this.breakName(n, `=${quoteSheet(sheet.name)}!#REF!`);
      else if (lost > 0) n.target = { sheet, box: { ...n.target.box, row: Math.min(row, from), rows: rows - lost } };
    }
    this.chartRowsMoved(sheet, from, -count);
  }

  /** The user renames a sheet. */
  renameSheet(from: string, to: string): void {
    const sheet = this.sheet(from);
    const other = this.findSheet(to);
    if (other && other !== sheet) throw new FakeOfficeError('ItemAlreadyExists', `A sheet named ${to} already exists.`);
    sheet.name = to;
  }

  filterTable(name: string): void {
    const t = this.findTable(name);
    if (!t) throw itemNotFound(`table ${name}`);
    t.filtered = true;
  }

  /** The `request`-th request from now (1 = the next) fails with `code` after `afterActions` of its actions. */
  plantFault(fault: PlantedFault): void {
    this.faults.push(fault);
  }

  // Inspection ---------------------------------------------------------------------------------------

  get syncCount(): number {
    return this.syncs.length;
  }

  get largestRequestBytes(): number {
    return Math.max(0, ...this.syncs.filter((s) => !s.error).map((s) => s.requestBytes));
  }

  resetLog(): void {
    this.syncs.length = 0;
  }

  findSheet(key: string): SheetState | undefined {
    return this.sheets.find((s) => s.id === key || s.name.toLowerCase() === key.toLowerCase());
  }

  sheet(key: string): SheetState {
    const s = this.findSheet(key);
    if (!s) throw itemNotFound(`sheet ${key}`);
    return s;
  }

  findTable(key: string): TableState | undefined {
    return this.tables.find((t) => t.id === key || t.name.toLowerCase() === key.toLowerCase());
  }

  cell(sheet: string, address: string): FakeCell {
    const b = parseA1(address);
    return { ...(this.sheet(sheet).get(b.row, b.col) ?? { value: '', numberFormat: 'General', bold: false, indent: 0 }) };
  }

  // Sheets -------------------------------------------------------------------------------------------

  private nextSheetId(): string {
    return `{00000000-0001-0000-${String(++this.sheetCounter).padStart(4, '0')}-000000000000}`;
  }

  addSheet(name: string | undefined): SheetState {
    let n = name;
    if (n === undefined || n === null) for (let i = 1; !n || this.findSheet(n); i++) n = `Sheet${i}`;
    if (n.length === 0 || n.length > 31 || /[:\\/?*[\]]/.test(n) || n.startsWith("'") || n.endsWith("'")) {
      throw invalidArgument(`sheet name ${n}`);
    }
    if (this.findSheet(n)) throw new FakeOfficeError('ItemAlreadyExists', `A sheet named ${n} already exists.`);
    const s = new SheetState(n, this.nextSheetId());
    this.sheets.push(s);
    return s;
  }

  deleteSheet(sheet: SheetState): void {
    if (this.sheets.filter((s) => s.visibility === 'Visible' && s !== sheet).length === 0) {
      throw invalidOperation('a workbook must keep one visible sheet');
    }
    this.sheets.splice(this.sheets.indexOf(sheet), 1);
    for (let i = this.tables.length - 1; i >= 0; i--) if (this.tables[i].sheet === sheet) this.tables.splice(i, 1);
    for (const n of this.names) if (n.target?.sheet === sheet) this.breakName(n, `=#REF!${absoluteA1(n.target.box)}`);
    for (const c of this.allCharts()) {
      for (const x of c.series) {
        if (x.values?.sheet === sheet) x.values = null;
        if (x.categories?.sheet === sheet) x.categories = null;
      }
    }
    if (this.active === sheet) this.active = this.sheets.find((s) => s.visibility === 'Visible')!;
    if (this.selection.sheet === sheet) this.selection = { sheet: this.active, areas: [{ row: 0, col: 0, rows: 1, cols: 1 }] };
  }

  setVisibility(sheet: SheetState, v: unknown): void {
    if (v !== 'Visible' && v !== 'Hidden' && v !== 'VeryHidden') throw invalidArgument(`visibility ${String(v)}`);
    if (v !== 'Visible' && this.sheets.filter((s) => s.visibility === 'Visible' && s !== sheet).length === 0) {
      throw invalidOperation('a workbook must keep one visible sheet');
    }
    sheet.visibility = v;
    if (v !== 'Visible' && this.active === sheet) this.active = this.sheets.find((s) => s.visibility === 'Visible')!;
  }

  activate(sheet: SheetState): void {
    if (sheet.visibility !== 'Visible') throw invalidOperation('a hidden sheet cannot be activated');
    this.active = sheet;
  }

  /**
   * Worksheet.copy: a sheet named "<name> (2)" (the first number free) with the cells (formulas included),
   * widths, outline, validation and tables (renamed: the name and the first number free), placed as asked.
   * Assumed, as Excel's UI does on a copy within a workbook: each workbook name that refers to the sheet gets
   * a sheet-scoped twin on the copy.
   */
  copySheet(source: SheetState, position: unknown, relativeTo: SheetState | null): SheetState {
    let name = '';
    for (let i = 2; !name || this.findSheet(name); i++) name = `${source.name.slice(0, 31 - ` (${i})`.length)} (${i})`;
    const copy = new SheetState(name, this.nextSheetId());
    source.copyInto(copy);
    // Excel copies the protection, and the charts; a chart that read the sheet's own cells reads the copy's.
    copy.protection = { ...source.protection };
    const onCopy = (ref: ChartRef | null): ChartRef | null => ref && { sheet: ref.sheet === source ? copy : ref.sheet, box: { ...ref.box } };
    for (const c of source.charts) {
      copy.charts.push({ ...c, id: this.nextChartId(), over: { ...c.over }, legend: { ...c.legend }, series: c.series.map((x) => ({ ...x, values: onCopy(x.values), categories: onCopy(x.categories) })) });
    }
    const at = position === 'After' && relativeTo ? this.sheets.indexOf(relativeTo) + 1 : position === 'Before' && relativeTo ? this.sheets.indexOf(relativeTo) : position === 'End' ? this.sheets.length : 0;
    this.sheets.splice(at, 0, copy);
    for (const t of this.tables.filter((x) => x.sheet === source)) {
      let tableName = '';
      for (let i = 2; !tableName || this.findTable(tableName) || this.findName(tableName); i++) tableName = `${t.name.replace(/\d+$/, '')}${i}`;
      this.tables.push({ ...t, name: tableName, id: `{T${String(++this.tableCounter).padStart(4, '0')}}`, sheet: copy, box: { ...t.box } });
    }
    for (const n of this.names) {
      if (n.target?.sheet === source) copy.names.push({ ...n, target: { sheet: copy, box: { ...n.target.box } }, scope: copy });
    }
    return copy;
  }

  /** Range.copyFrom with "Values": the source's values land from the destination's top-left, formulas gone, formats kept. */
  pasteValues(sheet: SheetState, at: Box, source: { sheet: SheetState; box: Box }): void {
    this.editable(sheet);
    const values = Array.from({ length: source.box.rows }, (_, r) => Array.from({ length: source.box.cols }, (_, c) => source.sheet.get(source.box.row + r, source.box.col + c)?.value ?? ''));
    values.forEach((row, r) =>
      row.forEach((v, c) => {
        const existing = sheet.get(at.row + r, at.col + c);
        if (v === '' && !existing) return;
        const cell = sheet.ensure(at.row + r, at.col + c);
        cell.value = v;
        cell.formula = undefined;
      }),
    );
  }

  // Protection and charts ----------------------------------------------------------------------------

  /**
   * A write to a protected sheet: every cell is locked (Excel's default), so Excel refuses it with
   * AccessDenied ("You cannot perform the requested operation.", as reported for a locked cell, e.g.
   * microsoftgraph/microsoft-graph-docs#4546); so are its charts (objects are protected too).
   */
  editable(sheet: SheetState): SheetState {
    if (sheet.protection.protected) throw new FakeOfficeError('AccessDenied', 'You cannot perform the requested operation. (the sheet is protected)');
    return sheet;
  }

  /**
   * WorksheetProtection.protect and unprotect: on a sheet already in that state they fail with AccessDenied
   * (OfficeDev/office-js#6784, Excel for Windows from June 2026; earlier builds did nothing), so the fake fails.
   */
  protect(sheet: SheetState, options: unknown, password: unknown): void {
    if (sheet.protection.protected) throw new FakeOfficeError('AccessDenied', 'You cannot perform the requested operation. (already protected)');
    const locked = typeof password === 'string' && password !== '' ? { password } : {};
    sheet.protection = { protected: true, options: options ?? null, ...locked };
  }

  /**
   * unprotect(password?): a sheet protected with a password is lifted only with it ("password: sheet protection
   * password", Excel.WorksheetProtection). Without it Excel refuses; the code is assumed AccessDenied, the one
   * it gives for protection refused (office-js#6784).
   */
  unprotect(sheet: SheetState, password?: unknown): void {
    if (!sheet.protection.protected) throw new FakeOfficeError('AccessDenied', 'You cannot perform the requested operation. (not protected)');
    if (sheet.protection.password !== undefined && password !== sheet.protection.password) {
      throw new FakeOfficeError('AccessDenied', 'You cannot perform the requested operation. (the sheet is protected with a password)');
    }
    sheet.protection = { protected: false, options: null };
  }

  /** The user protects a sheet from Excel's Review tab, with no password unless given one. */
  protectSheet(name: string, password?: string): void {
    this.protect(this.sheet(name), null, password);
  }

  allCharts(): ChartState[] {
    return this.sheets.flatMap((s) => s.charts);
  }

  nextChartId(): string {
    return `{C${String(++this.chartCounter).padStart(4, '0')}}`;
  }

  /**
   * charts.add(type, sourceData, seriesBy): a chart over the source's cells, one series per row ("Rows") or
   * column ("Columns"; "Auto": rows when the source is wider than tall, assumed), named "Chart n" (the first n
   * free on the sheet). Placed over cells below the source until setPosition says where (assumed).
   */
  addChart(sheet: SheetState, type: unknown, source: ChartRef, seriesBy: unknown): ChartState {
    this.editable(sheet);
    if (typeof type !== 'string' || !type) throw invalidArgument(`chart type ${String(type)}`);
    const byRows = seriesBy === 'Rows' || ((seriesBy === 'Auto' || seriesBy === undefined || seriesBy === null) && source.box.cols >= source.box.rows);
    if (!byRows && seriesBy !== 'Columns' && seriesBy !== 'Auto' && seriesBy !== undefined && seriesBy !== null) throw invalidArgument(`seriesBy ${String(seriesBy)}`);
    const { box } = source;
    const series: ChartSeriesState[] = byRows
      ? Array.from({ length: box.rows }, (_, i) => ({ name: `Series${i + 1}`, values: { sheet: source.sheet, box: { ...box, row: box.row + i, rows: 1 } }, categories: null }))
      : Array.from({ length: box.cols }, (_, i) => ({ name: `Series${i + 1}`, values: { sheet: source.sheet, box: { ...box, col: box.col + i, cols: 1 } }, categories: null }));
    let name = '';
    for (let i = 1; !name || sheet.charts.some((c) => c.name === name); i++) name = `Chart ${i}`;
    const chart: ChartState = { id: this.nextChartId(), name, type, title: '', over: { row: box.row + box.rows + 1, col: box.col, rows: 15, cols: 8 }, legend: {}, series };
    sheet.charts.push(chart);
    return chart;
  }

  findChart(sheet: SheetState, name: string): ChartState | undefined {
    return sheet.charts.find((c) => c.name === name);
  }

  /** The sheet a chart is on (charts belong to a sheet). */
  chartSheet(chart: ChartState): SheetState {
    const sheet = this.sheets.find((s) => s.charts.includes(chart));
    if (!sheet) throw itemNotFound('chart');
    return sheet;
  }

  renameChart(chart: ChartState, name: unknown): void {
    this.editable(this.chartSheet(chart));
    if (typeof name !== 'string' || name.length === 0 || name.length > 255) throw invalidArgument(`chart name ${String(name)}`);
    chart.name = name;
  }

  setSeriesName(chart: ChartState, series: ChartSeriesState, name: unknown): void {
    this.editable(this.chartSheet(chart));
    if (typeof name !== 'string' || name.length > 255) throw invalidArgument(`series name ${String(name)}`);
    series.name = name;
    series.nameFormula = name.startsWith('=') ? name : undefined;
  }

  /** setValues / setXAxisValues: one row or one column. */
  setSeriesRange(chart: ChartState, series: ChartSeriesState, which: 'values' | 'categories', ref: ChartRef): void {
    this.editable(this.chartSheet(chart));
    if (ref.box.rows !== 1 && ref.box.cols !== 1) throw invalidArgument('a series range is one row or one column');
    series[which] = { sheet: ref.sheet, box: { ...ref.box } };
  }

  addSeries(chart: ChartState, name: unknown, index: unknown): ChartSeriesState {
    this.editable(this.chartSheet(chart));
    if (index !== undefined && index !== null) throw new FakeOfficeError('NotImplemented', 'fake: series.add at an index');
    const series: ChartSeriesState = { name: typeof name === 'string' ? name : `Series${chart.series.length + 1}`, values: null, categories: null };
    if (typeof name === 'string' && name.startsWith('=')) series.nameFormula = name;
    chart.series.push(series);
    return series;
  }

  deleteSeries(chart: ChartState, series: ChartSeriesState): void {
    this.editable(this.chartSheet(chart));
    chart.series.splice(chart.series.indexOf(series), 1);
  }

  deleteChart(chart: ChartState): void {
    const sheet = this.editable(this.chartSheet(chart));
    sheet.charts.splice(sheet.charts.indexOf(chart), 1);
  }

  setChartPosition(chart: ChartState, start: Box, end: Box | null): void {
    this.editable(this.chartSheet(chart));
    const last = end ?? start;
    const row = Math.min(start.row, last.row);
    const col = Math.min(start.col, last.col);
    chart.over = { row, col, rows: Math.max(start.row + start.rows, last.row + last.rows) - row, cols: Math.max(start.col + start.cols, last.col + last.cols) - col };
  }

  /** The user adds a chart of their own (Insert > Chart) over `over`, one series per row of `source`. */
  userChart(sheetName: string, source: string, over: string): ChartState {
    const sheet = this.sheet(sheetName);
    const chart = this.addChart(sheet, 'ColumnClustered', { sheet, box: parseA1(source) }, 'Rows');
    chart.over = parseA1(over);
    return chart;
  }

  /** Rows from `from` of `sheet` moved by `delta`: what charts read there, and the charts on it, follow (as names do). */
  private chartRowsMoved(sheet: SheetState, from: number, delta: number): void {
    const move = (box: Box): Box | null => {
      if (delta > 0) {
        if (from <= box.row) return { ...box, row: box.row + delta };
        if (from < box.row + box.rows) return { ...box, rows: box.rows + delta };
        return box;
      }
      const end = from - delta;
      const lost = Math.max(0, Math.min(end, box.row + box.rows) - Math.max(from, box.row));
      if (end <= box.row) return { ...box, row: box.row + delta };
      if (lost === box.rows) return null;
      return lost > 0 ? { ...box, row: Math.min(box.row, from), rows: box.rows - lost } : box;
    };
    for (const c of this.allCharts()) {
      for (const x of c.series) {
        if (x.values?.sheet === sheet) x.values = ((b) => b && { sheet, box: b })(move(x.values.box));
        if (x.categories?.sheet === sheet) x.categories = ((b) => b && { sheet, box: b })(move(x.categories.box));
      }
    }
    for (const c of sheet.charts) c.over = move(c.over) ?? { ...c.over, rows: 1 };
  }

  // Ranges -------------------------------------------------------------------------------------------

  /** values and formulas: each string is entered as typed, so "=..." becomes a formula unless the cell is '@'. */
  writeValues(sheet: SheetState, box: Box, input: unknown): void {
    this.editable(sheet);
    const at = rectangular(input, box.rows, box.cols);
    for (let r = 0; r < box.rows; r++) {
      for (let c = 0; c < box.cols; c++) {
        const v = at(r, c);
        if (v === null) continue; // null leaves a cell as it is
        enter(sheet.ensure(box.row + r, box.col + c), checkValue(v), this.textFormatHolds);
      }
    }
  }

  /** valuesAsJson (ExcelApi 1.16): typed cell values; a String is text whatever the number format. */
  writeTypedValues(sheet: SheetState, box: Box, input: unknown): void {
    this.editable(sheet);
    const at = rectangular(input, box.rows, box.cols);
    for (let r = 0; r < box.rows; r++) {
      for (let c = 0; c < box.cols; c++) {
        const v = at(r, c) as { type?: unknown; basicValue?: unknown } | null;
        if (!v || typeof v !== 'object') throw invalidArgument('valuesAsJson takes CellValue objects');
        const cell = sheet.ensure(box.row + r, box.col + c);
        if (v.type === 'String' && typeof v.basicValue === 'string') cell.value = checkValue(v.basicValue);
        else if (v.type === 'Double' && typeof v.basicValue === 'number') cell.value = checkValue(v.basicValue);
        else if (v.type === 'Boolean' && typeof v.basicValue === 'boolean') cell.value = v.basicValue;
        else if (v.type === 'Empty') cell.value = '';
        else throw new FakeOfficeError('NotImplemented', `fake: valuesAsJson type ${String(v.type)}`);
        cell.formula = undefined;
      }
    }
  }

  writeNumberFormats(sheet: SheetState, box: Box, input: unknown): void {
    this.editable(sheet);
    const at = rectangular(input, box.rows, box.cols);
    for (let r = 0; r < box.rows; r++) {
      for (let c = 0; c < box.cols; c++) {
        const f = at(r, c);
        if (f === null) continue;
        if (typeof f !== 'string') throw invalidArgument('number format must be text');
        sheet.ensure(box.row + r, box.col + c).numberFormat = f;
      }
    }
  }

  setBold(sheet: SheetState, box: Box, v: unknown): void {
    this.editable(sheet);
    if (typeof v !== 'boolean') throw invalidArgument('bold must be a boolean');
    forEachCell(sheet, box, (cell) => (cell.bold = v));
  }

  setIndent(sheet: SheetState, box: Box, v: unknown): void {
    this.editable(sheet);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 250) throw invalidArgument(`indentLevel ${String(v)}`);
    forEachCell(sheet, box, (cell) => (cell.indent = v));
  }

  setColumnWidth(sheet: SheetState, box: Box, v: unknown): void {
    this.editable(sheet);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalidArgument(`columnWidth ${String(v)}`);
    for (let c = box.col; c < box.col + box.cols; c++) sheet.widths.set(c, v);
  }

  clear(sheet: SheetState, box: Box, applyTo: unknown = 'All'): void {
    this.editable(sheet);
    for (let r = box.row; r < box.row + box.rows; r++) {
      for (let c = box.col; c < box.col + box.cols; c++) {
        const cell = sheet.get(r, c);
        if (!cell) continue;
        if (applyTo === 'All') sheet.delete(r, c);
        else if (applyTo === 'Contents') {
          cell.value = '';
          cell.formula = undefined;
        } else if (applyTo === 'Formats') {
          cell.numberFormat = 'General';
          cell.bold = false;
          cell.indent = 0;
        } else throw new FakeOfficeError('NotImplemented', `fake: clear(${String(applyTo)})`);
      }
    }
  }

  group(sheet: SheetState, box: Box, option: unknown): void {
    this.editable(sheet);
    if (option !== 'ByRows') throw new FakeOfficeError('NotImplemented', 'fake: only ByRows');
    for (let r = box.row; r < box.row + box.rows; r++) {
      if ((sheet.outline.get(r) ?? 0) >= 7) throw invalidOperation('Excel allows seven nested row groups (eight outline levels)');
    }
    for (let r = box.row; r < box.row + box.rows; r++) sheet.outline.set(r, (sheet.outline.get(r) ?? 0) + 1);
  }

  /**
   * Range.ungroup "removes the outermost level from the outline" of the rows in the range (Microsoft's
   * "Group ranges for an outline", learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-ranges-group;
   * the Interop Range.Ungroup "decreases its outline level"): Excel keeps one outline level per row, so whose
   * group it was does not count, and a user's own group around the rows loses a level as well. Assumed
   * pessimistic where no row of the range is grouped: it fails, as Excel's Ungroup does there ("Cannot
   * ungroup that selection").
   */
  ungroup(sheet: SheetState, box: Box): void {
    this.editable(sheet);
    let grouped = false;
    for (let r = box.row; r < box.row + box.rows; r++) grouped ||= (sheet.outline.get(r) ?? 0) > 0;
    if (!grouped) throw invalidOperation('Cannot ungroup that selection: none of its rows is grouped (assumed)');
    for (let r = box.row; r < box.row + box.rows; r++) {
      const level = Math.max(0, (sheet.outline.get(r) ?? 0) - 1);
      if (level) sheet.outline.set(r, level);
      else sheet.outline.delete(r);
    }
  }

  /**
   * Range.delete(Up): the cells below, in the range's columns, move up. Rows of a table's body go with their
   * table, which must be covered across its whole width; a filtered table is left as it is (the API deleted
   * nothing in #994: assumed silent, as reported).
   */
  deleteRange(sheet: SheetState, box: Box, shift: unknown): void {
    this.editable(sheet);
    if (shift !== 'Up') throw new FakeOfficeError('NotImplemented', `fake: delete(${String(shift)})`);
    for (const t of this.tables) {
      if (t.sheet !== sheet || !overlaps(t.box, box)) continue;
      const body = { ...t.box, row: t.box.row + 1, rows: t.box.rows - 1 };
      const inside = box.row >= body.row && box.row + box.rows <= body.row + body.rows;
      if (!inside || box.col !== t.box.col || box.cols !== t.box.cols) {
        throw invalidOperation('This operation is not allowed. The operation is attempting to shift cells in a table on your worksheet.');
      }
      if (t.filtered) return;
      this.deleteTableRows(t, box.row - body.row, box.rows);
      return;
    }
    sheet.shift(box.row + box.rows, box.col, box.cols, -box.rows);
  }

  // Defined names ------------------------------------------------------------------------------------

  findName(key: string): NameState | undefined {
    return this.names.find((n) => n.name.toLowerCase() === key.toLowerCase());
  }

  /** names.add: workbook scope; Excel's naming rules; a name already defined is refused (#2875). */
  addName(name: unknown, sheet: SheetState, box: Box, comment: unknown): NameState {
    const legal =
      typeof name === 'string' &&
      name.length <= 255 &&
      /^[A-Za-z_\\\u0080-\uFFFF][A-Za-z0-9_.?\\\u0080-\uFFFF]*$/.test(name) &&
      !/^(true|false)$/i.test(name) &&
      !/^[A-Za-z]{1,3}\d+$/.test(name) &&
      !/^(?:[Rr]\d*(?:[Cc]\d*)?|[Cc]\d*)(?![A-Za-z])/.test(name);
    if (!legal) throw invalidArgument(`name ${String(name)}`);
    if (this.findName(name) || this.findTable(name)) throw new FakeOfficeError('ItemAlreadyExists', 'A resource with the same name or identifier already exists.');
    const n: NameState = { name, target: { sheet, box }, visible: true, comment: typeof comment === 'string' ? comment : '' };
    this.names.push(n);
    return n;
  }

  deleteName(n: NameState): void {
    const list = n.scope ? n.scope.names : this.names;
    list.splice(list.indexOf(n), 1);
  }

  /** NamedItem.formula set (ExcelApi 1.7) to a reference: the name refers to those cells from now on. */
  repointName(n: NameState, formula: unknown): void {
    const parts = typeof formula === 'string' && formula.startsWith('=') ? splitSheet(formula.slice(1)) : undefined;
    if (!parts || parts.sheet === undefined) throw new FakeOfficeError('NotImplemented', `fake: a name formula other than a sheet reference (${String(formula)})`);
    n.target = { sheet: this.sheet(parts.sheet), box: parseA1(parts.a1) };
    n.brokenFormula = undefined;
  }

  /** What NamedItem.formula shows: the reference, or Excel's #REF! form of it. */
  nameFormula(n: NameState): string {
    return n.target ? `=${quoteSheet(n.target.sheet.name)}!${absoluteA1(n.target.box)}` : n.brokenFormula!;
  }

  private breakName(n: NameState, formula: string): void {
    n.target = null;
    n.brokenFormula = formula;
  }

  // Validation ---------------------------------------------------------------------------------------

  setValidationRule(sheet: SheetState, box: Box, rule: unknown): void {
    this.editable(sheet);
    const list = (rule as { list?: { source?: unknown } } | null)?.list;
    if (!list) throw new FakeOfficeError('NotImplemented', 'fake: only list validation');
    const source = list.source;
    if (typeof source !== 'string') throw invalidArgument('fake: list source must be text');
    if (source.startsWith('=')) {
      const { sheet: name, a1: ref } = splitSheet(source.slice(1));
      if (name !== undefined && !this.findSheet(name)) throw invalidArgument(`list source sheet ${name}`);
      const b = parseA1(ref);
      if (b.rows !== 1 && b.cols !== 1) throw invalidArgument('a list source must be one row or one column');
    } else if (source.length > 255) {
      throw invalidArgument('an inline list source is limited to 255 characters');
    }
    forEachCell(sheet, box, (cell) => (cell.validation = JSON.parse(JSON.stringify(rule))));
  }

  clearValidation(sheet: SheetState, box: Box): void {
    this.editable(sheet);
    forEachCell(sheet, box, (cell) => (cell.validation = undefined));
  }

  // Tables -------------------------------------------------------------------------------------------

  addTable(sheet: SheetState, requested: Box, hasHeaders: boolean): TableState {
    this.editable(sheet);
    if (!hasHeaders) throw new FakeOfficeError('NotImplemented', 'fake: tables without headers');
    // A header-only range gets one empty body row, as Excel does.
    const box = { ...requested, rows: Math.max(2, requested.rows) };
    if (this.tables.some((t) => t.sheet === sheet && overlaps(t.box, box))) throw invalidOperation('a table cannot overlap another table');
    const seen = new Set<string>();
    for (let c = 0; c < box.cols; c++) {
      const cell = sheet.ensure(box.row, box.col + c);
      let name = cell.value === '' ? `Column${c + 1}` : String(cell.value);
      for (let i = 2; seen.has(name.toLowerCase()); i++) name = `${String(cell.value)}${i}`;
      seen.add(name.toLowerCase());
      cell.value = name;
      cell.formula = undefined;
    }
    let name = '';
    do name = `Table${++this.tableCounter}`;
    while (this.findTable(name));
    const t: TableState = { name, id: `{T${String(this.tableCounter).padStart(4, '0')}}`, sheet, box, style: 'TableStyleMedium2', filtered: false };
    this.tables.push(t);
    return t;
  }

  renameTable(t: TableState, name: unknown): void {
    if (typeof name !== 'string' || !/^[A-Za-z_\\][A-Za-z0-9_.\\]*$/.test(name) || /^[A-Za-z]{1,3}\d+$/.test(name) || /^[rc]$/i.test(name)) {
      throw invalidArgument(`table name ${String(name)}`);
    }
    const other = this.findTable(name);
    if (other && other !== t) throw invalidArgument(`a table named ${name} already exists`);
    t.name = name;
  }

  /**
   * table.rows.add at the end: the cells below the table (in its columns) move down, the new rows take the
   * number format and validation of the last row. Assumed: the values are parsed before that format reaches
   * the new cells, so a formula-like string given to rows.add becomes a formula.
   */
  addTableRows(t: TableState, index: unknown, input: unknown): void {
    this.editable(t.sheet);
    if (index !== undefined && index !== null && index !== t.box.rows - 1) throw new FakeOfficeError('NotImplemented', 'fake: rows.add only appends');
    const rows = Array.isArray(input) ? input : [[input ?? '']];
    if (rows.length === 0) throw invalidArgument('no rows');
    const matrix = rectangular(rows, rows.length, t.box.cols);
    const bottom = t.box.row + t.box.rows;
    t.sheet.shift(bottom, t.box.col, t.box.cols, rows.length);
    for (let i = 0; i < rows.length; i++) {
      for (let c = 0; c < t.box.cols; c++) {
        const v = matrix(i, c);
        const cell = t.sheet.ensure(bottom + i, t.box.col + c);
        if (v !== null) enter(cell, checkValue(v), this.textFormatHolds);
        const above = t.sheet.get(bottom - 1, t.box.col + c);
        cell.numberFormat = above?.numberFormat ?? 'General';
        cell.validation = above?.validation;
      }
    }
    t.box = { ...t.box, rows: t.box.rows + rows.length };
  }

  /** Table.delete: the table and what it held go (assumed, as deleting a list object in Excel does). */
  deleteTable(t: TableState): void {
    this.tables.splice(this.tables.indexOf(t), 1);
    this.clear(t.sheet, t.box, 'All');
  }

  /** TableRow.delete, TableRowCollection.deleteRowsAt and Range.delete on body rows: the cells below move up. */
  deleteTableRows(t: TableState, index: number, count: number): void {
    this.editable(t.sheet);
    const bodyRows = t.box.rows - 1;
    if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 0 || index + count > bodyRows) {
      throw itemNotFound(`table rows ${index}..${index + count - 1}`);
    }
    const r = t.box.row + 1 + index;
    // A table keeps one body row: deleting them all leaves the first one, emptied.
    const keep = count === bodyRows ? 1 : 0;
    for (let c = 0; c < t.box.cols; c++) {
      const cell = keep ? t.sheet.get(r, t.box.col + c) : undefined;
      if (cell) {
        cell.value = '';
        cell.formula = undefined;
      }
    }
    const removed = count - keep;
    if (removed === 0) return;
    t.sheet.shift(r + keep + removed, t.box.col, t.box.cols, -removed);
    t.box = { ...t.box, rows: t.box.rows - removed };
  }

  dateSerial(y: number, m: number, d: number): number {
    const days = Math.round((Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000);
    return this.date1904 ? days - 1462 : days;
  }
}
