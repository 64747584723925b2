/**
 * Refresh all's recalculation in Excel: this workbook's FIN cells, and nothing else. A full calculation
 * (application.calculate) would recalculate every open workbook, including other add-ins' metered
 * functions. Where ExcelApi 1.9 exists, the formula cells of each sheet (Range.getSpecialCells) are read,
 * those that call FIN are picked on this side and recalculated (RangeAreas.calculate), and their FIN calls
 * are counted; Application.calculationState then says when Excel is done. Elsewhere each sheet of this
 * workbook is recalculated (Worksheet.calculate, ExcelApi 1.6), and Refresh all falls back to a quiet period.
 * With errorsOnly (after connecting: the cells that showed "Not connected"), only the FIN cells whose value
 * is an error are picked; the fallback cannot pick and recalculates every sheet. A refresh of the selection or
 * the sheet finds its FIN cells the same way (finCellsIn) and recalculates only those (`cells`); it needs
 * ExcelApi 1.9 and says so where it is missing.
 */
import type { FinCell, Recalculation, RecalculateOptions } from '../engine/fin';
import { finEvaluations } from '../engine/fin';
import { namesReportingPeriod } from '../engine/reporting/period';
import { boxA1, MAX_COLS, MAX_ROWS, type Box } from '../engine/ports/address';
import type { ExcelRunner } from './officeGateway';

/** Formula cells read per sync: a request stays well under Excel on the web's 5 MB. */
export const FORMULA_CELLS_PER_SYNC = 20_000;
/** Characters of one address list given to Worksheet.getRanges. */
export const ADDRESS_CHARS = 2_000;

export interface RecalculationOptions extends RecalculateOptions {
  run?: ExcelRunner;
  supports?: (set: string, version: string) => boolean;
}

const defaultRun: ExcelRunner = (options, batch) => Excel.run(options, batch);

/** Like every write of the gateway: wait for the user to finish editing a cell rather than fail. */
const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };

function officeSupports(set: string, version: string): boolean {
  return Office.context.requirements.isSetSupported(set, version);
}

/**
 * FIN cells as boxes: each column's consecutive FIN cells in an area make one box. With `valueTypes`, only
 * the cells whose value is an error.
 */
function finBoxes(area: Box, formulas: unknown[][], valueTypes?: unknown[][]): { boxes: Box[]; evaluations: number } {
  const boxes: Box[] = [];
  let evaluations = 0;
  for (let c = 0; c < area.cols; c++) {
    let run: Box | null = null;
    for (let r = 0; r < area.rows; r++) {
      const formula = formulas[r]?.[c];
      const picked = typeof formula === 'string' && (!valueTypes || valueTypes[r]?.[c] === 'Error');
      const calls = picked ? finEvaluations(formula) : 0;
      evaluations += calls;
      if (calls > 0 && run) run.rows += 1;
      else if (calls > 0) boxes.push((run = { row: area.row + r, col: area.col + c, rows: 1, cols: 1 }));
      else run = null;
    }
  }
  return { boxes, evaluations };
}

/** Address lists for Worksheet.getRanges, each at most ADDRESS_CHARS long. */
function addressLists(boxes: Box[]): string[] {
  const lists: string[] = [];
  let current = '';
  for (const box of boxes) {
    const address = boxA1(box);
    if (current && current.length + 1 + address.length > ADDRESS_CHARS) {
      lists.push(current);
      current = '';
    }
    current = current ? `${current},${address}` : address;
  }
  if (current) lists.push(current);
  return lists;
}

/** Slices of an area of at most FORMULA_CELLS_PER_SYNC cells (whole rows). */
function slices(area: Box): Box[] {
  const rowsPerSlice = Math.max(1, Math.floor(FORMULA_CELLS_PER_SYNC / area.cols));
  const out: Box[] = [];
  for (let r = 0; r < area.rows; r += rowsPerSlice) out.push({ row: area.row + r, col: area.col, rows: Math.min(rowsPerSlice, area.rows - r), cols: area.cols });
  return out;
}

type FormulaSlice = { sheet: Excel.Worksheet; box: Box; range: Excel.Range };

/**
 * The formulas of the given ranges (each a whole sheet, or a box of one), read from their formula cells
 * (Range.getSpecialCells, ExcelApi 1.9) a slice at a time, a few slices per sync.
 */
async function readFormulaSlices(context: Excel.RequestContext, targets: { sheet: Excel.Worksheet; range: Excel.Range }[], errorsOnly: boolean): Promise<FormulaSlice[]> {
  const found = targets.map(({ sheet, range }) => {
    const formulaCells = range.getSpecialCellsOrNullObject('Formulas');
    formulaCells.load('areas/items/rowIndex,areas/items/columnIndex,areas/items/rowCount,areas/items/columnCount');
    return { sheet, formulaCells };
  });
  await context.sync();

  const read: FormulaSlice[] = [];
  let pending = 0;
  for (const { sheet, formulaCells } of found) {
    if (formulaCells.isNullObject) continue; // no formula there
    for (const area of formulaCells.areas.items) {
      for (const box of slices({ row: area.rowIndex, col: area.columnIndex, rows: area.rowCount, cols: area.columnCount })) {
        const range = sheet.getRangeByIndexes(box.row, box.col, box.rows, box.cols);
        if (errorsOnly) range.load('formulas,valueTypes');
        else range.load('formulas');
        read.push({ sheet, box, range });
        pending += box.rows * box.cols;
        if (pending >= FORMULA_CELLS_PER_SYNC) {
          // eslint-disable-next-line office-addins/no-context-sync-in-loop -- the formulas are read in slices so each request stays under Excel on the web's 5 MB; one sync per 20,000 cells, not per cell
          await context.sync();
          pending = 0;
        }
      }
    }
  }
  if (pending > 0) await context.sync();
  return read;
}

