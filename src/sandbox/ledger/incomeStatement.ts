import type { Db } from '../db/open';
import { activityBetween, latestCreated, type ActivityMap } from './activity';
import { readSnapshot } from './sql';
import { buildSection, companyBooks, creditNormal, INCOME_STATEMENT_TYPES, type Section } from './reports';
import { loadChart, selfAndAncestors, type CategoryNode, type Chart } from './tree';

// The income statement: period activity of the periodic categories, credit minus debit, so revenue is
// positive, expenses negative, and the sum of the section totals is net income.

type IncomeSectionName = 'revenue' | 'uncategorized_income' | 'expenses' | 'uncategorized_expenses' | 'non_operating_income' | 'taxes';

function incomeSectionOf(chart: Chart, node: CategoryNode): IncomeSectionName | undefined {
  if (!INCOME_STATEMENT_TYPES.has(node.accountType)) return undefined;
  const roles = selfAndAncestors(chart, node).map((n) => n.role);
  if (roles.includes('uncategorized_income')) return 'uncategorized_income';
  if (roles.includes('uncategorized_expense')) return 'uncategorized_expenses';
  switch (node.accountType) {
    case 'revenue':
      return 'revenue';
    case 'expense':
      return 'expenses';
    case 'tax':
      return 'taxes';
    default:
      return 'non_operating_income';
  }
}

/** Net income of the given activity: every periodic category, credit minus debit. */
export function netIncomeOf(chart: Chart, activity: ActivityMap): number {
  let total = 0;
  for (const [categoryId, a] of activity) {
    const node = chart.byId.get(categoryId);
    if (node && INCOME_STATEMENT_TYPES.has(node.accountType)) total += creditNormal(a);
  }
  return total;
}

export interface IncomeStatement {
  object: 'income_statement';
  start_date: string;
  end_date: string;
  currency: string;
  refreshed_at: number | null;
  revenue: Section<'amount_cents'>;
  uncategorized_income?: Section<'amount_cents'>;
  expenses: Section<'amount_cents'>;
  uncategorized_expenses?: Section<'amount_cents'>;
  operating_income_cents: number;
  non_operating_income: Section<'amount_cents'>;
  taxes?: Section<'amount_cents'>;
  net_income_cents: number;
}

/** The income statement for start..end inclusive (dates YYYY-MM-DD, start <= end). */
export function incomeStatement(db: Db, companyId: string, start: string, end: string): IncomeStatement {
  return readSnapshot(db, () => buildIncomeStatement(db, companyId, start, end));
}

function buildIncomeStatement(db: Db, companyId: string, start: string, end: string): IncomeStatement {
  const chart = loadChart(db, companyId);
  const activity = activityBetween(db, companyId, start, end);
  const members = new Map<IncomeSectionName, CategoryNode[]>();
  for (const node of chart.ordered) {
    const name = incomeSectionOf(chart, node);
    if (!name) continue;
    const list = members.get(name);
    if (list) list.push(node);
    else members.set(name, [node]);
  }
  const section = (name: IncomeSectionName) => buildSection(members.get(name) ?? [], (n) => creditNormal(activity.get(n.id)), 'amount_cents');
  const hasActivity = (name: IncomeSectionName) => (members.get(name) ?? []).some((n) => (activity.get(n.id)?.lines ?? 0) > 0);
  // Uncategorized and tax sections are shown only when the period has postings there.
  const optional = (name: IncomeSectionName) => (hasActivity(name) ? section(name) : undefined);

  const revenue = section('revenue');
  const uncategorizedIncome = optional('uncategorized_income');
  const expenses = section('expenses');
  const uncategorizedExpenses = optional('uncategorized_expenses');
  const nonOperating = section('non_operating_income');
  const taxes = optional('taxes');
  const operating =
    revenue.total_cents + (uncategorizedIncome?.total_cents ?? 0) + expenses.total_cents + (uncategorizedExpenses?.total_cents ?? 0);
  const periodicIds = [...members.values()].flat().map((n) => n.id);

  return {
    object: 'income_statement',
    start_date: start,
    end_date: end,
    currency: companyBooks(db, companyId).currency,
    refreshed_at: latestCreated(activity, periodicIds),
    revenue,
    ...(uncategorizedIncome && { uncategorized_income: uncategorizedIncome }),
    expenses,
    ...(uncategorizedExpenses && { uncategorized_expenses: uncategorizedExpenses }),
    operating_income_cents: operating,
    non_operating_income: nonOperating,
    ...(taxes && { taxes }),
    net_income_cents: operating + nonOperating.total_cents + (taxes?.total_cents ?? 0),
  };
}
