// The formula helper's text: a FIN.TOTAL formula for a category and a period, with the category written as
// its path ("Operating Expenses > Software") so the sheet stays readable, or as its id when the path
// would not name exactly that category (a name containing '>', or two identical paths). With a department,
// a FIN.PNL formula of that department's share (the department after the company's empty place), the
// department written the same way.

import type { Category, Department } from '../../api/types';
import type { DateArgument } from '../../engine/dates';
import type { Result } from '../../engine/result';
import type { Tree, TreeNode } from '../../engine/tree';
import { parseDateArgument, resolveInTree } from '../../runtime/screenKit';

/** An Excel string literal: quotes doubled. */
export function excelString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The path when it resolves back to this very category, else the id. */
export function categoryReference(tree: Tree<Category>, node: TreeNode<Category>): string {
  const byPath = resolveInTree(tree, node.path, 'cat_');
  return byPath.ok && byPath.node.id === node.id ? node.path : node.id;
}

export function totalFormula(tree: Tree<Category>, node: TreeNode<Category>, period: string): string {
  return `=FIN.TOTAL(${excelString(categoryReference(tree, node))},${excelString(period.trim())})`;
}

/** The department's path when it resolves back to it, else its id. */
export function departmentReference(tree: Tree<Department>, node: TreeNode<Department>): string {
  const byPath = resolveInTree(tree, node.path, 'dept_');
  return byPath.ok && byPath.node.id === node.id ? node.path : node.id;
}

/** =FIN.PNL("Operating Expenses","2026-Q3",,,"Company > Go-to-Market"): no end, the default company, then the department. */
export function departmentFormula(tree: Tree<Category>, node: TreeNode<Category>, period: string, departments: Tree<Department>, department: TreeNode<Department>): string {
  return `=FIN.PNL(${excelString(categoryReference(tree, node))},${excelString(period.trim())},,,${excelString(departmentReference(departments, department))})`;
}

/**
 * A budget function of a kept budget (its workbook name, which Excel accepted as a name, written as it is). FIN.BUDGET
 * reads the budget alone, so it gets the category's full path, which meets the budget line typed as its name or
 * as part of its path; the variance reads the chart of accounts and takes what FIN.TOTAL does.
 */
export function budgetFormula(fn: 'BUDGET' | 'BUDGET_VARIANCE', budget: string, tree: Tree<Category>, node: TreeNode<Category>, period: string): string {
  const category = fn === 'BUDGET' ? node.path : categoryReference(tree, node);
  return `=FIN.${fn}(${budget},${excelString(category)},${excelString(period.trim())})`;
}

/** The period text as the FIN functions will read it (same parser), for the hint under the field. */
export function checkPeriod(text: string, options: { today: string; fiscalYearStartMonth: number }): Result<DateArgument> {
  return parseDateArgument(text, { today: options.today, fiscalYearStartMonth: options.fiscalYearStartMonth });
}

/** The last full calendar quarter before today, as FIN period text ("2026-Q3"). */
export function lastQuarterText(today: string): string {
  const year = Number(today.slice(0, 4));
  const quarter = Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1;
  return quarter === 1 ? `${year - 1}-Q4` : `${year}-Q${quarter - 1}`;
}
