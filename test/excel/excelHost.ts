/**
 * Excel's side of the wire, for tests: answers the requests Microsoft's client library sends
 * (office-js's RichApi batches: object paths and actions, see officeJs.ts) from a FakeExcel, the way the
 * host does:
 *  - object paths resolve to objects of the workbook; a path is resolved once per request (so `add` runs
 *    once) and lazily (a table's body range is wherever the table is when an action uses it);
 *  - actions run in order; the first that fails stops the request, and those before it stay applied
 *    (batches are not transactions); the library turns the error into the RichApi.Error the add-in sees;
 *  - a missing item is ItemNotFound; a *OrNullObject that finds nothing answers null; anything else done to
 *    a null object fails (assumed: Microsoft documents no behaviour, so the pessimistic one);
 *  - a request or a response over 5 MB is rejected whole (after the request's writes, for the response), as
 *    Excel on the web does ("Resource limits and performance optimization for Office Add-ins": "a payload
 *    size limit for requests and responses of 5MB"; RequestPayloadSizeLimitExceeded and
 *    ResponsePayloadSizeLimitExceeded);
 *  - Range.getSpecialCells("Formulas") finds formula cells, on one cell the whole sheet's (Go To Special);
 *    calculate, getDependents and what recalculates custom functions (grouping, inserting or deleting rows or
 *    cells: office-js#3332, #3911) reach the calculation model a test plugs in (fakeCalc.ts);
 *  - while the user edits a cell, a request waits if it asked to (Excel.run's delayForCellEdit) and fails
 *    with InvalidOperationInCellEditMode otherwise;
 *  - every member called is reported as Class.member (the names of Microsoft's requirement-set
 *    declarations), so tests can check them against the sets each host has.
 */
import {
  a1,
  checkBox,
  FakeExcel,
  FakeOfficeError,
  invalidArgument,
  invalidOperation,
  itemNotFound,
  MAX_COLS,
  MAX_ROWS,
  parseA1,
  quoteSheet,
  splitSheet,
  type Box,
  type ChartSeriesState,
  type ChartState,
  type NameState,
  type SheetState,
  type SyncRecord,
  type TableState,
} from './fakeExcel';

// The wire ---------------------------------------------------------------------------------------------

interface ArgumentInfo {
  Arguments?: unknown[];
  ReferencedObjectPathIds?: (number | null)[];
}

interface ObjectPathInfo {
  Id: number;
  /** 1 root, 2 new object, 3 method, 4 property, 5 indexer, 6 reference id, 7 null object. */
  ObjectPathType: number;
  Name: string;
  ParentObjectPathId?: number;
  ArgumentInfo?: ArgumentInfo;
}

interface ActionInfo {
  Id: number;
  /** 1 instantiate, 2 query, 3 method, 4 set property, 5 trace. */
  ActionType: number;
  Name: string;
  ObjectPathId: number;
  ArgumentInfo?: ArgumentInfo;
  QueryInfo?: { Select?: string[] };
}

export interface RequestBody {
  AutoKeepReference?: boolean;
  Actions: ActionInfo[];
  ObjectPaths: Record<string, ObjectPathInfo>;
}

export interface HostResponse {
  HttpStatusCode: number;
  ErrorCode: string;
  ErrorMessage: string;
  Headers: Record<string, string>;
  Body: {
    Results: { ActionId: number; Value: unknown }[];
    Error?: { Code: string; Message: string; HttpStatusCode: number; Location: string; ActionIndex: number };
  } | null;
}

type HostError = NonNullable<NonNullable<HostResponse['Body']>['Error']>;

/** Request flag the library sets for Excel.run({ delayForCellEdit: true }) where the host supports it. */
export const DELAY_FOR_CELL_EDIT_FLAG = 64;

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');
const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const notModelled = (what: string) => new FakeOfficeError('NotImplemented', `fake: ${what} is not modelled`);
const invalidSelection = () => new FakeOfficeError('InvalidSelection', 'The current selection is invalid for this operation.');
const nullObject = (what: string) => new FakeOfficeError('GeneralException', `(fake, assumed) ${what} was called on a null object.`);

// Host objects -----------------------------------------------------------------------------------------

interface RangeTarget {
  sheet: SheetState;
  box: Box;
}

/** What one object path stands for. `target()` is null for a null object and throws for a missing item. */
abstract class HostObject<T = unknown> {
  abstract readonly type: string;
  constructor(protected readonly host: ExcelHost) {}
  abstract target(): T | null;
  get excel(): FakeExcel {
    return this.host.excel;
  }
  /** What an Instantiate answers: the identity the library re-addresses the object by. */
  identity(_t: T): Record<string, unknown> {
    return {};
  }
  property(name: string): HostObject {
    throw notModelled(`${this.type}.${camel(name)}`);
  }
  indexer(_key: unknown): HostObject {
    throw notModelled(`${this.type} indexer`);
  }
  /** A method that makes an object (an object path) or an action; objects come back as HostObject. */
  call(name: string, _args: unknown[], _t: T): unknown {
    throw notModelled(`${this.type}.${camel(name)}()`);
  }
  get(name: string, _t: T): unknown {
    throw notModelled(`${this.type}.${camel(name)}`);
  }
  set(name: string, _value: unknown, _t: T): void {
    throw notModelled(`setting ${this.type}.${camel(name)}`);
  }
  /** Collections: their items, each a HostObject. */
  items(_t: T): HostObject[] {
    throw notModelled(`${this.type}.items`);
  }
  /** The object or, for a null object, an error: what every action but a query needs. */
  required(what: string): T {
    const t = this.target();
    if (t === null) throw nullObject(what);
    return t;
  }
}

/** A host object found again by a function at every use (the state it stands for may have gone: a null object). */
abstract class Located<T> extends HostObject<T> {
  constructor(
    host: ExcelHost,
    protected readonly locate: () => T | null,
  ) {
    super(host);
  }
  target(): T | null {
    return this.locate();
  }
}

class Workbook extends HostObject<FakeExcel> {
  readonly type = 'Workbook';
  target(): FakeExcel {
    return this.excel;
  }
  override property(name: string): HostObject {
    switch (name) {
      case 'Worksheets':
        return new WorksheetCollection(this.host);
      case 'Tables':
        return new TableCollection(this.host, null);
      case 'Settings':
        return new SettingCollection(this.host);
      case 'Application':
        return new Application(this.host);
      case 'Functions':
        return new Functions(this.host);
      case 'Names':
        return new NamedItemCollection(this.host);
      default:
        return super.property(name);
    }
  }
  override call(name: string, args: unknown[]): unknown {
    const selection = this.excel.selection;
    switch (name) {
      case 'GetActiveCell': {
        if (this.excel.elsewhere) throw invalidSelection();
        const first = selection.areas[0];
        return new Range(this.host, () => ({ sheet: selection.sheet, box: { row: first.row, col: first.col, rows: 1, cols: 1 } }));
      }
      case 'GetSelectedRange':
        // A chart selected: InvalidSelection "by design" (OfficeDev/office-js#2268).
        if (selection.areas.length > 1 || this.excel.elsewhere || this.excel.selectedChart) throw invalidSelection();
        return new Range(this.host, () => ({ sheet: selection.sheet, box: selection.areas[0] }));
      case 'GetActiveChartOrNullObject': {
        // ExcelApi 1.9: the chart the user has selected, or a null object.
        const chart = this.excel.selectedChart;
        return new Chart(this.host, () => (chart && this.excel.allCharts().includes(chart) ? chart : null));
      }
      case 'GetSelectedRanges':
        return new RangeAreas(this.host, () => ({ sheet: selection.sheet, areas: selection.areas }));
      default:
        return super.call(name, args, this.excel);
    }
  }
}

