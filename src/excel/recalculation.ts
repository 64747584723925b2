/**
 * Refresh all's recalculation in Excel: this workbook's FIN cells, and nothing else. A full calculation
 * (application.calculate) would recalculate every open workbook, including other add-ins' metered
 * functions. The formula cells of each sheet's used range are found (Range.getSpecialCells, ExcelApi 1.9: the
 * manifest requires 1.10) and read (formulaCells.ts: in requests that fit), those that call FIN are picked on
 * this side and recalculated (RangeAreas.calculate), and their FIN calls are counted;
 * Application.calculationState then says when Excel is done. With errorsOnly (after connecting: the cells
 * that showed "Not connected"), only the FIN cells whose value is an error are picked. A refresh of the
 * selection or the sheet finds its FIN cells the same way (finCellsIn) and recalculates only those (`cells`).
 *
 * RangeAreas.calculate recalculates the cells and their direct dependents only (OfficeDev/office-js#5063,
 * #6555, #6885): a total of subtotals of FIN cells would keep its old figure. So once the FIN cells have
 * settled, their dependents at every level are recalculated too (`dependents`): listed by
 * Range.getDependents (ExcelApi 1.15) of each column's FIN cells and recalculated with RangeAreas.calculate,
 * which reaches a chain in any order (each cell's direct dependents are calculated after it). Where dependents cannot be listed
 * (ExcelApi 1.10 to 1.14), every sheet of this workbook is recalculated then (Worksheet.calculate): the FIN
 * cells among them are answered from the cache (engine/fin/reads.ts), but another add-in's functions in this
 * workbook recalculate too.
 */
import type { FinCell, Recalculation, RecalculateOptions } from '../engine/fin';
import { finEvaluations, finGuard, type FinGuard } from '../engine/fin';
import { namesReportingPeriod } from '../engine/reporting/period';
import { boxA1, MAX_COLS, MAX_ROWS, parseQualified, type Box } from '../engine/ports/address';
import { findFormulaAreas, readFormulas, type FormulaRead } from './formulaCells';
import { isPayloadLimitError } from './payload';
import type { ExcelRunner } from './officeGateway';

/** Characters of one address list given to Worksheet.getRanges. */
export const ADDRESS_CHARS = 2_000;

export interface RecalculationOptions extends RecalculateOptions {
  run?: ExcelRunner;
  supports?: (set: string, version: string) => boolean;
  /** Response bytes aimed at per sync when formulas are read (default: the gateway's budget). */
  budgetBytes?: number;
}

const defaultRun: ExcelRunner = (options, batch) => Excel.run(options, batch);

/** Like every write of the gateway: wait for the user to finish editing a cell rather than fail. */
const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };

function officeSupports(set: string, version: string): boolean {
  return Office.context.requirements.isSetSupported(set, version);
}

/** FIN cells by sheet name, as boxes: what the dependents are looked for from. */
type FinBoxes = Map<string, Box[]>;

/** The FIN evaluations a cell's formula starts when recalculated. */
type CallsOf = (formula: string) => number;

/**
 * What each area's recalculation will evaluate, not what its formulas hold: a FIN call in a branch IF does not
 * take is never made (finGuard), so the cells the guards compare with are read first, in one sync (none
 * when no formula has a guard).
 */
async function evaluationCounters(context: Excel.RequestContext, read: readonly FormulaRead[]): Promise<CallsOf[]> {
  const guards = new Map<string, FinGuard | null>();
  const guardOf = (formula: string) => {
    if (!guards.has(formula)) guards.set(formula, finGuard(formula));
    return guards.get(formula)!;
  };
  const looked = read.map(({ sheet, formulas }) => {
    const ranges = new Map<string, Excel.Range>();
    for (const row of formulas) {
      for (const formula of row) {
        const guard = typeof formula === 'string' ? guardOf(formula) : null;
        if (!guard || ranges.has(guard.ref)) continue;
        const at = guard.ref.includes('!') ? parseQualified(guard.ref) : null;
        const range = at ? context.workbook.worksheets.getItem(at.sheet).getRangeByIndexes(at.box.row, at.box.col, 1, 1) : sheet.getRange(guard.ref);
        ranges.set(guard.ref, range.load('values'));
      }
    }
    return ranges;
  });
  if (looked.some((ranges) => ranges.size > 0)) await context.sync();
  return looked.map((ranges) => (formula) => {
    const guard = guardOf(formula);
    return guard ? guard.calls(ranges.get(guard.ref)?.values[0]?.[0]) : finEvaluations(formula);
  });
}

