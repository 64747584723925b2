/** Rendered blocks (statements, reports) written to and read from a sheet. */
import { MAX_COLS, MAX_ROWS, parseCell, parseQualified, qualify, type Box } from '../../engine/ports/address';
import { checkDefinedName, uniqueSheetName } from '../hostRules';
import { GatewayError, type GridWrite, type RangeRead, type WriteGridOptions, type WriteTarget, type WrittenRange } from '../../engine/ports/workbook';
import { planGrid, type Run } from '../gridPlan';
import { jsonBytes, OP_OVERHEAD_BYTES } from '../payload';
import { lookUpName, queueName } from './names';
import { putValues, queueFormats, typedTextBytes } from './ranges';
import { stoppedError } from './hostError';
import { readChunked, runChunked, tryUndo, WriteStopped, type Session } from './session';

/** Resolves the sheet a write goes to; a new sheet costs one sync to learn the names already taken. */
export async function resolveTarget(
  session: Session,
  target: WriteTarget,
): Promise<{ sheet: string; row: number; col: number; isNew: boolean }> {
  if (target.kind === 'anchor') {
    const cell = target.cell.includes('!') ? parseQualified(target.cell).box : { ...parseCell(target.cell.split(':')[0]) };
    return { sheet: target.sheet, row: cell.row, col: cell.col, isNew: false };
  }
  const sheets = session.ctx.workbook.worksheets.load('items/name');
  await session.sync();
  return { sheet: uniqueSheetName(target.name, sheets.items.map((s) => s.name)), row: 0, col: 0, isNew: true };
}

function clip(run: Run, start: number, count: number): Run | undefined {
  const s = Math.max(run.start, start);
  const e = Math.min(run.start + run.count, start + count);
  return e > s ? { start: s, count: e - s } : undefined;
}