class Application extends HostObject<FakeExcel> {
  readonly type = 'Application';
  target(): FakeExcel {
    return this.excel;
  }
  override get(name: string): unknown {
    if (name === 'CalculationMode') return this.excel.calculationMode;
    if (name === 'CalculationState') return this.excel.calculationState;
    return super.get(name, this.excel);
  }
  override call(name: string, args: unknown[]): unknown {
    const rec = this.host.current;
    switch (name) {
      case 'SuspendApiCalculationUntilNextSync':
        rec.calcSuspended = true;
        return undefined;
      case 'SuspendScreenUpdatingUntilNextSync':
        rec.screenSuspended = true;
        return undefined;
      case 'Calculate':
        rec.recalcs.push(String(args[0]));
        this.excel.calc?.calculateAll(String(args[0]));
        return undefined;
      default:
        return super.call(name, args, this.excel);
    }
  }
}

class Functions extends HostObject<FakeExcel> {
  readonly type = 'Functions';
  target(): FakeExcel {
    return this.excel;
  }
  override call(name: string, args: unknown[]): unknown {
    if (name !== 'Date') return super.call(name, args, this.excel);
    const [y, m, d] = args as number[];
    return new FunctionResult(this.host, () => this.excel.dateSerial(y, m, d));
  }
}

class FunctionResult extends HostObject<{ value: unknown }> {
  readonly type = 'FunctionResult';
  constructor(
    host: ExcelHost,
    private readonly compute: () => unknown,
  ) {
    super(host);
  }
  target(): { value: unknown } {
    return { value: this.compute() };
  }
  override get(name: string, t: { value: unknown }): unknown {
    if (name === 'Value') return t.value;
    if (name === 'Error') return null;
    return super.get(name, t);
  }
}

class WorksheetCollection extends HostObject<FakeExcel> {
  readonly type = 'WorksheetCollection';
  target(): FakeExcel {
    return this.excel;
  }
  override indexer(key: unknown): HostObject {
    return new Worksheet(this.host, () => this.excel.sheet(String(key)));
  }
  override call(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'GetItemOrNullObject':
        return new Worksheet(this.host, () => this.excel.findSheet(String(args[0])) ?? null);
      case 'Add': {
        const sheet = this.excel.addSheet(args[0] as string | undefined);
        return new Worksheet(this.host, () => this.excel.sheet(sheet.id));
      }
      case 'GetActiveWorksheet': {
        const id = this.excel.active.id;
        return new Worksheet(this.host, () => this.excel.sheet(id));
      }
      case 'GetCount':
        return this.excel.sheets.length;
      default:
        return super.call(name, args, this.excel);
    }
  }
  override items(): HostObject[] {
    return this.excel.sheets.map((s) => new Worksheet(this.host, () => this.excel.sheet(s.id)));
  }
}

class Worksheet extends Located<SheetState> {
  readonly type = 'Worksheet';
  override identity(s: SheetState): Record<string, unknown> {
    return { Id: s.id };
  }
  private range(what: string, box: (s: SheetState) => Box | null): Range {
    return new Range(this.host, () => {
      const s = this.required(`Worksheet.${what}`);
      const b = box(s);
      return b && { sheet: s, box: b };
    });
  }
  override property(name: string): HostObject {
    if (name === 'Tables') return new TableCollection(this.host, () => this.required('Worksheet.tables'));
    if (name === 'Names') return new NamedItemCollection(this.host, () => this.required('Worksheet.names'));
    if (name === 'Charts') return new ChartCollection(this.host, () => this.required('Worksheet.charts'));
    if (name === 'Protection') return new WorksheetProtection(this.host, () => this.required('Worksheet.protection'));
    return super.property(name);
  }
  override call(name: string, args: unknown[], s: SheetState): unknown {
    switch (name) {
      case 'GetRange':
        // No address: "the entire worksheet range is returned" (Worksheet.getRange).
        return this.range('getRange', () => (args[0] === undefined || args[0] === null ? { row: 0, col: 0, rows: MAX_ROWS, cols: MAX_COLS } : parseA1(String(args[0]))));
      case 'GetRangeByIndexes': {
        const [row, col, rows, cols] = args as number[];
        return this.range('getRangeByIndexes', () => checkBox(row, col, rows, cols));
      }
      case 'GetCell': {
        const [row, col] = args as number[];
        return this.range('getCell', () => checkBox(row, col, 1, 1));
      }
      case 'GetUsedRangeOrNullObject':
        return this.range('getUsedRangeOrNullObject', (sheet) => sheet.used(args[0] === true));
      case 'GetRanges': {
        // "B2:B4,E7" (ExcelApi 1.9): the areas of one sheet.
        const boxes = String(args[0] ?? '')
          .split(',')
          .map((a) => parseA1(a));
        return new RangeAreas(this.host, () => ({ sheet: this.required('Worksheet.getRanges'), areas: boxes }));
      }
      case 'Calculate':
        this.excel.calculations.push({ what: 'Worksheet', sheet: s.name, address: a1({ row: 0, col: 0, rows: MAX_ROWS, cols: MAX_COLS }) });
        this.excel.calc?.calculateSheet(s, args[0] === true);
        return undefined;
      case 'GetUsedRange':
        return this.range('getUsedRange', (sheet) => sheet.used(args[0] === true) ?? { row: 0, col: 0, rows: 1, cols: 1 });
      case 'Activate':
        this.excel.activate(s);
        return undefined;
      case 'Delete':
        this.excel.deleteSheet(s);
        return undefined;
      case 'Copy': {
        const relativeTo = args[1] === undefined || args[1] === null ? null : (this.host.argumentObject(args[1]) as Worksheet).required('Worksheet.copy');
        const copy = this.excel.copySheet(s, args[0] ?? 'None', relativeTo);
        return new Worksheet(this.host, () => this.excel.sheet(copy.id));
      }
      default:
        return super.call(name, args, s);
    }
  }
  override get(name: string, s: SheetState): unknown {
    switch (name) {
      case 'Name':
        return s.name;
      case 'Id':
        return s.id;
      case 'Visibility':
        return s.visibility;
      case 'Position':
        return this.excel.sheets.indexOf(s);
      default:
        return super.get(name, s);
    }
  }
  override set(name: string, value: unknown, s: SheetState): void {
    if (name === 'Visibility') this.excel.setVisibility(s, value);
    else if (name === 'Name') this.excel.renameSheet(s.name, String(value));
    else super.set(name, value, s);
  }
}