/**
 * FIN cells as boxes: each column's consecutive FIN cells in an area make one box. With `valueTypes`, only
 * the cells whose value is an error.
 */
function finBoxes(area: Box, formulas: unknown[][], callsOf: CallsOf, valueTypes?: unknown[][]): { boxes: Box[]; evaluations: number } {
  const boxes: Box[] = [];
  let evaluations = 0;
  for (let c = 0; c < area.cols; c++) {
    let run: Box | null = null;
    for (let r = 0; r < area.rows; r++) {
      const formula = formulas[r]?.[c];
      const picked = typeof formula === 'string' && (!valueTypes || valueTypes[r]?.[c] === 'Error');
      const held = picked ? finEvaluations(formula) : 0;
      evaluations += held > 0 ? callsOf(formula as string) : 0;
      if (held > 0 && run) run.rows += 1;
      else if (held > 0) boxes.push((run = { row: area.row + r, col: area.col + c, rows: 1, cols: 1 }));
      else run = null;
    }
  }
  return { boxes, evaluations };
}

/** Boxes of one sheet with each column's touching runs joined (a run read in two batches is one box again). */
function joinRuns(boxes: Box[]): Box[] {
  const sorted = [...boxes].sort((a, b) => a.col - b.col || a.row - b.row);
  const out: Box[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && last.col === b.col && last.cols === b.cols && last.row + last.rows === b.row) last.rows += b.rows;
    else out.push({ ...b });
  }
  return out;
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

/** Queues RangeAreas.calculate over the boxes of each sheet, in bounded address lists. */
function queueCalculate(context: Excel.RequestContext, boxes: FinBoxes): void {
  for (const [name, sheetBoxes] of boxes) {
    const sheet = context.workbook.worksheets.getItem(name);
    for (const addresses of addressLists(sheetBoxes)) sheet.getRanges(addresses).calculate();
  }
}

/** Recalculates the FIN cells of this workbook (or those showing an error) and counts their FIN calls (ExcelApi 1.9). */
async function recalculateFinCellsOnly(run: ExcelRunner, errorsOnly: boolean, budgetBytes?: number): Promise<{ evaluations: number; boxes: FinBoxes }> {
  return run(RUN_OPTIONS, async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load('items/name');
    await context.sync();
    const areas = await findFormulaAreas(
      context,
      sheets.items.map((sheet) => ({ sheet })),
    );
    const read = await readFormulas(context, areas, { valueTypes: errorsOnly, budgetBytes });

    const counters = await evaluationCounters(context, read);
    const boxes: FinBoxes = new Map();
    let evaluations = 0;
    for (const [i, { sheet, box, formulas, valueTypes }] of read.entries()) {
      const fin = finBoxes(box, formulas, counters[i], errorsOnly ? valueTypes : undefined);
      evaluations += fin.evaluations;
      if (fin.boxes.length > 0) boxes.set(sheet.name, [...(boxes.get(sheet.name) ?? []), ...fin.boxes]);
    }
    for (const [name, sheetBoxes] of boxes) boxes.set(name, joinRuns(sheetBoxes));
    queueCalculate(context, boxes);
    if (boxes.size > 0) await context.sync();
    return { evaluations, boxes };
  });
}

/** FIN cells as 1x1 boxes joined into each column's runs. */
function cellBoxes(cells: readonly FinCell[]): Box[] {
  return joinRuns(cells.map((c) => ({ row: c.row, col: c.col, rows: 1, cols: 1 })));
}

