/**
 * Whole sheets: the list of tabs, a sheet's used range as values and formulas, and a copy of a sheet as
 * values (Share as values). Requirement sets, from Microsoft's packaged host files
 * (node_modules/@microsoft/office-js/dist/excel-win32-16.01.js) and the typings:
 *  - Worksheet.getUsedRangeOrNullObject: ExcelApi 1.4; Worksheet.names and NamedItem.delete: ExcelApi 1.4;
 *  - Worksheet.copy: ExcelApi 1.7 ("Copies a worksheet and places it at the specified position");
 *  - Range.dataValidation (and DataValidation.clear): ExcelApi 1.8;
 *  - Range.copyFrom with RangeCopyType "Values": ExcelApi 1.9, Excel's Paste Values (learn.microsoft.com/
 *    javascript/api/excel/excel.rangecopytype);
 *  - Worksheet.protection (a protected sheet's copy is protected too, and is lifted for the paste): ExcelApi 1.2.
 * A new workbook is out of reach: Excel.createWorkbook (ExcelApi 1.8) opens one only from a whole .xlsx in
 * Base64, which the add-in cannot build from some sheets (getFileAsync's Compressed file is the whole
 * workbook, FIN formulas included, and Excel on the web offers only Pdf), and no API runs in the workbook
 * it opens; insertWorksheetsFromBase64 (ExcelApi 1.13) goes the other way. So the copy is a sheet of this
 * workbook, and the pane tells the user how to move it out (docs/architecture.md, "Share as values").
 * All of these are within the ExcelApi 1.10 that manifest.xml requires.
 */
import { parseQualified, qualify } from '../../engine/ports/address';
import type { ReadValue, SheetContent, SheetInfo, ValuesCopy, ValuesCopyOptions } from '../../engine/ports/workbook';
import { uniqueSheetName } from '../hostRules';
import { fitText, TEXT_FORMAT } from '../gridPlan';
import { removeAddedSheet } from './grid';
import { stoppedError } from './hostError';
import { PROTECTION_OPTIONS } from './protection';
import { putValues } from './ranges';
import { readChunked, tryUndo, WriteStopped, type Session } from './session';

/** Application.calculationState (ExcelApi 1.9): anything but Done is still calculating. */
export async function isCalculating(session: Session): Promise<boolean> {
  const application = session.ctx.workbook.application.load('calculationState');
  await session.sync();
  return application.calculationState !== Excel.CalculationState.done;
}

export async function listSheets(session: Session): Promise<SheetInfo[]> {
  const sheets = session.ctx.workbook.worksheets.load('items/name,items/visibility');
  await session.sync();
  return sheets.items.map((s) => ({ name: s.name, visible: s.visibility === Excel.SheetVisibility.visible }));
}

/**
 * Range.formulas holds a cell's constant where it has no formula (and a spilled value in the cells an array
 * spills into), so a formula is text starting with '=' that is not the cell's value: text typed as text
 * ('=' included) reads the same in both.
 */
function formulaOf(formula: unknown, value: ReadValue): string | null {
  return typeof formula === 'string' && formula.startsWith('=') && formula !== value ? formula : null;
}

export async function readSheet(session: Session, name: string): Promise<SheetContent> {
  const used = session.sheet(name).getUsedRangeOrNullObject(true).load('address');
  await session.sync();
  if (used.isNullObject) return { sheet: name, address: null, values: [], formulas: [] };
  const { sheet, box } = parseQualified(used.address);
  const chunks = await readChunked(session, box.rows, box.cols, (_ctx, start, count) => {
    const range = session.sheet(sheet).getRangeByIndexes(box.row + start, box.col, count, box.cols).load('values,formulas');
    return () => {
      const values = range.values as ReadValue[][];
      return { values, formulas: values.map((row, r) => row.map((v, c) => formulaOf(range.formulas[r]?.[c], v))) };
    };
  });
  session.stats.rows = box.rows;
  return { sheet, address: qualify(sheet, box), values: chunks.flatMap((c) => c.values), formulas: chunks.flatMap((c) => c.formulas) };
}

/**
 * Three syncs: the names taken and the original's used range; the copy, pasted over with the original's
 * values (the original's, not the copy's: the copy's custom functions would be calculating again) and its
 * drop-down lists cleared, with its names loaded (Excel gives a copied sheet its own copy of each workbook
 * name that refers to it); then the copy's own names deleted and the note inserted above. Only names scoped
 * to the copy go: Excel on the web lists every workbook name in Worksheet.names too (OfficeDev/office-js#1011),
 * and deleting those would take FIN_PERIOD and the blocks' names from the whole workbook. A copy Excel stops
 * half way is removed (Worksheet.names throws while the user is in another workbook, #6365).
 */
export async function copySheetAsValues(session: Session, name: string, options: ValuesCopyOptions): Promise<ValuesCopy> {
  const { ctx } = session;
  const sheets = ctx.workbook.worksheets.load('items/name');
  const source = session.sheet(name);
  const used = source.getUsedRangeOrNullObject(true).load('address');
  const sourceProtection = source.protection.load('protected');
  await session.sync();
  const copyName = uniqueSheetName(options.name, sheets.items.map((s) => s.name));
  const copy = source.copy(Excel.WorksheetPositionType.after, source);
  copy.name = copyName;
  // A protected sheet's copy is protected too (Excel copies it): lifted for the paste and the note, put back last.
  const isProtected = sourceProtection.protected;
  if (isProtected) copy.protection.unprotect();
  if (!used.isNullObject) {
    const box = parseQualified(used.address).box;
    const target = copy.getRangeByIndexes(box.row, box.col, box.rows, box.cols);
    target.copyFrom(used, Excel.RangeCopyType.values);
    target.dataValidation.clear();
  }
  const names = copy.names.load('items/scope');
  let after: Excel.Range;
  try {
    await session.sync();
    for (const item of names.items) if (item.scope === Excel.NamedItemScope.worksheet) item.delete();
    if (options.note.length > 0) {
      copy.getRangeByIndexes(0, 0, options.note.length + 1, 1).getEntireRow().insert(Excel.InsertShiftDirection.down);
      copy.getRangeByIndexes(0, 0, options.note.length, 1).numberFormat = options.note.map(() => [TEXT_FORMAT]);
      // Through the one text writer, as every text cell: it names companies, and a name is never a formula.
      putValues(session, copy, 0, 0, options.note.map((line) => [fitText(line)]));
    }
    if (isProtected) copy.protection.protect(PROTECTION_OPTIONS);
    after = copy.getUsedRangeOrNullObject(true).load('address');
    await session.sync();
  } catch (error) {
    const removed = await tryUndo(() => removeAddedSheet(session, copyName));
    const what = removed ? 'Share as values stopped before the copy was finished, and the copy was removed.' : `Share as values stopped before the copy was finished: delete the sheet ${copyName}.`;
    throw stoppedError(new WriteStopped(0, error), what);
  }
  session.stats.chunks = 1;
  return { sheet: copyName, address: after.isNullObject ? qualify(copyName, { row: 0, col: 0, rows: 1, cols: 1 }) : after.address };
}
