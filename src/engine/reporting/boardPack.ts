// The board-pack template (issue 15, item 4): one action that inserts a monthly pack keyed on the reporting
// period. Every statement in it is a block relative to FIN_PERIOD and every KPI a FIN formula that reads it,
// so moving the period (rollForward.ts) rolls the whole pack and costs only the periods it has not fetched.
//
//   Board P&L            the month, beside its year to date against the prior year to date with variance
//   Board P&L by month   each month of the fiscal year to date, with a total
//   Board balance sheet  at the period end, against the end of the prior fiscal year
//   Board cash flow      the fiscal year to date
//   Board KPIs           revenue, its growth on the month before, gross margin, operating expense ratio, cash,
//                        net burn, the average net burn of the last 3 months and the runway it gives
//
// The KPIs read only what the blocks read (the month's income statement and balance sheet) plus the month
// before and the balance sheets a month and three months back, so their cost is known here (kpiReads) and
// shown with the pack's.

import { formatYearMonth, lastDayOf, shiftMonth, type YearMonth } from '../dates';
import type { CallCost, CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';
import { PERCENT_FORMAT } from '../render/varianceColumns';
import { cellA1, parseQualified, qualify } from '../ports/address';
import type { BindingRecord, WorkbookGateway, WriteTarget } from '../ports/workbook';
import type { StatementsEngine, StatementSpec } from '../statements';
import { columnsFor } from '../statements/columns';
import { rollSpec } from '../statements/relative';
import { REPORTING_PERIOD_NAME } from './period';

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

function packBlocks(fiscalYearStartMonth: number): PackBlock[] {
  const spec = (s: Omit<PackSpec, 'period' | 'scale' | 'fiscalYearStartMonth'>): PackSpec => ({ ...base, fiscalYearStartMonth, ...s });
  return [
    { sheet: 'Board P&L', spec: spec({ statement: 'income_statement', relation: 'month', layout: 'single' }) },
    { sheet: 'Board P&L', beside: true, spec: spec({ statement: 'income_statement', relation: 'month', layout: 'prior_ytd', variance: true }) },
    { sheet: 'Board P&L by month', spec: spec({ statement: 'income_statement', relation: 'ytd', layout: 'months', total: true }) },
    // The prior period of a whole-month year to date ends the day before the fiscal year starts: the prior year end.
    { sheet: 'Board balance sheet', spec: spec({ statement: 'balance_sheet', relation: 'ytd', layout: 'prior_period' }) },
    { sheet: 'Board cash flow', spec: spec({ statement: 'cash_flow', relation: 'ytd', layout: 'single' }) },
  ];
}

/** The pack's statement blocks at a reporting month. */
export function packSpecs(month: YearMonth, fiscalYearStartMonth: number): StatementSpec[] {
  return packBlocks(fiscalYearStartMonth).map((b) => rollSpec({ ...b.spec, start: '', end: '' }, month));
}

export const KPI_SHEET = 'Board KPIs';

export interface Kpi {
  label: string;
  /** An Excel formula; B-column cells of the KPI sheet are named by their row (KPI_FIRST_ROW on). */
  formula: string;
  format: 'money' | 'percent' | 'months';
  how: string;
}

/** 1-based row of the first KPI on its sheet (after a title, a note, a blank row and the header). */
export const KPI_FIRST_ROW = 5;

const P = REPORTING_PERIOD_NAME;

/** The KPIs, in sheet order; formulas refer to the cells above them by address (B5 is the month's revenue). */
export const KPIS: readonly Kpi[] = [
  { label: 'Revenue', formula: `=FIN.PNL("Revenue", ${P})`, format: 'money', how: 'Revenue of the month' },
  { label: 'Revenue growth on the month before', formula: `=B5/FIN.PNL("Revenue", FIN.PERIOD(${P}, -1))-1`, format: 'percent', how: 'Revenue over the month before, less 1' },
  { label: 'Gross margin', formula: `=(B5+FIN.PNL("Cost of Revenue", ${P}))/B5`, format: 'percent', how: 'Revenue less cost of revenue, over revenue' },
  { label: 'Operating expense ratio', formula: `=-FIN.PNL("Operating Expenses", ${P})/B5`, format: 'percent', how: 'Operating expenses over revenue' },
  { label: 'Cash at the month end', formula: `=FIN.BALANCE("Cash", ${P})`, format: 'money', how: 'Balance of Cash at the end of the month' },
  { label: 'Net burn', formula: `=FIN.BALANCE("Cash", ${P}&"-1M")-B9`, format: 'money', how: 'Cash at the end of the month before, less cash at this month end' },
  { label: 'Average net burn, last 3 months', formula: `=(FIN.BALANCE("Cash", ${P}&"-3M")-B9)/3`, format: 'money', how: 'The fall in cash over the last 3 months, over 3' },
  { label: 'Cash runway (months)', formula: `=IF(B11>0, B9/B11, "Not burning cash")`, format: 'months', how: 'Cash over the average net burn of the last 3 months' },
];

/** What the KPI formulas read at a reporting month (the same requests FIN's reads make, so the cache shares them). */
export function kpiReads(month: YearMonth): ReadRequest[] {
  const incomeStatement = (m: YearMonth): ReadRequest => ({
    path: '/reports/income_statement',
    query: { start_date: `${formatYearMonth(m.year, m.month)}-01`, end_date: lastDayOf(m.year, m.month) },
  });
  const balanceSheet = (m: YearMonth): ReadRequest => ({ path: '/reports/balance_sheet', query: { date: lastDayOf(m.year, m.month) } });
  return [
    { path: '/categories' },
    incomeStatement(month),
    incomeStatement(shiftMonth(month, -1)),
    balanceSheet(month),
    balanceSheet(shiftMonth(month, -1)),
    balanceSheet(shiftMonth(month, -3)),
  ];
}

/** What inserting the pack at a reporting month spends: its blocks' and KPIs' requests not cached. Calls nothing. */
export function packCost(reader: CachedReader, month: YearMonth, fiscalYearStartMonth: number): Promise<CallCost> {
  return reader.cost([...packSpecs(month, fiscalYearStartMonth).flatMap((s) => columnsFor(s).map((c) => c.request)), ...kpiReads(month)]);
}

/**
 * The pack the workbook holds: recorded when inserted, and its KPI sheet still there (a pack whose sheets the
 * user deleted is gone). Moving the period then prices its KPIs' reads (the pane's formulaReads), and a second
 * pack is not inserted beside it: both would follow the one reporting period.
 */
export async function boardPackIn(gateway: WorkbookGateway): Promise<{ kpiSheet: string } | null> {
  const recorded = await gateway.readSetting(BOARD_PACK_SETTING).catch(() => undefined);
  const kpiSheet = recorded && typeof recorded === 'object' && !Array.isArray(recorded) ? recorded.kpiSheet : undefined;
  if (typeof kpiSheet !== 'string') return null;
  const sheets = await gateway.listSheets();
  return sheets.some((s) => s.name === kpiSheet) ? { kpiSheet } : null;
}

export interface PackOutcome {
  blocks: BindingRecord[];
  /** The KPI sheet's name as made (unique in the workbook). */
  kpiSheet: string;
}

const KPI_COLUMN_WIDTHS = [220, 110, 330];

/** Amounts as the statements show them, without the symbol: the pane does not know the currency before a report. */
const MONEY_FORMAT = '#,##0.00_);(#,##0.00)';

function kpiFormat(kpi: Kpi): string {
  if (kpi.format === 'percent') return PERCENT_FORMAT;
  if (kpi.format === 'months') return '0.0';
  return MONEY_FORMAT;
}

/**
 * Inserts the pack at the reporting month: the blocks through the statements engine (each fetched through
 * the cache, recorded with its relation), then the KPI sheet: labels and formats written as a grid, each KPI
 * formula put in its cell (Excel then calculates it, reading what the blocks have cached).
 */
export async function insertBoardPack(
  gateway: WorkbookGateway,
  statements: StatementsEngine,
  month: YearMonth,
  options: { fiscalYearStartMonth: number; onProgress?: (done: number, total: number) => void },
): Promise<PackOutcome> {
  const blocks = packBlocks(options.fiscalYearStartMonth);
  const outcome: PackOutcome = { blocks: [], kpiSheet: '' };
  let previous: { sheet: string; address: string } | null = null;
  for (const [i, block] of blocks.entries()) {
    let target: WriteTarget;
    if (block.beside && previous) {
      // One blank column between the two blocks, whatever the first one's width.
      const { box } = parseQualified(previous.address);
      target = { kind: 'anchor', sheet: previous.sheet, cell: cellA1(box.row, box.col + box.cols + 1) };
    } else {
      target = { kind: 'newSheet', name: block.sheet, activate: false };
    }
    const { written, binding } = await statements.insert(rollSpec({ ...block.spec, start: '', end: '' }, month), target);
    outcome.blocks.push(binding);
    previous = { sheet: written.sheet, address: written.address };
    options.onProgress?.(i + 1, blocks.length + 1);
  }
  const rows = [
    ['Board KPIs', null, null],
    [`For the month in ${P}: FIN formulas, recalculated when it moves. Figures in units of the company's currency.`, null, null],
    [null, null, null],
    ['KPI', 'Value', 'How'],
    ...KPIS.map((k) => [k.label, null, k.how]),
  ];
  const formats = rows.map((_, r) => [null, r >= KPI_FIRST_ROW - 1 ? kpiFormat(KPIS[r - (KPI_FIRST_ROW - 1)]) : null, null]);
  const sheet = await gateway.writeGrid({ kind: 'newSheet', name: KPI_SHEET }, { values: rows, cellFormats: formats, boldRows: [0, 3], columnWidths: KPI_COLUMN_WIDTHS });
  for (const [i, kpi] of KPIS.entries()) await gateway.writeFormula(qualify(sheet.sheet, { row: KPI_FIRST_ROW - 1 + i, col: 1, rows: 1, cols: 1 }), kpi.formula);
  outcome.kpiSheet = sheet.sheet;
  await gateway.writeSetting(BOARD_PACK_SETTING, { kpiSheet: sheet.sheet, insertedFor: formatYearMonth(month.year, month.month) });
  options.onProgress?.(blocks.length + 1, blocks.length + 1);
  return outcome;
}

