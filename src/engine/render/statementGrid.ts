// Statement -> grid: one or several reports of one kind, side by side, as a host-free Grid the workbook
// gateway writes as it is. Layout, number formats, bold, indents and outline levels are decided here so
// the gateway stays a dumb writer and this stays testable in Node.

import { periodLabel } from '../dates';
import { MAX_OUTLINE_LEVEL } from '../ports/workbook';
import { Cell, EMPTY, GENERAL_FORMAT, GridArea, TEXT_FORMAT, num, text } from './grid';
import {
  RenderError,
  SCALE_DIVISOR,
  Scale,
  accountingFormat,
  assertCents,
  centsToDisplay,
  displayDecimals,
  unitsNote,
} from './money';
import { AlignedLine, LineValueField, alignSectionLines } from './statementLines';
import { totalReport, type TotalOf } from './totalColumn';
import { PERCENT_FORMAT, VARIANCE_LABEL, VARIANCE_PERCENT_LABEL, orientationOf, varianceCells } from './varianceColumns';
import type {
  BalanceSheetReport,
  CashFlowReport,
  IncomeStatementReport,
  ReportSection,
  StatementKind,
  StatementReport,
} from './reportShapes';

export type RowRole =
  | 'title' // company name, statement name, period, refreshed, units
  | 'blank'
  | 'column-header' // the period labels
  | 'section-heading'
  | 'line' // one category (or grp_ group) of a section
  | 'section-total'
  | 'subtotal' // figures the API computes across sections: operating income, net income, change in cash...
  | 'check'; // a difference that the spec promises to be zero

export interface RowInfo {
  readonly role: RowRole;
  readonly bold: boolean;
  /** Indent level of the label cell (Excel's indentLevel). */
  readonly indent: number;
  /**
   * Excel row outline level: 0 outside sections, 1 + tree depth for lines, so a section folds to its
   * heading and total. Parents sit above their children (they carry the subtotal as the API lists it),
   * so the sheet's outline must put summary rows above detail, not Excel's default below.
   */
  readonly outlineLevel: number;
  /** The report field of the section (`revenue`, `operating_activities`...) for section rows. */
  readonly section?: string;
  /** Lines only. */
  readonly categoryId?: string;
  readonly parentCategoryId?: string | null;
  readonly depth?: number;
  readonly hasChildren?: boolean;
  /** A synthetic cash-flow group (`grp_`): not a category, not usable with /journal_entries. */
  readonly isGroup?: boolean;
  /** Subtotal and check rows: which figure (`net_income_cents`, `check_net_income`...). */
  readonly figure?: string;
}

export interface PeriodColumn {
  readonly column: number;
  readonly label: string;
  /** Periodic statements. */
  readonly start?: string;
  readonly end?: string;
  /** Balance sheet. */
  readonly date?: string;
  /** The report's own refreshed_at (Unix seconds of its latest journal entry), or null. */
  readonly dataRefreshedAt: number | null;
  /** A Variance or Variance % column: computed from the two periods, not a period of its own. */
  readonly variance?: 'amount' | 'percent';
}

export interface StatementGrid {
  readonly kind: StatementKind;
  readonly currency: string;
  readonly scale: Scale;
  /** Rectangular: every row has columnCount cells. Column 0 holds labels, columns 1.. the periods. */
  readonly rows: Cell[][];
  readonly rowCount: number;
  readonly columnCount: number;
  /** Same shape as rows: `@` on every text cell, the accounting format in the number block. */
  readonly numberFormats: string[][];
  readonly rowInfo: RowInfo[];
  /** Suggested widths in points (Office.js columnWidth units), one per column. */
  readonly columnWidths: number[];
  /** The block of period values, from the first body row to the last row. */
  readonly values: GridArea;
  readonly columnHeaderRow: number;
  readonly columns: PeriodColumn[];
}

