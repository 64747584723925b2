/**
 * A fake of the part of the Excel JavaScript object model the add-in uses, written from Excel's documented
 * behaviour rather than from OfficeGateway:
 *  - proxies queue operations; nothing reaches the workbook until context.sync(), and operations run in order;
 *  - a property can be read only after load() and a sync (PropertyNotLoaded), never "as written";
 *  - value and format arrays must match the range's shape exactly (InvalidArgument); a single value applies to
 *    every cell ("update all cells in a range");
 *  - a string entered into a cell that is not '@' is parsed like typed input: "=..." (and "+x", "-x") becomes a
 *    formula, "123" a number, "TRUE" a boolean; in an '@' cell it stays text;
 *  - a request over 5 MB is rejected whole (RequestPayloadSizeLimitExceeded), a response over 5 MB too
 *    (ResponsePayloadSizeLimitExceeded, after the writes ran); size = UTF-8 bytes of the JSON of the queued
 *    operations, values and formats included;
 *  - a failed operation stops the batch; those before it stay applied (batches are not transactions);
 *  - proxies die with their Excel.run.
 * Assumptions where Excel's documentation is silent are marked "assumed" and are the pessimistic choice.
 */

export const FAKE_PAYLOAD_LIMIT = 5 * 1024 * 1024;

export class FakeOfficeError extends Error {
  override name = 'RichApi.Error';
  readonly debugInfo: { code: string; message: string; errorLocation?: string };
  constructor(
    readonly code: string,
    message: string,
    location?: string,
  ) {
    super(message);
    this.debugInfo = { code, message, errorLocation: location };
  }
}

const invalidArgument = (why: string, where?: string) =>
  new FakeOfficeError('InvalidArgument', `The argument is invalid or missing or has an incorrect format. (${why})`, where);
const itemNotFound = (what: string) => new FakeOfficeError('ItemNotFound', `The requested resource doesn't exist. (${what})`);
const invalidOperation = (why: string) => new FakeOfficeError('InvalidOperation', `The operation is invalid for the object. (${why})`);

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

const MAX_ROWS = 1_048_576;
const MAX_COLS = 16_384;

// Addresses (independent of src/engine/ports/address.ts on purpose) ---------------------------------------

function colIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

function colLetters(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function parseA1(address: string): Box {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(address.trim());
  if (!m) throw invalidArgument(`bad address ${address}`);
  const r1 = Number(m[2]) - 1;
  const c1 = colIndex(m[1]);
  const r2 = m[4] ? Number(m[4]) - 1 : r1;
  const c2 = m[3] ? colIndex(m[3]) : c1;
  const box = { row: Math.min(r1, r2), col: Math.min(c1, c2), rows: Math.abs(r2 - r1) + 1, cols: Math.abs(c2 - c1) + 1 };
  if (box.row < 0 || box.row + box.rows > MAX_ROWS || box.col + box.cols > MAX_COLS) throw invalidArgument(`off the sheet ${address}`);
  return box;
}

function a1(box: Box): string {
  const tl = `${colLetters(box.col)}${box.row + 1}`;
  return box.rows === 1 && box.cols === 1 ? tl : `${tl}:${colLetters(box.col + box.cols - 1)}${box.row + box.rows}`;
}

function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** "Sheet1!A1:B2", "'My sheet'!$A$1" -> parts; no sheet -> undefined sheet. */
function splitSheet(address: string): { sheet?: string; a1: string } {
  const bang = address.lastIndexOf('!');
  if (bang < 0) return { a1: address };
  let sheet = address.slice(0, bang).replace(/^=/, '');
  if (sheet.startsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheet, a1: address.slice(bang + 1) };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');

// Workbook state -----------------------------------------------------------------------------------

export class SheetState {
  visibility: 'Visible' | 'Hidden' | 'VeryHidden' = 'Visible';
  /** Column-major, so inserting and deleting rows in some columns is a native splice. */
  private readonly columns: (FakeCell | undefined)[][] = [];
  readonly widths = new Map<number, number>();
  readonly outline = new Map<number, number>();
  constructor(public name: string) {}

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
      if (!arr || arr.length <= from) continue;
      if (delta > 0) this.columns[c] = arr.slice(0, from).concat(new Array<FakeCell | undefined>(delta), arr.slice(from));
      else arr.splice(from + delta, -delta);
    }
  }

  used(valuesOnly: boolean): Box | null {
    let top = Infinity;
    let left = Infinity;
    let bottom = -1;
    let right = -1;
    this.columns.forEach((arr, c) => {
      arr?.forEach((cell, r) => {
        if (!cell || (valuesOnly && cell.value === '' && cell.formula === undefined)) return;
        top = Math.min(top, r);
        left = Math.min(left, c);
        bottom = Math.max(bottom, r);
        right = Math.max(right, c);
      });
    });
    return bottom < 0 ? null : { row: top, col: left, rows: bottom - top + 1, cols: right - left + 1 };
  }
}

export interface TableState {
  name: string;
  sheet: SheetState;
  /** Header row included. */
  box: Box;
  style: string;
}

export interface SyncRecord {
  index: number;
  actions: number;
  requestBytes: number;
  responseBytes: number;
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
}

