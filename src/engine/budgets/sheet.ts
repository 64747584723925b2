// A budget as the user keeps it in a sheet: category names (or paths) down the first column, months across the
// first row, figures in units. One reader serves the pane (the range read through the workbook port) and the FIN
// functions (the same range handed over by Excel), so both see the same budget:
// - The first row heads the columns: a month (a date cell, 2026-01, Jan 2026, January 2026, Jan-26, 1/2026) or
//   anything else, a Total or a note, which is left out and said. A blank heading over figures is refused: no
//   figure is dropped unseen.
// - The first column names the lines. A row whose figures are all blank or zero is a heading (Excel hands a blank
//   cell of a range to a custom function as 0 on Windows, office-js#5262, so blank and zero cannot be told
//   apart there, and are not here either); figures without a name are refused.
// - A figure is a number. Text ("1,200" typed as text), TRUE/FALSE or an error is refused, saying where: a
//   budget cell is the user's input, and a figure read as zero would look right and be wrong.

import { daysInMonth, monthFullName, monthLabel, monthIndexToYearMonth, yearMonthToMonthIndex, type YearMonth } from '../dates';
import { fail, ok, type Result } from '../result';
import { normalizePath } from '../tree';
import { unitsToCents } from './units';

export interface BudgetLine {
  /** The name or path as typed, trimmed. */
  readonly label: string;
  /** 0-based row within the range. */
  readonly row: number;
  /** Cents in the user's own signs, one per month of the budget (BudgetSheet.months). */
  readonly cents: readonly number[];
}

export interface BudgetSheet {
  /** The month of each month column, in column order (month indexes: yearMonthToMonthIndex). */
  readonly months: readonly number[];
  /** The 0-based column of each month, in the same order. */
  readonly monthColumns: readonly number[];
  readonly lines: readonly BudgetLine[];
  /** Columns headed by something other than a month, left out, with their heading. */
  readonly skipped: readonly { readonly column: number; readonly header: string }[];
}

export interface BudgetReadOptions {
  /** The month of a date serial in the workbook's date system; null when the number is no date. */
  readonly monthOfSerial: (serial: number) => YearMonth | null;
  /** Where a cell of the range is, for messages ("Budget!D7"); by default its row and column in the budget. */
  readonly cellName?: (row: number, column: number) => string;
}

/** A budget's months are this century's business: a number heading before it (12, 2026) is not a date. */
const FIRST_YEAR = 1950;

/** More cells than any budget has: a whole-column reference handed over by mistake. */
const MAX_CELLS = 1_000_000;

const ERROR_LITERAL = /^#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|SPILL!|CALC!|BUSY!|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|UNKNOWN!)$/i;

const defaultCellName = (row: number, column: number): string => `row ${row + 1}, column ${column + 1} of the budget`;

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === 0 || (typeof value === 'string' && value.trim() === '');
}

/** "jan", "sept", "january" -> 1..12; at least three letters of the month's name. */
function monthOfWord(word: string): number | null {
  const w = word.toLowerCase();
  if (w.length < 3) return null;
  for (let m = 1; m <= 12; m++) {
    const full = monthFullName(m).toLowerCase();
    if (full.startsWith(w) || (m === 9 && w === 'sept')) return m;
  }
  return null;
}

const ISO_MONTH = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?$/;
const NAMED_MONTH = /^([A-Za-z]+)\.?[\s\-/']*(\d{4}|\d{2})$/;
const NUMBERED_MONTH = /^(\d{1,2})\/(\d{4})$/;

function monthOfText(text: string): YearMonth | null {
  const t = text.trim();
  let m = ISO_MONTH.exec(t);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    if (month < 1 || month > 12) return null;
    if (m[3] !== undefined && (Number(m[3]) < 1 || Number(m[3]) > daysInMonth(year, month))) return null;
    return { year, month };
  }
  m = NAMED_MONTH.exec(t);
  if (m) {
    const month = monthOfWord(m[1]);
    if (month === null) return null;
    const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    return { year, month };
  }
  m = NUMBERED_MONTH.exec(t);
  if (m) {
    const month = Number(m[1]);
    return month >= 1 && month <= 12 ? { year: Number(m[2]), month } : null;
  }
  return null;
}