function boxesOfCells(cells: readonly FinCell[]): FinBoxes {
  const bySheet = new Map<string, FinCell[]>();
  for (const c of cells) bySheet.set(c.sheet, [...(bySheet.get(c.sheet) ?? []), c]);
  return new Map([...bySheet].map(([name, sheetCells]) => [name, cellBoxes(sheetCells)]));
}

/** Recalculates these FIN cells only (RangeAreas.calculate, ExcelApi 1.9): a refresh of the selection or the sheet. */
async function recalculateCells(run: ExcelRunner, boxes: FinBoxes): Promise<void> {
  await run(RUN_OPTIONS, async (context) => {
    queueCalculate(context, boxes);
    await context.sync();
  });
}

/**
 * RuntimeHost.finCellsIn in Excel: the FIN cells within a box of a sheet (the whole sheet for a box that
 * covers it), each with the FIN calls its formula makes (Range.getSpecialCells, ExcelApi 1.9).
 */
export async function finCellsIn(sheetName: string, box: Box, options: RecalculationOptions = {}): Promise<FinCell[]> {
  const run = options.run ?? defaultRun;
  return run(RUN_OPTIONS, async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const whole = box.row === 0 && box.col === 0 && box.rows >= MAX_ROWS && box.cols >= MAX_COLS;
    const areas = await findFormulaAreas(context, [whole ? { sheet } : { sheet, box }]);
    const read: FormulaRead[] = await readFormulas(context, areas, { budgetBytes: options.budgetBytes });
    const counters = await evaluationCounters(context, read);
    const cells: FinCell[] = [];
    for (const [k, { box: area, formulas }] of read.entries()) {
      formulas.forEach((row, i) =>
        row.forEach((formula, j) => {
          if (typeof formula !== 'string' || finEvaluations(formula) === 0) return;
          cells.push({ sheet: sheetName, row: area.row + i, col: area.col + j, calls: counters[k](formula), readsPeriod: namesReportingPeriod(formula) });
        }),
      );
    }
    return cells;
  });
}

/** Recalculates every sheet of this workbook (Worksheet.calculate), where the dependents of FIN cells cannot be listed. */
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

const isItemNotFound = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ItemNotFound';

/** Ranges asked for their dependents in one sync: each costs about 700 bytes of request. */
export const DEPENDENT_RANGES_PER_SYNC = 500;

/**
 * Where to look for dependents: each column's FIN cells from the first to the last. What lies between them
 * in a column is, in a statement, the subtotals built on them; one range per column keeps the requests few
 * where thousands of FIN cells stand apart.
 */
function columnSpans(boxes: FinBoxes): [string, Box][] {
  const out: [string, Box][] = [];
  for (const [name, sheetBoxes] of boxes) {
    const byColumn = new Map<number, { top: number; bottom: number; cols: number }>();
    for (const b of sheetBoxes) {
      for (let col = b.col; col < b.col + b.cols; col++) {
        const span = byColumn.get(col);
        if (!span) byColumn.set(col, { top: b.row, bottom: b.row + b.rows, cols: 1 });
        else byColumn.set(col, { top: Math.min(span.top, b.row), bottom: Math.max(span.bottom, b.row + b.rows), cols: 1 });
      }
    }
    for (const [col, span] of [...byColumn].sort((a, b) => a[0] - b[0])) out.push([name, { row: span.top, col, rows: span.bottom - span.top, cols: 1 }]);
  }
  return out;
}

/**
 * The addresses of every dependent of the ranges (Range.getDependents, ExcelApi 1.15), a few hundred ranges a
 * sync. A range without dependents makes Excel refuse the whole request (ItemNotFound: the method has no
 * OrNullObject twin, office-js#5063), so a refused group is asked again in halves until the ranges without
 * any are found.
 */
