// A budget's lines matched to the company's categories by name or path, by the rule FIN formulas resolve a
// category with (fin/resolve.ts: a unique name, a path from the root or a unique tail of it, or an id), so a
// line that reads right in a formula reads right here; consolidation matches companies' lines by name path the
// same way. What matches nothing is said, line by line, and so is every income-statement category no line
// covers.
//
// Signs: budgets are usually typed with costs as positive amounts; the statement shows them negative (the API
// signs every line by its effect on net income). Which way a budget was typed is read from its cost lines (most
// of them negative: typed as the statement shows them), said in the pane, and the budget is turned into the
// statement's signs by each category's direction: income (revenue, other income) or cost (expense, other
// expense, tax), from its account type or its nearest ancestor's.

import type { Category } from '../../api/types';
import { resolveInTree } from '../fin/resolve';
import type { Tree, TreeNode } from '../tree';
import { centsOver } from './months';
import type { BudgetLine, BudgetSheet } from './sheet';

/** +1: income, positive on the statement; -1: a cost, negative there. */
export type Direction = 1 | -1;

/** How the budget's costs were typed: as positive amounts (the usual way) or as the statement shows them. */
export type CostSigns = 'positive' | 'negative';

export interface MatchedLine {
  readonly line: BudgetLine;
  readonly node: TreeNode<Category>;
  readonly direction: Direction;
}

export interface UnmatchedLine {
  readonly line: BudgetLine;
  /** Why it matches no category. */
  readonly reason: string;
  /** It reads as a subtotal ("Total expenses", "Net income"): the statement computes those itself. */
  readonly subtotal: boolean;
  /** The category it matched, when an earlier line matched it already (one category on two lines). */
  readonly twiceOf?: { readonly id: string; readonly path: string; readonly earlier: string };
}

export interface BudgetMatch {
  readonly matched: readonly MatchedLine[];
  readonly unmatched: readonly UnmatchedLine[];
  /**
   * Income-statement categories no line covers (none on the category, above it or below it), each the top of
   * what is uncovered: a category listed stands for its subcategories too.
   */
  readonly unbudgeted: readonly TreeNode<Category>[];
  readonly costs: CostSigns;
  /**
   * Cost lines typed with the other sign than most (one cost negative among positive ones): read by the
   * majority's rule they would be budgeted income, so the check points them out and the variance refuses them.
   */
  readonly againstSign: readonly MatchedLine[];
}

const INCOME_TYPES = new Set(['revenue', 'income', 'other_income']);
const COST_TYPES = new Set(['expense', 'other_expense', 'cost_of_goods_sold', 'tax']);

function directionOfType(type: unknown): Direction | null {
  const t = typeof type === 'string' ? type.trim().toLowerCase() : '';
  if (INCOME_TYPES.has(t)) return 1;
  if (COST_TYPES.has(t)) return -1;
  // Open values the spec allows: read by what they say.
  if (/expense|cost|tax/.test(t)) return -1;
  if (/revenue|income/.test(t)) return 1;
  return null;
}

/** Income or cost: the category's account type, else its nearest ancestor's. */
export function directionOf(node: TreeNode<Category>): Direction | null {
  for (let n: TreeNode<Category> | null = node; n; n = n.parent) {
    const d = directionOfType(n.item.account_type);
    if (d !== null) return d;
  }
  return null;
}

const SUBTOTAL = /^(total\b|net (income|profit|loss|result)\b|operating (income|profit|loss)\b|gross (profit|margin)\b|ebitda?\b)/i;

export function isIncomeStatementCategory(node: TreeNode<Category>): boolean {
  return node.item.point_in_time !== true;
}

/** The lines of a budget matched to the categories of a chart; calls nothing. */
export function matchBudget(sheet: Pick<BudgetSheet, 'lines'>, tree: Tree<Category>): BudgetMatch {
  const matched: MatchedLine[] = [];
  const unmatched: UnmatchedLine[] = [];
  const lineOf = new Map<string, BudgetLine>();
  for (const line of sheet.lines) {
    const subtotal = SUBTOTAL.test(line.label);
    const found = resolveInTree(tree, line.label, 'cat_');
    if (!found.ok) {
      unmatched.push({ line, reason: subtotal ? 'a subtotal: the statement adds up its lines itself' : found.error.message, subtotal });
      continue;
    }
    const { node } = found;
    const direction = directionOf(node);
    const earlier = lineOf.get(node.id);
    let reason: string | null = null;
    if (!isIncomeStatementCategory(node)) reason = `"${node.path}" is a balance-sheet category: a budget is compared with the income statement`;
    else if (direction === null) reason = `"${node.path}" has the account type "${String(node.item.account_type)}", which says neither income nor cost`;
    else if (earlier) reason = `the same category as the line "${earlier.label}" (${node.path})`;
    if (reason !== null) {
      unmatched.push({ line, reason, subtotal: false, ...(earlier ? { twiceOf: { id: node.id, path: node.path, earlier: earlier.label } } : {}) });
      continue;
    }
    lineOf.set(node.id, line);
    matched.push({ line, node, direction: direction! });
  }

  const covered = new Set<string>();
  for (const { node } of matched) {
    for (let n: TreeNode<Category> | null = node; n; n = n.parent) covered.add(n.id);
    const below = [...node.children];
    while (below.length > 0) {
      const n = below.pop()!;
      covered.add(n.id);
      below.push(...n.children);
    }
  }
  const unbudgeted = tree.ordered.filter((n) => isIncomeStatementCategory(n) && !covered.has(n.id) && (n.parent === null || covered.has(n.parent.id)));

  // Most cost lines below zero: the budget was typed as the statement shows costs.
  let below = 0;
  let above = 0;
  for (const m of matched) {
    if (m.direction !== -1) continue;
    const total = centsOver(m.line, m.line.cents.map((_, i) => i));
    if (total < 0) below += 1;
    else if (total > 0) above += 1;
  }
  const costs: CostSigns = below > above ? 'negative' : 'positive';
  const againstSign = matched.filter((m) => {
    if (m.direction !== -1) return false;
    const total = centsOver(m.line, m.line.cents.map((_, i) => i));
    return costs === 'positive' ? total < 0 : total > 0;
  });
  return { matched, unmatched, unbudgeted, costs, againstSign };
}

/** A matched line's budget over some months, in the statement's signs (income positive, costs negative). */
export function statementCents(match: Pick<BudgetMatch, 'costs'>, line: MatchedLine, positions: readonly number[]): number {
  const typed = centsOver(line.line, positions);
  const cents = match.costs === 'positive' ? typed * line.direction : typed;
  return cents === 0 ? 0 : cents;
}
