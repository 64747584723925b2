// What a cell shows: its value through its number format, a formula's result (or #BUSY!, or its error
// code), or the value a neighbour's spill puts there, numbers fitted to the column as Excel fits them.
// Also what the formula bar's result line says.

import type { DateSystem } from '../engine/dates';
import { plural } from '../engine/text/plural';
import type { CellPosition, WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import type { CellResult, Scalar } from './cellResult';
import { fitNumber, type Measure } from './columnFit';
import { formatCell, formatGeneral, type Formatted } from './numberFormat';

export interface CellView extends Formatted {
  bold: boolean;
  indent: number;
  formula?: string;
  /** For error results: the function's message. */
  message?: string;
  /** A value spilled here from another cell. */
  spilled?: boolean;
  empty: boolean;
  /** The text in full, when the column is too narrow for it (Excel's #### or a rounded number). */
  full?: string;
}

/** The column a cell is shown in: its width in pixels (inside the padding) and how text measures there. */
export interface ColumnFit {
  width: number;
  measure: Measure;
}

const EMPTY: Formatted = { text: '', align: 'left' };

export function cellView(book: WorkbenchBook, engine: FormulaEngine, at: CellPosition, fit?: ColumnFit, dateSystem: DateSystem = 1900): CellView {
  const cell = book.cellAt(at.sheet, at.row, at.col);
  const base = { bold: cell.bold, indent: cell.indent };
  const show = (v: Scalar): Formatted & { full?: string } => {
    if (v === '') return EMPTY;
    const formatted = formatCell(v, cell.numberFormat, { dateSystem });
    if (typeof v !== 'number' || !fit) return formatted;
    const general = /^\s*(general)?\s*$/i.test(cell.numberFormat ?? '');
    const fitted = fitNumber(v, formatted, general, fit.width, fit.measure);
    return fitted === formatted ? formatted : { ...fitted, full: formatted.text };
  };
  if (cell.formula) {
    const result = engine.resultAt(at);
    if (!result || result.state === 'busy') return { ...base, text: '#BUSY!', align: 'center', formula: cell.formula, empty: false };
    if (result.state === 'error') return { ...base, text: result.code, align: 'center', formula: cell.formula, message: result.message, empty: false };
    const v = result.state === 'value' ? result.value : result.rows[0][0];
    return { ...base, ...show(v), formula: cell.formula, empty: false };
  }
  const spill = engine.spillAt(at);
  if (spill) return { ...base, ...show(spill.value), spilled: true, empty: spill.value === '' };
  if (cell.value === '') return { ...base, ...EMPTY, empty: true };
  return { ...base, ...show(cell.value), empty: false };
}

function rawText(v: Scalar): string {
  if (typeof v === 'number') return formatGeneral(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return v;
}

/** The formula bar's result line for a formula cell; null for a constant. */
export function resultText(result: CellResult | undefined): string | null {
  if (!result || result.state === 'busy') return 'Calculating… (#BUSY!)';
  if (result.state === 'error') return result.message ? `${result.code} ${result.message}` : result.code;
  if (result.state === 'value') return `= ${rawText(result.value)}`;
  const rows = result.rows.length;
  const cols = result.rows[0]?.length ?? 0;
  return `Spilled ${plural(rows, 'row')} × ${plural(cols, 'column')}, starting with ${rawText(result.rows[0][0]) || '(blank)'}`;
}