/** Typed input, as Excel parses it when a cell is not text-formatted. */
function enter(cell: FakeCell, v: CellValue): void {
  cell.formula = undefined;
  if (typeof v !== 'string' || cell.numberFormat === '@') {
    cell.value = v;
    return;
  }
  const numeric = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v);
  if (v === '') cell.value = '';
  else if (v.startsWith("'")) cell.value = v.slice(1);
  else if (numeric) cell.value = Number(v);
  else if (v.length > 1 && /^[=+-]/.test(v)) {
    // The fake does not evaluate formulas; what matters is that the text became one.
    cell.formula = v.startsWith('=') ? v : `=${v}`;
    cell.value = '#NAME?';
  } else if (/^(true|false)$/i.test(v)) cell.value = v.toLowerCase() === 'true';
  else cell.value = v;
}

type Delivery = { bytes: number; deliver: () => void };
interface Action {
  wire: unknown;
  apply: (rec: SyncRecord) => Delivery | void;
}

export class FakeExcel {
  readonly sheets: SheetState[] = [];
  readonly tables: TableState[] = [];
  readonly settings = new Map<string, unknown>();
  readonly syncs: SyncRecord[] = [];
  active: SheetState;
  /** The selected range; the active cell is its top-left cell. rows/cols default to 1. */
  selection: { sheet: SheetState; row: number; col: number; rows?: number; cols?: number };
  date1904: boolean;
  calculationMode: string;
  /** Cells were written while calculation was suspended and nothing has recalculated since. */
  dirtyWhileSuspended = false;
  requestLimit: number;
  responseLimit: number;
  private tableCounter = 0;

  constructor(options: FakeExcelOptions = {}) {
    for (const name of options.sheets ?? ['Sheet1']) this.sheets.push(new SheetState(name));
    this.active = this.sheets[0];
    this.selection = { sheet: this.active, row: 0, col: 0 };
    this.date1904 = options.date1904 ?? false;
    this.calculationMode = options.calculationMode ?? 'Automatic';
    this.requestLimit = options.requestLimitBytes ?? FAKE_PAYLOAD_LIMIT;
    this.responseLimit = options.responseLimitBytes ?? FAKE_PAYLOAD_LIMIT;
  }

  /** The Excel.run equivalent: hand it to OfficeGateway as `run`. */
  readonly run = async <T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> => {
    const ctx = new FakeContext(this);
    try {
      const result = await batch(ctx as unknown as Excel.RequestContext);
      if (ctx.pending > 0) await ctx.sync();
      return result;
    } finally {
      ctx.closed = true;
    }
  };

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