/** A column heading: its month, null for a heading that is no month, 'blank' for none. */
function monthOfHeading(value: unknown, options: BudgetReadOptions): YearMonth | null | 'blank' {
  if (isBlank(value)) return 'blank';
  let month: YearMonth | null = null;
  if (typeof value === 'number') month = options.monthOfSerial(value);
  else if (typeof value === 'string') month = monthOfText(value);
  return month && month.year >= FIRST_YEAR && month.year <= 9999 ? month : null;
}

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A figure cell: cents in the user's signs (0 for a blank), or what is wrong with it and what to do. */
function figureOf(value: unknown): { cents: number } | { problem: string; advice: string } {
  if (value === null || value === undefined) return { cents: 0 };
  if (typeof value === 'number') {
    const cents = unitsToCents(value);
    return cents === null ? { problem: `${shown(value)} where a figure belongs`, advice: 'type the amount in units' } : { cents };
  }
  if (typeof value === 'string') {
    if (value.trim() === '') return { cents: 0 };
    if (ERROR_LITERAL.test(value.trim())) return { problem: `the error ${value.trim().toUpperCase()} where a figure belongs`, advice: 'correct what the cell reads' };
    return { problem: `text "${shown(value)}" where a figure belongs`, advice: 'type it as a number' };
  }
  if (typeof value === 'boolean') return { problem: `${value ? 'TRUE' : 'FALSE'} where a figure belongs`, advice: 'type a number' };
  return { problem: 'an error where a figure belongs', advice: 'correct what the cell reads' };
}

/** Why a range of this size is no budget (a whole column or row selected), or null: said before its cells are read. */
export function budgetSizeProblem(rows: number, columns: number): string | null {
  if (rows * columns <= MAX_CELLS) return null;
  return `The budget's range holds ${rows.toLocaleString('en-US')} rows by ${columns.toLocaleString('en-US')} columns: select only the budget (its months across the top, its lines below).`;
}

/**
 * The budget in a range of cells (values as Excel gives them, row by row), or what to fix, naming the cell.
 */