class Range extends HostObject<RangeTarget> {
  readonly type: string = 'Range';
  constructor(
    host: ExcelHost,
    protected readonly locate: () => RangeTarget | null,
  ) {
    super(host);
  }
  target(): RangeTarget | null {
    return this.locate();
  }
  private sub(what: string, box: (t: RangeTarget) => Box): Range {
    return new Range(this.host, () => {
      const t = this.required(`Range.${what}`);
      return { sheet: t.sheet, box: box(t) };
    });
  }
  override property(name: string): HostObject {
    switch (name) {
      case 'Format':
        return new RangeFormat(this.host, () => this.required('Range.format'));
      case 'DataValidation':
        return new DataValidation(this.host, () => this.required('Range.dataValidation'));
      case 'Worksheet':
        return new Worksheet(this.host, () => this.required('Range.worksheet').sheet);
      default:
        return super.property(name);
    }
  }
  override call(name: string, args: unknown[], t: RangeTarget): unknown {
    const { sheet, box } = t;
    switch (name) {
      case 'GetCell':
      case 'GetRow':
      case 'GetLastRow':
      case 'GetBoundingRect':
      case 'GetOffsetRange':
      case 'GetResizedRange':
        return this.sub(camel(name), (now) => relative(name, now.box, args, this.host));
      case 'GetUsedRangeOrNullObject':
        return new Range(this.host, () => {
          const now = this.required('Range.getUsedRangeOrNullObject');
          const used = now.sheet.used(args[0] === true, now.box);
          return used && { sheet: now.sheet, box: used };
        });
      case 'GetEntireRow':
        return this.sub('getEntireRow', (now) => ({ row: now.box.row, col: 0, rows: now.box.rows, cols: MAX_COLS }));
      case 'GetSpecialCells':
      case 'GetSpecialCellsOrNullObject': {
        if (args[0] !== 'Formulas' || (args[1] !== undefined && args[1] !== null && args[1] !== 'All')) throw notModelled(`Range.getSpecialCells(${String(args[0])}, ${String(args[1])})`);
        const nullable = name === 'GetSpecialCellsOrNullObject';
        this.excel.searches.push({ sheet: sheet.name, address: a1(box) });
        const areas = formulaAreas(sheet, box);
        if (areas.length === 0 && !nullable) throw itemNotFound('No cells were found.');
        return new RangeAreas(this.host, () => (areas.length === 0 ? null : { sheet, areas }));
      }
      case 'Calculate':
        this.excel.calculations.push({ what: 'Range', sheet: sheet.name, address: a1(box) });
        this.excel.calc?.calculate(sheet, [box]);
        return undefined;
      case 'GetDependents':
      case 'GetDirectDependents': {
        const calc = this.excel.calc;
        if (!calc) throw notModelled('Range.getDependents without a calculation model (fakeCalc.ts)');
        const cells = calc.dependents(sheet, box, name === 'GetDirectDependents');
        return new WorkbookRangeAreas(this.host, bySheet(cells));
      }
      case 'Insert': {
        if (args[0] !== 'Down' || box.col !== 0 || box.cols !== MAX_COLS) throw notModelled('Range.insert other than whole rows shifted down');
        this.excel.insertRows(sheet.name, box.row, box.rows);
        this.excel.calc?.structureChanged();
        return new Range(this.host, () => ({ sheet, box }));
      }
      case 'CopyFrom': {
        if (args[1] !== 'Values' || args[2] === true || args[3] === true) throw notModelled('Range.copyFrom other than values');
        const source = typeof args[0] === 'string' ? { sheet, box: parseA1(args[0]) } : (this.host.argumentObject(args[0]) as Range).required('Range.copyFrom');
        this.excel.pasteValues(sheet, box, source);
        return undefined;
      }
      case 'Group':
        this.excel.group(sheet, box, args[0]);
        this.excel.calc?.structureChanged();
        return undefined;
      case 'Ungroup':
        this.excel.ungroup(sheet, box);
        this.excel.calc?.structureChanged();
        return undefined;
      case 'Clear':
        this.excel.clear(sheet, box, args[0] ?? 'All');
        return undefined;
      case 'Delete':
        this.excel.deleteRange(sheet, box, args[0]);
        this.excel.calc?.structureChanged();
        return undefined;
      case '_ValidateArraySize':
        if (args[0] !== box.rows || args[1] !== box.cols) throw invalidArgument(`the input array is not ${box.rows} x ${box.cols}`);
        return undefined;
      default:
        return super.call(name, args, t);
    }
  }
  override get(name: string, t: RangeTarget): unknown {
    const { sheet, box } = t;
    const grid = <V>(f: (r: number, c: number) => V) =>
      Array.from({ length: box.rows }, (_, r) => Array.from({ length: box.cols }, (_, c) => f(box.row + r, box.col + c)));
    switch (name) {
      case 'Values':
        return grid((r, c) => sheet.get(r, c)?.value ?? '');
      case 'NumberFormat':
        return grid((r, c) => sheet.get(r, c)?.numberFormat ?? 'General');
      case 'Formulas':
        return grid((r, c) => sheet.get(r, c)?.formula ?? sheet.get(r, c)?.value ?? '');
      case 'ValueTypes':
        return grid((r, c) => valueType(sheet.get(r, c)?.value ?? ''));
      case 'Address':
        return `${quoteSheet(sheet.name)}!${a1(box)}`;
      case 'RowCount':
        return box.rows;
      case 'ColumnCount':
        return box.cols;
      case 'RowIndex':
        return box.row;
      case 'ColumnIndex':
        return box.col;
      default:
        return super.get(name, t);
    }
  }
  override set(name: string, value: unknown, t: RangeTarget): void {
    switch (name) {
      case 'Values':
      case 'Formulas':
        this.excel.writeValues(t.sheet, t.box, value);
        return;
      case 'ValuesAsJson':
        this.excel.writeTypedValues(t.sheet, t.box, value);
        return;
      case 'NumberFormat':
        this.excel.writeNumberFormats(t.sheet, t.box, value);
        return;
      default:
        super.set(name, value, t);
    }
  }
}

/** Range.valueTypes: Excel.RangeValueType of a value (an error value is text such as "#N/A" here). */
function valueType(v: unknown): string {
  if (v === '') return 'Empty';
  if (typeof v === 'number') return 'Double';
  if (typeof v === 'boolean') return 'Boolean';
  return /^#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|SPILL!|CALC!|BUSY!|FIELD!|CONNECT!|BLOCKED!|UNKNOWN!|GETTING_DATA)$/.test(String(v)) ? 'Error' : 'String';
}

/** getCell, getRow, getLastRow, getBoundingRect, getOffsetRange, getResizedRange of a box. */
function relative(name: string, box: Box, args: unknown[], host: ExcelHost): Box {
  const n = args as number[];
  switch (name) {
    case 'GetCell':
      return checkBox(box.row + n[0], box.col + n[1], 1, 1);
    case 'GetRow':
      return checkBox(box.row + n[0], box.col, 1, box.cols);
    case 'GetLastRow':
      return { ...box, row: box.row + box.rows - 1, rows: 1 };
    case 'GetOffsetRange':
      return checkBox(box.row + n[0], box.col + n[1], box.rows, box.cols);
    case 'GetResizedRange':
      return checkBox(box.row, box.col, box.rows + n[0], box.cols + n[1]);
    default: {
      const other = host.argumentObject(args[0]);
      const o = (other as Range).required('Range.getBoundingRect').box;
      const row = Math.min(box.row, o.row);
      const col = Math.min(box.col, o.col);
      return { row, col, rows: Math.max(box.row + box.rows, o.row + o.rows) - row, cols: Math.max(box.col + box.cols, o.col + o.cols) - col };
    }
  }
}

class RangeAreas extends Located<{ sheet: SheetState; areas: Box[] }> {
  readonly type = 'RangeAreas';
  override property(name: string): HostObject {
    if (name === 'Areas') return new RangeCollection(this.host, () => this.required('RangeAreas.areas'));
    return super.property(name);
  }
  override get(name: string, t: { sheet: SheetState; areas: Box[] }): unknown {
    if (name === 'AreaCount') return t.areas.length;
    if (name === 'CellCount') return t.areas.reduce((n, b) => n + b.rows * b.cols, 0);
    if (name === 'Address') return t.areas.map((b) => `${quoteSheet(t.sheet.name)}!${a1(b)}`).join(',');
    return super.get(name, t);
  }
  override call(name: string, args: unknown[], t: { sheet: SheetState; areas: Box[] }): unknown {
    if (name !== 'Calculate') return super.call(name, args, t);
    this.excel.calculations.push({ what: 'RangeAreas', sheet: t.sheet.name, address: t.areas.map(a1).join(',') });
    this.excel.calc?.calculate(t.sheet, t.areas);
    return undefined;
  }
}

/**
 * The formula cells of a box as areas, for Range.getSpecialCells("Formulas"). Go To Special on one cell
 * searches the whole sheet (support.microsoft.com, "Find and select cells that meet specific conditions":
 * "To search the entire worksheet for specific cells, click any cell"), and so does the API on a one-cell
 * range (assumed the same, as Excel's Range.SpecialCells does in VBA). Areas are each column's runs of
 * formula cells (assumed: Excel does not document how it cuts them into rectangles).
 */
function formulaAreas(sheet: SheetState, box: Box): Box[] {
  const within = box.rows === 1 && box.cols === 1 ? sheet.used(false) : box;
  if (!within) return [];
  const used = sheet.used(false);
  if (!used) return [];
  const cells: { row: number; col: number }[] = [];
  const left = Math.max(within.col, used.col);
  const right = Math.min(within.col + within.cols, used.col + used.cols);
  const top = Math.max(within.row, used.row);
  const bottom = Math.min(within.row + within.rows, used.row + used.rows);
  for (let col = left; col < right; col++) for (let row = top; row < bottom; row++) if (sheet.get(row, col)?.formula !== undefined) cells.push({ row, col });
  return columnRuns(cells);
}

