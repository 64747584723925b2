// The board pack's charts (issue 28, item 1): a "Board charts" sheet holding real Excel charts, two then three
// at the top where the board looks first, and below them the table of FIN formulas on FIN_PERIOD their series
// read (the months of its fiscal year to date, one row each). The charts read cells of their own sheet on purpose: a values copy of the
// sheet (Share) then keeps the charts pointing at its own values, as Excel's copy of a sheet does, where
// charts reading the statement sheets would go on reading the live ones.
//
// The table has the fiscal year's twelve rows whatever the month: a row after the reporting period is #N/A,
// which Excel's charts leave out (a gap, not a zero), so the charts' ranges never move. Moving FIN_PERIOD
// (Roll forward, or typing a month over it) recalculates the table and the charts follow with nothing to
// redo; a refresh recalculates it as every FIN cell. The IF comes first so that a row after the period calls
// nothing: Excel evaluates only the branch IF takes.
//
// What the table reads is known here (chartReads), so the pack's cost and its roll's include it exactly.

import { shiftMonth, type YearMonth } from '../dates';
import { PERCENT_FORMAT } from '../render/varianceColumns';
import { cellA1, qualify, type Box } from '../ports/address';
import type { ChartKind, ChartSpec, WorkbookGateway } from '../ports/workbook';
import type { ReadRequest } from '../reader/requestCache';
import { formulaText, type PackRoles } from './packRoles';
import { REPORTING_PERIOD_NAME } from './period';
import { balanceSheetRead, CATEGORIES_READ, incomeStatementRead, MONEY_FORMAT } from './packReads';

export const CHART_SHEET = 'Board charts';

const P = REPORTING_PERIOD_NAME;

/** 0-based rows of the sheet: title, note, the charts (rows 4 to 34), then the month count, the header, the twelve months. */
const COUNT_ROW = 36;
const HEADER_ROW = 38;
const FIRST_MONTH_ROW = 39;
const MONTHS = 12;

/** A1 of the cell holding how many months of the fiscal year the reporting period is into. */
const COUNT_CELL = `$B$${COUNT_ROW + 1}`;

interface ChartColumn {
  header: string;
  /**
   * The formula of the month on row `r` (1-based, its month text in column A) once the row is within the year
   * to date; null: left out, its role having no category mapped (the header says so, the cells stay empty).
   */
  formula: ((r: number) => string) | null;
  format: string;
}

/**
 * Columns B on; column A is the month. Expenses are shown as positive amounts, as the board reads them. Revenue,
 * expenses and cash are the lines the spec gives every statement; the cost of revenue is the category mapped
 * to it (packRoles.ts), without which operating expenses are every expense and the gross margin is left out.
 */
export function chartColumns(roles: PackRoles): ChartColumn[] {
  const cor = roles.costOfRevenue;
  const opex = (period: string) => (cor ? `-(FIN.PNL("Total Expenses",${period})-FIN.PNL(${formulaText(cor.id)},${period}))` : `-FIN.PNL("Total Expenses",${period})`);
  return [
    { header: 'Revenue', formula: (r) => `FIN.PNL("Total Revenue",$A${r})`, format: MONEY_FORMAT },
    { header: 'Revenue, prior year', formula: (r) => `FIN.PNL("Total Revenue",FIN.PERIOD($A${r},-12))`, format: MONEY_FORMAT },
    { header: 'Operating expenses', formula: (r) => opex(`$A${r}`), format: MONEY_FORMAT },
    { header: 'Operating expenses, prior year', formula: (r) => opex(`FIN.PERIOD($A${r},-12)`), format: MONEY_FORMAT },
    cor
      ? { header: 'Gross margin', formula: (r) => `IF(B${r}=0,NA(),(B${r}+FIN.PNL(${formulaText(cor.id)},$A${r}))/B${r})`, format: PERCENT_FORMAT }
      : { header: 'Gross margin (left out: no cost of revenue mapped)', formula: null, format: PERCENT_FORMAT },
    { header: 'Cash at month end', formula: (r) => `FIN.BALANCE("Cash",$A${r})`, format: MONEY_FORMAT },
    { header: 'Net burn', formula: (r) => `FIN.BALANCE("Cash",$A${r}&"-1M")-G${r}`, format: MONEY_FORMAT },
    // As the KPIs: cash over the average net burn of the 3 months to it; no burn, no runway (#N/A, left out).
    { header: 'Cash runway (months)', formula: (r) => `IF(FIN.BALANCE("Cash",$A${r}&"-3M")>G${r},G${r}/((FIN.BALANCE("Cash",$A${r}&"-3M")-G${r})/3),NA())`, format: '0.0' },
  ];
}

