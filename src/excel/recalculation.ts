/**
 * Refresh all's recalculation in Excel: this workbook's FIN cells, and nothing else. A full calculation
 * (application.calculate) would recalculate every open workbook, including other add-ins' metered
 * functions. Where ExcelApi 1.9 exists, the formula cells of each sheet (Range.getSpecialCells) are read,
 * those that call FIN are picked on this side and recalculated (RangeAreas.calculate), and their FIN calls
 * are counted; Application.calculationState then says when Excel is done. Elsewhere each sheet of this
 * workbook is recalculated (Worksheet.calculate, ExcelApi 1.6), and Refresh all falls back to a quiet period.
 * With errorsOnly (after connecting: the cells that showed "Not connected"), only the FIN cells whose value
 * is an error are picked; the fallback cannot pick and recalculates every sheet.
 */
import type { Recalculation, RecalculateOptions } from '../engine/fin';
import { finEvaluations } from '../engine/fin';
import { boxA1, type Box } from '../engine/ports/address';
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

/** Recalculates the FIN cells of this workbook (or those showing an error) and counts their FIN calls (ExcelApi 1.9). */
async function recalculateFinCellsOnly(run: ExcelRunner, errorsOnly: boolean): Promise<number> {
  return run(RUN_OPTIONS, async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load('items/name');
    await context.sync();
    const found = sheets.items.map((sheet) => {
      const formulaCells = sheet.getRange().getSpecialCellsOrNullObject('Formulas');
      formulaCells.load('areas/items/rowIndex,areas/items/columnIndex,areas/items/rowCount,areas/items/columnCount');
      return { sheet, formulaCells };
    });
    await context.sync();

    // The formulas, a slice at a time, a few slices per sync.
    const read: { sheet: Excel.Worksheet; box: Box; range: Excel.Range }[] = [];
    let pending = 0;
    for (const { sheet, formulaCells } of found) {
      if (formulaCells.isNullObject) continue; // no formula on the sheet
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
  if (!supports('ExcelApi', '1.9')) {
    await recalculateSheets(run);
    return {};
  }
  const evaluations = await recalculateFinCellsOnly(run, options.errorsOnly === true);
  return { evaluations, calculationDone: calculationDone(run) };
}