  findSheet(name: string): SheetState | undefined {
    return this.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  sheet(name: string): SheetState {
    const s = this.findSheet(name);
    if (!s) throw itemNotFound(`sheet ${name}`);
    return s;
  }

  findTable(name: string): TableState | undefined {
    return this.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  }

  cell(sheet: string, address: string): FakeCell {
    const b = parseA1(address);
    return { ...(this.sheet(sheet).get(b.row, b.col) ?? { value: '', numberFormat: 'General', bold: false, indent: 0 }) };
  }

  // Rules used by the proxies ------------------------------------------------------------------------

  addSheet(name: string | undefined): SheetState {
    let n = name;
    if (n === undefined) for (let i = 1; !n || this.findSheet(n); i++) n = `Sheet${i}`;
    if (n.length === 0 || n.length > 31 || /[:\\/?*[\]]/.test(n) || n.startsWith("'") || n.endsWith("'")) {
      throw invalidArgument(`sheet name ${n}`);
    }
    if (this.findSheet(n)) throw new FakeOfficeError('ItemAlreadyExists', `A sheet named ${n} already exists.`);
    const s = new SheetState(n);
    this.sheets.push(s);
    return s;
  }

  setVisibility(sheet: SheetState, v: unknown): void {
    if (v !== 'Visible' && v !== 'Hidden' && v !== 'VeryHidden') throw invalidArgument(`visibility ${String(v)}`);
    if (v !== 'Visible' && this.sheets.filter((s) => s.visibility === 'Visible' && s !== sheet).length === 0) {
      throw invalidOperation('a workbook must keep one visible sheet');
    }
    sheet.visibility = v;
    if (v !== 'Visible' && this.active === sheet) this.active = this.sheets.find((s) => s.visibility === 'Visible')!;
  }

  addTable(sheet: SheetState, requested: Box, hasHeaders: boolean): TableState {
    if (!hasHeaders) throw new FakeOfficeError('NotImplemented', 'fake: tables without headers');
    // A header-only range gets one empty body row, as Excel does.
    const box = { ...requested, rows: Math.max(2, requested.rows) };
    for (const t of this.tables) {
      if (t.sheet !== sheet) continue;
      const b = t.box;
      if (b.row < box.row + box.rows && box.row < b.row + b.rows && b.col < box.col + box.cols && box.col < b.col + b.cols) {
        throw invalidOperation('a table cannot overlap another table');
      }
    }
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
    const t: TableState = { name, sheet, box, style: 'TableStyleMedium2' };
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
  addTableRows(t: TableState, input: unknown): void {
    const rows = Array.isArray(input) ? input : [[input]];
    if (rows.length === 0) throw invalidArgument('no rows');
    const matrix = rectangular(rows, rows.length, t.box.cols);
    const bottom = t.box.row + t.box.rows;
    t.sheet.shift(bottom, t.box.col, t.box.cols, rows.length);
    for (let i = 0; i < rows.length; i++) {
      for (let c = 0; c < t.box.cols; c++) {
        const v = matrix(i, c);
        const cell = t.sheet.ensure(bottom + i, t.box.col + c);
        if (v !== null) enter(cell, checkValue(v));
        const above = t.sheet.get(bottom - 1, t.box.col + c);
        cell.numberFormat = above?.numberFormat ?? 'General';
        cell.validation = above?.validation;
      }
    }
    t.box = { ...t.box, rows: t.box.rows + rows.length };
  }

  /** TableRow.delete (count 1) and TableRowCollection.deleteRowsAt: the cells below move up. */
  deleteTableRows(t: TableState, index: number, count: number): void {
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

function checkValue(v: unknown): CellValue {
  if (typeof v === 'string' && v.length > 32_767) throw invalidArgument('a cell holds at most 32,767 characters');
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw invalidArgument(`unsupported cell value ${String(v)}`);
}

/** A cell accessor for a write: a 2-D array of exactly the range's shape, or one value for every cell. */
function rectangular(input: unknown, rows: number, cols: number): (r: number, c: number) => unknown {
  if (!Array.isArray(input)) {
    if (input === null || input === undefined || typeof input === 'object') throw invalidArgument('not an array or a value');
    return () => input;
  }
  if (input.length !== rows || input.some((row) => !Array.isArray(row) || row.length !== cols)) {
    throw invalidArgument(`the input array is not ${rows} x ${cols}`);
  }
  return (r, c) => (input as unknown[][])[r][c];
}

// Request context ----------------------------------------------------------------------------------

class FakeContext {
  readonly workbook: FakeWorkbook;
  closed = false;
  private queue: Action[] = [];

  constructor(readonly excel: FakeExcel) {
    this.workbook = new FakeWorkbook(this);
  }

  get pending(): number {
    return this.queue.length;
  }

  enqueue(wire: unknown, apply: Action['apply']): void {
    if (this.closed) throw new FakeOfficeError('InvalidRequestContext', 'Cannot use the object across different request contexts.');
    this.queue.push({ wire, apply });
  }

  async sync(): Promise<void> {
    if (this.closed) throw new FakeOfficeError('InvalidRequestContext', 'The request context is closed.');
    await Promise.resolve();
    const actions = this.queue;
    this.queue = [];
    const excel = this.excel;
    const rec: SyncRecord = {
      index: excel.syncs.length,
      actions: actions.length,
      requestBytes: actions.reduce((n, a) => n + bytes(a.wire), 0),
      responseBytes: 0,
      calcSuspended: false,
      screenSuspended: false,
      recalcs: [],
    };
    excel.syncs.push(rec);
    if (rec.requestBytes > excel.requestLimit) {
      rec.error = 'RequestPayloadSizeLimitExceeded';
      throw new FakeOfficeError(rec.error, 'The request payload size has exceeded the limit. Please refer to the documentation: "https://docs.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization#excel-add-ins".');
    }
    const deliveries: Delivery[] = [];
    let wrote = false;
    try {
      for (const a of actions) {
        const d = a.apply(rec);
        if (d) deliveries.push(d);
        else wrote = true;
      }
    } catch (error) {
      rec.error = (error as FakeOfficeError).code ?? 'GeneralException';
      throw error;
    } finally {
      if (wrote && rec.calcSuspended) excel.dirtyWhileSuspended = true;
      if (rec.recalcs.length > 0 && !rec.calcSuspended) excel.dirtyWhileSuspended = false;
    }
    rec.responseBytes = deliveries.reduce((n, d) => n + d.bytes, 0);
    if (rec.responseBytes > excel.responseLimit) {
      rec.error = 'ResponsePayloadSizeLimitExceeded';
      throw new FakeOfficeError(rec.error, 'The response payload size has exceeded the limit.');
    }
    for (const d of deliveries) d.deliver();
  }
}

// Proxies ------------------------------------------------------------------------------------------

function parseProps(spec: string | string[] | { select?: string } | undefined): string[] | undefined {
  if (spec === undefined) return undefined;
  const list = typeof spec === 'string' ? spec.split(',') : Array.isArray(spec) ? spec : (spec.select ?? '').split(',');
  return list.map((p) => p.trim()).filter(Boolean);
}

abstract class ClientObject {
  protected readonly loaded = new Map<string, unknown>();
  constructor(
    protected readonly ctx: FakeContext,
    readonly path: string,
  ) {}

  protected read<T>(prop: string): T {
    if (!this.loaded.has(prop)) {
      throw new FakeOfficeError(
        'PropertyNotLoaded',
        `The property '${prop}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
      );
    }
    return this.loaded.get(prop) as T;
  }

  /** A queued write: the wire form counts toward the request size. */
  protected write(op: string, args: unknown, apply: (rec: SyncRecord) => void): void {
    this.ctx.enqueue({ op, path: this.path, args }, (rec) => {
      apply(rec);
    });
  }

  protected abstract defaults(): string[];
  /** Current value of a property at the moment the load runs in the batch; null on a null object. */
  protected abstract snapshot(prop: string): unknown;

  load(spec?: string | string[] | { select?: string }): this {
    const props = parseProps(spec) ?? this.defaults();
    this.ctx.enqueue({ op: 'load', path: this.path, props }, () => {
      const snap = props.map((p) => [p, this.snapshot(p)] as const);
      return {
        bytes: bytes(Object.fromEntries(snap)),
        deliver: () => snap.forEach(([p, v]) => this.loaded.set(p, v)),
      };
    });
    return this;
  }
}

/** An object that may be a null object (getItemOrNullObject): isNullObject is known after the next sync. */
abstract class NullableObject<T> extends ClientObject {
  constructor(
    ctx: FakeContext,
    path: string,
    protected readonly locate: () => T | null,
    nullable: boolean,
  ) {
    super(ctx, path);
    if (nullable) {
      ctx.enqueue({ op: 'probe', path }, () => {
        const isNull = this.locate() === null;
        return { bytes: 8, deliver: () => this.loaded.set('isNullObject', isNull) };
      });
    } else {
      this.loaded.set('isNullObject', false);
    }
  }

  get isNullObject(): boolean {
    return this.read('isNullObject');
  }

  /** Runs an operation on the object; on a null object it is ignored, as Office does. */
  protected on(op: string, args: unknown, fn: (target: T, rec: SyncRecord) => void): void {
    this.write(op, args, (rec) => {
      const target = this.locate();
      if (target !== null) fn(target, rec);
    });
  }
}

type RangeTarget = { sheet: SheetState; box: Box };

export class FakeRange extends NullableObject<RangeTarget> {
  constructor(ctx: FakeContext, path: string, locate: () => RangeTarget | null, nullable = false) {
    super(ctx, path, locate, nullable);
  }

  protected defaults(): string[] {
    return ['address', 'values', 'numberFormat', 'rowCount', 'columnCount'];
  }

  protected snapshot(prop: string): unknown {
    const t = this.locate();
    if (t === null) return null;
    const { sheet, box } = t;
    const grid = <V>(f: (cell: FakeCell | undefined) => V) =>
      Array.from({ length: box.rows }, (_, r) => Array.from({ length: box.cols }, (_, c) => f(sheet.get(box.row + r, box.col + c))));
    switch (prop) {
      case 'values':
        return grid((cell) => cell?.value ?? '');
      case 'numberFormat':
        return grid((cell) => cell?.numberFormat ?? 'General');
      case 'formulas':
        return grid((cell) => cell?.formula ?? cell?.value ?? '');
      case 'address':
        return `${quoteSheet(sheet.name)}!${a1(box)}`;
      case 'rowCount':
        return box.rows;
      case 'columnCount':
        return box.cols;
      default:
        throw invalidArgument(`fake: Range.${prop} is not modelled`);
    }
  }

  get values(): CellValue[][] {
    return this.read('values');
  }
  set values(input: CellValue[][]) {
    this.on('set', { values: input }, ({ sheet, box }) => {
      const at = rectangular(input, box.rows, box.cols);
      for (let r = 0; r < box.rows; r++) {
        for (let c = 0; c < box.cols; c++) {
          const v = at(r, c);
          if (v === null) continue; // null leaves a cell as it is
          enter(sheet.ensure(box.row + r, box.col + c), checkValue(v));
        }
      }
    });
  }

  /** Like values: each string is entered as typed, so "=..." becomes a formula unless the cell is '@'. */
  get formulas(): CellValue[][] {
    return this.read('formulas');
  }
  set formulas(input: CellValue[][]) {
    this.on('set', { formulas: input }, ({ sheet, box }) => {
      const at = rectangular(input, box.rows, box.cols);
      for (let r = 0; r < box.rows; r++) {
        for (let c = 0; c < box.cols; c++) {
          const v = at(r, c);
          if (v === null) continue;
          enter(sheet.ensure(box.row + r, box.col + c), checkValue(v));
        }
      }
    });
  }

  get numberFormat(): string[][] {
    return this.read('numberFormat');
  }
  set numberFormat(input: string[][]) {
    this.on('set', { numberFormat: input }, ({ sheet, box }) => {
      const at = rectangular(input, box.rows, box.cols);
      for (let r = 0; r < box.rows; r++) {
        for (let c = 0; c < box.cols; c++) {
          const f = at(r, c);
          if (f === null) continue;
          if (typeof f !== 'string') throw invalidArgument('number format must be text');
          sheet.ensure(box.row + r, box.col + c).numberFormat = f;
        }
      }
    });
  }

  get address(): string {
    return this.read('address');
  }
  get rowCount(): number {
    return this.read('rowCount');
  }
  get columnCount(): number {
    return this.read('columnCount');
  }

  get format(): FakeRangeFormat {
    return new FakeRangeFormat(this.ctx, `${this.path}.format`, this.locate);
  }

  get dataValidation(): FakeDataValidation {
    return new FakeDataValidation(this.ctx, `${this.path}.dataValidation`, this.locate);
  }

  getCell(row: number, col: number): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.cell(${row},${col})`, () => {
      const t = this.locate();
      return t && { sheet: t.sheet, box: { row: t.box.row + row, col: t.box.col + col, rows: 1, cols: 1 } };
    });
  }

  getLastRow(): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.lastRow`, () => {
      const t = this.locate();
      return t && { sheet: t.sheet, box: { ...t.box, row: t.box.row + t.box.rows - 1, rows: 1 } };
    });
  }

  group(option: string): void {
    this.on('group', { option }, ({ sheet, box }) => {
      if (option !== 'ByRows') throw new FakeOfficeError('NotImplemented', 'fake: only ByRows');
      for (let r = box.row; r < box.row + box.rows; r++) {
        if ((sheet.outline.get(r) ?? 0) >= 7) throw invalidOperation('Excel allows seven nested row groups (eight outline levels)');
      }
      for (let r = box.row; r < box.row + box.rows; r++) sheet.outline.set(r, (sheet.outline.get(r) ?? 0) + 1);
    });
  }

  /** Assumed lenient: rows that are not grouped stay at level 0. */
  ungroup(option: string): void {
    this.on('ungroup', { option }, ({ sheet, box }) => {
      for (let r = box.row; r < box.row + box.rows; r++) {
        const level = Math.max(0, (sheet.outline.get(r) ?? 0) - 1);
        if (level) sheet.outline.set(r, level);
        else sheet.outline.delete(r);
      }
    });
  }

  clear(applyTo: string = 'All'): void {
    this.on('clear', { applyTo }, ({ sheet, box }) => {
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
          } else throw new FakeOfficeError('NotImplemented', `fake: clear(${applyTo})`);
        }
      }
    });
  }
}

class FakeRangeFormat extends NullableObject<RangeTarget> {
  constructor(ctx: FakeContext, path: string, locate: () => RangeTarget | null) {
    super(ctx, path, locate, false);
  }
  protected defaults(): string[] {
    return [];
  }
  protected snapshot(prop: string): unknown {
    throw invalidArgument(`fake: RangeFormat.${prop} is not modelled for reading`);
  }

  get font(): { bold: boolean } {
    const setBold = (v: boolean) =>
      this.on('set', { bold: v }, ({ sheet, box }) => {
        if (typeof v !== 'boolean') throw invalidArgument('bold must be a boolean');
        forEachCell(sheet, box, (cell) => (cell.bold = v));
      });
    return {
      get bold(): boolean {
        throw new FakeOfficeError('PropertyNotLoaded', "The property 'bold' is not available.");
      },
      set bold(v: boolean) {
        setBold(v);
      },
    };
  }

  set indentLevel(v: number) {
    this.on('set', { indentLevel: v }, ({ sheet, box }) => {
      if (!Number.isInteger(v) || v < 0 || v > 250) throw invalidArgument(`indentLevel ${v}`);
      forEachCell(sheet, box, (cell) => (cell.indent = v));
    });
  }
  get indentLevel(): number {
    return this.read('indentLevel');
  }

  set columnWidth(v: number) {
    this.on('set', { columnWidth: v }, ({ sheet, box }) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalidArgument(`columnWidth ${v}`);
      for (let c = box.col; c < box.col + box.cols; c++) sheet.widths.set(c, v);
    });
  }
  get columnWidth(): number {
    return this.read('columnWidth');
  }
}

function forEachCell(sheet: SheetState, box: Box, f: (cell: FakeCell) => void): void {
  for (let r = box.row; r < box.row + box.rows; r++) for (let c = box.col; c < box.col + box.cols; c++) f(sheet.ensure(r, c));
}

class FakeDataValidation extends NullableObject<RangeTarget> {
  constructor(ctx: FakeContext, path: string, locate: () => RangeTarget | null) {
    super(ctx, path, locate, false);
  }
  protected defaults(): string[] {
    return ['rule'];
  }
  protected snapshot(prop: string): unknown {
    const t = this.locate();
    if (prop !== 'rule') throw invalidArgument(`fake: DataValidation.${prop}`);
    return t ? (t.sheet.get(t.box.row, t.box.col)?.validation ?? null) : null;
  }

  get rule(): unknown {
    return this.read('rule');
  }
  set rule(rule: unknown) {
    const excel = this.ctx.excel;
    this.on('set', { rule }, ({ sheet, box }) => {
      const list = (rule as { list?: { source?: unknown } }).list;
      if (!list) throw new FakeOfficeError('NotImplemented', 'fake: only list validation');
      const source = list.source;
      if (typeof source !== 'string') throw invalidArgument('fake: list source must be text');
      if (source.startsWith('=')) {
        const { sheet: name, a1: ref } = splitSheet(source.slice(1));
        if (name !== undefined && !excel.findSheet(name)) throw invalidArgument(`list source sheet ${name}`);
        const b = parseA1(ref);
        if (b.rows !== 1 && b.cols !== 1) throw invalidArgument('a list source must be one row or one column');
      } else if (source.length > 255) {
        throw invalidArgument('an inline list source is limited to 255 characters');
      }
      forEachCell(sheet, box, (cell) => (cell.validation = JSON.parse(JSON.stringify(rule))));
    });
  }

  clear(): void {
    this.on('clear', {}, ({ sheet, box }) => forEachCell(sheet, box, (cell) => (cell.validation = undefined)));
  }
}

class FakeWorksheet extends NullableObject<SheetState> {
  constructor(ctx: FakeContext, path: string, locate: () => SheetState | null, nullable = false) {
    super(ctx, path, locate, nullable);
  }
  protected defaults(): string[] {
    return ['name', 'visibility'];
  }
  protected snapshot(prop: string): unknown {
    const s = this.locate();
    if (s === null) return null;
    if (prop === 'name') return s.name;
    if (prop === 'visibility') return s.visibility;
    throw invalidArgument(`fake: Worksheet.${prop}`);
  }

  get name(): string {
    return this.read('name');
  }

  get visibility(): string {
    return this.read('visibility');
  }
  set visibility(v: string) {
    this.on('set', { visibility: v }, (s) => this.ctx.excel.setVisibility(s, v));
  }

  activate(): void {
    this.on('activate', {}, (s) => {
      if (s.visibility !== 'Visible') throw invalidOperation('a hidden sheet cannot be activated');
      this.ctx.excel.active = s;
    });
  }

  getRange(address: string): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.range(${address})`, () => {
      const s = this.locate();
      return s && { sheet: s, box: parseA1(address) };
    });
  }

  getRangeByIndexes(row: number, col: number, rows: number, cols: number): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.range(${row},${col},${rows},${cols})`, () => {
      const s = this.locate();
      const ok = [row, col, rows, cols].every(Number.isInteger) && row >= 0 && col >= 0 && rows > 0 && cols > 0;
      if (!ok || row + rows > MAX_ROWS || col + cols > MAX_COLS) throw invalidArgument(`range indexes ${row},${col},${rows},${cols}`);
      return s && { sheet: s, box: { row, col, rows, cols } };
    });
  }

  getUsedRangeOrNullObject(valuesOnly = false): FakeRange {
    return new FakeRange(
      this.ctx,
      `${this.path}.usedRange`,
      () => {
        const s = this.locate();
        const box = s?.used(valuesOnly);
        return s && box ? { sheet: s, box } : null;
      },
      true,
    );
  }

  get tables(): FakeTableCollection {
    return new FakeTableCollection(this.ctx, `${this.path}.tables`, () => this.locate());
  }
}

class FakeWorksheetCollection extends ClientObject {
  protected defaults(): string[] {
    return ['items/name'];
  }
  protected snapshot(prop: string): unknown {
    if (!prop.startsWith('items')) throw invalidArgument(`fake: WorksheetCollection.${prop}`);
    return this.ctx.excel.sheets.map((s) => s.name);
  }

  override load(spec?: string | string[] | { select?: string }): this {
    const props = parseProps(spec) ?? this.defaults();
    this.ctx.enqueue({ op: 'load', path: this.path, props }, () => {
      const sheets = [...this.ctx.excel.sheets];
      const names = sheets.map((s) => s.name);
      return {
        bytes: bytes(names),
        deliver: () =>
          this.loaded.set(
            'items',
            sheets.map((s, i) => {
              const w = new FakeWorksheet(this.ctx, `${this.path}[${i}]`, () => s);
              (w as unknown as { loaded: Map<string, unknown> }).loaded.set('name', names[i]);
              return w;
            }),
          ),
      };
    });
    return this;
  }

  get items(): FakeWorksheet[] {
    return this.read('items');
  }

  add(name?: string): FakeWorksheet {
    let created: SheetState | undefined;
    this.write('add', { name }, () => {
      created = this.ctx.excel.addSheet(name);
    });
    return new FakeWorksheet(this.ctx, `${this.path}.add(${name})`, () => {
      if (!created) throw new FakeOfficeError('InvalidObjectPath', 'The object path is not valid: the sheet was never added.');
      return created;
    });
  }

  getItem(name: string): FakeWorksheet {
    return new FakeWorksheet(this.ctx, `${this.path}(${name})`, () => this.ctx.excel.sheet(name));
  }

  getItemOrNullObject(name: string): FakeWorksheet {
    return new FakeWorksheet(this.ctx, `${this.path}(${name})?`, () => this.ctx.excel.findSheet(name) ?? null, true);
  }

  getActiveWorksheet(): FakeWorksheet {
    return new FakeWorksheet(this.ctx, `${this.path}.active`, () => this.ctx.excel.active);
  }
}

class FakeTable extends NullableObject<TableState> {
  constructor(ctx: FakeContext, path: string, locate: () => TableState | null, nullable = false) {
    super(ctx, path, locate, nullable);
  }
  protected defaults(): string[] {
    return ['name', 'style'];
  }
  protected snapshot(prop: string): unknown {
    const t = this.locate();
    if (t === null) return null;
    if (prop === 'name') return t.name;
    if (prop === 'style') return t.style;
    throw invalidArgument(`fake: Table.${prop}`);
  }

  get name(): string {
    return this.read('name');
  }
  set name(v: string) {
    this.on('set', { name: v }, (t) => this.ctx.excel.renameTable(t, v));
  }

  set style(v: string) {
    this.on('set', { style: v }, (t) => (t.style = v));
  }

  get worksheet(): FakeWorksheet {
    return new FakeWorksheet(this.ctx, `${this.path}.worksheet`, () => this.locate()?.sheet ?? null);
  }

  private part(name: string, pick: (t: TableState) => Box): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.${name}`, () => {
      const t = this.locate();
      return t && { sheet: t.sheet, box: pick(t) };
    });
  }

  getRange(): FakeRange {
    return this.part('range', (t) => t.box);
  }
  getHeaderRowRange(): FakeRange {
    return this.part('header', (t) => ({ ...t.box, rows: 1 }));
  }
  getDataBodyRange(): FakeRange {
    return this.part('body', (t) => ({ ...t.box, row: t.box.row + 1, rows: t.box.rows - 1 }));
  }

  get rows(): FakeTableRowCollection {
    return new FakeTableRowCollection(this.ctx, `${this.path}.rows`, () => this.locate());
  }

  get columns(): FakeTableColumnCollection {
    return new FakeTableColumnCollection(this.ctx, `${this.path}.columns`, () => this.locate());
  }
}

class FakeTableRowCollection extends NullableObject<TableState> {
  constructor(ctx: FakeContext, path: string, locate: () => TableState | null) {
    super(ctx, path, locate, false);
  }
  protected defaults(): string[] {
    return ['count'];
  }
  protected snapshot(prop: string): unknown {
    const t = this.locate();
    if (prop !== 'count') throw invalidArgument(`fake: TableRowCollection.${prop}`);
    return t ? t.box.rows - 1 : null;
  }
  get count(): number {
    return this.read('count');
  }