/** Cells (sorted by column, then row) as each column's vertical runs. */
function columnRuns(cells: { row: number; col: number }[]): Box[] {
  const sorted = [...cells].sort((a, b) => a.col - b.col || a.row - b.row);
  const runs: Box[] = [];
  for (const { row, col } of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.col === col && last.row + last.rows === row) last.rows += 1;
    else runs.push({ row, col, rows: 1, cols: 1 });
  }
  return runs;
}

function bySheet(cells: { sheet: SheetState; box: Box }[]): { sheet: SheetState; areas: Box[] }[] {
  const sheets = [...new Set(cells.map((c) => c.sheet))];
  return sheets.map((sheet) => ({ sheet, areas: columnRuns(cells.filter((c) => c.sheet === sheet).map((c) => ({ row: c.box.row, col: c.box.col }))) }));
}

/** Range.getDependents / getDirectDependents (ExcelApi 1.15 / 1.13): ranges on one or more sheets. */
class WorkbookRangeAreas extends HostObject<{ sheet: SheetState; areas: Box[] }[]> {
  readonly type = 'WorkbookRangeAreas';
  constructor(
    host: ExcelHost,
    private readonly parts: { sheet: SheetState; areas: Box[] }[],
  ) {
    super(host);
  }
  target(): { sheet: SheetState; areas: Box[] }[] {
    return this.parts;
  }
  override property(name: string): HostObject {
    if (name === 'Areas') return new RangeAreasCollection(this.host, this.parts);
    return super.property(name);
  }
  override get(name: string, t: { sheet: SheetState; areas: Box[] }[]): unknown {
    if (name === 'Addresses') return t.flatMap((p) => p.areas.map((b) => `${quoteSheet(p.sheet.name)}!${a1(b)}`));
    return super.get(name, t);
  }
  override call(name: string, args: unknown[], t: { sheet: SheetState; areas: Box[] }[]): unknown {
    if (name !== 'GetRangeAreasBySheet') return super.call(name, args, t);
    const key = String(args[0]).toLowerCase();
    const part = t.find((p) => p.sheet.name.toLowerCase() === key || p.sheet.id.toLowerCase() === key);
    if (!part) throw itemNotFound(`sheet ${String(args[0])}`);
    return new RangeAreas(this.host, () => part);
  }
}

class RangeAreasCollection extends HostObject<{ sheet: SheetState; areas: Box[] }[]> {
  readonly type = 'RangeAreasCollection';
  constructor(
    host: ExcelHost,
    private readonly parts: { sheet: SheetState; areas: Box[] }[],
  ) {
    super(host);
  }
  target(): { sheet: SheetState; areas: Box[] }[] {
    return this.parts;
  }
  override call(name: string, args: unknown[], t: { sheet: SheetState; areas: Box[] }[]): unknown {
    if (name === 'GetCount') return t.length;
    if (name !== 'GetItemAt') return super.call(name, args, t);
    const part = t[args[0] as number];
    if (!part) throw itemNotFound(`areas ${String(args[0])}`);
    return new RangeAreas(this.host, () => part);
  }
  override items(t: { sheet: SheetState; areas: Box[] }[]): HostObject[] {
    return t.map((part) => new RangeAreas(this.host, () => part));
  }
}

class RangeCollection extends HostObject<{ sheet: SheetState; areas: Box[] }> {
  readonly type = 'RangeCollection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => { sheet: SheetState; areas: Box[] },
  ) {
    super(host);
  }
  target(): { sheet: SheetState; areas: Box[] } {
    return this.locate();
  }
  override call(name: string, args: unknown[], t: { sheet: SheetState; areas: Box[] }): unknown {
    if (name === 'GetCount') return t.areas.length;
    if (name !== 'GetItemAt') return super.call(name, args, t);
    const i = args[0] as number;
    return new Range(this.host, () => {
      const now = this.locate();
      if (!now.areas[i]) throw itemNotFound(`area ${i}`);
      return { sheet: now.sheet, box: now.areas[i] };
    });
  }
  override items(t: { sheet: SheetState; areas: Box[] }): HostObject[] {
    return t.areas.map((box) => new Range(this.host, () => ({ sheet: t.sheet, box })));
  }
}

class RangeFormat extends HostObject<RangeTarget> {
  readonly type = 'RangeFormat';
  constructor(
    host: ExcelHost,
    private readonly locate: () => RangeTarget,
  ) {
    super(host);
  }
  target(): RangeTarget {
    return this.locate();
  }
  override property(name: string): HostObject {
    if (name === 'Font') return new RangeFont(this.host, this.locate);
    return super.property(name);
  }
  override get(name: string, t: RangeTarget): unknown {
    const first = t.sheet.get(t.box.row, t.box.col);
    if (name === 'IndentLevel') return first?.indent ?? 0;
    if (name === 'ColumnWidth') return t.sheet.widths.get(t.box.col) ?? 48;
    return super.get(name, t);
  }
  override set(name: string, value: unknown, t: RangeTarget): void {
    if (name === 'ColumnWidth') this.excel.setColumnWidth(t.sheet, t.box, value);
    else if (name === 'IndentLevel') this.excel.setIndent(t.sheet, t.box, value);
    else super.set(name, value, t);
  }
}

class RangeFont extends HostObject<RangeTarget> {
  readonly type = 'RangeFont';
  constructor(
    host: ExcelHost,
    private readonly locate: () => RangeTarget,
  ) {
    super(host);
  }
  target(): RangeTarget {
    return this.locate();
  }
  override get(name: string, t: RangeTarget): unknown {
    if (name === 'Bold') return t.sheet.get(t.box.row, t.box.col)?.bold ?? false;
    return super.get(name, t);
  }
  override set(name: string, value: unknown, t: RangeTarget): void {
    if (name === 'Bold') this.excel.setBold(t.sheet, t.box, value);
    else super.set(name, value, t);
  }
}

class DataValidation extends HostObject<RangeTarget> {
  readonly type = 'DataValidation';
  constructor(
    host: ExcelHost,
    private readonly locate: () => RangeTarget,
  ) {
    super(host);
  }
  target(): RangeTarget {
    return this.locate();
  }
  override get(name: string, t: RangeTarget): unknown {
    if (name === 'Rule') return t.sheet.get(t.box.row, t.box.col)?.validation ?? null;
    return super.get(name, t);
  }
  override set(name: string, value: unknown, t: RangeTarget): void {
    if (name === 'Rule') this.excel.setValidationRule(t.sheet, t.box, value);
    else super.set(name, value, t);
  }
  override call(name: string, args: unknown[], t: RangeTarget): unknown {
    if (name !== 'Clear') return super.call(name, args, t);
    this.excel.clearValidation(t.sheet, t.box);
    return undefined;
  }
}

class TableCollection extends HostObject<FakeExcel> {
  readonly type = 'TableCollection';
  /** onSheet: worksheet.tables (addresses and items on that sheet); null: workbook.tables. */
  constructor(
    host: ExcelHost,
    private readonly onSheet: (() => SheetState) | null,
  ) {
    super(host);
  }
  target(): FakeExcel {
    this.onSheet?.();
    return this.excel;
  }
  private byKey(key: string, nullable: boolean): Table {
    return new Table(this.host, () => {
      const t = this.excel.findTable(key);
      if (t && (!this.onSheet || t.sheet === this.onSheet())) return t;
      if (nullable) return null;
      throw itemNotFound(`table ${key}`);
    });
  }
  override indexer(key: unknown): HostObject {
    return this.byKey(String(key), false);
  }
  override call(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'GetItemOrNullObject':
        return this.byKey(String(args[0]), true);
      case 'GetCount':
        return this.items().length;
      case 'Add': {
        let sheet: SheetState;
        let box: Box;
        if (typeof args[0] === 'string') {
          const parts = splitSheet(args[0]);
          if (parts.sheet === undefined && !this.onSheet) throw invalidArgument('workbook.tables.add needs a sheet-qualified address');
          sheet = parts.sheet !== undefined ? this.excel.sheet(parts.sheet) : this.onSheet!();
          box = parseA1(parts.a1);
        } else {
          const range = (this.host.argumentObject(args[0]) as Range).required('TableCollection.add');
          ({ sheet, box } = range);
        }
        const t = this.excel.addTable(sheet, box, args[1] === true);
        return new Table(this.host, () => this.excel.findTable(t.id) ?? null);
      }
      default:
        return super.call(name, args, this.excel);
    }
  }
  override items(): HostObject[] {
    const sheet = this.onSheet?.();
    return this.excel.tables.filter((t) => !sheet || t.sheet === sheet).map((t) => new Table(this.host, () => this.excel.findTable(t.id) ?? null));
  }
}