export interface RenderStatementInput {
  /** One report per column, in column order, all of one kind and one currency. */
  readonly reports: readonly StatementReport[];
  readonly companyName: string;
  /** Column headers; derived from the reports' dates when omitted. */
  readonly periodLabels?: readonly string[];
  /** The line under the statement's name; by default the periods described (a consolidation says more). */
  readonly description?: string;
  /** When the add-in fetched the reports (shown as "Refreshed <local date and time> <zone>"). */
  readonly refreshedAt: Date;
  /**
   * The IANA time zone the refresh time is shown in: the user's, which the host knows and the engine does
   * not read for itself; default UTC.
   */
  readonly timeZone?: string;
  /** Which refresh wrote it, said after the time (issue 14: a changes refresh keeps older figures). */
  readonly refreshKind?: RefreshKindStamp;
  readonly scale: Scale;
  /** One more column after the periods, "Total", summed from their cents (periodic statements only). */
  readonly total?: boolean;
  /** What the columns are, so what their total is (totalColumn.ts): periods by default; companies in a consolidation. */
  readonly totalOf?: TotalOf;
  /**
   * Two reports, the actual then the comparison, followed by Variance and Variance % columns computed from
   * their cents (varianceColumns.ts).
   */
  readonly variance?: boolean;
  /** For the derived column labels (FY and fiscal quarters); default 1. */
  readonly fiscalYearStartMonth?: number;
}

export type RefreshKindStamp = 'full' | 'changes' | 'block' | 'sheet' | 'selection' | 'roll';

const KIND_WORDS: Record<RefreshKindStamp, string> = {
  full: 'full refresh',
  changes: 'refresh of changes',
  block: 'this block alone',
  sheet: 'refresh of its sheet',
  selection: 'refresh of a selection',
  roll: 'rolled to the reporting period',
};

/** The header of the column summing the periods. */
export const TOTAL_LABEL = 'Total';

// ---------------------------------------------------------------------------------------------------
// Layout per statement kind

interface SectionBlock {
  readonly type: 'section';
  readonly key: string;
  readonly heading: string;
  readonly totalLabel: string;
  /** Optional sections appear only when some period has them; a period without one has no activity there. */
  readonly optional: boolean;
}

interface FigureBlock {
  readonly type: 'figure';
  readonly key: string;
  readonly label: string;
  readonly bold: boolean;
  /** Shown only when some report has the field. */
  readonly optional: boolean;
  /** The label where the engine took the figure from the balance sheets (cash_from_balance_sheets). */
  readonly fromBalanceSheets?: string;
}

interface CheckBlock {
  readonly type: 'check';
  readonly key: string;
  readonly label: string;
  /** The difference in cents, or undefined when the report lacks a figure the check needs. */
  readonly difference: (report: StatementReport) => number | undefined;
  /** Shown only when some report can compute it. */
  readonly optional: boolean;
}

type Block = SectionBlock | FigureBlock | CheckBlock | { readonly type: 'blank' };

const BLANK = { type: 'blank' } as const;

function field(report: StatementReport, key: string): unknown {
  return (report as unknown as Record<string, unknown>)[key];
}

function sectionOf(report: StatementReport, key: string): ReportSection | undefined {
  const s = field(report, key);
  return s && typeof s === 'object' ? (s as ReportSection) : undefined;
}

function centsField(report: StatementReport, key: string): number | undefined {
  const v = field(report, key);
  if (v === undefined || v === null) return undefined;
  assertCents(v, `${report.object}.${key}`);
  return v;
}

function sectionTotal(report: StatementReport, key: string): number | undefined {
  const s = sectionOf(report, key);
  if (!s) return undefined;
  assertCents(s.total_cents, `${report.object}.${key}.total_cents`);
  return s.total_cents;
}

/** Sum of section totals, counting an absent section as no activity. */
function sumOfSections(report: StatementReport, keys: readonly string[]): number {
  return keys.reduce((acc, key) => acc + (sectionTotal(report, key) ?? 0), 0);
}

const INCOME_SECTIONS = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'];
const CASH_SECTIONS = ['operating_activities', 'investing_activities', 'financing_activities'];

const section = (key: string, heading: string, totalLabel: string, optional = false): SectionBlock => ({
  type: 'section', key, heading, totalLabel, optional,
});

