// FIN.INCOME_STATEMENT, FIN.BALANCE_SHEET and FIN.CASH_FLOW: a whole statement for one period as a
// spilled array, rendered by the engine's renderer (the one place cents become display numbers). Each is
// one synchronous attempt, as the single values are (pending.ts).

import { argumentEndDate } from '../dates';
import { cellValues } from '../render/grid';
import { unitsNote, type Scale } from '../render/money';
import type { StatementReport } from '../render/reportShapes';
import { renderStatement } from '../render/statementGrid';
import { parseScale } from './args';
import type { Evaluation } from './reads';
import type { Matrix } from './matrix';
import type { ValueParts } from './values';

const STATEMENT_TITLES: Readonly<Record<StatementReport['object'], string>> = {
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  cash_flow: 'Cash flow statement',
};

/**
 * The statement's column header row and body, without the title block (a formula's cell says what it is),
 * with the statement's name and units in the top-left cell.
 */
function statementMatrix(report: StatementReport, fetchedAt: number, scale: Scale, fiscalYearStartMonth: number): Matrix {
  const grid = renderStatement({ reports: [report], companyName: '', refreshedAt: new Date(fetchedAt), scale, fiscalYearStartMonth });
  const values: Matrix = cellValues(grid.rows.slice(grid.columnHeaderRow));
  values[0][0] = `${STATEMENT_TITLES[grid.kind]} (${unitsNote(grid.currency, scale)})`;
  return values;
}

export function incomeStatement({ reads, inputs }: ValueParts, args: { start: unknown; end?: unknown; scale?: unknown }, ev: Evaluation): Matrix {
  const scale = parseScale(args.scale);
  const period = inputs.period(args.start, args.end);
  const { value, fetchedAt } = reads.incomeStatement(ev, period);
  return statementMatrix(value, fetchedAt, scale, inputs.fiscalYearStart());
}

export function balanceSheet({ reads, inputs }: ValueParts, args: { date: unknown; scale?: unknown }, ev: Evaluation): Matrix {
  const scale = parseScale(args.scale);
  const date = argumentEndDate(inputs.dateArg(args.date));
  const { value, fetchedAt } = reads.balanceSheet(ev, date);
  return statementMatrix(value, fetchedAt, scale, inputs.fiscalYearStart());
}

export function cashFlowStatement({ reads, inputs }: ValueParts, args: { start: unknown; end?: unknown; scale?: unknown }, ev: Evaluation): Matrix {
  const scale = parseScale(args.scale);
  const period = inputs.period(args.start, args.end);
  const { value, fetchedAt } = reads.cashFlow(ev, period);
  return statementMatrix(value, fetchedAt, scale, inputs.fiscalYearStart());
}