async function dependentAddresses(context: Excel.RequestContext, ranges: [string, Box][]): Promise<string[]> {
  if (ranges.length === 0) return [];
  if (ranges.length > DEPENDENT_RANGES_PER_SYNC) {
    const out: string[] = [];
    for (let i = 0; i < ranges.length; i += DEPENDENT_RANGES_PER_SYNC) out.push(...(await dependentAddresses(context, ranges.slice(i, i + DEPENDENT_RANGES_PER_SYNC))));
    return out;
  }
  const found = ranges.map(([name, b]) => context.workbook.worksheets.getItem(name).getRangeByIndexes(b.row, b.col, b.rows, b.cols).getDependents().load('addresses'));
  try {
    await context.sync();
    return found.flatMap((f) => f.addresses);
  } catch (error) {
    if (!isItemNotFound(error) && !isPayloadLimitError(error)) throw error;
    if (ranges.length === 1) {
      if (isItemNotFound(error)) return [];
      throw error;
    }
  }
  const half = Math.ceil(ranges.length / 2);
  return [...(await dependentAddresses(context, ranges.slice(0, half))), ...(await dependentAddresses(context, ranges.slice(half)))];
}

/** "Sheet1!B4:B6, 'P&L, 2026'!C3" -> each address, commas inside a quoted sheet name kept. */
function splitAddresses(list: string): string[] {
  return (list.match(/(?:'(?:[^']|'')*'|[^,'])+/g) ?? []).map((a) => a.trim()).filter((a) => a !== '');
}

/** The cells of each column span that are not FIN cells: the subtotals between FIN cells. */
function gapsOf(spans: [string, Box][], boxes: FinBoxes): FinBoxes {
  const out: FinBoxes = new Map();
  for (const [name, span] of spans) {
    const fin = (boxes.get(name) ?? []).filter((b) => b.col <= span.col && span.col < b.col + b.cols).sort((a, b) => a.row - b.row);
    let row = span.row;
    for (const b of fin) {
      if (b.row > row) out.set(name, [...(out.get(name) ?? []), { row, col: span.col, rows: b.row - row, cols: 1 }]);
      row = Math.max(row, b.row + b.rows);
    }
  }
  return out;
}

/**
 * Recalculates every dependent of the boxes, at any depth (ExcelApi 1.15), and the cells between FIN cells of
 * a column: whether Excel lists a dependent inside the range it was asked about is not documented.
 */
async function recalculateDependents(run: ExcelRunner, boxes: FinBoxes): Promise<void> {
  await run(RUN_OPTIONS, async (context) => {
    const spans = columnSpans(boxes);
    const addresses = await dependentAddresses(context, spans);
    const bySheet: FinBoxes = gapsOf(spans, boxes);
    for (const address of new Set(addresses.flatMap(splitAddresses))) {
      const { sheet, box } = parseQualified(address);
      bySheet.set(sheet, [...(bySheet.get(sheet) ?? []), box]);
    }
    if (bySheet.size === 0) return;
    queueCalculate(context, bySheet);
    await context.sync();
  });
}

/** The dependents step for these FIN cells: listed where Excel can list them, every sheet recalculated where not. */
function dependentsStep(run: ExcelRunner, supports: (set: string, version: string) => boolean, boxes: FinBoxes): (() => Promise<void>) | undefined {
  if (boxes.size === 0) return undefined;
  if (supports('ExcelApi', '1.15')) return () => recalculateDependents(run, boxes);
  return () => recalculateSheets(run);
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
    const boxes = boxesOfCells(options.cells);
    await recalculateCells(run, boxes);
    const dependents = dependentsStep(run, supports, boxes);
    return { evaluations: options.cells.reduce((n, c) => n + c.calls, 0), calculationDone: calculationDone(run), ...(dependents ? { dependents } : {}) };
  }
  const { evaluations, boxes } = await recalculateFinCellsOnly(run, options.errorsOnly === true, options.budgetBytes);
  const dependents = dependentsStep(run, supports, boxes);
  return { evaluations, calculationDone: calculationDone(run), ...(dependents ? { dependents } : {}) };
}