const LAYOUTS: Readonly<Record<StatementKind, readonly Block[]>> = {
  income_statement: [
    section('revenue', 'Revenue', 'Total revenue'), BLANK,
    section('uncategorized_income', 'Uncategorized income', 'Total uncategorized income', true), BLANK,
    section('expenses', 'Expenses', 'Total expenses'), BLANK,
    section('uncategorized_expenses', 'Uncategorized expenses', 'Total uncategorized expenses', true), BLANK,
    { type: 'figure', key: 'operating_income_cents', label: 'Operating income', bold: true, optional: false }, BLANK,
    section('non_operating_income', 'Non-operating income', 'Total non-operating income'), BLANK,
    section('taxes', 'Taxes', 'Total taxes', true), BLANK,
    { type: 'figure', key: 'net_income_cents', label: 'Net income', bold: true, optional: false }, BLANK,
    {
      type: 'check', key: 'check_net_income', label: 'Check: net income = sum of sections', optional: false,
      difference: (r) => {
        const net = centsField(r, 'net_income_cents');
        return net === undefined ? undefined : net - sumOfSections(r, INCOME_SECTIONS);
      },
    },
  ],
  balance_sheet: [
    section('assets', 'Assets', 'Total assets'), BLANK,
    section('liabilities', 'Liabilities', 'Total liabilities'), BLANK,
    section('equity', 'Equity', 'Total equity'), BLANK,
    { type: 'figure', key: 'liabilities_and_equity_cents', label: 'Total liabilities and equity', bold: true, optional: false }, BLANK,
    {
      type: 'check', key: 'check_balance', label: 'Check: liabilities and equity = assets', optional: false,
      difference: (r) => {
        const le = centsField(r, 'liabilities_and_equity_cents');
        const assets = sectionTotal(r, 'assets');
        return le === undefined || assets === undefined ? undefined : le - assets;
      },
    },
  ],
  cash_flow: [
    section('operating_activities', 'Operating activities', 'Net cash from operating activities'), BLANK,
    section('investing_activities', 'Investing activities', 'Net cash from investing activities', true), BLANK,
    section('financing_activities', 'Financing activities', 'Net cash from financing activities', true), BLANK,
    { type: 'figure', key: 'change_in_cash_cents', label: 'Net change in cash', bold: true, optional: false },
    // Required: a cash flow reaches the renderer with both, the API's or the balance sheets' (reader/cashFlowCash.ts).
    { type: 'figure', key: 'beginning_cash_cents', label: 'Beginning cash', bold: false, optional: false, fromBalanceSheets: 'Beginning cash (balance sheet)' },
    { type: 'figure', key: 'ending_cash_cents', label: 'Ending cash', bold: true, optional: false, fromBalanceSheets: 'Ending cash (balance sheet)' }, BLANK,
    {
      type: 'check', key: 'check_change_in_cash', label: 'Check: change in cash = sum of activities', optional: false,
      difference: (r) => {
        const change = centsField(r, 'change_in_cash_cents');
        return change === undefined ? undefined : change - sumOfSections(r, CASH_SECTIONS);
      },
    },
    {
      type: 'check', key: 'check_ending_cash', label: 'Check: ending cash = beginning cash + change', optional: false,
      difference: (r) => {
        const begin = centsField(r, 'beginning_cash_cents');
        const end = centsField(r, 'ending_cash_cents');
        const change = centsField(r, 'change_in_cash_cents');
        return begin === undefined || end === undefined || change === undefined ? undefined : end - begin - change;
      },
    },
  ],
};

const STATEMENT_NAMES: Readonly<Record<StatementKind, string>> = {
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  cash_flow: 'Cash flow statement',
};

const LINE_FIELD: Readonly<Record<StatementKind, LineValueField>> = {
  income_statement: 'amount_cents',
  balance_sheet: 'balance_cents',
  cash_flow: 'amount_cents',
};

// ---------------------------------------------------------------------------------------------------
// Rendering

/** The block's row that says when its figures were fetched (0-based: after company, name and period). */
export const STAMP_ROW = 3;

// One formatter per zone: building an Intl.DateTimeFormat costs far more than using one.
const stampFormats = new Map<string, Intl.DateTimeFormat>();

function stampFormat(timeZone: string): Intl.DateTimeFormat {
  let format = stampFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    stampFormats.set(timeZone, format);
  }
  return format;
}

/**
 * "2026-07-15 11:30 PDT": the date and time in the user's zone, the zone named (its short name, or its
 * offset where it has none: "GMT+1"), so anyone reading the workbook later knows the instant. An unknown
 * zone falls back to UTC rather than fail the block.
 */