  add(index?: number | null, values?: unknown): void {
    this.on('add', { index, values }, (t) => {
      if (index !== undefined && index !== null && index !== t.box.rows - 1) throw new FakeOfficeError('NotImplemented', 'fake: rows.add only appends');
      this.ctx.excel.addTableRows(t, values === undefined ? '' : values);
    });
  }

  getItemAt(index: number): { delete(): void } {
    return {
      delete: () => this.on('deleteRow', { index }, (t) => this.ctx.excel.deleteTableRows(t, index, 1)),
    };
  }

  deleteRowsAt(index: number, count = 1): void {
    this.on('deleteRowsAt', { index, count }, (t) => this.ctx.excel.deleteTableRows(t, index, count));
  }
}

class FakeTableColumn extends NullableObject<{ table: TableState; index: number }> {
  protected defaults(): string[] {
    return ['name'];
  }
  protected snapshot(prop: string): unknown {
    const c = this.locate();
    if (prop !== 'name') throw invalidArgument(`fake: TableColumn.${prop}`);
    return c ? c.table.sheet.get(c.table.box.row, c.table.box.col + c.index)?.value : null;
  }
  get name(): string {
    return this.read('name');
  }
  getDataBodyRange(): FakeRange {
    return new FakeRange(this.ctx, `${this.path}.body`, () => {
      const c = this.locate();
      return c && { sheet: c.table.sheet, box: { row: c.table.box.row + 1, col: c.table.box.col + c.index, rows: c.table.box.rows - 1, cols: 1 } };
    });
  }
}

class FakeTableColumnCollection extends NullableObject<TableState> {
  constructor(ctx: FakeContext, path: string, locate: () => TableState | null) {
    super(ctx, path, locate, false);
  }
  protected defaults(): string[] {
    return [];
  }
  protected snapshot(prop: string): unknown {
    throw invalidArgument(`fake: TableColumnCollection.${prop}`);
  }
  getItem(name: string): FakeTableColumn {
    return new FakeTableColumn(
      this.ctx,
      `${this.path}(${name})`,
      () => {
        const t = this.locate();
        if (!t) return null;
        for (let c = 0; c < t.box.cols; c++) {
          if (String(t.sheet.get(t.box.row, t.box.col + c)?.value).toLowerCase() === name.toLowerCase()) return { table: t, index: c };
        }
        throw itemNotFound(`table column ${name}`);
      },
      false,
    );
  }
}

class FakeTableCollection extends ClientObject {
  /** Set for worksheet.tables: addresses are on that sheet. */
  constructor(
    ctx: FakeContext,
    path: string,
    private readonly onSheet?: () => SheetState | null,
  ) {
    super(ctx, path);
  }
  protected defaults(): string[] {
    return ['items/name'];
  }
  protected snapshot(): unknown {
    return null;
  }