export async function writeGrid(session: Session, target: WriteTarget, grid: GridWrite, options: WriteGridOptions = {}): Promise<WrittenRange> {
  const plan = planGrid(grid);
  if (options.name !== undefined) checkDefinedName(options.name);
  session.stats.rows = plan.rows;
  // Whether the name exists, and where it points, is learnt before the write (with the sheet names for a new
  // sheet), so the last batch can add it or point it here without calling anything on a null object.
  const existingName = options.name === undefined ? undefined : lookUpName(session.ctx, options.name).load('formula,visible');
  const at = await resolveTarget(session, target);
  if (existingName && target.kind === 'anchor') await session.sync();
  if (at.row + plan.rows > MAX_ROWS || at.col + plan.cols > MAX_COLS) {
    throw new GatewayError('InvalidInput', `A ${plan.rows} x ${plan.cols} block does not fit on the sheet at row ${at.row + 1}`);
  }
  const replace = options.replace ? parseQualified(options.replace.address) : undefined;
  if (replace) await ungroupReplaced(session, replace, options.replace!);

  const box = { row: at.row, col: at.col, rows: plan.rows, cols: plan.cols };
  const write = runChunked(session, {
    total: plan.rows,
    rowBytes: plan.values.map((v, i) => jsonBytes(v) + jsonBytes(plan.formats[i]) + OP_OVERHEAD_BYTES + typedTextBytes(v)),
    fixedBytes: OP_OVERHEAD_BYTES * (plan.cols + plan.outlineRuns.length + 4 + (existingName ? 3 : 0)),
    setup: (ctx) => {
      if (at.isNew) ctx.workbook.worksheets.add(at.sheet);
      if (replace) session.sheet(replace.sheet).getRangeByIndexes(replace.box.row, replace.box.col, replace.box.rows, replace.box.cols).clear('All');
      const sheet = session.sheet(at.sheet);
      plan.columnWidths.forEach((w, c) => {
        if (w !== null) sheet.getRangeByIndexes(at.row, at.col + c, 1, 1).format.columnWidth = w;
      });
    },
    chunk: (_ctx, start, count) => {
      const sheet = session.sheet(at.sheet);
      queueFormats(sheet, at.row, at.col, plan.formats, start, count, plan.cols);
      putValues(session, sheet, at.row + start, at.col, plan.values.slice(start, start + count));
      const block = sheet.getRangeByIndexes(at.row + start, at.col, count, plan.cols);
      // Explicit false and 0 first: a block written over old content must not inherit its bold or indent.
      block.format.font.bold = false;
      for (const run of plan.boldRuns) {
        const r = clip(run, start, count);
        if (r) sheet.getRangeByIndexes(at.row + r.start, at.col, r.count, plan.cols).format.font.bold = true;
      }
      sheet.getRangeByIndexes(at.row + start, at.col + plan.indentColumn, count, 1).format.indentLevel = 0;
      for (const run of plan.indentRuns) {
        const r = clip(run, start, count);
        if (r) sheet.getRangeByIndexes(at.row + r.start, at.col + plan.indentColumn, r.count, 1).format.indentLevel = run.level;
      }
    },
    finalize: () => {
      const sheet = session.sheet(at.sheet);
      // Outer levels first: grouping rows that are already grouped nests them one level deeper.
      for (const run of plan.outlineRuns) sheet.getRangeByIndexes(at.row + run.start, at.col, run.count, 1).group('ByRows');
      if (at.isNew && (target.kind !== 'newSheet' || target.activate !== false)) sheet.activate();
      // Last: the name moves only once every cell of the block is in.
      if (existingName) queueName(session.ctx, options.name!, at.sheet, box, sheet.getRangeByIndexes(at.row, at.col, plan.rows, plan.cols), existingName, options.nameVisible === true);
    },
  });
  try {
    await write;
  } catch (error) {
    if (!(error instanceof WriteStopped)) throw error;
    // Never a half-written block: a new sheet goes, cells written are cleared (and, on a refresh, what is
    // left of the old block too: it was being replaced).
    const where = qualify(at.sheet, box);
    const undone = await tryUndo(async () => {
      if (at.isNew) return removeAddedSheet(session, at.sheet);
      if (replace) session.sheet(replace.sheet).getRangeByIndexes(replace.box.row, replace.box.col, replace.box.rows, replace.box.cols).clear('All');
      session.sheet(at.sheet).getRangeByIndexes(box.row, box.col, box.rows, box.cols).clear('All');
      await session.sync();
    });
    if (replace) {
      throw stoppedError(error, `Excel stopped the refresh of ${where} part way${undone ? ' and the block was cleared' : ''}: rewrite it with Refresh.`);
    }
    throw stoppedError(error, `Excel stopped writing ${where} part way${undone ? '; nothing of it was kept' : ': clear what was written and try again'}.`);
  }
  const rowGroups = plan.outlineRuns.map(({ start, count }) => ({ start, count }));
  return { sheet: at.sheet, address: qualify(at.sheet, box), rowCount: plan.rows, columnCount: plan.cols, ...(rowGroups.length > 0 ? { rowGroups } : {}) };
}

/**
 * Undoes the row groups of the block being replaced, last made first, in a request of their own before the
 * write. Range.ungroup takes the outermost level off every row it covers, whoever grouped it (Microsoft, "Group
 * ranges for an outline"), so only the rows the block grouped are ungrouped: ungrouping the whole block as
 * often as its deepest level stripped the user's own group around it from the rows the block grouped less
 * deeply, and failed where nothing was left to ungroup. A binding from before the groups were recorded gives
 * only its depth: then the whole block, that many times. Excel refusing an ungroup (the user took the outline
 * off by hand) is no reason not to rewrite the block: the write goes on.
 */