export function formatRefreshedAt(at: Date, timeZone = 'UTC'): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RenderError('refreshedAt is not a valid time');
  let format: Intl.DateTimeFormat;
  try {
    format = stampFormat(timeZone);
  } catch {
    format = stampFormat('UTC');
  }
  const part: Record<string, string> = {};
  for (const p of format.formatToParts(new Date(ms))) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

function isBalanceSheet(r: StatementReport): r is BalanceSheetReport {
  return r.object === 'balance_sheet';
}

function periodOf(r: StatementReport): { start?: string; end?: string; date?: string } {
  if (isBalanceSheet(r)) return { date: r.date };
  const p = r as IncomeStatementReport | CashFlowReport;
  return { start: p.start_date, end: p.end_date };
}

function describePeriods(reports: readonly StatementReport[], labels: readonly string[]): string {
  if (isBalanceSheet(reports[0])) {
    const dates = reports.map((r) => (r as BalanceSheetReport).date);
    return dates.length === 1 ? `As of ${dates[0]}` : `As of ${dates.length} dates: ${labels.join(', ')}`;
  }
  const periods = reports.map((r) => r as IncomeStatementReport | CashFlowReport);
  if (periods.length === 1) return `For the period ${periods[0].start_date} to ${periods[0].end_date}`;
  // A comparison: the period first, then an earlier one to set it against.
  if (periods.length === 2 && periods[1].end_date < periods[0].start_date) {
    return `${periods[0].start_date} to ${periods[0].end_date} against ${periods[1].start_date} to ${periods[1].end_date}`;
  }
  const start = periods.reduce((m, p) => (p.start_date < m ? p.start_date : m), periods[0].start_date);
  const end = periods.reduce((m, p) => (p.end_date > m ? p.end_date : m), periods[0].end_date);
  return `${periods.length} periods from ${start} to ${end}`;
}

function validate(input: RenderStatementInput): void {
  const { reports } = input;
  if (reports.length === 0) throw new RenderError('no report to render');
  const kind = reports[0].object;
  if (!(kind in LAYOUTS)) throw new RenderError(`unknown statement kind ${JSON.stringify(kind)}`);
  for (const r of reports) {
    if (r.object !== kind) throw new RenderError(`cannot put a ${r.object} report beside ${kind} reports`);
    if (r.currency !== reports[0].currency) {
      throw new RenderError(`reports in ${reports[0].currency} and ${r.currency} cannot share columns`);
    }
  }
  if (input.periodLabels && input.periodLabels.length !== reports.length) {
    throw new RenderError(`${input.periodLabels.length} period labels for ${reports.length} reports`);
  }
  if (!(input.scale in SCALE_DIVISOR)) throw new RenderError(`unknown scale ${String(input.scale)}`);
  if (input.variance && reports.length !== 2) throw new RenderError(`a variance compares two reports, not ${reports.length}`);
  if (input.variance && input.total) throw new RenderError('a comparison has a variance, not a total');
}

interface Builder {
  readonly rows: Cell[][];
  readonly info: RowInfo[];
}

const plain = (role: RowRole, bold = false): RowInfo => ({ role, bold, indent: 0, outlineLevel: 0 });

/** A report's column heading: its date, or its period as the user reads it ("Q3 2026", "Jul 2026"). */
function columnLabelOf(report: StatementReport, fiscalYearStartMonth: number | undefined): string {
  const p = periodOf(report);
  if (p.date !== undefined) return p.date;
  try {
    return periodLabel(p.start!, p.end!, { fiscalYearStartMonth: fiscalYearStartMonth ?? 1 });
  } catch {
    return `${p.start} to ${p.end}`; // dates the API should never send; show them rather than fail
  }
}

/** Text as text, titles and labels General, figures in the accounting format, the variance % in percent. */
function numberFormatsOf(rows: readonly (readonly Cell[])[], firstBodyRow: number, moneyFormat: string, percentColumn: number): string[][] {
  return rows.map((row, r) =>
    row.map((cell, c) => {
      if (cell.kind === 'text') return TEXT_FORMAT;
      if (r < firstBodyRow || c < 1) return GENERAL_FORMAT;
      return c === percentColumn ? PERCENT_FORMAT : moneyFormat;
    }),
  );
}