class Table extends Located<TableState> {
  readonly type = 'Table';
  override identity(t: TableState): Record<string, unknown> {
    return { Id: t.id };
  }
  private part(what: string, pick: (t: TableState) => Box): Range {
    return new Range(this.host, () => {
      const t = this.required(`Table.${what}`);
      return { sheet: t.sheet, box: pick(t) };
    });
  }
  override property(name: string): HostObject {
    switch (name) {
      case 'Worksheet':
        return new Worksheet(this.host, () => this.required('Table.worksheet').sheet);
      case 'Rows':
        return new TableRowCollection(this.host, () => this.required('Table.rows'));
      case 'Columns':
        return new TableColumnCollection(this.host, () => this.required('Table.columns'));
      case 'AutoFilter':
        return new AutoFilter(this.host, () => this.required('Table.autoFilter'));
      default:
        return super.property(name);
    }
  }
  override call(name: string, args: unknown[], t: TableState): unknown {
    switch (name) {
      case 'GetRange':
        return this.part('getRange', (now) => now.box);
      case 'GetHeaderRowRange':
        return this.part('getHeaderRowRange', (now) => ({ ...now.box, rows: 1 }));
      case 'GetDataBodyRange':
        return this.part('getDataBodyRange', (now) => ({ ...now.box, row: now.box.row + 1, rows: now.box.rows - 1 }));
      case 'ClearFilters':
        t.filtered = false;
        return undefined;
      case 'Delete':
        this.excel.deleteTable(t);
        return undefined;
      default:
        return super.call(name, args, t);
    }
  }
  override get(name: string, t: TableState): unknown {
    switch (name) {
      case 'Name':
        return t.name;
      case 'Id':
        return t.id;
      case 'Style':
        return t.style;
      default:
        return super.get(name, t);
    }
  }
  override set(name: string, value: unknown, t: TableState): void {
    if (name === 'Name') this.excel.renameTable(t, value);
    else if (name === 'Style') t.style = String(value);
    else super.set(name, value, t);
  }
}

class AutoFilter extends HostObject<TableState> {
  readonly type = 'AutoFilter';
  constructor(
    host: ExcelHost,
    private readonly locate: () => TableState,
  ) {
    super(host);
  }
  target(): TableState {
    return this.locate();
  }
  override get(name: string, t: TableState): unknown {
    if (name === 'Enabled') return true;
    if (name === 'IsDataFiltered') return t.filtered;
    return super.get(name, t);
  }
}

class TableRowCollection extends HostObject<TableState> {
  readonly type = 'TableRowCollection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => TableState,
  ) {
    super(host);
  }
  target(): TableState {
    return this.locate();
  }
  override get(name: string, t: TableState): unknown {
    if (name === 'Count') return t.box.rows - 1;
    return super.get(name, t);
  }
  override call(name: string, args: unknown[], t: TableState): unknown {
    switch (name) {
      case 'Add':
        // Whether rows.add on a filtered table fails or adds rows the filter hides is not documented: the fake
        // refuses (assumed, the pessimistic choice, as for deleting rows under a filter).
        if (t.filtered) throw invalidOperation('(fake, assumed) rows.add on a table with a filter applied');
        this.excel.addTableRows(t, args[0], args[1]);
        this.excel.calc?.structureChanged();
        return new HostValue(this.host, 'TableRow');
      case 'GetItemAt': {
        const index = args[0] as number;
        return new TableRow(this.host, () => ({ table: this.locate(), index }));
      }
      case 'DeleteRowsAt':
        if (t.filtered) throw new FakeOfficeError('InsertDeleteConflict', 'The table has a filter applied: rows cannot be deleted.');
        this.excel.deleteTableRows(t, args[0] as number, (args[1] as number | null) ?? 1);
        this.excel.calc?.structureChanged();
        return undefined;
      case 'GetCount':
        return t.box.rows - 1;
      default:
        return super.call(name, args, t);
    }
  }
}

class TableRow extends HostObject<{ table: TableState; index: number }> {
  readonly type = 'TableRow';
  constructor(
    host: ExcelHost,
    private readonly locate: () => { table: TableState; index: number },
  ) {
    super(host);
  }
  target(): { table: TableState; index: number } {
    const t = this.locate();
    if (t.index < 0 || t.index >= t.table.box.rows - 1) throw itemNotFound(`table row ${t.index}`);
    return t;
  }
  override call(name: string, args: unknown[], r: { table: TableState; index: number }): unknown {
    if (name === 'Delete') {
      this.excel.deleteTableRows(r.table, r.index, 1);
      this.excel.calc?.structureChanged();
      return undefined;
    }
    return super.call(name, args, r);
  }
}

class TableColumnCollection extends HostObject<TableState> {
  readonly type = 'TableColumnCollection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => TableState,
  ) {
    super(host);
  }
  target(): TableState {
    return this.locate();
  }
  private byName(key: string, nullable: boolean): TableColumn {
    return new TableColumn(this.host, () => {
      const t = this.locate();
      for (let c = 0; c < t.box.cols; c++) {
        if (String(t.sheet.get(t.box.row, t.box.col + c)?.value).toLowerCase() === key.toLowerCase()) return { table: t, index: c };
      }
      if (nullable) return null;
      throw itemNotFound(`table column ${key}`);
    });
  }
  override indexer(key: unknown): HostObject {
    return this.byName(String(key), false);
  }
  override call(name: string, args: unknown[], t: TableState): unknown {
    if (name === 'GetItemOrNullObject') return this.byName(String(args[0]), true);
    return super.call(name, args, t);
  }
}

class TableColumn extends Located<{ table: TableState; index: number }> {
  readonly type = 'TableColumn';
  override get(name: string, c: { table: TableState; index: number }): unknown {
    if (name === 'Name') return c.table.sheet.get(c.table.box.row, c.table.box.col + c.index)?.value;
    if (name === 'Index') return c.index;
    return super.get(name, c);
  }
  override call(name: string, args: unknown[], c: { table: TableState; index: number }): unknown {
    if (name !== 'GetDataBodyRange') return super.call(name, args, c);
    return new Range(this.host, () => {
      const now = this.required('TableColumn.getDataBodyRange');
      const b = now.table.box;
      return { sheet: now.table.sheet, box: { row: b.row + 1, col: b.col + now.index, rows: b.rows - 1, cols: 1 } };
    });
  }
}

class SettingCollection extends HostObject<FakeExcel> {
  readonly type = 'SettingCollection';
  target(): FakeExcel {
    return this.excel;
  }
  private byKey(key: string, nullable: boolean): Setting {
    return new Setting(this.host, () => {
      if (this.excel.settings.has(key)) return { key };
      if (nullable) return null;
      throw itemNotFound(`setting ${key}`);
    });
  }
  override indexer(key: unknown): HostObject {
    return this.byKey(String(key), false);
  }
  override call(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'GetItemOrNullObject':
        return this.byKey(String(args[0]), true);
      case 'GetCount':
        return this.excel.settings.size;
      case 'Add': {
        const [key, value] = args;
        if (typeof key !== 'string' || key.length === 0) throw invalidArgument('setting key');
        this.excel.settings.set(key, JSON.parse(JSON.stringify(value)));
        return this.byKey(key, false);
      }
      default:
        return super.call(name, args, this.excel);
    }
  }
  override items(): HostObject[] {
    return [...this.excel.settings.keys()].map((key) => this.byKey(key, false));
  }
}

