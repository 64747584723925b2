/**
 * Where a sheet's formulas are and what they say, read in requests that fit. Range.getSpecialCells
 * (ExcelApi 1.9) finds the formula cells; Microsoft's sample searches the used range rather than the whole
 * sheet ("Find special cells within a range": the search scope is restricted by calling getUsedRange first),
 * and so does this. Go To Special on one cell searches the whole sheet (support.microsoft.com, "Find and
 * select cells that meet specific conditions": "to search the entire worksheet, click any cell"), so a
 * one-cell box is read as it is, never searched, and what a search returns is clipped to the box asked for.
 * Excel on the web refuses a response over 5 MB ("Resource limits and performance optimization for Office
 * Add-ins"), and formulas are long: the formulas are read in batches sized from what the last one weighed,
 * and a batch Excel refuses is halved and asked again, as the gateway's reads are (office/session.ts).
 */
import type { Box } from '../engine/ports/address';
import { DEFAULT_BUDGET_BYTES, isPayloadLimitError, jsonBytes } from './payload';

/** Formula cells read per sync before one has been weighed: a request that stays small on any model. */
export const FIRST_BATCH_CELLS = 20_000;
/** Bytes a formula cell is taken to weigh before one has been weighed (the batch above: about 1.2 MB). */
const GUESS_CELL_BYTES = 60;

/** Where to look: a whole sheet (its used range), or a box of it. */
export interface FormulaTarget {
  sheet: Excel.Worksheet;
  box?: Box;
}

/** An area that may hold formulas, on its sheet. */
export interface FormulaArea {
  sheet: Excel.Worksheet;
  box: Box;
}

/** The formulas of an area (with valueTypes when asked), as Range.formulas gives them. */
export interface FormulaRead extends FormulaArea {
  formulas: unknown[][];
  valueTypes?: unknown[][];
}

export interface ReadOptions {
  /** Also read each cell's valueType (to pick those showing an error). */
  valueTypes?: boolean;
  /** Response bytes aimed at per sync; Excel on the web refuses 5 MB. */
  budgetBytes?: number;
}

const cells = (b: Box) => b.rows * b.cols;
const isOneCell = (b: Box) => b.rows === 1 && b.cols === 1;

function clip(area: Box, to: Box): Box | null {
  const row = Math.max(area.row, to.row);
  const col = Math.max(area.col, to.col);
  const bottom = Math.min(area.row + area.rows, to.row + to.rows);
  const right = Math.min(area.col + area.cols, to.col + to.cols);
  return bottom > row && right > col ? { row, col, rows: bottom - row, cols: right - col } : null;
}

type AreasProxy = Excel.RangeAreas;

function searchOf(target: FormulaTarget): AreasProxy {
  const range = target.box ? target.sheet.getRangeByIndexes(target.box.row, target.box.col, target.box.rows, target.box.cols) : target.sheet.getUsedRange();
  const found = range.getSpecialCellsOrNullObject('Formulas');
  found.load('areas/items/rowIndex,areas/items/columnIndex,areas/items/rowCount,areas/items/columnCount');
  return found;
}

function areasOf(target: FormulaTarget, found: AreasProxy): FormulaArea[] {
  if (found.isNullObject) return [];
  return found.areas.items.flatMap((a) => {
    const box = { row: a.rowIndex, col: a.columnIndex, rows: a.rowCount, cols: a.columnCount };
    const kept = target.box ? clip(box, target.box) : box;
    return kept ? [{ sheet: target.sheet, box: kept }] : [];
  });
}

/**
 * A box searched in halves until each answer fits: a sheet holding tens of thousands of separate formula
 * areas answers more than Excel on the web sends at once.
 */
async function searchInHalves(context: Excel.RequestContext, sheet: Excel.Worksheet, box: Box, knownTooLarge = false): Promise<FormulaArea[]> {
  if (isOneCell(box)) return [{ sheet, box }];
  if (!knownTooLarge) {
    const target = { sheet, box };
    const found = searchOf(target);
    try {
      await context.sync();
      return areasOf(target, found);
    } catch (error) {
      if (!isPayloadLimitError(error)) throw error;
    }
  }
  const byRows = box.rows > 1;
  const half = byRows ? Math.ceil(box.rows / 2) : Math.ceil(box.cols / 2);
  const first = byRows ? { ...box, rows: half } : { ...box, cols: half };
  const second = byRows ? { ...box, row: box.row + half, rows: box.rows - half } : { ...box, col: box.col + half, cols: box.cols - half };
  return [...(await searchInHalves(context, sheet, first)), ...(await searchInHalves(context, sheet, second))];
}

/**
 * The areas of the targets that may hold formulas: each search's areas clipped to its box, and a one-cell
 * box as it is (reading its formula tells). One sync for every search, more only when an answer is too
 * large for one response.
 */
export async function findFormulaAreas(context: Excel.RequestContext, targets: FormulaTarget[]): Promise<FormulaArea[]> {
  const searched = targets.filter((t) => !t.box || !isOneCell(t.box));
  const single: FormulaArea[] = targets.filter((t) => t.box && isOneCell(t.box)).map((t) => ({ sheet: t.sheet, box: t.box! }));
  if (searched.length === 0) return single;
  const found = searched.map((t) => ({ target: t, areas: searchOf(t) }));
  try {
    await context.sync();
    return [...found.flatMap(({ target, areas }) => areasOf(target, areas)), ...single];
  } catch (error) {
    if (!isPayloadLimitError(error)) throw error;
  }
  // Too many areas for one response: each target alone (a lone one is known too large), in halves.
  const used = searched.map((t) => ({ t, range: t.box ? null : t.sheet.getUsedRangeOrNullObject().load('rowIndex,columnIndex,rowCount,columnCount') }));
  await context.sync();
  const out: FormulaArea[] = [];
  for (const { t, range } of used) {
    if (range?.isNullObject) continue;
    const box = t.box ?? { row: range!.rowIndex, col: range!.columnIndex, rows: range!.rowCount, cols: range!.columnCount };
    // Only after one response was too large: each sheet's search alone, in halves, so each answer fits.
    out.push(...(await searchInHalves(context, t.sheet, box, searched.length === 1)));
  }
  return [...out, ...single];
}

