/**
 * Excel tables: created by writing the range first and adding the table over it (Microsoft's advice for
 * large tables: rows.add is slow in bulk), appended with rows.add, edited and read in place by key.
 */
import { boxA1, parseQualified, qualify, type Box } from '../../engine/ports/address';
import { uniqueTableName } from '../hostRules';
import {
  GatewayError,
  type KeyedResult,
  type ReadValue,
  type RowUpdate,
  type TableColumnSpec,
  type TableRead,
  type TableRef,
  type TableSpec,
  type WriteValue,
} from '../../engine/ports/workbook';
import { fitText, GENERAL_FORMAT, TEXT_FORMAT } from '../gridPlan';
import { jsonBytes, OP_OVERHEAD_BYTES } from '../payload';
import { removeAddedSheet, resolveTarget } from './grid';
import { stoppedError } from './hostError';
import { putValues, setAll, typedTextBytes } from './ranges';
import { readChunked, runChunked, tryUndo, WriteStopped, type Session } from './session';

interface TableInfo {
  name: string;
  sheet: string;
  header: string[];
  /** The data body on the sheet. */
  body: Box;
  /** Excel keeps one blank body row in a table with no data; it counts as no rows. */
  placeholder: boolean;
  /** Formats of the last body row: '@' marks a text column, the rest tell a new row its number format. */
  formats: string[];
}

export function keyOf(v: ReadValue | WriteValue): string {
  return v === null ? '' : String(v);
}

function columnIndex(info: TableInfo, column: string): number {
  const c = info.header.indexOf(column);
  if (c < 0) throw new GatewayError('NotFound', `Table ${info.name} has no column ${column}`);
  return c;
}

/** Normalises one value for a cell: strings stay text, numbers in a text column become text too. */
function cellValue(v: WriteValue | undefined, text: boolean, where: string): string | number {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new GatewayError('InvalidInput', `${where}: not a finite number`);
    return text ? String(v) : v;
  }
  if (typeof v === 'string') {
    if (!text) throw new GatewayError('InvalidInput', `${where}: text in a number column`);
    return fitText(v);
  }
  throw new GatewayError('InvalidInput', `${where}: unsupported value type ${typeof v}`);
}

async function loadTableInfo(session: Session, name: string): Promise<TableInfo> {
  const table = session.ctx.workbook.tables.getItem(name).load('name');
  const sheet = table.worksheet.load('name');
  const header = table.getHeaderRowRange().load('values');
  const body = table.getDataBodyRange().load('address, rowCount');
  const last = body.getLastRow().load('values, numberFormat');
  await session.sync();
  const box = parseQualified(body.address).box;
  return {
    name: table.name,
    sheet: sheet.name,
    header: (header.values[0] as ReadValue[]).map((h) => String(h)),
    body: box,
    placeholder: body.rowCount === 1 && (last.values[0] as ReadValue[]).every((v) => v === ''),
    formats: (last.numberFormat[0] as string[]).map((f) => String(f)),
  };
}

function tableRef(info: TableInfo, bodyRows: number): TableRef {
  const box = { row: info.body.row - 1, col: info.body.col, rows: 1 + Math.max(1, bodyRows), cols: info.body.cols };
  return { name: info.name, sheet: info.sheet, address: qualify(info.sheet, box) };
}

async function readColumn(session: Session, info: TableInfo, c: number): Promise<ReadValue[]> {
  const rows = info.placeholder ? 0 : info.body.rows;
  const chunks = await readChunked(session, rows, 1, (_ctx, start, count) => {
    const range = session.sheet(info.sheet).getRangeByIndexes(info.body.row + start, info.body.col + c, count, 1).load('values');
    return () => ({ values: range.values as ReadValue[][] });
  });
  return chunks.flatMap((ch) => ch.values.map((r) => r[0]));
}