async function ungroupReplaced(session: Session, old: { sheet: string; box: Box }, replace: NonNullable<WriteGridOptions['replace']>): Promise<void> {
  const groups = replace.rowGroups ?? Array.from({ length: replace.outlineDepth ?? 0 }, () => ({ start: 0, count: old.box.rows }));
  const inside = groups.filter((g) => g.start >= 0 && g.count > 0 && g.start + g.count <= old.box.rows);
  if (inside.length === 0) return;
  const sheet = session.sheet(old.sheet);
  for (const g of [...inside].reverse()) sheet.getRangeByIndexes(old.box.row + g.start, old.box.col, g.count, 1).ungroup('ByRows');
  try {
    await session.sync();
  } catch (error) {
    const where = (error as { debugInfo?: { errorLocation?: string } }).debugInfo?.errorLocation ?? '';
    if (!/\.ungroup$/i.test(where)) throw error;
  }
}

/** Deletes a sheet this write added, if it got that far (the add is the first thing its first request does). */
export async function removeAddedSheet(session: Session, name: string): Promise<void> {
  const sheet = session.ctx.workbook.worksheets.getItemOrNullObject(name);
  await session.sync();
  // eslint-disable-next-line office-addins/call-sync-before-read -- session.sync() is context.sync(), counted; the rule knows a sync only by a variable named context
  if (sheet.isNullObject) return;
  sheet.delete();
  await session.sync();
}

/** Excel's used range of the range, values only (formulas count; formats alone do not): one small sync. */
export async function findContent(session: Session, address: string): Promise<string | null> {
  const { sheet, box } = parseQualified(address);
  const used = session.sheet(sheet).getRangeByIndexes(box.row, box.col, box.rows, box.cols).getUsedRangeOrNullObject(true).load('address');
  await session.sync();
  return used.isNullObject ? null : used.address;
}

export async function readRange(session: Session, address: string): Promise<RangeRead> {
  const { sheet, box } = parseQualified(address);
  const chunks = await readChunked(session, box.rows, box.cols, (_ctx, start, count) => {
    const range = session.sheet(sheet).getRangeByIndexes(box.row + start, box.col, count, box.cols).load('values, numberFormat');
    return () => ({ values: range.values as RangeRead['values'], numberFormats: range.numberFormat as string[][] });
  });
  session.stats.rows = box.rows;
  return {
    address: qualify(sheet, box),
    values: chunks.flatMap((c) => c.values),
    numberFormats: chunks.flatMap((c) => c.numberFormats),
  };
}

/**
 * One formula in one cell: two syncs, because a text-formatted cell would keep the formula as text, and
 * only a read tells whether it is one (the user's own number format, say a currency, is left alone).
 */
export async function writeFormula(session: Session, address: string, formula: string): Promise<void> {
  const { sheet, box } = parseQualified(address);
  const cell = session.sheet(sheet).getRangeByIndexes(box.row, box.col, 1, 1).load('numberFormat');
  await session.sync();
  if (cell.numberFormat?.[0]?.[0] === '@') cell.numberFormat = [['General']];
  cell.formulas = [[formula]];
  session.stats.rows = 1;
  session.stats.chunks = 1;
  session.stats.rowsPerChunk = 1;
  await session.sync();
}

/**
 * A block of formulas (null: a cell left as it is) in two syncs whatever its size: one read of the block's
 * number formats (a text-formatted cell would keep a formula as text), then the formats fixed and the
 * formulas set together. Office.js leaves a cell whose entry is null unchanged, for formulas and formats alike.
 */
export async function writeFormulas(session: Session, address: string, formulas: readonly (readonly (string | null)[])[]): Promise<void> {
  const { sheet, box } = parseQualified(address);
  const rows = formulas.length;
  const cols = formulas[0].length;
  const range = session.sheet(sheet).getRangeByIndexes(box.row, box.col, rows, cols).load('numberFormat');
  await session.sync();
  const formats = range.numberFormat as string[][];
  const general = formulas.map((row, r) => row.map((f, c) => (f !== null && formats?.[r]?.[c] === '@' ? 'General' : null)));
  if (general.some((row) => row.some((f) => f !== null))) range.numberFormat = general as string[][];
  range.formulas = formulas as string[][];
  session.stats.rows = rows;
  session.stats.chunks = 1;
  session.stats.rowsPerChunk = rows;
  await session.sync();
}