/** The grid's columns of figures: one per report (its period and data stamp), then the variance pair. */
function periodColumns(reports: readonly StatementReport[], labels: readonly string[], variance: boolean): PeriodColumn[] {
  const columns: PeriodColumn[] = reports.map((r, i) => ({
    column: i + 1,
    label: labels[i],
    ...periodOf(r),
    dataRefreshedAt: typeof r.refreshed_at === 'number' ? r.refreshed_at : null,
  }));
  if (variance) {
    const n = reports.length;
    columns.push(
      { column: n + 1, label: VARIANCE_LABEL, dataRefreshedAt: null, variance: 'amount' },
      { column: n + 2, label: VARIANCE_PERCENT_LABEL, dataRefreshedAt: null, variance: 'percent' },
    );
  }
  return columns;
}

export function renderStatement(input: RenderStatementInput): StatementGrid {
  validate(input);
  const { scale } = input;
  const periods = input.reports;
  const kind = periods[0].object;
  const currency = periods[0].currency;
  const periodLabels = input.periodLabels ? [...input.periodLabels] : periods.map((r) => columnLabelOf(r, input.fiscalYearStartMonth));
  // From here on the total, when asked for, is one more column like the others.
  const reports = input.total ? [...periods, totalReport(periods, input.totalOf)] : periods;
  const labels = input.total ? [...periodLabels, TOTAL_LABEL] : periodLabels;
  const n = reports.length;
  const varianceColumns = input.variance ? 2 : 0;
  const width = 1 + n + varianceColumns;

  const b: Builder = { rows: [], info: [] };
  // `cents`, for rows of figures: what the variance of the row is computed from (the actual, then the comparison).
  const push = (label: Cell, values: Cell[], info: RowInfo, cents?: readonly (number | undefined)[]): void => {
    const variance = !input.variance
      ? []
      : cents
        ? varianceCells(cents[0], cents[1], orientationOf(kind, info), scale)
        : [EMPTY, EMPTY];
    b.rows.push([label, ...values, ...variance]);
    b.info.push(info);
  };
  const blanks = (): Cell[] => new Array<Cell>(n).fill(EMPTY);
  const money = (cents: number | undefined): Cell => (cents === undefined ? EMPTY : num(centsToDisplay(cents, scale)));
  // A section line or total that a column's report leaves out (the section, or the line within it) had no
  // activity in that period: 0, which the accounting format shows as the dash. A figure the report lacks
  // stays blank: nothing says it is zero.
  const activity = (cents: number | undefined): Cell => num(centsToDisplay(cents ?? 0, scale));

  // Title block.
  push(text(input.companyName), blanks(), plain('title', true));
  push(text(STATEMENT_NAMES[kind]), blanks(), plain('title', true));
  push(text(input.description ?? describePeriods(periods, periodLabels)), blanks(), plain('title'));
  const by = input.refreshKind ? ` (${KIND_WORDS[input.refreshKind]})` : '';
  push(text(`Refreshed ${formatRefreshedAt(input.refreshedAt, input.timeZone)}${by}`), blanks(), plain('title'));
  // (STAMP_ROW: the row index of this line, which a failed refresh rewrites.)
  push(text(unitsNote(currency, scale)), blanks(), plain('title'));
  push(EMPTY, blanks(), plain('blank'));
  const columnHeaderRow = b.rows.length;
  const varianceLabels = input.variance ? [text(VARIANCE_LABEL), text(VARIANCE_PERCENT_LABEL)] : [];
  b.rows.push([EMPTY, ...labels.map((l) => text(l)), ...varianceLabels]);
  b.info.push(plain('column-header', true));
  const firstBodyRow = b.rows.length;

  const layout = LAYOUTS[kind];
  let lastWasBlank = true;
  for (const block of layout) {
    if (block.type === 'blank') {
      if (!lastWasBlank) push(EMPTY, blanks(), plain('blank'));
      lastWasBlank = true;
      continue;
    }
    if (block.type === 'section') {
      const sections = reports.map((r) => sectionOf(r, block.key));
      if (sections.every((s) => s === undefined)) {
        if (block.optional) continue;
        throw new RenderError(`${kind} has no ${block.key} section`);
      }
      const lines: AlignedLine[] = alignSectionLines(sections, LINE_FIELD[kind], block.key);
      push(text(block.heading), blanks(), { ...plain('section-heading', true), section: block.key });
      for (const line of lines) {
        const cents = line.cents.map((c) => c ?? 0);
        push(text(line.name), cents.map(activity), {
          role: 'line',
          bold: false,
          indent: line.depth + 1,
          // Lines deeper than Excel's outline allows share its deepest group; their indent still shows the tree.
          outlineLevel: Math.min(line.depth + 1, MAX_OUTLINE_LEVEL),
          section: block.key,
          categoryId: line.categoryId,
          parentCategoryId: line.parentCategoryId,
          depth: line.depth,
          hasChildren: line.hasChildren,
          isGroup: line.categoryId.startsWith('grp_'),
        }, cents);
      }
      const totals = reports.map((r) => sectionTotal(r, block.key) ?? 0);
      push(text(block.totalLabel), totals.map(activity), {
        ...plain('section-total', true),
        section: block.key,
      }, totals);
    } else if (block.type === 'figure') {
      const cents = reports.map((r) => centsField(r, block.key));
      if (cents.every((c) => c === undefined)) {
        if (block.optional) continue;
        throw new RenderError(`${kind} has no ${block.key}`);
      }
      const label = block.fromBalanceSheets && reports.some((r) => field(r, 'cash_from_balance_sheets') === true) ? block.fromBalanceSheets : block.label;
      push(text(label), cents.map(money), { ...plain('subtotal', block.bold), figure: block.key }, cents);
    } else {
      const diffs = reports.map(block.difference);
      if (block.optional && diffs.every((d) => d === undefined)) continue;
      // A check that cannot be computed stays blank: a 0 there would claim a pass.
      push(text(block.label), diffs.map((d) => (d === undefined ? EMPTY : num(centsToDisplay(d, scale)))), {
        ...plain('check'),
        figure: block.key,
      });
    }
    lastWasBlank = false;
  }
  // A layout ends on a check row, never a blank; drop one anyway if the layout changes.
  while (b.info.length > firstBodyRow && b.info[b.info.length - 1].role === 'blank') {
    b.rows.pop();
    b.info.pop();
  }

  const numberFormats = numberFormatsOf(b.rows, firstBodyRow, accountingFormat(currency, scale), input.variance ? width - 1 : -1);
  const columns = periodColumns(reports, labels, input.variance === true);

  return {
    kind,
    currency,
    scale,
    rows: b.rows,
    rowCount: b.rows.length,
    columnCount: width,
    numberFormats,
    rowInfo: b.info,
    columnWidths: suggestWidths(b.rows, b.info, firstBodyRow, scale),
    values: { row: firstBodyRow, column: 1, rowCount: b.rows.length - firstBodyRow, columnCount: width - 1 },
    columnHeaderRow,
    columns,
  };
}