/** Rows of the body holding each key. */
async function indexKeys(session: Session, info: TableInfo, keyColumn: string): Promise<Map<string, number[]>> {
  const keys = await readColumn(session, info, columnIndex(info, keyColumn));
  const index = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const list = index.get(keyOf(k));
    if (list) list.push(i);
    else index.set(keyOf(k), [i]);
  });
  return index;
}

function checkColumns(columns: TableColumnSpec[]): void {
  if (columns.length === 0) throw new GatewayError('InvalidInput', 'A table needs at least one column');
  const seen = new Set<string>();
  for (const col of columns) {
    const key = col.name.trim().toLowerCase();
    if (!key) throw new GatewayError('InvalidInput', 'Table column names cannot be blank');
    // Excel would silently rename a duplicate header ("Amount2"), and reads by name would then miss it.
    if (seen.has(key)) throw new GatewayError('InvalidInput', `Duplicate table column ${col.name}`);
    seen.add(key);
  }
}

export async function createTable(session: Session, spec: TableSpec): Promise<TableRef> {
  checkColumns(spec.columns);
  const w = spec.columns.length;
  const values = spec.rows.map((row, r) => {
    if (row.length > w) throw new GatewayError('InvalidInput', `Row ${r} has ${row.length} cells for ${w} columns`);
    return spec.columns.map((col, c) => cellValue(row[c], col.kind === 'text', `Row ${r}, column ${col.name}`));
  });
  session.stats.rows = values.length;
  // Rides on resolveTarget's sync when the table goes on a new sheet; otherwise it takes its own.
  const tables = session.ctx.workbook.tables.load('items/name');
  const at = await resolveTarget(session, spec.target);
  if (!at.isNew) await session.sync();
  const name = uniqueTableName(spec.name, tables.items.map((t) => t.name));
  const bodyRows = Math.max(1, values.length);
  const box: Box = { row: at.row, col: at.col, rows: 1 + bodyRows, cols: w };
  const headers = spec.columns.map((c) => c.name);

  const write = runChunked(session, {
    total: values.length,
    rowBytes: values.map((v) => jsonBytes(v) + 1 + typedTextBytes(v)),
    fixedBytes: OP_OVERHEAD_BYTES * (2 * w + 8) + jsonBytes(headers) + typedTextBytes(headers),
    setup: (ctx) => {
      if (at.isNew) ctx.workbook.worksheets.add(at.sheet);
      const sheet = session.sheet(at.sheet);
      const header = sheet.getRangeByIndexes(at.row, at.col, 1, w);
      setAll(header, 'numberFormat', TEXT_FORMAT);
      putValues(session, sheet, at.row, at.col, [headers]);
      // Whole-column formats before any row arrives: a merchant named "=HYPERLINK(...)" lands in an '@' cell.
      spec.columns.forEach((col, c) => {
        const column = sheet.getRangeByIndexes(at.row + 1, at.col + c, bodyRows, 1);
        setAll(column, 'numberFormat', col.kind === 'text' ? TEXT_FORMAT : col.numberFormat || GENERAL_FORMAT);
        if (col.width !== undefined) column.format.columnWidth = col.width;
      });
    },
    chunk: (_ctx, start, count) => {
      putValues(session, session.sheet(at.sheet), at.row + 1 + start, at.col, values.slice(start, start + count));
    },
    finalize: () => {
      const sheet = session.sheet(at.sheet);
      const table = sheet.tables.add(boxA1(box), true);
      table.name = name;
      if (spec.style) table.style = spec.style;
      if (at.isNew && (spec.target.kind !== 'newSheet' || spec.target.activate !== false)) sheet.activate();
    },
  });
  try {
    await write;
  } catch (error) {
    if (!(error instanceof WriteStopped)) throw error;
    // Never a half-written table: a new sheet goes with it; on a sheet of the user's, the table (added by the
    // last request, if that got so far) and the cells written go.
    const undone = await tryUndo(async () => {
      if (at.isNew) return removeAddedSheet(session, at.sheet);
      const table = session.ctx.workbook.tables.getItemOrNullObject(name);
      await session.sync();
      // eslint-disable-next-line office-addins/call-sync-before-read -- session.sync() is context.sync(), counted; the rule knows a sync only by a variable named context
      if (!table.isNullObject) table.delete();
      session.sheet(at.sheet).getRangeByIndexes(box.row, box.col, box.rows, box.cols).clear('All');
      await session.sync();
    });
    const where = qualify(at.sheet, box);
    throw stoppedError(error, `Excel stopped creating the table ${name} at ${where} part way${undone ? '; it was removed' : ': delete what was written and try again'}.`);
  }
  return { name, sheet: at.sheet, address: qualify(at.sheet, box) };
}