/** The table's column (1-based: B is 1) of the gross margin, the one a role decides. */
const GROSS_MARGIN_COLUMN = 5;

/** The charts: columns of the table (1-based: B is 1) each chart shows, and where it goes (above the table). */
interface BoardChart {
  name: string;
  title: string;
  kind: ChartKind;
  columns: number[];
  over: string;
}

// Two on top (revenue and expenses, four series, wider), three under them, all above the table so the sheet
// opens on them. Each amount of a different size has a chart of its own: a chart here has one value axis, on
// which a month's net burn is a sliver beside the cash it comes out of, and the runway's months are nothing.
export const BOARD_CHARTS: readonly BoardChart[] = [
  { name: 'FinBoard_RevenueExpenses', title: 'Revenue and operating expenses by month, against the prior year', kind: 'column', columns: [1, 2, 3, 4], over: 'A4:E18' },
  { name: 'FinBoard_GrossMargin', title: 'Gross margin by month', kind: 'line', columns: [GROSS_MARGIN_COLUMN], over: 'F4:I18' },
  { name: 'FinBoard_NetBurn', title: 'Net burn by month', kind: 'column', columns: [7], over: 'A20:C34' },
  { name: 'FinBoard_Cash', title: 'Cash at month end', kind: 'line', columns: [6], over: 'D20:F34' },
  { name: 'FinBoard_Runway', title: 'Cash runway (months)', kind: 'line', columns: [8], over: 'G20:I34' },
];

/** Months of the fiscal year to the reporting month, that month included (1 to 12). */
export function monthsIntoYear(month: YearMonth, fiscalYearStartMonth: number): number {
  return ((((month.month - fiscalYearStartMonth) % 12) + 12) % 12) + 1;
}

/** The months the table shows figures for: the fiscal year to date of the reporting month, in order. */
export function chartMonths(month: YearMonth, fiscalYearStartMonth: number): YearMonth[] {
  const n = monthsIntoYear(month, fiscalYearStartMonth);
  return Array.from({ length: n }, (_, k) => shiftMonth(month, k - (n - 1)));
}

/** What the table's formulas read at a reporting month: the requests FIN.PNL and FIN.BALANCE make for them. */
export function chartReads(month: YearMonth, fiscalYearStartMonth: number): ReadRequest[] {
  return [
    CATEGORIES_READ,
    ...chartMonths(month, fiscalYearStartMonth).flatMap((m) => [
      incomeStatementRead(m),
      incomeStatementRead(shiftMonth(m, -12)),
      balanceSheetRead(m),
      balanceSheetRead(shiftMonth(m, -1)),
      balanceSheetRead(shiftMonth(m, -3)),
    ]),
  ];
}

/** The cells of a column of the table (0-based column; 0 is the months), sheet-qualified. */
function tableColumn(sheet: string, col: number): string {
  const box: Box = { row: FIRST_MONTH_ROW, col, rows: MONTHS, cols: 1 };
  return qualify(sheet, box);
}

/** The chart specs on the sheet as made: each series a column of the table, against the months; a chart of a column left out is not made. */
export function boardChartSpecs(sheet: string, roles: PackRoles): { name: string; over: string; spec: ChartSpec }[] {
  const columns = chartColumns(roles);
  return BOARD_CHARTS.filter((c) => c.columns.every((col) => columns[col - 1].formula !== null)).map((c) => ({
    name: c.name,
    over: c.over,
    spec: { kind: c.kind, title: c.title, categories: tableColumn(sheet, 0), series: c.columns.map((col) => ({ name: columns[col - 1].header, values: tableColumn(sheet, col) })) },
  }));
}

/** The formulas of the table, by 0-based row and column of the sheet. */
export function chartFormulas(fiscalYearStartMonth: number, roles: PackRoles): { row: number; col: number; formula: string }[] {
  const columns = chartColumns(roles);
  const out = [{ row: COUNT_ROW, col: 1, formula: `=MOD(VALUE(RIGHT(${P},2))-${fiscalYearStartMonth},12)+1` }];
  for (let k = 1; k <= MONTHS; k++) {
    const row = FIRST_MONTH_ROW + k - 1;
    const r = row + 1;
    // The month's text (FIN.PERIOD spends no call): every row has one, the months after the period too.
    out.push({ row, col: 0, formula: `=FIN.PERIOD(${P},${k}-${COUNT_CELL})` });
    columns.forEach((c, i) => {
      if (c.formula) out.push({ row, col: i + 1, formula: `=IF(${k}>${COUNT_CELL},NA(),${c.formula(r)})` });
    });
  }
  return out;
}

