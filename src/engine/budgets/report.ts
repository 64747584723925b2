// The budget of a period as one more income statement: the shape the renderer lays out beside the actual one,
// so the Budget column, its totals and the Variance columns come from the one statement renderer (cents become
// units there and nowhere else), as a consolidation's companies or a Total column do.
//
// A category's budget is its own line's, or, without one, the sum of its subcategories' budgets (the statement's
// parents carry their children's subtotal). Each line sits in the section the actual statement lists its category
// in (else its top category's, else by its account type); a section's total is the sum of its top lines, and
// operating and net income follow from the sections by the spec's sums. What has no budget is left out of the
// report: the renderer shows such a line as 0 there, which is what it was budgeted at.

import type { Category } from '../../api/types';
import type { IncomeStatementReport, ReportLine, ReportSection } from '../render/reportShapes';
import type { TreeNode } from '../tree';
import { statementCents, type BudgetMatch } from './match';

type SectionKey = 'revenue' | 'uncategorized_income' | 'expenses' | 'uncategorized_expenses' | 'non_operating_income' | 'taxes';

const SECTIONS: readonly SectionKey[] = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'];
const ALWAYS: ReadonlySet<SectionKey> = new Set(['revenue', 'expenses', 'non_operating_income']);

/** Where a category the actual statement does not list goes, by its account type. */
function sectionOfType(node: TreeNode<Category>): SectionKey {
  const type = String(node.item.account_type ?? '').toLowerCase();
  if (type.startsWith('other_')) return 'non_operating_income';
  if (type === 'tax' || type === 'taxes') return 'taxes';
  if (type === 'revenue' || type === 'income') return 'revenue';
  return 'expenses';
}

function rootOf(node: TreeNode<Category>): TreeNode<Category> {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

/** The budget for the months at `positions`, as an income statement beside `actual` (same period and currency). */
export function budgetReport(match: BudgetMatch, positions: readonly number[], actual: IncomeStatementReport): IncomeStatementReport {
  const listedIn = new Map<string, SectionKey>();
  for (const key of SECTIONS) {
    const section = (actual as unknown as Record<string, ReportSection | null | undefined>)[key];
    for (const line of section?.categories ?? []) if (!listedIn.has(line.category_id)) listedIn.set(line.category_id, key);
  }
  const own = new Map(match.matched.map((m) => [m.node.id, statementCents(match, m, positions)]));

  const budgetOf = new Map<string, number>();
  const visit = (node: TreeNode<Category>): number | undefined => {
    const below = node.children.map(visit).filter((c): c is number => c !== undefined);
    const cents = own.get(node.id) ?? (below.length > 0 ? below.reduce((a, b) => a + b, 0) : undefined);
    if (cents !== undefined) budgetOf.set(node.id, cents);
    return cents;
  };
  const roots = [...new Map(match.matched.map((m) => rootOf(m.node)).map((r) => [r.id, r])).values()];
  roots.forEach(visit);

  const lines = new Map<SectionKey, { line: ReportLine; node: TreeNode<Category> }[]>();
  const place = (node: TreeNode<Category>): void => {
    const cents = budgetOf.get(node.id);
    if (cents === undefined) return;
    const section = listedIn.get(node.id) ?? listedIn.get(rootOf(node).id) ?? sectionOfType(rootOf(node));
    const list = lines.get(section) ?? [];
    list.push({
      node,
      line: { category_id: node.id, name: node.name, position: node.item.position, parent_category_id: node.parent?.id ?? null, amount_cents: cents === 0 ? 0 : cents },
    });
    lines.set(section, list);
    node.children.forEach(place);
  };
  roots.forEach(place);

  const out: Record<string, unknown> = {
    object: 'income_statement',
    start_date: actual.start_date,
    end_date: actual.end_date,
    currency: actual.currency,
    refreshed_at: null,
  };
  const totals = new Map<SectionKey, number>();
  for (const key of SECTIONS) {
    const list = lines.get(key) ?? [];
    if (list.length === 0 && !ALWAYS.has(key)) continue;
    const ids = new Set(list.map((l) => l.line.category_id));
    const total = list.filter((l) => !l.line.parent_category_id || !ids.has(l.line.parent_category_id)).reduce((sum, l) => sum + (l.line.amount_cents ?? 0), 0);
    totals.set(key, total);
    out[key] = { total_cents: total, categories: list.map((l) => l.line) } satisfies ReportSection;
  }
  const sum = (keys: readonly SectionKey[]) => keys.reduce((s, k) => s + (totals.get(k) ?? 0), 0);
  const operating = sum(['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses']);
  out.operating_income_cents = operating;
  out.net_income_cents = operating + sum(['non_operating_income', 'taxes']);
  return out as unknown as IncomeStatementReport;
}