export function readBudget(values: readonly (readonly unknown[])[], options: BudgetReadOptions): Result<BudgetSheet> {
  const cellName = options.cellName ?? defaultCellName;
  // A loop, not Math.max(...rows): a whole-column range has a million rows, more arguments than a call takes.
  const rowsOk = Array.isArray(values) && values.every((r) => Array.isArray(r));
  let width = 0;
  if (rowsOk) for (const row of values) width = Math.max(width, row.length);
  if (!rowsOk || values.length < 2 || width < 2) {
    return fail('A budget needs at least two rows and two columns: months across its first row, category names down its first column.');
  }
  const tooLarge = budgetSizeProblem(values.length, width);
  if (tooLarge) return fail(tooLarge);
  const header = values[0];
  const months: number[] = [];
  const monthColumns: number[] = [];
  const skipped: { column: number; header: string }[] = [];
  const columnOfMonth = new Map<number, number>();
  for (let c = 1; c < width; c++) {
    const heading = monthOfHeading(header[c], options);
    const hasFigures = values.some((row, r) => r > 0 && !isBlank(row[c]));
    if (heading === 'blank') {
      if (hasFigures) {
        return fail(`Figures under no month: ${cellName(0, c)} is blank. Put the month above them (Jan 2026, 2026-01 or a date), or leave that column out of the budget's range.`);
      }
      continue;
    }
    if (heading === null) {
      skipped.push({ column: c, header: shown(header[c]) });
      continue;
    }
    const index = yearMonthToMonthIndex(heading.year, heading.month);
    const earlier = columnOfMonth.get(index);
    if (earlier !== undefined) {
      return fail(`${monthLabel(heading.year, heading.month)} heads two columns of the budget (${cellName(0, earlier)} and ${cellName(0, c)}): one column per month.`);
    }
    columnOfMonth.set(index, c);
    months.push(index);
    monthColumns.push(c);
  }
  // Excel calls no custom function with an error in its arguments unless its metadata allows it (Microsoft,
  // "Handle and return errors from your custom function"): one error cell anywhere in the range, a Total or
  // Var % column included, turns every FIN.BUDGET over the budget into that error, naming no cell.
  for (const { column, header: heading } of skipped) {
    for (let r = 1; r < values.length; r++) {
      const v = values[r][column];
      if (typeof v === 'string' && ERROR_LITERAL.test(v.trim())) {
        return fail(`${cellName(r, column)} (under "${heading}") shows ${v.trim().toUpperCase()}: Excel hands no FIN function a range holding an error, so every FIN.BUDGET over this budget would show it. Correct that cell, or leave the column out of the budget's range.`);
      }
    }
  }
  if (months.length === 0) {
    return fail(`No month in the budget's first row (${cellName(0, 1)} onwards): put the months across its top, as dates or as Jan 2026 or 2026-01.`);
  }

  const lines: BudgetLine[] = [];
  const rowOfLabel = new Map<string, number>();
  for (let r = 1; r < values.length; r++) {
    const row = values[r];
    const name = row[0];
    const label = typeof name === 'string' ? name.trim() : '';
    if (label !== '' && ERROR_LITERAL.test(label)) return fail(`The error ${label.toUpperCase()} where a category name belongs: ${cellName(r, 0)}.`);
    const cents: number[] = [];
    for (const [i, c] of monthColumns.entries()) {
      const figure = figureOf(row[c]);
      if ('problem' in figure) {
        const month = monthIndexToYearMonth(months[i]);
        const line = label ? `${label}, ` : '';
        return fail(`The budget has ${figure.problem} (${line}${monthLabel(month.year, month.month)}, ${cellName(r, c)}): ${figure.advice}.`);
      }
      cents.push(figure.cents);
    }
    const empty = cents.every((c) => c === 0);
    if (label === '') {
      if (empty) continue;
      const held = isBlank(name) ? 'is blank' : `holds ${shown(name)}, not a name`;
      return fail(`Figures without a category name in row ${r + 1} of the budget (${cellName(r, 0)} ${held}): name the line, or clear its figures.`);
    }
    // A heading ("Revenue" over its lines), or a line budgeted at nothing: it adds nothing either way.
    if (empty) continue;
    const key = normalizePath(label);
    const earlier = rowOfLabel.get(key);
    if (earlier !== undefined) {
      return fail(`"${shown(label)}" is on two lines of the budget (${cellName(earlier, 0)} and ${cellName(r, 0)}): one line per category.`);
    }
    rowOfLabel.set(key, r);
    lines.push({ label, row: r, cents });
  }
  return ok({ months, monthColumns, lines, skipped });
}

/** "Jan 2026 to Dec 2026" (or the one month): what the budget covers, for the pane. */
export function monthsCovered(sheet: Pick<BudgetSheet, 'months'>): string {
  const sorted = [...sheet.months].sort((a, b) => a - b);
  const first = monthIndexToYearMonth(sorted[0]);
  const last = monthIndexToYearMonth(sorted[sorted.length - 1]);
  const from = monthLabel(first.year, first.month);
  const gaps = sorted[sorted.length - 1] - sorted[0] + 1 - sorted.length;
  const span = sorted.length === 1 ? from : `${from} to ${monthLabel(last.year, last.month)}`;
  return gaps > 0 ? `${span} with ${gaps} ${gaps === 1 ? 'month' : 'months'} missing` : span;
}
