// The single-value FIN functions: one figure read from a whole statement or a category total, in units.
// The statement is fetched whole (the API has no section filter), so every cell of the same period
// reads the same cached answer. Each is one synchronous attempt (pending.ts): it throws a Pending for
// whatever it has to wait for, and the service attempts it again.

import { UNREADABLE_ANSWER } from '../../api/answerShape';
import type { AggregationTotalParams } from '../../api/types';
import { argumentEndDate, argumentsToPeriod, monthlyCoverage, pointInTimeCoverage } from '../dates';
import { centsToDisplay } from '../render/money';
import { isMissing, optionalText } from './args';
import { FinError, finErrors } from './errors';
import type { FinInputs } from './inputs';
import {
  BALANCE_FIGURES,
  CASH_FLOW_FIGURES,
  INCOME_FIGURES,
  balanceSheetLine,
  cashFlowGroups,
  cashFlowLine,
  figureCents,
  figureKey,
  incomeFigureCents,
  incomeStatementLine,
  namedFigure,
} from './lines';
import type { Evaluation, FinReads } from './reads';
import { normalizeName, subtreeIds } from '../tree';
import type { DepartmentFilter } from '../departments/book';
import type { Period } from '../dates';

export interface ValueParts {
  reads: FinReads;
  inputs: FinInputs;
}

/** A department argument: the department and every one under it (its lines are what the figure counts). */
interface DepartmentArg {
  name: string;
  id: string;
  includes: DepartmentFilter;
}

/** The department argument, resolved as a category is (name, path or dept_ id); undefined when omitted. */
function departmentArg(reads: FinReads, ev: Evaluation, value: unknown): DepartmentArg | undefined {
  if (isMissing(value)) return undefined;
  const node = reads.department(ev, value);
  const ids = new Set(subtreeIds(node));
  return { name: node.name, id: node.id, includes: (d) => d !== null && ids.has(d) };
}

/** One income-statement line of a department over a period: the journal lines of its departments (src/engine/departments). */
function departmentCents(reads: FinReads, ev: Evaluation, period: Period, department: DepartmentArg, line: { categoryId: string }): number {
  return reads.departmentBook(ev, period).line(line.categoryId, department.includes, department.id);
}

/**
 * FIN.TOTAL: /aggregations/total for a category and its descendants. Periodic categories take a range of
 * whole months (the API ignores days; a range that is not whole months is refused with the explanation
 * instead of being silently widened); point-in-time categories take one date or period and are read at
 * its end, which must be a month end.
 */
export function total(
  { reads, inputs }: ValueParts,
  args: { category: unknown; start: unknown; end?: unknown; merchant?: unknown; department?: unknown },
  ev: Evaluation,
): number {
  // Arguments first: a bad date or merchant never costs the categories call.
  const first = inputs.dateArg(args.start);
  const second = isMissing(args.end) ? undefined : inputs.dateArg(args.end);
  const merchant = optionalText(args.merchant, 'merchant');
  if (merchant !== undefined && !isMissing(args.department)) {
    // Journal lines carry a department but no merchant the spec names: the two filters cannot be combined.
    throw finErrors.argument('FIN.TOTAL takes a merchant or a department, not both: a department\'s figure is read from journal lines, which name no merchant', 'merchant_and_department');
  }
  const department = departmentArg(reads, ev, args.department);
  const node = reads.category(ev, args.category);
  if (department && node.item.point_in_time) {
    throw finErrors.argument(`"${node.name}" is a balance: departments are on income and expense lines only, so a balance has none`, 'department_on_balance');
  }
  const query: AggregationTotalParams = { category_id: node.id };
  if (node.item.point_in_time) {
    if (second !== undefined) {
      throw finErrors.argument(
        `"${node.name}" is a balance (point in time): give one date or period, not a start and an end; it is read at the period's end`,
      );
    }
    const coverage = pointInTimeCoverage(argumentEndDate(first), { today: inputs.today() });
    if (coverage.daysIgnored) {
      throw finErrors.argument(`${coverage.note} Use a month such as "${coverage.month}" or a month-end date, or FIN.BALANCE for an exact day`, 'not_whole_months');
    }
    query.date = coverage.through;
  } else {
    const range = argumentsToPeriod(first, second);
    if (!range.ok) throw finErrors.badDate(range.error);
    const coverage = monthlyCoverage(range.value, { today: inputs.today() });
    if (coverage.daysIgnored) {
      throw finErrors.argument(`${coverage.note} Use whole months such as "${coverage.startMonth}", or FIN.PNL for exact days`, 'not_whole_months');
    }
    query.start_date = coverage.covered.start;
    query.end_date = coverage.covered.end;
    if (department) return centsToDisplay(departmentCents(reads, ev, coverage.covered, department, { categoryId: node.id }), 'units');
  }
  if (merchant !== undefined) query.merchant = merchant;
  const { value } = reads.total(ev, query);
  return centsToDisplay(value.total_cents, 'units');
}

/**
 * FIN.PNL: one income statement line (a category, or "Net Income" / "Operating Income"); with a department,
 * that department's and those under it (their journal lines, checked against the statement).
 */