/** Vertical runs of non-empty strings in column c over rows [start, start+count). */
function textRuns(values: (string | number)[][], c: number, start: number, count: number): { start: number; cells: string[] }[] {
  const runs: { start: number; cells: string[] }[] = [];
  for (let i = start; i < start + count; i++) {
    const v = values[i][c];
    if (typeof v !== 'string' || v === '') continue;
    const last = runs[runs.length - 1];
    if (last && last.start + last.cells.length === i) last.cells.push(v);
    else runs.push({ start: i, cells: [v] });
  }
  return runs;
}

export async function appendRows(session: Session, name: string, rows: WriteValue[][]): Promise<TableRef> {
  const info = await loadTableInfo(session, name);
  const w = info.header.length;
  const text = info.formats.map((f) => f === TEXT_FORMAT);
  const values = rows.map((row, r) => {
    if (row.length > w) throw new GatewayError('InvalidInput', `Row ${r} has ${row.length} cells for ${w} columns`);
    return info.header.map((h, c) => {
      const v = row[c] ?? null;
      // Append does not know column kinds; a string is text wherever it goes.
      return typeof v === 'string' ? fitText(v) : cellValue(v, text[c], `Row ${r}, column ${h}`);
    });
  });
  session.stats.rows = values.length;
  // Whether rows.add on a filtered table fails or adds rows the filter hides is not documented: the filter goes
  // first, as it does before rows are deleted or trimmed (the push log's protection lets the user filter).
  session.ctx.workbook.tables.getItem(name).clearFilters();
  const existing = info.placeholder ? 0 : info.body.rows;
  const base = info.body.row + existing;
  const blanked = (from: number, to: number) => values.slice(from, to).map((r) => r.map((v) => (typeof v === 'string' ? '' : v)));

  const write = runChunked(session, {
    total: values.length,
    rowBytes: values.map((v) => jsonBytes(v) + OP_OVERHEAD_BYTES + typedTextBytes(v)),
    fixedBytes: OP_OVERHEAD_BYTES * 2 * w,
    chunk: (ctx, start, count) => {
      const sheet = session.sheet(info.sheet);
      const intoPlaceholder = info.placeholder && start === 0 ? 1 : 0;
      if (intoPlaceholder) sheet.getRangeByIndexes(base, info.body.col, 1, w).values = blanked(0, 1);
      // Strings go in blank: rows.add parses what it is given, and the cells are not '@' yet.
      if (count > intoPlaceholder) ctx.workbook.tables.getItem(name).rows.add(undefined, blanked(start + intoPlaceholder, start + count));
      info.formats.forEach((f, c) => {
        if (f !== TEXT_FORMAT) setAll(sheet.getRangeByIndexes(base + start, info.body.col + c, count, 1), 'numberFormat', f);
      });
      for (let c = 0; c < w; c++) {
        for (const run of textRuns(values, c, start, count)) {
          setAll(sheet.getRangeByIndexes(base + run.start, info.body.col + c, run.cells.length, 1), 'numberFormat', TEXT_FORMAT);
          putValues(session, sheet, base + run.start, info.body.col + c, run.cells.map((v) => [v]));
        }
      }
    },
  });
  try {
    await write;
  } catch (error) {
    if (!(error instanceof WriteStopped)) throw error;
    // Whole chunks are in; whatever the failed request added after them goes, so the caller can add the rest.
    const written = error.done;
    const trimmed = await tryUndo(() => trimTable(session, info, existing + written));
    const state = trimmed ? 'the others are not' : 'the rows after them may be incomplete';
    throw stoppedError(error, `Excel stopped adding rows to ${name} after ${written} of ${values.length}: those are in the table, ${state}; add them again with Refresh.`, {
      written,
      total: values.length,
    });
  }
  return tableRef(info, existing + values.length);
}

