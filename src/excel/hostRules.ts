/**
 * Excel's own rules that both gateways apply locally, before anything reaches the workbook: legal sheet and
 * table names (made unique, compared case-insensitively as Excel does), legal defined names and formulas
 * Excel can hold.
 */
import { looksLikeReference } from '../engine/ports/address';
import { GatewayError } from '../engine/ports/workbook';

const SHEET_FORBIDDEN = /[:\\/?*[\]]/g;
const SHEET_MAX = 31;

/** A legal sheet name close to the requested one (Excel's rules: 31 chars, no : \ / ? * [ ], no edge quotes). */
export function sanitizeSheetName(requested: string): string {
  let s = requested.replace(SHEET_FORBIDDEN, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(/^'+|'+$/g, '').trim();
  if (!s || s.toLowerCase() === 'history') s = s ? `${s} 1` : 'Sheet';
  return s.slice(0, SHEET_MAX).trim();
}

/** Excel compares sheet names case-insensitively, so "Data" and "data" collide. */
export function uniqueSheetName(requested: string, existing: Iterable<string>): string {
  const taken = new Set([...existing].map((n) => n.toLowerCase()));
  const base = sanitizeSheetName(requested);
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const suffix = ` (${i})`;
    const candidate = base.slice(0, SHEET_MAX - suffix.length).trimEnd() + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** Table names: a letter, _ or \ first, then letters, digits, _ or .; never something that reads as a cell. */
export function sanitizeTableName(requested: string): string {
  let s = requested.trim().replace(/[^A-Za-z0-9_.\\\u00C0-\uFFFF]+/g, '_');
  if (!/^[A-Za-z_\\\u00C0-\uFFFF]/.test(s) || looksLikeReference(s)) s = `_${s}`;
  return s.slice(0, 250);
}

export function uniqueTableName(requested: string, existing: Iterable<string>): string {
  const taken = new Set([...existing].map((n) => n.toLowerCase()));
  const base = sanitizeTableName(requested);
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}${i}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

const NAME_MAX = 255;
const NAME_SHAPE = /^[A-Za-z_\\\u0080-\uFFFF][A-Za-z0-9_.?\\\u0080-\uFFFF]*$/;
/** R1C1 references Excel will not let a name start with: R, C, RC, R2, C3, R1C1, also before _ or . ("C1_FOO"). */
const R1C1_START = /^(?:[Rr]\d*(?:[Cc]\d*)?|[Cc]\d*)(?![A-Za-z])/;

/**
 * A defined name Excel accepts ([MS-XLSB] 2.5.166 XLNameWideString): at most 255 characters, a letter, _ or
 * \ first, then letters, digits, _ . ? or \; not TRUE or FALSE, not an A1 reference, not starting with an R1C1
 * one. Checked before anything is written, so a bad name never leaves a block half done.
 */
export function checkDefinedName(name: string): void {
  const ok =
    typeof name === 'string' &&
    name.length <= NAME_MAX &&
    NAME_SHAPE.test(name) &&
    !/^(true|false)$/i.test(name) &&
    !looksLikeReference(name) &&
    !R1C1_START.test(name);
  if (!ok) throw new GatewayError('InvalidInput', `Excel does not accept ${JSON.stringify(name)} as a name`);
}

/** writeFormula's argument check, shared by both implementations: a formula, and one Excel can hold. */
export function checkFormula(formula: string): void {
  if (typeof formula !== 'string' || !formula.startsWith('=') || formula.trim().length < 2) {
    throw new GatewayError('InvalidInput', 'A formula must start with =');
  }
  if (formula.length > 8192) throw new GatewayError('InvalidInput', 'A formula is limited to 8,192 characters');
}

/**
 * writeFormulas' argument check, shared by both implementations: a rectangle of at least one row and one
 * column, each entry a formula Excel can hold (checkFormula) or null. Returns its size.
 */
export function checkFormulaBlock(formulas: readonly (readonly (string | null)[])[]): { rows: number; cols: number } {
  const rows = Array.isArray(formulas) ? formulas.length : 0;
  const cols = rows > 0 && Array.isArray(formulas[0]) ? formulas[0].length : 0;
  if (rows === 0 || cols === 0 || formulas.some((row) => !Array.isArray(row) || row.length !== cols)) {
    throw new GatewayError('InvalidInput', 'A block of formulas must be rows of the same length');
  }
  for (const row of formulas) for (const f of row) if (f !== null) checkFormula(f);
  return { rows, cols };
}

/**
 * Excel reads no selection of several areas as one range (getSelectedRange fails with InvalidSelection, as it
 * does when another workbook takes the focus mid-call): the pane says what to do instead.
 */
/** A chart is selected: Excel has no selected range then (getSelectedRange throws, by design: office-js#2268). */
export function chartSelected(): GatewayError {
  return new GatewayError('InvalidInput', 'A chart is selected: select cells and try again.');
}

export function unreadableSelection(): GatewayError {
  return new GatewayError('InvalidInput', 'Excel cannot read this selection: select one block of cells (not several areas) in this workbook and try again.');
}

/** Excel's limit on a chart's title and a series' name. */
const CHART_TEXT_MAX = 255;
/** Text Excel reads as a formula or a reference where it takes one: = + - @ first (as in a cell). */
const FORMULA_START = /^[=+\-@]/;
/**
 * A zero-width space: put before chart text that starts like a formula. A chart has no text format: a
 * series name set to "=Sheet1!A1" links the series to that cell, as Excel's own Series.Name does, and
 * ExcelApi 1.10 has no typed text for charts. The mark is invisible, and the name stays the API's text.
 */
export const CHART_TEXT_GUARD = '\u200B';

/** A chart title or series name as it is written: text, at most 255 characters, never a formula. */
export function chartText(text: string): string {
  const guarded = FORMULA_START.test(text) ? `${CHART_TEXT_GUARD}${text}` : text;
  return guarded.length > CHART_TEXT_MAX ? guarded.slice(0, CHART_TEXT_MAX) : guarded;
}

/** A chart's series, checked before anything reaches the workbook: one at least, each of one row or column. */
export function checkChartSpec(spec: { kind: string; series: { values: string }[]; categories: string }, parse: (address: string) => { rows: number; cols: number }): void {
  if (spec.kind !== 'line' && spec.kind !== 'column') throw new GatewayError('InvalidInput', `Unknown chart kind ${JSON.stringify(spec.kind)}`);
  if (spec.series.length === 0) throw new GatewayError('InvalidInput', 'A chart needs one series at least');
  const categories = parse(spec.categories);
  const length = Math.max(categories.rows, categories.cols);
  if (categories.rows !== 1 && categories.cols !== 1) throw new GatewayError('InvalidInput', 'Chart categories must be one row or one column');
  for (const s of spec.series) {
    const box = parse(s.values);
    if (box.rows !== 1 && box.cols !== 1) throw new GatewayError('InvalidInput', `A chart series must be one row or one column, not ${s.values}`);
    if (Math.max(box.rows, box.cols) !== length) throw new GatewayError('InvalidInput', `A chart series (${s.values}) must be as long as its categories (${spec.categories})`);
  }
}