  override load(spec?: string | string[] | { select?: string }): this {
    const props = parseProps(spec) ?? this.defaults();
    this.ctx.enqueue({ op: 'load', path: this.path, props }, () => {
      const tables = this.ctx.excel.tables.filter((t) => !this.onSheet || t.sheet === this.onSheet());
      const names = tables.map((t) => t.name);
      return {
        bytes: bytes(names),
        deliver: () =>
          this.loaded.set(
            'items',
            tables.map((t, i) => {
              const proxy = new FakeTable(this.ctx, `${this.path}[${i}]`, () => t);
              (proxy as unknown as { loaded: Map<string, unknown> }).loaded.set('name', names[i]);
              return proxy;
            }),
          ),
      };
    });
    return this;
  }

  get items(): FakeTable[] {
    return this.read('items');
  }

  add(address: string | FakeRange, hasHeaders: boolean): FakeTable {
    let created: TableState | undefined;
    const wire = typeof address === 'string' ? address : address.path;
    this.write('add', { address: wire, hasHeaders }, () => {
      let sheet: SheetState;
      let box: Box;
      if (typeof address === 'string') {
        const parts = splitSheet(address);
        const onSheet = this.onSheet?.();
        if (parts.sheet === undefined && !onSheet) throw invalidArgument('workbook.tables.add needs a sheet-qualified address');
        sheet = parts.sheet !== undefined ? this.ctx.excel.sheet(parts.sheet) : onSheet!;
        box = parseA1(parts.a1);
      } else {
        throw new FakeOfficeError('NotImplemented', 'fake: tables.add(Range)');
      }
      created = this.ctx.excel.addTable(sheet, box, hasHeaders);
    });
    return new FakeTable(this.ctx, `${this.path}.add`, () => {
      if (!created) throw new FakeOfficeError('InvalidObjectPath', 'The table was never added.');
      return created;
    });
  }