/** Cuts a table's body back to `keep` rows (an empty table keeps its one blank row). */
async function trimTable(session: Session, info: TableInfo, keep: number): Promise<void> {
  const table = session.ctx.workbook.tables.getItem(info.name);
  const body = table.getDataBodyRange().load('rowCount');
  await session.sync();
  const sheet = session.sheet(info.sheet);
  const kept = Math.max(1, keep);
  // A filter would make Range.delete keep the rows without a word (office-js#994).
  table.clearFilters();
  if (body.rowCount > kept) sheet.getRangeByIndexes(info.body.row + kept, info.body.col, body.rowCount - kept, info.body.cols).delete('Up');
  if (keep === 0) sheet.getRangeByIndexes(info.body.row, info.body.col, 1, info.body.cols).clear('Contents');
  await session.sync();
}

/** Consecutive rows of one column to write in one operation. */
interface ColumnRun {
  col: number;
  row: number;
  cells: (string | number)[];
}

/**
 * The cells to write, as runs down each column: a push writes the same columns of many rows, so a run is
 * usually thousands of cells in one operation rather than one operation per row. Runs are cut at `maxBytes`
 * so each fits a request.
 */
function columnRuns(byColumn: Map<number, Map<number, string | number>>, maxBytes: number): ColumnRun[] {
  const runs: ColumnRun[] = [];
  for (const [col, cells] of [...byColumn].sort((a, b) => a[0] - b[0])) {
    let run: ColumnRun | undefined;
    let bytes = 0;
    for (const [row, v] of [...cells].sort((a, b) => a[0] - b[0])) {
      const size = jsonBytes(v) + 3;
      if (run && run.row + run.cells.length === row && bytes + size <= maxBytes) {
        run.cells.push(v);
        bytes += size;
      } else {
        run = { col, row, cells: [v] };
        runs.push(run);
        bytes = size;
      }
    }
  }
  return runs;
}

/** Stretches of non-empty text in a run: each gets the text format before the values land. */
function textStretches(cells: (string | number)[]): { start: number; count: number }[] {
  const out: { start: number; count: number }[] = [];
  cells.forEach((v, i) => {
    if (typeof v !== 'string' || v === '') return;
    const last = out[out.length - 1];
    if (last && last.start + last.count === i) last.count++;
    else out.push({ start: i, count: 1 });
  });
  return out;
}