const COLUMN_WIDTHS = [70, 95, 95, 95, 95, 80, 95, 95, 80];

/**
 * Writes the sheet (labels and formats as a grid, then the table's formulas as one block: Excel calculates
 * them) and adds its charts. Returns the sheet's name as made (unique in the workbook).
 */
export async function insertBoardCharts(gateway: WorkbookGateway, fiscalYearStartMonth: number, roles: PackRoles): Promise<string> {
  const columns = chartColumns(roles);
  const width = columns.length + 1;
  const blank = () => Array<null>(width).fill(null);
  const rows: (string | null)[][] = [
    ['Board charts', ...blank().slice(1)],
    [`The fiscal year to date of ${P}. The charts read the table below (row ${HEADER_ROW + 1} on): FIN formulas, recalculated when it moves. #N/A: a month after the period (or no burn, no runway), which the charts leave out.`, ...blank().slice(1)],
    ...Array.from({ length: COUNT_ROW - 2 }, blank),
    ['Months of the fiscal year to date', ...blank().slice(1)],
    blank(),
    ['Month', ...columns.map((c) => c.header)],
    ...Array.from({ length: MONTHS }, blank),
  ];
  const formats = rows.map((_, r) => (r >= FIRST_MONTH_ROW ? [null, ...columns.map((c) => c.format)] : blank()));
  const written = await gateway.writeGrid({ kind: 'newSheet', name: CHART_SHEET, activate: false }, { values: rows, cellFormats: formats, boldRows: [0, HEADER_ROW], columnWidths: COLUMN_WIDTHS });
  const sheet = written.sheet;
  // One round trip for the table's formulas (about 109; one each was a round trip each in Excel): a block from
  // the month count's row to the last month's, its cells without a formula (labels, the header) left as written.
  const formulas = chartFormulas(fiscalYearStartMonth, roles);
  const block = Array.from({ length: FIRST_MONTH_ROW + MONTHS - COUNT_ROW }, () => Array<string | null>(width).fill(null));
  for (const f of formulas) block[f.row - COUNT_ROW][f.col] = f.formula;
  await gateway.writeFormulas(qualify(sheet, { row: COUNT_ROW, col: 0, rows: 1, cols: 1 }), block);
  for (const c of boardChartSpecs(sheet, roles)) await gateway.addChart({ sheet, over: c.over }, c.spec, c.name);
  return sheet;
}

/**
 * The table and the charts on the pack's charts' sheet rewritten for other roles (the cost of revenue changed
 * after inserting): the headers, every column's formulas (a column now left out emptied), and the gross
 * margin's chart added or deleted as its column is there or not. The other charts read the same cells and are
 * left as the user has them.
 */
export async function rewriteChartRoles(gateway: WorkbookGateway, sheet: string, fiscalYearStartMonth: number, roles: PackRoles): Promise<void> {
  const columns = chartColumns(roles);
  await gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(HEADER_ROW, 1) }, { values: [columns.map((c) => c.header)], boldRows: [0] });
  for (const [i, c] of columns.entries()) {
    if (!c.formula) await gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(FIRST_MONTH_ROW, i + 1) }, { values: Array.from({ length: MONTHS }, () => [null]) });
  }
  const block = Array.from({ length: FIRST_MONTH_ROW + MONTHS - COUNT_ROW }, () => Array<string | null>(columns.length + 1).fill(null));
  for (const f of chartFormulas(fiscalYearStartMonth, roles)) block[f.row - COUNT_ROW][f.col] = f.formula;
  await gateway.writeFormulas(qualify(sheet, { row: COUNT_ROW, col: 0, rows: 1, cols: 1 }), block);
  const specs = boardChartSpecs(sheet, roles);
  for (const chart of BOARD_CHARTS.filter((c) => c.columns.some((col) => col === GROSS_MARGIN_COLUMN))) {
    const spec = specs.find((s) => s.name === chart.name);
    if (!spec) await gateway.deleteChart(sheet, chart.name);
    else if ((await gateway.updateChart(sheet, chart.name, spec.spec)) === 'missing') await gateway.addChart({ sheet, over: spec.over }, spec.spec, spec.name);
  }
}
