/**
 * Workbook-scoped defined names for the blocks the pane writes (ExcelApi 1.4): Excel moves a name with its
 * cells, so a block is found again after rows are inserted above it or its sheet is renamed. Microsoft
 * documents nothing for a method called on a null object, so every name is looked up, synced and checked
 * before anything is done to it. While another Excel window is in front NamedItem.type reads null
 * (OfficeDev/office-js#5504) and deleting a name has crashed Excel (#2983): a name is never deleted to be
 * added again, and a null type is never read as a broken name.
 */
import { boxA1, parseQualified, qualify, type Box } from '../../engine/ports/address';
import { GatewayError, type BlockLocation } from '../../engine/ports/workbook';
import type { Session } from './session';

/** Queues the lookup of a name that may not exist; read `isNullObject` after the next sync. */
export function lookUpName(ctx: Excel.RequestContext, name: string): Excel.NamedItem {
  return ctx.workbook.names.getItemOrNullObject(name);
}

function cannotTell(name: string): GatewayError {
  return new GatewayError('Inactive', `Excel would not say what the name ${name} refers to while another workbook or Excel window was in front: come back to this workbook and try again.`, 'NamedItemTypeNull');
}

/** Whether a name's formula ("='P&L'!$B$2:$D$9") refers to exactly these cells. */
function refersTo(formula: string, sheet: string, box: Box): boolean {
  try {
    const at = parseQualified(formula.replace(/^=/, ''));
    return at.sheet.toLowerCase() === sheet.toLowerCase() && at.box.row === box.row && at.box.col === box.col && at.box.rows === box.rows && at.box.cols === box.cols;
  } catch {
    return false;
  }
}

/**
 * Queues naming the cells `box` of `sheet` (`range`), `existing` having been looked up with its formula and
 * visibility loaded and synced: a new name is added; one that already refers to these cells is left as it is;
 * one that refers elsewhere is pointed here through NamedItem.formula (ExcelApi 1.7), so formulas that use it
 * keep it. Hidden unless `visible`: see WriteGridOptions.name and nameVisible.
 */
export function queueName(ctx: Excel.RequestContext, name: string, sheet: string, box: Box, range: Excel.Range, existing: Excel.NamedItem, visible = false): void {
  if (existing.isNullObject) {
    ctx.workbook.names.add(name, range).visible = visible;
    return;
  }
  if (!refersTo(existing.formula, sheet, box)) existing.formula = `=${qualify(sheet, box, true)}`;
  if (existing.visible !== visible) existing.visible = visible;
}

/**
 * Where a named block is now: one sync to find the name, and a second for its range only when it refers to
 * one (a name Excel turned into #REF!, its rows or its sheet deleted, is an Error, not a Range). A null type
 * (another window in front) asks the range too: since #263 was fixed getRangeOrNullObject answers a null
 * object for a #REF! name, but then nothing tells a deleted block from Excel's silence, so the caller is
 * told to come back instead of hearing "broken".
 */
export async function locateBlock(session: Session, name: string): Promise<BlockLocation> {
  const item = lookUpName(session.ctx, name).load('type');
  await session.sync();
  if (item.isNullObject) return { state: 'missing' };
  const unknown = item.type === null;
  if (item.type !== Excel.NamedItemType.range && !unknown) return { state: 'broken' };
  const range = item.getRangeOrNullObject().load('address,rowCount,columnCount');
  await session.sync();
  if (range.isNullObject) {
    if (unknown) throw cannotTell(name);
    return { state: 'broken' };
  }
  return { state: 'found', sheet: parseQualified(range.address).sheet, address: range.address, rowCount: range.rowCount, columnCount: range.columnCount };
}

/**
 * Deletes a name if there is one: a second round trip only when there is something to delete, and none while
 * another window is in front (its type reads null then), where deleting a name has crashed Excel (#2983).
 */
export async function deleteName(session: Session, name: string): Promise<void> {
  const item = lookUpName(session.ctx, name).load('type');
  await session.sync();
  if (item.isNullObject) return;
  if (item.type === null) throw cannotTell(name);
  item.delete();
  await session.sync();
}

/**
 * Names cells the user typed (WorkbookGateway.nameRange): the name and the sheet are looked up in one sync,
 * the name added or pointed at the cells in a second.
 */
export async function nameRange(session: Session, address: string, name: string): Promise<void> {
  const { sheet, box } = parseQualified(address);
  const existing = lookUpName(session.ctx, name).load('formula,visible');
  const range = session.ctx.workbook.worksheets.getItem(sheet).getRange(boxA1(box));
  await session.sync();
  queueName(session.ctx, name, sheet, box, range, existing, true);
  await session.sync();
}