export async function updateRowsByKey(session: Session, name: string, keyColumn: string, updates: RowUpdate[]): Promise<KeyedResult> {
  const info = await loadTableInfo(session, name);
  const index = await indexKeys(session, info, keyColumn);
  const text = info.formats.map((f) => f === TEXT_FORMAT);
  const missing: (string | number)[] = [];
  /** Column -> body row -> value; a later update of the same cell wins, as it would written in order. */
  const byColumn = new Map<number, Map<number, string | number>>();
  /** Each update whose key was found, with the cells it writes, to tell which are complete if Excel stops. */
  const found: { key: string | number; cells: [number, number][] }[] = [];
  let count = 0;
  for (const u of updates) {
    const rows = index.get(keyOf(u.key));
    if (!rows) {
      missing.push(u.key);
      continue;
    }
    const mine: [number, number][] = [];
    found.push({ key: u.key, cells: mine });
    const cells = Object.entries(u.values).map(([column, v]) => {
      const c = columnIndex(info, column);
      return { c, v: typeof v === 'string' ? fitText(v) : cellValue(v, text[c], `Key ${u.key}, column ${column}`) };
    });
    for (const row of rows) {
      count++;
      for (const { c, v } of cells) {
        if (!byColumn.has(c)) byColumn.set(c, new Map());
        byColumn.get(c)!.set(row, v);
        mine.push([c, row]);
      }
    }
  }
  session.stats.rows = count;
  const runs = columnRuns(byColumn, session.options.budgetBytes / 4);
  const write = runChunked(session, {
    total: runs.length,
    rowBytes: runs.map((run) => jsonBytes(run.cells) + OP_OVERHEAD_BYTES * (1 + textStretches(run.cells).length) + typedTextBytes(run.cells)),
    chunk: (_ctx, start, n) => {
      const sheet = session.sheet(info.sheet);
      for (const run of runs.slice(start, start + n)) {
        const top = info.body.row + run.row;
        const col = info.body.col + run.col;
        for (const t of textStretches(run.cells)) setAll(sheet.getRangeByIndexes(top + t.start, col, t.count, 1), 'numberFormat', TEXT_FORMAT);
        putValues(session, sheet, top, col, run.cells.map((v) => [v]));
      }
    },
  });
  try {
    await write;
  } catch (error) {
    if (!(error instanceof WriteStopped)) throw error;
    // Runs go down columns, so an update is complete only when the run of each of its cells went in.
    const runOf = new Map<string, number>();
    runs.forEach((run, i) => run.cells.forEach((_, k) => runOf.set(`${run.col},${run.row + k}`, i)));
    const keys = found.filter((u) => u.cells.every(([c, r]) => runOf.get(`${c},${r}`)! < error.done)).map((u) => u.key);
    throw stoppedError(error, `Excel stopped updating ${name} after ${keys.length} of ${found.length} rows were written: write the others again (they may be partly updated).`, {
      written: keys.length,
      total: found.length,
      keys,
    });
  }
  return { count, missing };
}

export async function deleteRowsByKey(session: Session, name: string, keyColumn: string, keys: (string | number)[]): Promise<KeyedResult> {
  const info = await loadTableInfo(session, name);
  const index = await indexKeys(session, info, keyColumn);
  const missing: (string | number)[] = [];
  const rows = new Set<number>();
  for (const k of keys) {
    const found = index.get(keyOf(k));
    if (!found) missing.push(k);
    else found.forEach((r) => rows.add(r));
  }
  // Bottom up, so the indexes of the rows still to delete do not move; contiguous rows are one run.
  const order = [...rows].sort((a, b) => b - a);
  const runs: { index: number; count: number }[] = [];
  for (const r of order) {
    const last = runs[runs.length - 1];
    if (last && last.index === r + 1) {
      last.index = r;
      last.count++;
    } else runs.push({ index: r, count: 1 });
  }
  // TableRowCollection.deleteRowsAt is Excel on the web's only (ExcelApiOnline 1.1: Windows and Mac refuse it
  // with ApiNotFound); everywhere else a run of body rows goes as one Range.delete(up), and the table shrinks.
  const byTableRows = session.options.supports('ExcelApiOnline', '1.1');
  session.stats.rows = order.length;
  if (runs.length > 0) {
    await runChunked(session, {
      total: runs.length,
      rowBytes: runs.map(() => 2 * OP_OVERHEAD_BYTES),
      fixedBytes: OP_OVERHEAD_BYTES,
      setup: (ctx) => {
        // Under a filter deleteRowsAt refuses (InsertDeleteConflict) and Range.delete keeps the rows without a
        // word (OfficeDev/office-js#994), so the filter goes first: every row the refresh removes is removed,
        // and the user sees all rows afterwards (the filter can be applied again).
        ctx.workbook.tables.getItem(name).clearFilters();
      },
      chunk: (ctx, start, n) => {
        for (const run of runs.slice(start, start + n)) {
          if (byTableRows) ctx.workbook.tables.getItem(name).rows.deleteRowsAt(run.index, run.count);
          else session.sheet(info.sheet).getRangeByIndexes(info.body.row + run.index, info.body.col, run.count, info.body.cols).delete('Up');
        }
      },
    });
  }
  return { count: order.length, missing };
}