  getItem(name: string): FakeTable {
    return new FakeTable(this.ctx, `${this.path}(${name})`, () => {
      const t = this.ctx.excel.findTable(name);
      if (!t) throw itemNotFound(`table ${name}`);
      return t;
    });
  }

  getItemOrNullObject(name: string): FakeTable {
    return new FakeTable(this.ctx, `${this.path}(${name})?`, () => this.ctx.excel.findTable(name) ?? null, true);
  }
}

class FakeSetting extends NullableObject<{ key: string }> {
  protected defaults(): string[] {
    return ['key', 'value'];
  }
  protected snapshot(prop: string): unknown {
    const s = this.locate();
    if (s === null) return null;
    if (prop === 'key') return s.key;
    if (prop === 'value') return this.ctx.excel.settings.get(s.key);
    throw invalidArgument(`fake: Setting.${prop}`);
  }
  get key(): string {
    return this.read('key');
  }
  get value(): unknown {
    return this.read('value');
  }
  delete(): void {
    this.on('delete', {}, (s) => this.ctx.excel.settings.delete(s.key));
  }
}

class FakeSettingCollection extends ClientObject {
  protected defaults(): string[] {
    return ['items'];
  }
  protected snapshot(): unknown {
    return null;
  }

  override load(spec?: string | string[] | { select?: string }): this {
    const props = parseProps(spec) ?? this.defaults();
    this.ctx.enqueue({ op: 'load', path: this.path, props }, () => {
      const entries = [...this.ctx.excel.settings.entries()].map(([k, v]) => [k, JSON.parse(JSON.stringify(v))] as const);
      return {
        bytes: bytes(entries),
        deliver: () =>
          this.loaded.set(
            'items',
            entries.map(([key, value]) => {
              const s = new FakeSetting(this.ctx, `${this.path}(${key})`, () => ({ key }), false);
              const loaded = (s as unknown as { loaded: Map<string, unknown> }).loaded;
              loaded.set('key', key);
              loaded.set('value', value);
              return s;
            }),
          ),
      };
    });
    return this;
  }