class Setting extends Located<{ key: string }> {
  readonly type = 'Setting';
  override identity(s: { key: string }): Record<string, unknown> {
    return { _Id: s.key };
  }
  override get(name: string, s: { key: string }): unknown {
    if (name === 'Key' || name === '_Id') return s.key;
    if (name === 'Value') return this.excel.settings.get(s.key);
    return super.get(name, s);
  }
  override set(name: string, value: unknown, s: { key: string }): void {
    if (name === 'Value') this.excel.settings.set(s.key, JSON.parse(JSON.stringify(value)));
    else super.set(name, value, s);
  }
  override call(name: string, args: unknown[], s: { key: string }): unknown {
    if (name !== 'Delete') return super.call(name, args, s);
    this.excel.settings.delete(s.key);
    return undefined;
  }
}

/**
 * workbook.names (workbook-scoped names), or worksheet.names (a sheet's own: listed and deleted only; on the
 * web the workbook's names too, #1011, the sheet's own found first by name, as Excel resolves a name on its
 * sheet; with another window in front, InvalidSelection, #6365).
 */
class NamedItemCollection extends HostObject<FakeExcel> {
  readonly type = 'NamedItemCollection';
  constructor(
    host: ExcelHost,
    private readonly onSheet: (() => SheetState) | null = null,
  ) {
    super(host);
  }
  target(): FakeExcel {
    if (this.onSheet && this.excel.elsewhere) throw invalidSelection();
    this.onSheet?.();
    return this.excel;
  }
  private get list(): NameState[] {
    if (!this.onSheet) return this.excel.names;
    return this.excel.sheetNamesIncludeWorkbook ? [...this.onSheet().names, ...this.excel.names] : this.onSheet().names;
  }
  private byName(key: string, nullable: boolean): NamedItem {
    return new NamedItem(this.host, () => {
      this.target();
      const n = this.onSheet ? this.list.find((x) => x.name.toLowerCase() === key.toLowerCase()) : this.excel.findName(key);
      if (n) return n;
      if (nullable) return null;
      throw itemNotFound(`name ${key}`);
    });
  }
  override indexer(key: unknown): HostObject {
    return this.byName(String(key), false);
  }
  override call(name: string, args: unknown[]): unknown {
    if (this.onSheet) {
      if (name === 'GetCount') return this.list.length;
      return super.call(name, args, this.excel);
    }
    switch (name) {
      case 'GetItemOrNullObject':
        return this.byName(String(args[0]), true);
      case 'GetCount':
        return this.excel.names.length;
      case 'Add': {
        if (this.excel.elsewhere) throw itemNotFound('(#2078) names.add while another window is in front');
        const [key, reference, comment] = args;
        let target: RangeTarget;
        if (typeof reference === 'string') {
          const parts = splitSheet(reference.replace(/^=/, ''));
          if (parts.sheet === undefined) throw invalidArgument('fake: a name needs a sheet-qualified reference');
          target = { sheet: this.excel.sheet(parts.sheet), box: parseA1(parts.a1) };
        } else {
          target = (this.host.argumentObject(reference) as Range).required('NamedItemCollection.add');
        }
        const n = this.excel.addName(key, target.sheet, target.box, comment);
        return new NamedItem(this.host, () => (this.excel.names.includes(n) ? n : null));
      }
      default:
        return super.call(name, args, this.excel);
    }
  }
  override items(): HostObject[] {
    return this.list.map((n) => new NamedItem(this.host, () => (this.list.includes(n) ? n : null)));
  }
}

class NamedItem extends Located<NameState> {
  readonly type = 'NamedItem';
  override identity(n: NameState): Record<string, unknown> {
    return { _Id: n.name };
  }
  private range(nullable: boolean): Range {
    return new Range(this.host, () => {
      const n = this.required('NamedItem.getRange');
      if (n.target) return { sheet: n.target.sheet, box: n.target.box };
      if (nullable) return null;
      throw invalidOperation(`the name ${n.name} does not refer to a range`);
    });
  }
  override get(name: string, n: NameState): unknown {
    switch (name) {
      case 'Name':
      case '_Id':
        return n.name;
      case 'Type':
        if (this.excel.elsewhere) return null;
        return n.target ? 'Range' : 'Error';
      // "for a named range, it will return the range address"; assumed the error text otherwise.
      case 'Value':
        return n.target ? this.excel.nameFormula(n).slice(1) : '#REF!';
      case 'Formula':
        return this.excel.nameFormula(n);
      case 'Visible':
        return n.visible;
      case 'Comment':
        return n.comment;
      case 'Scope':
        return n.scope ? 'Worksheet' : 'Workbook';
      default:
        return super.get(name, n);
    }
  }
  override set(name: string, value: unknown, n: NameState): void {
    if (name === 'Formula') return this.excel.repointName(n, value);
    if (name !== 'Visible') return super.set(name, value, n);
    if (typeof value !== 'boolean') throw invalidArgument('visible must be a boolean');
    n.visible = value;
  }
  override call(name: string, args: unknown[], n: NameState): unknown {
    switch (name) {
      case 'GetRange':
        return this.range(false);
      case 'GetRangeOrNullObject':
        return this.range(true);
      case 'Delete':
        if (this.excel.elsewhere) throw new FakeOfficeError('GeneralException', '(assumed) deleting a name while another window is in front crashed Excel (#2983)');
        this.excel.deleteName(n);
        return undefined;
      default:
        return super.call(name, args, n);
    }
  }
}

class WorksheetProtection extends HostObject<SheetState> {
  readonly type = 'WorksheetProtection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => SheetState,
  ) {
    super(host);
  }
  target(): SheetState {
    return this.locate();
  }
  override get(name: string, s: SheetState): unknown {
    if (name === 'Protected') return s.protection.protected;
    if (name === 'Options') return s.protection.options;
    return super.get(name, s);
  }
  override call(name: string, args: unknown[], s: SheetState): unknown {
    if (name === 'Protect') this.excel.protect(s, args[0], args[1]);
    else if (name === 'Unprotect') this.excel.unprotect(s, args[0]);
    else return super.call(name, args, s);
    return undefined;
  }
}

/** A range passed to a chart method: a path id (a Range object) or an address on the chart's sheet. */
function chartRange(host: ExcelHost, sheet: SheetState, arg: unknown, what: string): { sheet: SheetState; box: Box } {
  if (typeof arg === 'string') {
    const { sheet: name, a1: address } = splitSheet(arg);
    return { sheet: name === undefined ? sheet : host.excel.sheet(name), box: parseA1(address) };
  }
  return (host.argumentObject(arg) as Range).required(what);
}

class ChartCollection extends HostObject<SheetState> {
  readonly type = 'ChartCollection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => SheetState,
  ) {
    super(host);
  }
  target(): SheetState {
    return this.locate();
  }
  /** charts[Id] or charts[name]: the library re-addresses a chart by the Id its answer carried. */
  override indexer(key: unknown): HostObject {
    return new Chart(this.host, () => {
      const chart = this.locate().charts.find((c) => c.id === key) ?? this.excel.findChart(this.locate(), String(key));
      if (!chart) throw itemNotFound(`chart ${String(key)}`);
      return chart;
    });
  }
  private byName(name: string, nullable: boolean): Chart {
    return new Chart(this.host, () => {
      const chart = this.excel.findChart(this.locate(), name);
      if (chart) return chart;
      if (nullable) return null;
      throw itemNotFound(`chart ${name}`);
    });
  }
  override call(name: string, args: unknown[], s: SheetState): unknown {
    switch (name) {
      case 'Add': {
        const source = (this.host.argumentObject(args[1]) as Range).required('ChartCollection.add');
        const chart = this.excel.addChart(s, args[0], source, args[2]);
        return new Chart(this.host, () => (s.charts.includes(chart) ? chart : null));
      }
      case 'GetItem':
        return this.byName(String(args[0]), false);
      case 'GetItemOrNullObject':
        return this.byName(String(args[0]), true);
      case 'GetCount':
        return s.charts.length;
      case 'GetItemAt': {
        const chart = s.charts[args[0] as number];
        if (!chart) throw itemNotFound(`chart ${String(args[0])}`);
        return new Chart(this.host, () => (s.charts.includes(chart) ? chart : null));
      }
      default:
        return super.call(name, args, s);
    }
  }
  override items(s: SheetState): HostObject[] {
    return s.charts.map((chart) => new Chart(this.host, () => (s.charts.includes(chart) ? chart : null)));
  }
}

