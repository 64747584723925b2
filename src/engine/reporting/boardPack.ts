// The board-pack template (issue 15, item 4): one action that inserts a monthly pack keyed on the reporting
// period. Every statement in it is a block relative to FIN_PERIOD and every KPI a FIN formula that reads it,
// so moving the period (rollForward.ts) rolls the whole pack and costs only the periods it has not fetched.
//
//   Board P&L            the month, beside its year to date against the prior year to date with variance
//   Board P&L by month   each month of the fiscal year to date, with a total
//   Board balance sheet  at the period end, against the end of the prior fiscal year
//   Board cash flow      the fiscal year to date
//   Board P&L vs budget  with a budget kept in the workbook (the one chosen): the month, beside the year to
//                        date, each against the budget (Actual, Budget, Variance, Variance %)
//   Board P&L by dept    (optional) the month by department (engine/departments: the month's journal entries,
//                        a walk whose pages are known once read, so its cost is "at least" or "about" until then)
//   Board KPIs           revenue, its growth on the month before, gross margin, operating expense ratio, cash,
//                        net burn, the average net burn of the last 3 months and the runway it gives
//   Board charts         (optional) revenue and operating expenses by month against the prior year, gross
//                        margin, net burn, cash at month end, the runway: Excel charts of a table of FIN
//                        formulas (boardCharts.ts)
//
// The KPIs read only what the blocks read (the month's income statement and balance sheet) plus the month
// before and the balance sheets a month and three months back; the charts' table reads each month of the
// fiscal year to date, the same month a year before and the balance sheets around it. So their cost is known
// here (kpiReads, chartReads) and shown with the pack's. The two optional parts are the costly ones (about 17
// calls cold for the charts, 2 and the walk's pages for the departments): each has its cost shown apart
// (packCosts) and the workbook records which were included.