  get items(): FakeSetting[] {
    return this.read('items');
  }

  add(key: string, value: unknown): FakeSetting {
    this.write('add', { key, value }, () => {
      if (typeof key !== 'string' || key.length === 0) throw invalidArgument('setting key');
      this.ctx.excel.settings.set(key, JSON.parse(JSON.stringify(value)));
    });
    return this.getItem(key);
  }

  getItem(key: string): FakeSetting {
    return new FakeSetting(this.ctx, `${this.path}(${key})`, () => {
      if (!this.ctx.excel.settings.has(key)) throw itemNotFound(`setting ${key}`);
      return { key };
    }, false);
  }

  getItemOrNullObject(key: string): FakeSetting {
    return new FakeSetting(this.ctx, `${this.path}(${key})?`, () => (this.ctx.excel.settings.has(key) ? { key } : null), true);
  }
}

class FakeApplication extends ClientObject {
  protected defaults(): string[] {
    return ['calculationMode'];
  }
  protected snapshot(prop: string): unknown {
    if (prop === 'calculationMode') return this.ctx.excel.calculationMode;
    throw invalidArgument(`fake: Application.${prop}`);
  }
  get calculationMode(): string {
    return this.read('calculationMode');
  }
  suspendApiCalculationUntilNextSync(): void {
    this.ctx.enqueue({ op: 'suspendCalc', path: this.path }, (rec) => {
      rec.calcSuspended = true;
      return { bytes: 0, deliver: () => undefined };
    });
  }
  suspendScreenUpdatingUntilNextSync(): void {
    this.ctx.enqueue({ op: 'suspendScreen', path: this.path }, (rec) => {
      rec.screenSuspended = true;
      return { bytes: 0, deliver: () => undefined };
    });
  }
  calculate(type: string): void {
    this.write('calculate', { type }, (rec) => {
      rec.recalcs.push(type);
    });
  }
}

class FakeFunctionResult extends ClientObject {
  constructor(
    ctx: FakeContext,
    path: string,
    private readonly compute: () => unknown,
  ) {
    super(ctx, path);
  }
  protected defaults(): string[] {
    return ['value'];
  }
  protected snapshot(prop: string): unknown {
    if (prop === 'value') return this.compute();
    throw invalidArgument(`fake: FunctionResult.${prop}`);
  }
  get value(): unknown {
    return this.read('value');
  }
}

class FakeWorkbook {
  readonly worksheets: FakeWorksheetCollection;
  readonly tables: FakeTableCollection;
  readonly settings: FakeSettingCollection;
  readonly application: FakeApplication;
  readonly functions: { date(y: number, m: number, d: number): FakeFunctionResult };

  constructor(private readonly ctx: FakeContext) {
    this.worksheets = new FakeWorksheetCollection(ctx, 'worksheets');
    this.tables = new FakeTableCollection(ctx, 'tables');
    this.settings = new FakeSettingCollection(ctx, 'settings');
    this.application = new FakeApplication(ctx, 'application');
    this.functions = {
      date: (y, m, d) => new FakeFunctionResult(ctx, `functions.date(${y},${m},${d})`, () => ctx.excel.dateSerial(y, m, d)),
    };
  }

  getActiveCell(): FakeRange {
    return new FakeRange(this.ctx, 'activeCell', () => {
      const s = this.ctx.excel.selection;
      return { sheet: s.sheet, box: { row: s.row, col: s.col, rows: 1, cols: 1 } };
    });
  }

  getSelectedRange(): FakeRange {
    return new FakeRange(this.ctx, 'selectedRange', () => {
      const s = this.ctx.excel.selection;
      return { sheet: s.sheet, box: { row: s.row, col: s.col, rows: s.rows ?? 1, cols: s.cols ?? 1 } };
    });
  }
}