/** Recalculates the FIN cells of this workbook (or those showing an error) and counts their FIN calls (ExcelApi 1.9). */
async function recalculateFinCellsOnly(run: ExcelRunner, errorsOnly: boolean): Promise<number> {
  return run(RUN_OPTIONS, async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load('items/name');
    await context.sync();
    const read = await readFormulaSlices(
      context,
      sheets.items.map((sheet) => ({ sheet, range: sheet.getRange() })),
      errorsOnly,
    );

    const perSheet = new Map<Excel.Worksheet, Box[]>();
    let evaluations = 0;
    for (const { sheet, box, range } of read) {
      const fin = finBoxes(box, range.formulas, errorsOnly ? range.valueTypes : undefined);
      evaluations += fin.evaluations;
      if (fin.boxes.length > 0) perSheet.set(sheet, [...(perSheet.get(sheet) ?? []), ...fin.boxes]);
    }
    for (const [sheet, boxes] of perSheet) for (const addresses of addressLists(boxes)) sheet.getRanges(addresses).calculate();
    if (perSheet.size > 0) await context.sync();
    return evaluations;
  });
}

/** FIN cells as 1x1 boxes joined into each column's runs. */
function cellBoxes(cells: readonly FinCell[]): Box[] {
  const sorted = [...cells].sort((a, b) => a.col - b.col || a.row - b.row);
  const boxes: Box[] = [];
  for (const c of sorted) {
    const last = boxes[boxes.length - 1];
    if (last && last.col === c.col && last.row + last.rows === c.row) last.rows += 1;
    else boxes.push({ row: c.row, col: c.col, rows: 1, cols: 1 });
  }
  return boxes;
}

/** Recalculates these FIN cells only (RangeAreas.calculate, ExcelApi 1.9): a refresh of the selection or the sheet. */
async function recalculateCells(run: ExcelRunner, cells: readonly FinCell[]): Promise<void> {
  const bySheet = new Map<string, FinCell[]>();
  for (const c of cells) bySheet.set(c.sheet, [...(bySheet.get(c.sheet) ?? []), c]);
  await run(RUN_OPTIONS, async (context) => {
    for (const [name, sheetCells] of bySheet) {
      const sheet = context.workbook.worksheets.getItem(name);
      for (const addresses of addressLists(cellBoxes(sheetCells))) sheet.getRanges(addresses).calculate();
    }
    await context.sync();
  });
}

/**
 * RuntimeHost.finCellsIn in Excel: the FIN cells within a box of a sheet (the whole sheet for a box that
 * covers it), each with the FIN calls its formula makes. Needs ExcelApi 1.9 (Range.getSpecialCells).
 */
export async function finCellsIn(sheetName: string, box: Box, options: RecalculationOptions = {}): Promise<FinCell[]> {
  const run = options.run ?? defaultRun;
  const supports = options.supports ?? officeSupports;
  if (!supports('ExcelApi', '1.9')) {
    throw new Error('This version of Excel cannot pick out the formulas of a sheet or a selection (it needs ExcelApi 1.9): refresh the whole workbook instead.');
  }
  return run(RUN_OPTIONS, async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const whole = box.row === 0 && box.col === 0 && box.rows >= MAX_ROWS && box.cols >= MAX_COLS;
    const range = whole ? sheet.getRange() : sheet.getRangeByIndexes(box.row, box.col, box.rows, box.cols);
    const read = await readFormulaSlices(context, [{ sheet, range }], false);
    const cells: FinCell[] = [];
    for (const { box: slice, range: r } of read) {
      r.formulas.forEach((row, i) =>
        row.forEach((formula, j) => {
          const calls = typeof formula === 'string' ? finEvaluations(formula) : 0;
          if (calls > 0) cells.push({ sheet: sheetName, row: slice.row + i, col: slice.col + j, calls, readsPeriod: namesReportingPeriod(formula as string) });
        }),
      );
    }
    return cells;
  });
}

/** Recalculates every sheet of this workbook (ExcelApi 1.6), where FIN cells cannot be picked out. */
async function recalculateSheets(run: ExcelRunner): Promise<void> {
  await run(RUN_OPTIONS, async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load('items/name');
    await context.sync();
    // markAllDirty: custom functions are never dirty, so only this reaches them.
    for (const sheet of sheets.items) sheet.calculate(true);
    await context.sync();
  });
}

/** True once Excel has finished calculating (ExcelApi 1.9). */
function calculationDone(run: ExcelRunner): () => Promise<boolean> {
  return () =>
    run(RUN_OPTIONS, async (context) => {
      const application = context.workbook.application;
      application.load('calculationState');
      await context.sync();
      return application.calculationState === 'Done';
    });
}

/** RuntimeHost.recalculate in Excel (see the top of the file). */
export async function recalculateFinCells(options: RecalculationOptions = {}): Promise<Recalculation> {
  const run = options.run ?? defaultRun;
  const supports = options.supports ?? officeSupports;
  if (options.cells) {
    // Only finCellsIn gives cells, and only where ExcelApi 1.9 is.
    await recalculateCells(run, options.cells);
    return { evaluations: options.cells.reduce((n, c) => n + c.calls, 0), calculationDone: calculationDone(run) };
  }
  if (!supports('ExcelApi', '1.9')) {
    await recalculateSheets(run);
    return {};
  }
  const evaluations = await recalculateFinCellsOnly(run, options.errorsOnly === true);
  return { evaluations, calculationDone: calculationDone(run) };
}
