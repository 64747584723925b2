// What a selected cell is a number of, for "Show what's behind this cell": a cell of a statement block
// the pane inserted (its binding records the category of each row and the period of each column), or a
// FIN.TOTAL / FIN.PNL / FIN.BALANCE formula whose arguments are literals. Host-free and call-free: the
// category names of a formula are resolved against a category list the caller fetched.

import type { Category } from '../../api';
import { parseQualified, qualify } from '../ports/address';
import type { BindingRecord, Json, SelectionRead } from '../ports/workbook';
import { argumentEndDate, argumentsToPeriod, parseDateArgument, yearToDate, type DateArgument, type DateSystem } from '../dates';
import { resolveInTree } from '../fin/resolve';
import { buildTree } from '../tree';

/** The binding kind and parameters of a statement block (src/engine/statements writes them). */
const STATEMENT_KIND = 'statement';

export const SELECT_A_NUMBER =
  'Select a number in a statement block inserted from the Reports tab, or a cell with a FIN.TOTAL, FIN.PNL or FIN.BALANCE formula whose arguments are typed in it (e.g. =FIN.TOTAL("Rent","2025-Q3")), then try again.';

export interface CellTarget {
  categoryId: string;
  start: string;
  end: string;
  /** Where the target came from, for the message: "P&L FY2025!C12", "=FIN.TOTAL(...)". */
  source: string;
  /** Said to the user when the period is not the cell's own (a balance drilled into as its year's activity). */
  note?: string;
  /** The company of the statement block the cell is in (a block records its company). */
  company?: string;
}

export type TargetResult = { ok: true; target: CellTarget } | { ok: false; message: string };

export interface TargetOptions {
  /** The company's calendar date (for YTD / TTM in a formula). */
  today: string;
  /** 1-12, default 1. */
  fiscalYearStartMonth?: number;
  dateSystem?: DateSystem;
}

function balanceNote(what: string, date: string, start: string): string {
  return `${what} is a balance at ${date}: these are its entries from the start of the fiscal year (${start}) to that date, the change in the balance over the year to date, not the balance itself.`;
}

function strings(v: Json | undefined): (string | null)[] | null {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : null)) : null;
}

/**
 * The statement block the top-left selected cell is in, and the row's category and the column's period;
 * null when the cell is in no statement block. A cell of a block that has no entries of its own (a
 * heading, a total) gives a message saying what to select instead.
 */
export function statementCellTarget(selection: SelectionRead, bindings: readonly BindingRecord[], options: { fiscalYearStartMonth?: number } = {}): TargetResult | null {
  const { sheet, box: sel } = parseQualified(selection.address);
  for (const b of bindings) {
    if (b.kind !== STATEMENT_KIND) continue;
    let block;
    try {
      block = parseQualified(b.address);
    } catch {
      continue;
    }
    if (block.sheet.toLowerCase() !== sheet.toLowerCase()) continue;
    const { box } = block;
    const r = sel.row - box.row;
    const c = sel.col - box.col;
    if (r < 0 || r >= box.rows || c < 0 || c >= box.cols) continue;

    const p = b.parameters;
    const rows = strings(p.rowCategoryIds);
    const columns = Array.isArray(p.columnPeriods) ? p.columnPeriods : null;
    if (!rows || !columns) {
      return { ok: false, message: 'This statement block was inserted before drill-down from a cell existed: refresh it (Refresh on the Reports tab), then try again.' };
    }
    const categoryId = rows[r] ?? null;
    if (!categoryId) {
      return { ok: false, message: 'That row of the statement is a heading, a total or a group, which has no entries of its own: select the number of a category line.' };
    }
    // Column 0 holds the labels: with one period column the label means that period.
    const column = c === 0 && columns.length === 1 ? 0 : c - 1;
    const period = columns[column] as { start?: Json; end?: Json } | undefined;
    if (c === 0 && columns.length !== 1) return { ok: false, message: 'Select a number of the line (the column says which period), not its label.' };
    if (period === null) {
      return { ok: false, message: 'A variance is computed from the two periods beside it and has no entries of its own: select the number of one of the periods.' };
    }
    // By department: a column is some departments' share of the line; the Total column is the whole line.
    const departments = Array.isArray(p.columnDepartments) ? p.columnDepartments : null;
    if (departments && c > 0 && departments[column] !== null && departments[column] !== undefined) {
      return { ok: false, message: "That number is one department's share of the line: select the line's Total, whose entries each show their department." };
    }
    if (!period || typeof period.start !== 'string' || typeof period.end !== 'string' || !period.start || !period.end) {
      return { ok: false, message: 'That column of the statement has no period: select a number of the line.' };
    }
    const source = qualify(block.sheet, { row: sel.row, col: sel.col, rows: 1, cols: 1 });
    if (p.statement === 'balance_sheet') {
      const fy = typeof p.fiscalYearStartMonth === 'number' ? p.fiscalYearStartMonth : (options.fiscalYearStartMonth ?? 1);
      const ytd = yearToDate(period.end, fy);
      return { ok: true, target: { categoryId, start: ytd.start, end: ytd.end, source, note: balanceNote('This line', period.end, ytd.start), company: b.company } };
    }
    return { ok: true, target: { categoryId, start: period.start, end: period.end, source, company: b.company } };
  }
  return null;
}

export interface FinFormula {
  name: 'TOTAL' | 'PNL' | 'BALANCE';
  /** Literal arguments: text or numbers; null for an omitted one (`,,`). */
  args: (string | number | null)[];
}

