/**
 * Workbook-scoped defined names for the blocks the pane writes (ExcelApi 1.4): Excel moves a name with its
 * cells, so a block is found again after rows are inserted above it or its sheet is renamed. Microsoft
 * documents nothing for a method called on a null object, so every name is looked up, synced and checked
 * before anything is done to it.
 */
import { parseQualified } from '../../engine/ports/address';
import type { BlockLocation } from '../../engine/ports/workbook';
import type { Session } from './session';

/** Queues the lookup of a name that may not exist; read `isNullObject` after the next sync. */
export function lookUpName(ctx: Excel.RequestContext, name: string): Excel.NamedItem {
  return ctx.workbook.names.getItemOrNullObject(name);
}

/**
 * Queues naming `range`: a name already defined (`existing`, synced) is deleted and added again, which
 * ExcelApi 1.4 can do (re-pointing it through NamedItem.formula needs 1.7). Hidden unless `visible`: see
 * WriteGridOptions.name and nameVisible.
 */
export function queueName(ctx: Excel.RequestContext, name: string, range: Excel.Range, existing: Excel.NamedItem, visible = false): void {
  if (!existing.isNullObject) existing.delete();
  ctx.workbook.names.add(name, range).visible = visible;
}

/**
 * Where a named block is now: one sync to find the name, and a second for its range only when it refers to
 * one (getRangeOrNullObject is not called on a name that may be null).
 */
export async function locateBlock(session: Session, name: string): Promise<BlockLocation> {
  const item = lookUpName(session.ctx, name).load('type');
  await session.sync();
  if (item.isNullObject) return { state: 'missing' };
  // A reference Excel turned into #REF! (its rows or its sheet deleted) makes the name an Error, not a Range.
  if (item.type !== Excel.NamedItemType.range) return { state: 'broken' };
  const range = item.getRangeOrNullObject().load('address,rowCount,columnCount');
  await session.sync();
  if (range.isNullObject) return { state: 'broken' };
  return { state: 'found', sheet: parseQualified(range.address).sheet, address: range.address, rowCount: range.rowCount, columnCount: range.columnCount };
}

/** Deletes a name if there is one: a second round trip only when there is something to delete. */
export async function deleteName(session: Session, name: string): Promise<void> {
  const item = lookUpName(session.ctx, name);
  await session.sync();
  if (item.isNullObject) return;
  item.delete();
  await session.sync();
}