class Chart extends Located<ChartState> {
  readonly type = 'Chart';
  override identity(c: ChartState): Record<string, unknown> {
    return { Id: c.id };
  }
  override property(name: string): HostObject {
    const chart = () => this.required(`Chart.${camel(name)}`);
    if (name === 'Series') return new ChartSeriesCollection(this.host, chart);
    if (name === 'Title') return new ChartPart(this.host, 'ChartTitle', chart, (c) => c.title, (c, v) => (c.title = String(v)));
    if (name === 'Legend') return new ChartPart(this.host, 'ChartLegend', chart, undefined, undefined, (c) => c.legend);
    return super.property(name);
  }
  override get(name: string, c: ChartState): unknown {
    if (name === 'Name') return c.name;
    if (name === 'Id') return c.id;
    if (name === 'ChartType') return c.type;
    return super.get(name, c);
  }
  override set(name: string, value: unknown, c: ChartState): void {
    if (name === 'Name') this.excel.renameChart(c, value);
    else super.set(name, value, c);
  }
  override call(name: string, args: unknown[], c: ChartState): unknown {
    switch (name) {
      case 'SetPosition': {
        const sheet = this.excel.chartSheet(c);
        const start = chartRange(this.host, sheet, args[0], 'Chart.setPosition').box;
        const end = args[1] === undefined || args[1] === null ? null : chartRange(this.host, sheet, args[1], 'Chart.setPosition').box;
        this.excel.setChartPosition(c, start, end);
        return undefined;
      }
      case 'Delete':
        this.excel.deleteChart(c);
        return undefined;
      default:
        return super.call(name, args, c);
    }
  }
}

/** Chart.title (its text) and Chart.legend (position and visibility): what the gateway sets of them. */
class ChartPart extends HostObject<ChartState> {
  constructor(
    host: ExcelHost,
    readonly type: string,
    private readonly locate: () => ChartState,
    private readonly text?: (c: ChartState) => unknown,
    private readonly setText?: (c: ChartState, v: unknown) => void,
    private readonly bag?: (c: ChartState) => Record<string, unknown>,
  ) {
    super(host);
  }
  target(): ChartState {
    return this.locate();
  }
  override get(name: string, c: ChartState): unknown {
    if (name === 'Text' && this.text) return this.text(c);
    if (this.bag && (name === 'Position' || name === 'Visible')) return this.bag(c)[camel(name)];
    return super.get(name, c);
  }
  override set(name: string, value: unknown, c: ChartState): void {
    this.excel.editable(this.excel.chartSheet(c));
    if (name === 'Text' && this.setText) {
      if (typeof value !== 'string' || value.length > 255) throw invalidArgument('a chart title is text of at most 255 characters');
      this.setText(c, value);
    } else if (this.bag && (name === 'Position' || name === 'Visible')) this.bag(c)[camel(name)] = value;
    else super.set(name, value, c);
  }
}

class ChartSeriesCollection extends HostObject<ChartState> {
  readonly type = 'ChartSeriesCollection';
  constructor(
    host: ExcelHost,
    private readonly locate: () => ChartState,
  ) {
    super(host);
  }
  target(): ChartState {
    return this.locate();
  }
  private series(chart: ChartState, series: ChartSeriesState): ChartSeries {
    return new ChartSeries(this.host, chart, () => (chart.series.includes(series) ? series : null));
  }
  override call(name: string, args: unknown[], c: ChartState): unknown {
    switch (name) {
      case 'GetCount':
        return c.series.length;
      case 'GetItemAt': {
        const series = c.series[args[0] as number];
        if (!series) throw itemNotFound(`series ${String(args[0])}`);
        return this.series(c, series);
      }
      case 'Add':
        return this.series(c, this.excel.addSeries(c, args[0], args[1]));
      default:
        return super.call(name, args, c);
    }
  }
  override items(c: ChartState): HostObject[] {
    return c.series.map((x) => this.series(c, x));
  }
}

class ChartSeries extends HostObject<ChartSeriesState> {
  readonly type = 'ChartSeries';
  constructor(
    host: ExcelHost,
    private readonly chart: ChartState,
    private readonly locate: () => ChartSeriesState | null,
  ) {
    super(host);
  }
  target(): ChartSeriesState | null {
    return this.locate();
  }
  override get(name: string, x: ChartSeriesState): unknown {
    if (name === 'Name') return x.name;
    return super.get(name, x);
  }
  override set(name: string, value: unknown, x: ChartSeriesState): void {
    if (name === 'Name') this.excel.setSeriesName(this.chart, x, value);
    else super.set(name, value, x);
  }
  override call(name: string, args: unknown[], x: ChartSeriesState): unknown {
    const sheet = () => this.excel.chartSheet(this.chart);
    switch (name) {
      case 'SetValues':
        this.excel.setSeriesRange(this.chart, x, 'values', chartRange(this.host, sheet(), args[0], 'ChartSeries.setValues'));
        return undefined;
      case 'SetXAxisValues':
        this.excel.setSeriesRange(this.chart, x, 'categories', chartRange(this.host, sheet(), args[0], 'ChartSeries.setXAxisValues'));
        return undefined;
      case 'Delete':
        this.excel.deleteSeries(this.chart, x);
        return undefined;
      default:
        return super.call(name, args, x);
    }
  }
}

/** An object a method returned that nothing is done to afterwards (a TableRow from rows.add). */
class HostValue extends HostObject<object> {
  constructor(
    host: ExcelHost,
    readonly type: string,
  ) {
    super(host);
  }
  target(): object {
    return {};
  }
}

class NullObject extends HostObject<never> {
  readonly type = 'NullObject';
  target(): null {
    return null;
  }
}

// The executor -----------------------------------------------------------------------------------------

/** Reference housekeeping the library sends around objects; not members of the API. */
const HOUSEKEEPING = new Set(['_KeepReference', '_RemoveReference']);

export class ExcelHost {
  /** The log record of the request being answered. */
  current!: SyncRecord;
  private paths: Record<string, ObjectPathInfo> = {};
  private resolved = new Map<number, HostObject>();
  /** Paths the library asked to keep (`_KeepReference`) in this request: they get a `_ReferenceId`. */
  private kept = new Set<number>();
  /** Objects kept across requests, by `_ReferenceId`, until the library's cleanup removes them. */
  private readonly references = new Map<string, HostObject>();
  private referenceCounter = 0;

  constructor(
    readonly excel: FakeExcel,
    private readonly onMember: (member: string) => void = () => {},
  ) {}