export function pnl({ reads, inputs }: ValueParts, args: { line: unknown; start: unknown; end?: unknown; department?: unknown }, ev: Evaluation): number {
  const period = inputs.period(args.start, args.end);
  const department = departmentArg(reads, ev, args.department);
  const figure = namedFigure(reads.categoryTree(ev), INCOME_FIGURES, args.line);
  let categoryId: string | undefined;
  if (figure === undefined) {
    const node = reads.category(ev, args.line);
    if (node.item.point_in_time) {
      throw finErrors.argument(`"${node.name}" is a balance-sheet category: use FIN.BALANCE or FIN.TOTAL for it`, 'wrong_statement');
    }
    categoryId = node.id;
  }
  let cents: number | undefined;
  if (department) {
    cents =
      figure !== undefined
        ? incomeFigureCents(reads.departmentBook(ev, period).report(department.includes), figure)
        : departmentCents(reads, ev, period, department, { categoryId: categoryId! });
  } else {
    const { value: report } = reads.incomeStatement(ev, period);
    // A periodic category the statement does not list had no activity in the period.
    cents = figure !== undefined ? incomeFigureCents(report, figure) : (incomeStatementLine(report, categoryId!) ?? 0);
  }
  if (cents === undefined) throw new FinError('na', `The income statement has no ${String(args.line)}`, 'missing_figure');
  return centsToDisplay(cents, 'units');
}

/** FIN.BALANCE: one balance sheet line at a date (a period means its last day). */
export function balance({ reads, inputs }: ValueParts, args: { category: unknown; date: unknown }, ev: Evaluation): number {
  const date = argumentEndDate(inputs.dateArg(args.date));
  const figure = namedFigure(reads.categoryTree(ev), BALANCE_FIGURES, args.category);
  if (figure !== undefined) {
    const cents = figureCents(reads.balanceSheet(ev, date).value, figure);
    if (cents === undefined) throw new FinError('na', `The balance sheet has no ${String(args.category)}`, 'missing_figure');
    return centsToDisplay(cents, 'units');
  }
  const node = reads.category(ev, args.category);
  if (!node.item.point_in_time) {
    throw finErrors.argument(`"${node.name}" is an income-statement category (activity over a period): use FIN.PNL or FIN.TOTAL for it`, 'wrong_statement');
  }
  const { value: report } = reads.balanceSheet(ev, date);
  return centsToDisplay(balanceSheetLine(report, node.id) ?? 0, 'units');
}

/**
 * FIN.CASHFLOW: one cash flow line. `line` is a figure ("Net Income", "Change in Cash", "Beginning Cash",
 * "Ending Cash", "Operating Activities"...), a grp_ group by id or name ("Changes in Working Capital"), or
 * a balance-sheet category whose change the statement shows.
 */
export function cashflow({ reads, inputs }: ValueParts, args: { line: unknown; start: unknown; end?: unknown }, ev: Evaluation): number {
  const period = inputs.period(args.start, args.end);
  const typed = typeof args.line === 'string' ? args.line.trim() : '';
  const figure = typed ? figureKey(CASH_FLOW_FIGURES, typed) : undefined;
  if (figure !== undefined) {
    const report = reads.cashFlow(ev, period, figure === 'beginning_cash_cents' || figure === 'ending_cash_cents').value;
    const cents = figureCents(report, figure);
    if (cents === undefined) {
      // Not the formula's fault: the API's cash flow does not give this figure (the spec lists few of its fields).
      // The advice first: a cell's message is cut at 255 characters, and the field list is long. The fields
      // are those the API sent, under its names.
      const instead = figure === 'net_income_cents' ? 'FIN.PNL("Net Income", ...) gives the period\'s net income; ' : '';
      const fields = report.received_fields ?? Object.keys(report).filter((k) => k !== 'cash_from_balance_sheets');
      throw new FinError('na', `The API's cash flow has no ${figure} (${instead}fields: ${fields.join(', ')})`, UNREADABLE_ANSWER);
    }
    return centsToDisplay(cents, 'units');
  }
  if (typed.startsWith('grp_')) {
    const cents = cashFlowLine(reads.cashFlow(ev, period, false).value, typed);
    if (cents === undefined) throw finErrors.argument(`Unknown cash flow group "${typed}"`, 'unknown_line');
    return centsToDisplay(cents, 'units');
  }
  if (typed) {
    const report = reads.cashFlow(ev, period, false).value;
    const group = cashFlowGroups(report).find((g) => normalizeName(g.name) === normalizeName(typed));
    if (group) return centsToDisplay(group.amount_cents, 'units');
  }
  const node = reads.category(ev, args.line);
  if (!node.item.point_in_time) {
    throw finErrors.argument(`"${node.name}" is an income-statement category: the cash flow shows it inside "Net Income"; use FIN.PNL`, 'wrong_statement');
  }
  const report = reads.cashFlow(ev, period, false).value;
  const cents = cashFlowLine(report, node.id);
  if (cents === undefined) {
    // Every line the API sent was placed (readCashFlow refuses one it cannot), so this one is not in its answer.
    const cash = /cash/i.test(node.name) ? ' (cash itself is its result: use "Change in Cash", "Beginning Cash" or "Ending Cash")' : '';
    throw finErrors.argument(`The API's cash flow for ${period.start} to ${period.end} has no line for "${node.name}" (${node.id})${cash}`, 'unknown_line');
  }
  return centsToDisplay(cents, 'units');
}
