// The board pack's full-year outlook (issue 37, item 4): "where will the year land?" Beside the year to date
// against the kept budget, a table of FIN formulas on FIN_PERIOD, one row per line of the budget and Net Income:
//
//   Actual to date      FIN.PNL of the line over FIN_PERIOD's fiscal year to date (what the pack's year-to-date
//                       blocks read already: no call of its own)
//   Budget, months left FIN.BUDGET over the months after FIN_PERIOD to the fiscal year end (no call, ever)
//   Outlook             the two added
//   Full-year budget    FIN.BUDGET over the fiscal year
//   Variance, %         outlook less full-year budget, favourable positive, over the budget's size
//
// All in the statement's signs, as the blocks against the budget show them: a budget typed with costs positive
// has its cost lines turned negative (match.ts), by the sign each line had when the pack was inserted. The
// outlook's variance is the year to date's (the months left are the budget's own), which FIN.BUDGET_VARIANCE
// gives too. Moving FIN_PERIOD recalculates the table; nothing is rewritten. A budget that does not cover the
// fiscal year when the pack is inserted has its outlook left out with a word. Rolled later into a fiscal year
// the budget does not cover, the budget cells show FIN.BUDGET's #N/A naming the missing months (not yet a word).

import type { Category } from '../../api/types';
import { matchBudget, type BudgetMatch } from '../budgets/match';
import { prepareBudget } from '../budgets/column';
import { formatYearMonth, lastDayOf, shiftMonth, type YearMonth } from '../dates';
import { cellA1, qualify } from '../ports/address';
import type { WorkbookGateway } from '../ports/workbook';
import { PERCENT_FORMAT, VARIANCE_LABEL, VARIANCE_PERCENT_LABEL } from '../render/varianceColumns';
import type { Tree } from '../tree';
import { monthsIntoYear } from './boardCharts';
import { formulaText } from './packRoles';
import { REPORTING_PERIOD_NAME } from './period';
import { MONEY_FORMAT } from './packReads';

const P = REPORTING_PERIOD_NAME;

export const OUTLOOK_TITLE = 'Full-year outlook';

export const OUTLOOK_HEADERS = ['Line', 'Actual to date', 'Budget, months left', 'Outlook', 'Full-year budget', VARIANCE_LABEL, VARIANCE_PERCENT_LABEL];

/** Rows of the table below its anchor (0-based): title, note, the month count, the header, then the lines. */
const COUNT_ROW = 2;
const HEADER_ROW = 3;
const FIRST_LINE_ROW = 4;

/** One line of the outlook: the budget's line as typed, the category it matched, its sign on the statement. */
export interface OutlookLine {
  label: string;
  categoryId: string;
  /** -1: typed with the other sign than the statement shows it (a cost typed positive). */
  sign: 1 | -1;
}

/** The budget's lines matched to the chart, in the budget's order, each with its sign on the statement. */
export function outlookLines(match: Pick<BudgetMatch, 'matched' | 'costs'>): OutlookLine[] {
  return match.matched.map((m) => ({ label: m.line.label, categoryId: m.node.id, sign: match.costs === 'positive' ? m.direction : 1 }));
}

/** The fiscal year of a reporting month, as whole months. */
export function fiscalYearOf(month: YearMonth, fiscalYearStartMonth: number): { first: YearMonth; last: YearMonth } {
  const first = shiftMonth(month, 1 - monthsIntoYear(month, fiscalYearStartMonth));
  return { first, last: shiftMonth(first, 11) };
}

/**
 * The table as a grid of labels and formulas, anchored at 0-based (row, col) of its sheet: each formula refers to
 * the cells of its own row and to the month count above by address.
 */