/**
 * Bytes of response a range read costs beyond its formulas (the result's envelope: its action id, the
 * object's identity). Measured on the fake host's wire at about 120 for a one-cell range.
 */
const RANGE_RESPONSE_BYTES = 150;

interface BatchSize {
  /** Response bytes aimed at. */
  budget: number;
  /** Bytes a cell's formula weighs (learnt from the last batch). */
  perCell: number;
  /** At most this many cells (halved after a refusal). */
  maxCells: number;
}

/** The next batch: whole areas while they fit, then the rows of one that fit (at least one row). */
function takeBatch(queue: FormulaArea[], size: BatchSize): FormulaArea[] {
  const batch: FormulaArea[] = [];
  let room = size.budget;
  let cellsLeft = size.maxCells;
  while (queue.length > 0) {
    const area = queue[0];
    const n = cells(area.box);
    const cost = RANGE_RESPONSE_BYTES + n * size.perCell;
    if (cost <= room && n <= cellsLeft) {
      batch.push(queue.shift()!);
      room -= cost;
      cellsLeft -= n;
      continue;
    }
    const rows = Math.floor(Math.min((room - RANGE_RESPONSE_BYTES) / (area.box.cols * size.perCell), cellsLeft / area.box.cols));
    if (rows <= 0 && batch.length > 0) break;
    const take = Math.max(1, Math.min(rows, area.box.rows));
    batch.push({ sheet: area.sheet, box: { ...area.box, rows: take } });
    if (take === area.box.rows) queue.shift();
    else queue[0] = { sheet: area.sheet, box: { ...area.box, row: area.box.row + take, rows: area.box.rows - take } };
    break;
  }
  return batch;
}

/**
 * The formulas of the areas, a batch per sync: the first at most FIRST_BATCH_CELLS cells, the next sized from
 * what the last weighed, and a batch Excel finds too large halved and asked again (one row at the least:
 * a row too large alone is an error that says so).
 */
export async function readFormulas(context: Excel.RequestContext, areas: readonly FormulaArea[], options: ReadOptions = {}): Promise<FormulaRead[]> {
  const what = options.valueTypes ? 'formulas,valueTypes' : 'formulas';
  const queue = [...areas];
  const out: FormulaRead[] = [];
  const size: BatchSize = { budget: options.budgetBytes ?? DEFAULT_BUDGET_BYTES, perCell: GUESS_CELL_BYTES, maxCells: FIRST_BATCH_CELLS };
  while (queue.length > 0) {
    const batch = takeBatch(queue, size);
    const ranges = batch.map((a) => a.sheet.getRangeByIndexes(a.box.row, a.box.col, a.box.rows, a.box.cols).load(what));
    const total = batch.reduce((n, a) => n + cells(a.box), 0);
    try {
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- a batch per sync so each response stays under Excel on the web's 5 MB, not a sync per cell
      await context.sync();
    } catch (error) {
      if (!isPayloadLimitError(error)) throw error;
      if (batch.length === 1 && batch[0].box.rows === 1) {
        throw new Error(`One row of formulas (${batch[0].box.cols} cells) is larger than Excel sends in one response: the formulas cannot be read.`);
      }
      // Put the batch back and ask for half as much.
      queue.unshift(...mergeBack(batch, queue.shift()));
      size.maxCells = Math.max(1, Math.floor(total / 2));
      size.budget = Math.max(RANGE_RESPONSE_BYTES + size.perCell, Math.floor((batch.length * RANGE_RESPONSE_BYTES + total * size.perCell) / 2));
      continue;
    }
    let bytes = 0;
    batch.forEach((a, i) => {
      const read: FormulaRead = { ...a, formulas: ranges[i].formulas, ...(options.valueTypes ? { valueTypes: ranges[i].valueTypes } : {}) };
      bytes += jsonBytes(read.formulas) + (read.valueTypes ? jsonBytes(read.valueTypes) : 0);
      out.push(read);
    });
    // What the batch weighed sizes the next; a halving holds until a batch has fitted.
    size.perCell = Math.max(1, (bytes / total) * 1.1);
    size.maxCells = Number.POSITIVE_INFINITY;
    size.budget = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
  }
  return out;
}

/**
 * A refused batch back at the head of the queue: its last part was cut from the area now first in the
 * queue (`rest`), so the two join again.
 */
function mergeBack(batch: FormulaArea[], rest: FormulaArea | undefined): FormulaArea[] {
  if (!rest) return batch;
  const last = batch[batch.length - 1];
  const joins = last.sheet === rest.sheet && last.box.col === rest.box.col && last.box.cols === rest.box.cols && last.box.row + last.box.rows === rest.box.row;
  if (!joins) return [...batch, rest];
  return [...batch.slice(0, -1), { sheet: last.sheet, box: { ...last.box, rows: last.box.rows + rest.box.rows } }];
}