import { formatYearMonth, shiftMonth, type YearMonth } from '../dates';
import { prepareBudget } from '../budgets/column';
import type { CallCost, CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';
import { PERCENT_FORMAT } from '../render/varianceColumns';
import { cellA1, parseQualified, qualify } from '../ports/address';
import type { BindingRecord, Json, WorkbookGateway, WriteTarget } from '../ports/workbook';
import type { StatementsEngine, StatementSpec } from '../statements';
import { blockRequests } from '../statements/columns';
import { rollSpec } from '../statements/relative';
import { chartReads, insertBoardCharts } from './boardCharts';
import { Refusal } from '../refusal';
import { formulaText, rolesFromRecord, type PackRoles } from './packRoles';
import { insertOutlook } from './packOutlook';
import { REPORTING_PERIOD_NAME } from './period';
import { balanceSheetRead, CATEGORIES_READ, incomeStatementRead, MONEY_FORMAT } from './packReads';

/** Recorded in the workbook once a pack is inserted: moving the period then prices the KPIs' reads too. */
export const BOARD_PACK_SETTING = 'fin.boardPack';

type PackSpec = Omit<StatementSpec, 'start' | 'end'> & Required<Pick<StatementSpec, 'relation'>>;

interface PackBlock {
  /** The sheet it goes on (made unique by the workbook); a block with `beside` goes on the previous block's sheet. */
  sheet: string;
  beside?: boolean;
  spec: PackSpec;
}

const base = { period: 'custom', scale: 'units' } as const;

/**
 * The pack's two costly parts, each the user's to leave out: the charts (their table reads every month of the
 * fiscal year to date, a year before and the balance sheets around them) and the P&L by department (the
 * department list and a walk over the month's journal entries). A company with 10 calls a month needs both off.
 */
export interface PackParts {
  charts: boolean;
  byDepartment: boolean;
}

/** How the pack is made: the company's fiscal year, the kept budget (its workbook name) to compare with, if any, and its parts. */
export interface PackChoice extends PackParts {
  fiscalYearStartMonth: number;
  budget?: string;
}

/**
 * What inserting needs besides the choice: the categories of the roles the spec does not name, as the user
 * confirmed them (packRoles.ts). They change what the formulas read within the statements already priced, not
 * the cost.
 */
export type PackInsert = PackChoice & { roles: PackRoles; onProgress?: (done: number, total: number) => void };

function packBlocks({ fiscalYearStartMonth, budget, byDepartment }: PackChoice): PackBlock[] {
  const spec = (s: Omit<PackSpec, 'period' | 'scale' | 'fiscalYearStartMonth'>): PackSpec => ({ ...base, fiscalYearStartMonth, ...s });
  const againstBudget: PackBlock[] = budget
    ? [
        { sheet: 'Board P&L vs budget', spec: spec({ statement: 'income_statement', relation: 'month', layout: 'budget', budget }) },
        { sheet: 'Board P&L vs budget', beside: true, spec: spec({ statement: 'income_statement', relation: 'ytd', layout: 'budget', budget }) },
      ]
    : [];
  return [
    { sheet: 'Board P&L', spec: spec({ statement: 'income_statement', relation: 'month', layout: 'single' }) },
    { sheet: 'Board P&L', beside: true, spec: spec({ statement: 'income_statement', relation: 'month', layout: 'prior_ytd', variance: true }) },
    { sheet: 'Board P&L by month', spec: spec({ statement: 'income_statement', relation: 'ytd', layout: 'months', total: true }) },
    // The prior period of a whole-month year to date ends the day before the fiscal year starts: the prior year end.
    { sheet: 'Board balance sheet', spec: spec({ statement: 'balance_sheet', relation: 'ytd', layout: 'prior_period' }) },
    { sheet: 'Board cash flow', spec: spec({ statement: 'cash_flow', relation: 'ytd', layout: 'single' }) },
    ...againstBudget,
    // Short: its values copy, "… (values)", must fit Excel's 31 characters whole.
    ...(byDepartment ? [{ sheet: 'Board P&L by dept', spec: spec({ statement: 'income_statement', relation: 'month', layout: 'by_department' }) }] : []),
  ];
}

/** The pack's statement blocks at a reporting month. */
export function packSpecs(month: YearMonth, choice: PackChoice): StatementSpec[] {
  return packBlocks(choice).map((b) => rollSpec({ ...b.spec, start: '', end: '' }, month));
}

/**
 * Refuses (the budget's own Refusal, before anything is fetched or written) a pack whose budget does not cover
 * the month or its year to date: the pack is inserted whole or not at all. Reads the workbook only.
 */
export async function checkPackBudget(gateway: WorkbookGateway, month: YearMonth, choice: PackChoice): Promise<void> {
  for (const spec of packSpecs(month, choice)) {
    if (spec.layout === 'budget' && spec.budget) await prepareBudget(gateway, { budget: spec.budget, start: spec.start, end: spec.end, fiscalYearStartMonth: spec.fiscalYearStartMonth });
  }
}

export const KPI_SHEET = 'Board KPIs';

export interface Kpi {
  label: string;
  /**
   * An Excel formula; B-column cells of the KPI sheet are named by their row (KPI_FIRST_ROW on). null: left out,
   * its role having no category mapped (`leftOut` says so in its cell).
   */
  formula: string | null;
  leftOut?: string;
  format: 'money' | 'percent' | 'months';
  how: string;
}

/** 1-based row of the first KPI on its sheet (after a title, a note, a blank row and the header). */
export const KPI_FIRST_ROW = 5;

const P = REPORTING_PERIOD_NAME;

/** The cell of a KPI left out for want of a cost of revenue: a word, never an error on the board's sheet. */
export const NO_COST_OF_REVENUE = 'Left out: no cost of revenue is mapped (Reports tab, Board pack, Cost of revenue)';

/**
 * The KPIs, in sheet order, on the company's chart: revenue, expenses and cash by the lines the spec gives every
 * statement, the cost of revenue by the category mapped to it (packRoles.ts). Formulas refer to the cells above
 * them by address (B5 is the month's revenue, B9 the cash), which stay where they are whatever is left out.
 */
export function packKpis(roles: PackRoles): Kpi[] {
  const cor = roles.costOfRevenue;
  const corCells = (period: string) => (cor ? `FIN.PNL(${formulaText(cor.id)}, ${period})` : '');
  return [
    { label: 'Revenue', formula: `=FIN.PNL("Total Revenue", ${P})`, format: 'money', how: 'Revenue of the month (the income statement’s total revenue)' },
    { label: 'Revenue growth on the month before', formula: `=B5/FIN.PNL("Total Revenue", FIN.PERIOD(${P}, -1))-1`, format: 'percent', how: 'Revenue over the month before, less 1' },
    cor
      ? { label: 'Gross margin', formula: `=(B5+${corCells(P)})/B5`, format: 'percent', how: `Revenue less cost of revenue (${cor.name}), over revenue` }
      : { label: 'Gross margin', formula: null, leftOut: NO_COST_OF_REVENUE, format: 'percent', how: 'Revenue less cost of revenue, over revenue' },
    cor
      ? { label: 'Operating expense ratio', formula: `=-(FIN.PNL("Total Expenses", ${P})-${corCells(P)})/B5`, format: 'percent', how: `Expenses other than cost of revenue (${cor.name}), over revenue` }
      : { label: 'Operating expense ratio', formula: `=-FIN.PNL("Total Expenses", ${P})/B5`, format: 'percent', how: 'Expenses over revenue (no cost of revenue mapped: every expense counts)' },
    { label: 'Cash at the month end', formula: `=FIN.BALANCE("Cash", ${P})`, format: 'money', how: 'Cash at the end of the month (the balance sheet’s cash)' },
    { label: 'Net burn', formula: `=FIN.BALANCE("Cash", ${P}&"-1M")-B9`, format: 'money', how: 'Cash at the end of the month before, less cash at this month end' },
    { label: 'Average net burn, last 3 months', formula: `=(FIN.BALANCE("Cash", ${P}&"-3M")-B9)/3`, format: 'money', how: 'The fall in cash over the last 3 months, over 3' },
    { label: 'Cash runway (months)', formula: `=IF(B11>0, B9/B11, "Not burning cash")`, format: 'months', how: 'Cash over the average net burn of the last 3 months' },
  ];
}

/** What the KPI formulas read at a reporting month (the same requests FIN's reads make, so the cache shares them). */
export function kpiReads(month: YearMonth): ReadRequest[] {
  return [
    CATEGORIES_READ,
    incomeStatementRead(month),
    incomeStatementRead(shiftMonth(month, -1)),
    balanceSheetRead(month),
    balanceSheetRead(shiftMonth(month, -1)),
    balanceSheetRead(shiftMonth(month, -3)),
  ];
}

/** The pack a workbook holds, as recorded when inserted. */
export interface BoardPack {
  kpiSheet: string;
  /** Absent in a pack inserted without its charts (or before there were any), or whose charts' sheet is gone. */
  chartSheet?: string;
  /** The fiscal year the charts' formulas were written for (their months run from its start). */
  fiscalYearStartMonth?: number;
  /** The roles the pack's formulas were written with; absent in a pack of an earlier version. */
  roles?: PackRoles;
}

/**
 * What the pack's FIN formulas read at a reporting month: its KPIs' and, when it has them, its charts'. Moving
 * the period prices these exactly (the pane's formulaReads).
 */
export function packFormulaReads(pack: BoardPack, month: YearMonth): ReadRequest[] {
  return [...kpiReads(month), ...(pack.chartSheet ? chartReads(month, pack.fiscalYearStartMonth ?? 1) : [])];
}

/** Every request inserting the pack makes at a reporting month: its blocks', KPIs' and, when chosen, charts'. */
function packRequests(month: YearMonth, choice: PackChoice): ReadRequest[] {
  return [...packSpecs(month, choice).flatMap(blockRequests), ...kpiReads(month), ...(choice.charts ? chartReads(month, choice.fiscalYearStartMonth) : [])];
}

/** What inserting the pack at a reporting month spends: its parts' requests not cached. Calls nothing. */
export function packCost(reader: CachedReader, month: YearMonth, choice: PackChoice): Promise<CallCost> {
  return reader.cost(packRequests(month, choice));
}

export interface PackCosts {
  /** The pack as chosen. */
  pack: CallCost;
  /** What each costly part adds to the rest of the pack as chosen (ticking it, or what leaving it out saves). */
  charts: CallCost;
  byDepartment: CallCost;
}

/**
 * The pack's cost as chosen and what each of its costly parts adds to it: the difference between the pack
 * with the part and without it, the rest as chosen, so what they share (the categories, a balance sheet a cash
 * flow is priced with) is counted once. Calls nothing.
 */
export async function packCosts(reader: CachedReader, month: YearMonth, choice: PackChoice): Promise<PackCosts> {
  const part = async (key: keyof PackParts): Promise<CallCost> => {
    const [on, off] = await Promise.all([packCost(reader, month, { ...choice, [key]: true }), packCost(reader, month, { ...choice, [key]: false })]);
    // A walk is the department part's alone: its estimate goes with it.
    const estimated = key === 'byDepartment' ? on.estimated : undefined;
    return { requests: on.requests - off.requests, cached: on.cached - off.cached, calls: on.calls - off.calls, ...(estimated ? { estimated } : {}) };
  };
  const [pack, charts, byDepartment] = await Promise.all([packCost(reader, month, choice), part('charts'), part('byDepartment')]);
  return { pack, charts, byDepartment };
}

/**
 * The pack the workbook holds: recorded when inserted, and its KPI sheet still there (a pack whose sheets the
 * user deleted is gone). Moving the period then prices its KPIs' reads (the pane's formulaReads), and a second
 * pack is not inserted beside it: both would follow the one reporting period.
 */
export async function boardPackIn(gateway: WorkbookGateway): Promise<BoardPack | null> {
  const recorded = await gateway.readSetting(BOARD_PACK_SETTING).catch(() => undefined);
  const record: { [key: string]: Json } = recorded && typeof recorded === 'object' && !Array.isArray(recorded) ? recorded : {};
  const { kpiSheet, chartSheet, fiscalYearStartMonth, roles } = record;
  if (typeof kpiSheet !== 'string') return null;
  const sheets = (await gateway.listSheets()).map((s) => s.name);
  if (!sheets.includes(kpiSheet)) return null;
  // Charts whose sheet the user deleted are priced no more; the rest of the pack still rolls.
  const charts = typeof chartSheet === 'string' && sheets.includes(chartSheet) ? { chartSheet, fiscalYearStartMonth: typeof fiscalYearStartMonth === 'number' ? fiscalYearStartMonth : 1 } : {};
  const kept = rolesFromRecord(roles);
  return { kpiSheet, ...charts, ...(kept ? { roles: kept } : {}) };
}

export interface PackOutcome {
  blocks: BindingRecord[];
  /** The KPI sheet's name as made (unique in the workbook). */
  kpiSheet: string;
  /** The charts' sheet as made; null when they were left out. */
  chartSheet: string | null;
}

const KPI_COLUMN_WIDTHS = [220, 110, 330];

/**
 * The KPI rows of a pack's sheet rewritten for other roles (the cost of revenue changed after inserting): each
 * row's label, its word where left out and how it is worked out, then the formulas in one go. The rows stay
 * where they are, so the formulas that refer to them by address (B5, B9) still read the right cells.
 */
export async function rewriteKpis(gateway: WorkbookGateway, sheet: string, roles: PackRoles): Promise<void> {
  const kpis = packKpis(roles);
  await gateway.writeGrid(
    { kind: 'anchor', sheet, cell: cellA1(KPI_FIRST_ROW - 1, 0) },
    { values: kpis.map((k) => [k.label, k.formula === null ? (k.leftOut ?? null) : null, k.how]), cellFormats: kpis.map((k) => [null, k.formula === null ? null : kpiFormat(k), null]) },
  );
  await gateway.writeFormulas(qualify(sheet, { row: KPI_FIRST_ROW - 1, col: 1, rows: 1, cols: 1 }), kpis.map((k) => [k.formula]));
}

function kpiFormat(kpi: Kpi): string {
  if (kpi.format === 'percent') return PERCENT_FORMAT;
  if (kpi.format === 'months') return '0.0';
  return MONEY_FORMAT;
}

/**
 * Inserts the pack at the reporting month: the blocks through the statements engine (each fetched through
 * the cache, recorded with its relation), then the KPI sheet: labels and formats written as a grid, the KPI
 * formulas put in their cells in one go (Excel then calculates them, reading what the blocks have cached), then the charts'
 * sheet. A budget that cannot answer for the month is refused before anything is written.
 */
export async function insertBoardPack(
  gateway: WorkbookGateway,
  statements: StatementsEngine,
  month: YearMonth,
  options: PackInsert,
): Promise<PackOutcome> {
  await checkPackBudget(gateway, month, options);
  // The plan the pack's cost was shown from: a year to date derived from the months a later block fetches.
  const unfollow = await statements.follow(packRequests(month, options));
  const progress: PackProgress = { sheets: [], blocks: 0, kpiSheet: null, chartSheet: null, step: 'the first block' };
  try {
    return await writePack(gateway, statements, month, options, progress);
  } catch (error) {
    throw progress.blocks === 0 && progress.kpiSheet === null ? error : unfinished(error, progress, packBlocks(options).length);
  } finally {
    unfollow();
  }
}

/** What a pack has written so far, to say exactly what an unfinished one left. */
interface PackProgress {
  sheets: string[];
  blocks: number;
  kpiSheet: string | null;
  chartSheet: string | null;
  /** The step under way, for the message: `block 3 (Board P&L by month)`. */
  step: string;
}

/**
 * A pack that stopped part way: no sheet is deleted (the workbook port has no such call, and a user's sheet of
 * the same name must never go), so the refusal says exactly what stands, what does not, and what to do.
 */
function unfinished(error: unknown, done: PackProgress, total: number): Refusal {
  const cause = error instanceof Error ? error.message : String(error);
  const sheets = [...new Set(done.sheets)];
  const kept = [
    `${done.blocks} of ${total} statement blocks on ${sheets.map((s) => `"${s}"`).join(', ') || 'no sheet'} (ordinary blocks: Refresh keeps them current)`,
    ...(done.kpiSheet ? [`the KPI sheet "${done.kpiSheet}"`] : []),
    ...(done.chartSheet ? [`the charts' sheet "${done.chartSheet}"`] : []),
  ];
  return new Refusal(
    'The board pack was not finished',
    `It stopped at ${done.step}: ${cause.replace(/\.$/, '')}. Left in the workbook: ${kept.join(', ')}. Not written: ` +
      `${done.blocks < total ? 'the other blocks, ' : ''}${done.kpiSheet ? '' : 'the KPI sheet, '}the pack's record (so moving the reporting period does not roll it). ` +
      'Delete those sheets before inserting the pack again.',
    'pack_incomplete',
  );
}

/** The cell beside a block written at `address`: one blank column between them, whatever its width. */
function besideBlock(address: string): { sheet: string; row: number; col: number } {
  const { sheet, box } = parseQualified(address);
  return { sheet, row: box.row, col: box.col + box.cols + 1 };
}

async function writePack(
  gateway: WorkbookGateway,
  statements: StatementsEngine,
  month: YearMonth,
  options: PackInsert,
  done: PackProgress,
): Promise<PackOutcome> {
  const blocks = packBlocks(options);
  const steps = blocks.length + (options.charts ? 2 : 1);
  const outcome: PackOutcome = { blocks: [], kpiSheet: '', chartSheet: null };
  let previous: { sheet: string; address: string } | null = null;
  let outlookAt: { sheet: string; row: number; col: number } | null = null;
  for (const [i, block] of blocks.entries()) {
    let target: WriteTarget;
    if (block.beside && previous) {
      const at = besideBlock(previous.address);
      target = { kind: 'anchor', sheet: at.sheet, cell: cellA1(at.row, at.col) };
    } else {
      target = { kind: 'newSheet', name: block.sheet, activate: false };
    }
    done.step = `block ${i + 1} of ${blocks.length} (${block.sheet})`;
    const { written, binding } = await statements.insert(rollSpec({ ...block.spec, start: '', end: '' }, month), target);
    done.blocks += 1;
    done.sheets.push(written.sheet);
    outcome.blocks.push(binding);
    previous = { sheet: written.sheet, address: written.address };
    if (block.spec.layout === 'budget' && block.spec.relation === 'ytd') outlookAt = besideBlock(written.address);
    options.onProgress?.(i + 1, steps);
  }
  if (outlookAt && options.budget) {
    done.step = 'the full-year outlook';
    const at = outlookAt;
    await insertOutlook(gateway, at, { budget: options.budget, month, fiscalYearStartMonth: options.fiscalYearStartMonth, chart: () => statements.chart() });
  }
  const kpis = packKpis(options.roles);
  const rows = [
    ['Board KPIs', null, null],
    [`For the month in ${P}: FIN formulas, recalculated when it moves. Figures in units of the company's currency.`, null, null],
    [null, null, null],
    ['KPI', 'Value', 'How'],
    ...kpis.map((k) => [k.label, k.formula === null ? (k.leftOut ?? null) : null, k.how]),
  ];
  const formats = rows.map((_, r) => [null, r >= KPI_FIRST_ROW - 1 && kpis[r - (KPI_FIRST_ROW - 1)].formula !== null ? kpiFormat(kpis[r - (KPI_FIRST_ROW - 1)]) : null, null]);
  done.step = 'the KPI sheet';
  const sheet = await gateway.writeGrid({ kind: 'newSheet', name: KPI_SHEET }, { values: rows, cellFormats: formats, boldRows: [0, 3], columnWidths: KPI_COLUMN_WIDTHS });
  done.kpiSheet = sheet.sheet;
  // A KPI left out keeps its word: its cell in the block is null, which writes no formula over it.
  await gateway.writeFormulas(qualify(sheet.sheet, { row: KPI_FIRST_ROW - 1, col: 1, rows: 1, cols: 1 }), kpis.map((k) => [k.formula]));
  outcome.kpiSheet = sheet.sheet;
  options.onProgress?.(blocks.length + 1, steps);
  done.step = "the charts' sheet";
  if (options.charts) outcome.chartSheet = done.chartSheet = await insertBoardCharts(gateway, options.fiscalYearStartMonth, options.roles);
  done.step = "the pack's record";
  // What was included, so moving the period prices (and a reader of the workbook sees) only what is there.
  await gateway.writeSetting(BOARD_PACK_SETTING, {
    kpiSheet: sheet.sheet,
    ...(outcome.chartSheet ? { chartSheet: outcome.chartSheet } : {}),
    included: { charts: options.charts, byDepartment: options.byDepartment },
    fiscalYearStartMonth: options.fiscalYearStartMonth,
    roles: { costOfRevenue: options.roles.costOfRevenue ? { ...options.roles.costOfRevenue } : null },
    insertedFor: formatYearMonth(month.year, month.month),
    ...(options.budget ? { budget: options.budget } : {}),
  });
  options.onProgress?.(steps, steps);
  return outcome;
}