export function outlookGrid(budget: string, lines: readonly OutlookLine[], anchor: { row: number; col: number }, fiscalYearStartMonth: number): (string | null)[][] {
  const at = (r: number, c: number) => cellA1(anchor.row + r, anchor.col + c);
  const count = cellA1(anchor.row + COUNT_ROW, anchor.col + 1, true);
  const left = `(12-${count})`;
  const budgetOver = (line: OutlookLine, from: string) => `${line.sign < 0 ? '-' : ''}FIN.BUDGET(${budget},${formulaText(line.label)},${from},FIN.PERIOD(${P},${left}))`;
  // Outlook, variance and its percentage: of the cells to their left on the same row.
  const tail = (r: number): string[] => [`=${at(r, 1)}+${at(r, 2)}`, `=${at(r, 3)}-${at(r, 4)}`, `=IF(${at(r, 4)}=0,"",${at(r, 5)}/ABS(${at(r, 4)}))`];
  const rows: (string | null)[][] = lines.map((line, i) => {
    const [outlook, variance, percent] = tail(FIRST_LINE_ROW + i);
    return [
      line.label,
      `=FIN.PNL(${formulaText(line.categoryId)},${P}&" YTD")`,
      `=IF(${left}=0,0,${budgetOver(line, `FIN.PERIOD(${P},1)`)})`,
      outlook,
      `=${budgetOver(line, `FIN.PERIOD(${P},1-${count})`)}`,
      variance,
      percent,
    ];
  });
  const net = FIRST_LINE_ROW + lines.length;
  const column = (c: number) => `SUM(${at(FIRST_LINE_ROW, c)}:${at(net - 1, c)})`;
  const [outlook, variance, percent] = tail(net);
  return [
    [OUTLOOK_TITLE, null, null, null, null, null, null],
    [
      `Where the year lands: the actual to date plus the budget for the months after ${P}, against the budget for its fiscal year. In the statement's signs (costs negative), favourable positive.`,
      null, null, null, null, null, null,
    ],
    ['Months of the fiscal year to date', `=MOD(VALUE(RIGHT(${P},2))-${fiscalYearStartMonth},12)+1`, null, null, null, null, null],
    [...OUTLOOK_HEADERS],
    ...rows,
    ['Net Income', `=FIN.PNL("Net Income",${P}&" YTD")`, `=${column(2)}`, outlook, `=${column(4)}`, variance, percent],
  ];
}

/** Why a pack's outlook is left out: the budget does not cover the reporting month's fiscal year. */
export function outlookLeftOut(budget: string, why: string): string {
  return `Left out: the budget ${budget} does not cover the whole fiscal year (${why}): add its months, then insert the pack again`;
}

/**
 * Writes the outlook at the anchor (beside the year to date against the budget): labels and formats as a grid,
 * then its formulas in one go (Excel calculates them). The chart of accounts is the pack's own read (cached by
 * then), the budget the workbook's. Returns the address written.
 */
export async function insertOutlook(
  gateway: WorkbookGateway,
  at: { sheet: string; row: number; col: number },
  options: { budget: string; month: YearMonth; fiscalYearStartMonth: number; chart: () => Promise<Tree<Category>> },
): Promise<string> {
  const { budget, month, fiscalYearStartMonth } = options;
  const year = fiscalYearOf(month, fiscalYearStartMonth);
  const ym = (m: YearMonth) => formatYearMonth(m.year, m.month);
  let prepared;
  try {
    prepared = await prepareBudget(gateway, { budget, start: `${ym(year.first)}-01`, end: lastDayOf(year.last.year, year.last.month), fiscalYearStartMonth });
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^[^:]*: /, '') : String(error);
    const word = [[OUTLOOK_TITLE], [outlookLeftOut(budget, why.replace(/\.$/, ''))]];
    return (await gateway.writeGrid({ kind: 'anchor', sheet: at.sheet, cell: cellA1(at.row, at.col) }, { values: word, boldRows: [0] })).address;
  }
  const lines = outlookLines(matchBudget(prepared.sheet, await options.chart()));
  const grid = outlookGrid(budget, lines, at, fiscalYearStartMonth);
  const labels = grid.map((row, r) => row.map((cell, c) => (r < FIRST_LINE_ROW && r !== COUNT_ROW) || c === 0 ? cell : null));
  const formats: (string | null)[][] = grid.map((row, r) => row.map((_, c) => (r < FIRST_LINE_ROW || c === 0 ? null : c === 6 ? PERCENT_FORMAT : MONEY_FORMAT)));
  formats[COUNT_ROW][1] = '0';
  labels[COUNT_ROW][0] = grid[COUNT_ROW][0];
  const written = await gateway.writeGrid(
    { kind: 'anchor', sheet: at.sheet, cell: cellA1(at.row, at.col) },
    { values: labels, cellFormats: formats, boldRows: [0, HEADER_ROW, grid.length - 1] },
  );
  const formulas = grid.map((row, r) => row.map((cell, c) => (c > 0 && r >= COUNT_ROW && r !== HEADER_ROW ? cell : null)));
  await gateway.writeFormulas(qualify(at.sheet, { row: at.row, col: at.col, rows: 1, cols: 1 }), formulas);
  return written.address;
}