// Rough Calibri 11 metrics: about 6 points per character plus padding; close enough for a first layout
// the user will adjust, and deterministic, which a measured width would not be in Node.
const POINTS_PER_CHAR = 6.5;
const INDENT_POINTS = 9;

function suggestWidths(rows: readonly Cell[][], info: readonly RowInfo[], firstBodyRow: number, scale: Scale): number[] {
  const widths: number[] = [];
  let labelWidth = 0;
  rows.forEach((row, r) => {
    const cell = row[0];
    // Title rows may run across the empty cells beside them; they do not size the label column.
    if (cell.kind !== 'text' || info[r].role === 'title') return;
    labelWidth = Math.max(labelWidth, cell.value.length * POINTS_PER_CHAR + info[r].indent * INDENT_POINTS);
  });
  widths.push(Math.round(Math.min(Math.max(labelWidth + 12, 120), 360)));
  const decimals = displayDecimals(scale);
  for (let c = 1; c < rows[0].length; c++) {
    let chars = 8;
    rows.forEach((row, r) => {
      const cell = row[c];
      if (cell.kind === 'text') chars = Math.max(chars, cell.value.length);
      if (cell.kind === 'number' && r >= firstBodyRow) {
        const digits = Math.max(1, Math.floor(Math.log10(Math.max(1, Math.abs(cell.value)))) + 1);
        // digits, thousands separators, decimals, and the symbol and parentheses of the accounting format
        chars = Math.max(chars, digits + Math.floor((digits - 1) / 3) + (decimals ? decimals + 1 : 0) + 4);
      }
    });
    widths.push(Math.round(Math.max(chars * POINTS_PER_CHAR + 12, 70)));
  }
  return widths;
}
