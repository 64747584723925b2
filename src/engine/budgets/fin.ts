// FIN.BUDGET and FIN.BUDGET_VARIANCE: a budget kept in the workbook, handed over by Excel as the range it is
// (the name the pane kept it under, =FIN.BUDGET(Budget_2026, "Rent", FIN_PERIOD)), so the cell follows every
// edit of the budget by Excel's own recalculation. The budget side never asks the API: FIN.BUDGET reads the
// range alone and spends no call. The variance's actual side is FIN.PNL's ordinary cached read (the chart of
// accounts and the period's income statement), and the budget is matched and signed as a block against it is
// (match.ts, report.ts), so a formula and a block show the same variance to the cent.

import type { Category } from '../../api/types';
import { monthIndex, monthIndexToYearMonth, type Period, type YearMonth } from '../dates';
import { FinError, finErrors } from '../fin/errors';
import { INCOME_FIGURES, incomeFigureCents, incomeStatementLine, namedFigure } from '../fin/lines';
import { Pending } from '../fin/pending';
import type { Evaluation } from '../fin/reads';
import type { ValueParts } from '../fin/values';
import { centsToDisplay } from '../render/money';
import type { IncomeStatementReport, ReportSection } from '../render/reportShapes';
import { varianceCents } from '../render/varianceColumns';
import type { Tree, TreeNode } from '../tree';
import { matchBudget } from './match';
import { centsOver, monthsOfPeriod } from './months';
import { linesNamed } from './named';
import { budgetReport } from './report';
import { readBudget, type BudgetSheet } from './sheet';

/** The budget argument read as a budget; #VALUE! naming the cell's place in it when it cannot be. */
function budgetArgument({ inputs }: ValueParts, value: unknown): BudgetSheet {
  if (!Array.isArray(value)) {
    throw finErrors.argument('The budget must be a range: the name it was kept under (Reports tab, Budgets) or its cells, months across the top', 'bad_budget');
  }
  const monthOfSerial = (serial: number): YearMonth | null => {
    try {
      const arg = inputs.dateArg(serial);
      return arg.kind === 'date' ? monthIndexToYearMonth(monthIndex(arg.date)) : null;
    } catch (error) {
      if (error instanceof Pending) throw error; // the workbook's date system is being asked for
      return null;
    }
  };
  const sheet = readBudget(value as unknown[][], { monthOfSerial });
  if (!sheet.ok) throw finErrors.argument(sheet.error, 'bad_budget');
  return sheet.value;
}

/** The positions of the period's months in the budget; #N/A when the budget has not got them all. */
function periodPositions(parts: ValueParts, sheet: BudgetSheet, start: unknown, end: unknown): { positions: number[]; period: Period } {
  const period = parts.inputs.period(start, end);
  const positions = monthsOfPeriod(sheet, period);
  if (!positions.ok) throw new FinError('na', positions.error, 'budget_months');
  return { positions: positions.value, period };
}

/** FIN.BUDGET: one line of the budget over a period, as typed (the budget's own signs), in units. No call. */
export function budget(parts: ValueParts, args: { budget: unknown; line: unknown; start: unknown; end?: unknown }): number {
  const sheet = budgetArgument(parts, args.budget);
  const { positions } = periodPositions(parts, sheet, args.start, args.end);
  const lines = linesNamed(sheet, args.line);
  if (!lines.ok) throw finErrors.argument(lines.error, 'unknown_budget_line');
  return centsToDisplay(lines.value.reduce((sum, line) => sum + centsOver(line, positions), 0), 'units');
}

/** True when the node `id` is `ancestor` or below it. */
function isWithin(tree: Tree<Category>, id: string, ancestor: string): boolean {
  for (let n = tree.byId.get(id) ?? null; n; n = n.parent) if (n.id === ancestor) return true;
  return false;
}

function lineOf(report: IncomeStatementReport, categoryId: string): number | undefined {
  for (const section of Object.values(report)) {
    const lines = (section as ReportSection | null)?.categories;
    if (!Array.isArray(lines)) continue;
    const line = lines.find((l) => l.category_id === categoryId);
    if (line) return line.amount_cents;
  }
  return undefined;
}

/**
 * FIN.BUDGET_VARIANCE: actual minus budget for a category or a line the spec names ("Net Income", "Total Revenue"), favourable
 * positive as the Variance columns are (docs/api-decisions.md), in units. The actual is FIN.PNL's cached read.
 */
export function budgetVariance(parts: ValueParts, args: { budget: unknown; line: unknown; start: unknown; end?: unknown }, ev: Evaluation): number {
  const { reads } = parts;
  const sheet = budgetArgument(parts, args.budget);
  const { positions, period } = periodPositions(parts, sheet, args.start, args.end);
  const tree = reads.categoryTree(ev);
  const figure = namedFigure(tree, INCOME_FIGURES, args.line);
  let node: TreeNode<Category> | undefined;
  if (figure === undefined) {
    node = reads.category(ev, args.line);
    if (node.item.point_in_time) throw finErrors.argument(`"${node.name}" is a balance-sheet category: a budget is compared with the income statement`, 'wrong_statement');
  }
  const actual = reads.incomeStatement(ev, period).value;
  const match = matchBudget(sheet, tree);
  const planned = budgetReport(match, positions, actual);
  let actualCents: number | undefined;
  let budgetCents: number | undefined;
  // A cost line typed against the others would count as budgeted income: refused, naming it, not read so.
  const against = match.againstSign.find((m) => figure !== undefined || isWithin(tree, m.node.id, node!.id));
  if (against) {
    const typed = match.costs === 'positive' ? 'negative' : 'positive';
    throw new FinError('na', `The budget's cost line "${against.line.label}" is typed ${typed} while its other costs are ${match.costs}: type it as they are, or it would read as income`, 'budget_sign');
  }
  if (figure !== undefined) {
    const missed = match.unmatched.filter((u) => !u.subtotal);
    if (missed.length > 0) {
      const names = missed.slice(0, 2).map((u) => `"${u.line.label}"`).join(', ');
      throw new FinError('na', `The budget's line${missed.length > 1 ? 's' : ''} ${names}${missed.length > 2 ? ` and ${missed.length - 2} more` : ''} ${missed.length > 1 ? 'match' : 'matches'} no category, so its ${args.line} would leave them out: correct the names (Reports tab, Budgets, says why)`, 'budget_unmatched');
    }
    actualCents = incomeFigureCents(actual, figure);
    budgetCents = incomeFigureCents(planned, figure);
  } else {
    // One rule with FIN.BUDGET (linesNamed): a category on two lines of the budget is refused, not read from the first.
    const twice = match.unmatched.find((u) => u.twiceOf && isWithin(tree, u.twiceOf.id, node!.id));
    if (twice?.twiceOf) {
      throw new FinError('na', `"${twice.twiceOf.path}" is on two lines of the budget ("${twice.twiceOf.earlier}" and "${twice.line.label}"): keep one line per category`, 'budget_ambiguous');
    }
    budgetCents = lineOf(planned, node!.id);
    if (budgetCents === undefined) {
      throw new FinError('na', `The budget has no line for "${node!.path}" or under it`, 'no_budget_line');
    }
    actualCents = incomeStatementLine(actual, node!.id) ?? 0;
  }
  const variance = varianceCents(actualCents, budgetCents, 1);
  if (variance === undefined) throw new FinError('na', `The income statement has no ${String(args.line)}`, 'missing_figure');
  return centsToDisplay(variance, 'units');
}