  /** The executor's executeAsync: one request (one context.sync()) in, one response out. */
  async execute(flags: number, body: RequestBody): Promise<HostResponse> {
    const excel = this.excel;
    const delay = (flags & DELAY_FOR_CELL_EDIT_FLAG) !== 0;
    const rec: SyncRecord = {
      index: excel.syncs.length,
      actions: body.Actions.filter((a) => a.ActionType === 2 || ((a.ActionType === 3 || a.ActionType === 4) && !HOUSEKEEPING.has(a.Name))).length,
      requestBytes: bytes(body),
      responseBytes: 0,
      delayForCellEdit: delay,
      calcSuspended: false,
      screenSuspended: false,
      recalcs: [],
    };
    // The library's cleanup after an Excel.run (releasing kept references) is its own round trip, not one of
    // the add-in's context.sync() calls: counted apart, so sync counts stay the add-in's.
    const cleanup = body.Actions.some((a) => a.Name === '_RemoveReference') && body.Actions.every((a) => a.ActionType === 1 || a.Name === '_RemoveReference');
    if (cleanup) excel.cleanups++;
    else excel.syncs.push(rec);
    this.current = rec;
    if (excel.sheetsGrouped) return failed(rec, 'GeneralException', 'There was an internal error while processing the request.');

    const editing = excel.editingCell;
    if (editing && !delay) {
      return failed(rec, 'InvalidOperationInCellEditMode', "The operation isn't available while Excel is in Edit cell mode. Exit Edit mode by using the Enter or Tab keys, or by clicking another cell, and then try again.");
    }
    if (editing) await editing;
    if (rec.requestBytes > excel.requestLimit) {
      return failed(
        rec,
        'RequestPayloadSizeLimitExceeded',
        'The request payload size has exceeded the limit. Please refer to the documentation: "https://docs.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization#excel-add-ins".',
      );
    }
    const fault = this.takeFault(body.Actions.length);

    this.paths = body.ObjectPaths;
    this.resolved = new Map();
    this.kept = new Set();
    const results: { ActionId: number; Value: unknown }[] = [];
    let wrote = false;
    let error: HostError | undefined;
    for (let i = 0; i < body.Actions.length; i++) {
      const action = body.Actions[i];
      try {
        if (fault && i === fault.at) throw new FakeOfficeError(fault.code, `(planted) ${fault.code}`);
        const out = this.act(action);
        if (action.ActionType === 3 || action.ActionType === 4) wrote ||= !HOUSEKEEPING.has(action.Name);
        if (out !== undefined) results.push({ ActionId: action.Id, Value: out });
      } catch (e) {
        const err = e instanceof FakeOfficeError ? e : new FakeOfficeError('GeneralException', String((e as Error).message ?? e));
        rec.error = err.code;
        error = { Code: err.code, Message: err.message, HttpStatusCode: 400, Location: this.location(action), ActionIndex: i };
        break;
      }
    }
    if (wrote && rec.calcSuspended) excel.dirtyWhileSuspended = true;
    if (rec.recalcs.length > 0 && !rec.calcSuspended) excel.dirtyWhileSuspended = false;
    if (error) return { HttpStatusCode: 400, ErrorCode: '', ErrorMessage: '', Headers: {}, Body: { Results: results, Error: error } };

    rec.responseBytes = bytes(results);
    if (rec.responseBytes > excel.responseLimit) {
      return failed(rec, 'ResponsePayloadSizeLimitExceeded', 'The response payload size has exceeded the limit.');
    }
    return { HttpStatusCode: 200, ErrorCode: '', ErrorMessage: '', Headers: {}, Body: { Results: results } };
  }

  /** An object passed as an argument (tables.add(range), getBoundingRect(range)): a path id. */
  argumentObject(id: unknown): HostObject {
    return this.resolve(Number(id));
  }

  private takeFault(actions: number): { at: number; code: string } | undefined {
    let planted: { at: number; code: string } | undefined;
    for (let i = this.excel.faults.length - 1; i >= 0; i--) {
      const f = this.excel.faults[i];
      f.request--;
      if (f.request > 0) continue;
      this.excel.faults.splice(i, 1);
      planted = { at: Math.min(actions - 1, f.afterActions ?? 0), code: f.code };
    }
    return planted;
  }

  private act(action: ActionInfo): unknown {
    const args = action.ArgumentInfo?.Arguments ?? [];
    switch (action.ActionType) {
      case 1: {
        const obj = this.resolve(action.ObjectPathId);
        const t = obj.target();
        if (t === null) return null;
        if (!this.kept.has(action.ObjectPathId)) return obj.identity(t);
        const id = `R${++this.referenceCounter}`;
        this.references.set(id, obj);
        return { ...obj.identity(t), _ReferenceId: id };
      }
      case 2:
        return this.query(this.resolve(action.ObjectPathId), action.QueryInfo?.Select);
      case 3: {
        if (action.Name === '_KeepReference') this.kept.add(action.ObjectPathId);
        if (action.Name === '_RemoveReference') this.references.delete(String(args[0]));
        if (HOUSEKEEPING.has(action.Name)) return undefined;
        const obj = this.resolve(action.ObjectPathId);
        this.member(obj, action.Name);
        const out = obj.call(action.Name, args, obj.required(`${obj.type}.${camel(action.Name)}`));
        return out instanceof HostObject ? undefined : out;
      }
      case 4: {
        const obj = this.resolve(action.ObjectPathId);
        this.member(obj, action.Name);
        obj.set(action.Name, args[0], obj.required(`${obj.type}.${camel(action.Name)}`));
        return undefined;
      }
      case 5:
        return undefined;
      default:
        throw notModelled(`action type ${action.ActionType}`);
    }
  }

  private resolve(id: number): HostObject {
    const done = this.resolved.get(id);
    if (done) return done;
    const path = this.paths[String(id)];
    if (!path) throw new FakeOfficeError('InvalidObjectPath', `The object path ${id} is not in the request.`);
    let obj: HostObject;
    if (path.ObjectPathType === 1) obj = new Workbook(this);
    else if (path.ObjectPathType === 7) obj = new NullObject(this);
    else if (path.ObjectPathType === 6) {
      const kept = this.references.get(path.Name);
      if (!kept) throw new FakeOfficeError('InvalidObjectPath', `The object reference ${path.Name} was released.`);
      obj = kept;
    }
    else {
      const parent = this.resolve(path.ParentObjectPathId!);
      const args = path.ArgumentInfo?.Arguments ?? [];
      if (path.ObjectPathType === 4) {
        this.member(parent, path.Name);
        obj = parent.property(path.Name);
      } else if (path.ObjectPathType === 5) {
        this.onMember(`${parent.type}.getItem`);
        obj = parent.indexer(args[0]);
      } else if (path.ObjectPathType === 3) {
        this.member(parent, path.Name);
        const out = parent.call(path.Name, args, parent.required(`${parent.type}.${camel(path.Name)}`));
        if (!(out instanceof HostObject)) throw notModelled(`${parent.type}.${camel(path.Name)} as an object`);
        obj = out;
      } else throw notModelled(`object path type ${path.ObjectPathType}`);
    }
    this.resolved.set(id, obj);
    return obj;
  }

  /** A load: the selected properties (PascalCase, as the library expects); a collection answers _Items. */
  private query(obj: HostObject, select: string[] | undefined): unknown {
    const t = obj.target();
    if (t === null) return null;
    if (!select) throw notModelled(`load() of every property of ${obj.type}`);
    const collection = /Collection$/.test(obj.type);
    if (collection && select.every((s) => s !== 'count')) {
      this.onMember(`${obj.type}.items`);
      return { _Items: obj.items(t).map((item) => this.snapshot(item, select)) };
    }
    return this.snapshot(obj, select);
  }

  private snapshot(obj: HostObject, select: string[]): Record<string, unknown> {
    const t = obj.target();
    if (t === null) throw itemNotFound(obj.type);
    const out: Record<string, unknown> = { ...obj.identity(t) };
    // "areas/rowIndex,areas/columnIndex": one navigation property, several of its properties.
    const nested = new Map<string, string[]>();
    for (const raw of select) {
      const [prop, ...rest] = raw.trim().split('/');
      const name = prop.charAt(0).toUpperCase() + prop.slice(1);
      this.member(obj, name);
      if (rest.length === 0) out[name] = obj.get(name, t);
      else nested.set(name, [...(nested.get(name) ?? []), rest.join('/')]);
    }
    for (const [name, rests] of nested) {
      const sub = obj.property(name);
      // A collection loaded through its parent ("areas/items/address") answers its items, as a query does.
      if (/Collection$/.test(sub.type)) {
        const st = sub.target();
        this.onMember(`${sub.type}.items`);
        out[name] = st === null ? null : { _Items: sub.items(st).map((item) => this.snapshot(item, rests)) };
      } else out[name] = this.snapshot(sub, rests);
    }
    return out;
  }

  private member(obj: HostObject, name: string): void {
    if (!HOUSEKEEPING.has(name)) this.onMember(`${obj.type}.${camel(name)}`);
  }

  private location(action: ActionInfo): string {
    const path = this.paths[String(action.ObjectPathId)];
    const obj = this.resolved.get(action.ObjectPathId);
    return `${obj?.type ?? 'Object'}.${camel(action.Name || path?.Name || '')}`;
  }
}

function failed(rec: SyncRecord, code: string, message: string): HostResponse {
  rec.error = code;
  return { HttpStatusCode: 400, ErrorCode: code, ErrorMessage: message, Headers: {}, Body: null };
}