/** Where each function's company argument is (its last, after the function's own). */
const COMPANY_ARGUMENT: Record<FinFormula['name'], number> = { TOTAL: 4, PNL: 3, BALANCE: 2 };

/** The company a FIN formula names (a connection's name or a company id); null when it names none (the default). */
export function formulaCompany(formula: FinFormula): string | null {
  const arg = formula.args[COMPANY_ARGUMENT[formula.name]];
  return typeof arg === 'string' && arg.trim() !== '' ? arg.trim() : null;
}

/**
 * Reads `=FIN.TOTAL("Operating Expenses > Rent","2025-Q3")`: null when the formula is not one of the three
 * functions, a message when an argument is not a literal (a cell reference, another function).
 */
export function parseFinFormula(formula: string | null): { ok: true; value: FinFormula } | { ok: false; message: string } | null {
  if (!formula) return null;
  const m = /^=\s*(?:_xldudf_)?FIN[._](TOTAL|PNL|BALANCE)\s*\(([\s\S]*)\)\s*$/i.exec(formula.trim());
  if (!m) return null;
  const name = m[1].toUpperCase() as FinFormula['name'];
  const args: (string | number | null)[] = [];
  const body = m[2];
  let i = 0;
  const skip = () => {
    while (i < body.length && /\s/.test(body[i])) i++;
  };
  for (;;) {
    skip();
    if (body[i] === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= body.length) return { ok: false, message: `The formula ${formula} has an unclosed text.` };
        if (body[i] === '"' && body[i + 1] === '"') {
          text += '"';
          i += 2;
        } else if (body[i] === '"') {
          i++;
          break;
        } else text += body[i++];
      }
      args.push(text);
    } else {
      const start = i;
      while (i < body.length && body[i] !== ',') i++;
      const raw = body.slice(start, i).trim();
      if (raw === '') args.push(null);
      else if (/^[-+]?\d+(\.\d+)?$/.test(raw)) args.push(Number(raw));
      else {
        return {
          ok: false,
          message: `The formula's argument ${raw} is not typed in it (a cell reference or a calculation): drill-down from a formula reads only literal text and numbers, such as =FIN.${name}(${name === 'BALANCE' ? '"Cash"' : '"Rent"'},"2025-Q3"). Use the inputs below instead.`,
        };
      }
    }
    skip();
    if (i >= body.length) break;
    if (body[i] !== ',') return { ok: false, message: `Cannot read the arguments of ${formula}.` };
    i++;
  }
  if (args.length === 1 && args[0] === null) args.length = 0;
  return { ok: true, value: { name, args } };
}

/** Where a department argument is (after the company), for the functions that take one. */
const DEPARTMENT_ARGUMENT: Partial<Record<FinFormula['name'], number>> = { TOTAL: 5, PNL: 4 };

/** The category and period a FIN formula's number covers, resolved the way the FIN functions resolve them. */
export function formulaTarget(formula: FinFormula, text: string, categories: readonly Category[], options: TargetOptions): TargetResult {
  const department = formula.args[DEPARTMENT_ARGUMENT[formula.name] ?? -1];
  if (typeof department === 'string' && department.trim() !== '') {
    return { ok: false, message: `The formula's number is one department's share of the line (${department.trim()}): drill-down lists a whole line, each entry with its department. Drill into the same formula without the department.` };
  }
  const fy = options.fiscalYearStartMonth ?? 1;
  const [categoryArg, firstArg, secondArg, merchantArg] = formula.args;
  const resolved = resolveInTree(buildTree(categories, 'category'), categoryArg ?? '', 'cat_');
  if (!resolved.ok) {
    const figure = formula.name === 'PNL' && typeof categoryArg === 'string' && /income|profit|revenue|expenses?$/i.test(categoryArg) ? ' (a figure such as Net Income is not one category; drill into its lines in a statement block)' : '';
    return { ok: false, message: `${resolved.error.message}${figure}.` };
  }
  const node = resolved.node;
  const dateArg = (v: string | number | null): { ok: true; value: DateArgument } | { ok: false; error: string } =>
    parseDateArgument(v, { today: options.today, fiscalYearStartMonth: fy, dateSystem: options.dateSystem });
  const first = dateArg(firstArg ?? null);
  if (!first.ok) return { ok: false, message: first.error };
  const second = formula.name !== 'BALANCE' && secondArg !== null && secondArg !== undefined ? dateArg(secondArg) : undefined;
  if (second && !second.ok) return { ok: false, message: second.error };
  const merchantNote = formula.name === 'TOTAL' && typeof merchantArg === 'string' && merchantArg.trim() ? ` The formula's merchant filter (${merchantArg}) is not applied: every merchant is listed.` : '';

  if (node.item.point_in_time) {
    const date = argumentEndDate(first.value);
    const ytd = yearToDate(date, fy);
    return { ok: true, target: { categoryId: node.id, start: ytd.start, end: ytd.end, source: text, note: balanceNote(node.name, date, ytd.start) + merchantNote } };
  }
  if (formula.name === 'BALANCE') {
    return { ok: false, message: `"${node.name}" is an income-statement category, which FIN.BALANCE does not read: use FIN.PNL or FIN.TOTAL.` };
  }
  const period = argumentsToPeriod(first.value, second?.ok ? second.value : undefined);
  if (!period.ok) return { ok: false, message: period.error };
  return { ok: true, target: { categoryId: node.id, start: period.value.start, end: period.value.end, source: text, ...(merchantNote ? { note: merchantNote.trim() } : {}) } };
}