export async function readTable(session: Session, name: string): Promise<TableRead> {
  const info = await loadTableInfo(session, name);
  const total = info.placeholder ? 0 : info.body.rows;
  session.stats.rows = total;
  const chunks = await readChunked(session, total, info.body.cols, (_ctx, start, count) => {
    const range = session.sheet(info.sheet).getRangeByIndexes(info.body.row + start, info.body.col, count, info.body.cols).load('values');
    return () => ({ values: range.values as ReadValue[][] });
  });
  return { ...tableRef(info, total), columns: info.header, rows: chunks.flatMap((c) => c.values) };
}

/** The hidden sheet holding validation lists, one column per list, the list's name in row 1. */
export const LISTS_SHEET = 'FinLists';

export async function setListValidation(session: Session, name: string, column: string, items: string[], listName: string): Promise<void> {
  const { ctx } = session;
  const helper = ctx.workbook.worksheets.getItemOrNullObject(LISTS_SHEET);
  const tableColumn = ctx.workbook.tables.getItem(name).columns.getItem(column).load('name');
  await session.sync();
  // Nothing is asked of the helper sheet before it is known to exist (the first list creates it).
  let used: Excel.Range | undefined;
  // eslint-disable-next-line office-addins/call-sync-before-read -- session.sync() is context.sync(), counted; the rule knows a sync only by a variable named context
  if (!helper.isNullObject) {
    used = helper.getUsedRangeOrNullObject(true).load('address, values');
    await session.sync();
  }

  // Lists sit side by side from A1, name in row 1; the used range tells where each is and how long.
  const found = used && !used.isNullObject ? used : undefined;
  const grid = found ? (found.values as ReadValue[][]) : [];
  const origin = found ? parseQualified(found.address).box : { row: 0, col: 0 };
  const width = grid.length ? origin.col + grid[0].length : 0;
  const at = (r: number, c: number): ReadValue => grid[r - origin.row]?.[c - origin.col] ?? '';
  let col = width;
  for (let c = 0; c < width; c++) if (at(0, c) === listName) col = c;
  let previous = 0;
  for (let r = origin.row; r < origin.row + grid.length; r++) if (at(r, col) !== '') previous = r + 1;

  // eslint-disable-next-line office-addins/call-sync-before-read -- session.sync() is context.sync(), counted; the rule knows a sync only by a variable named context
  if (helper.isNullObject) {
    const sheet = ctx.workbook.worksheets.add(LISTS_SHEET);
    sheet.visibility = 'Hidden';
  }
  const sheet = session.sheet(LISTS_SHEET);
  if (previous > 0) sheet.getRangeByIndexes(0, col, previous, 1).clear('Contents');
  const header = sheet.getRangeByIndexes(0, col, 1, 1);
  setAll(header, 'numberFormat', TEXT_FORMAT);
  putValues(session, sheet, 0, col, [[listName]]);
  const target = ctx.workbook.tables.getItem(name).columns.getItem(tableColumn.name).getDataBodyRange();
  target.dataValidation.clear();
  if (items.length > 0) {
    setAll(sheet.getRangeByIndexes(1, col, items.length, 1), 'numberFormat', TEXT_FORMAT);
    putValues(session, sheet, 1, col, items.map((i) => [fitText(i)]));
    const source = `=${qualify(LISTS_SHEET, { row: 1, col, rows: items.length, cols: 1 }, true)}`;
    target.dataValidation.rule = { list: { inCellDropDown: true, source } };
  }
  await session.sync();
}
