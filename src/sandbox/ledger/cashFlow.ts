import { BEFORE_ALL_DATES, previousDay } from '../calendar';
import type { Db } from '../db/open';
import { netIncomeOf } from './incomeStatement';
import { activityBetween, latestCreated, type ActivityMap } from './activity';
import { readSnapshot } from './sql';
import { BALANCE_SHEET_TYPES, buildSection, companyBooks, creditNormal, debitNormal, type Section, type SectionLine } from './reports';
import { effectiveCashFlowClass, loadChart, subtree, type CategoryNode, type Chart } from './tree';

// The cash flow statement, indirect method: net income, then the change of every balance-sheet category
// other than Cash as a cash effect, grouped by its cash_flow_class (a class section is a tree of the
// categories of that class, like any statement section). An asset that grows used cash and a
// liability or equity balance that grows brought cash in, so the cash effect of a category is its credits
// minus debits over the period. Because every entry balances and every non-cash balance-sheet category is
// classified exactly once, the sections add up to the change in the Cash balance.

type Line = SectionLine<'amount_cents'>;
type FlowClass = 'non_cash' | 'working_capital' | 'investing' | 'financing';

export interface CashFlow {
  object: 'cash_flow';
  start_date: string;
  end_date: string;
  currency: string;
  refreshed_at: number | null;
  net_income_cents: number;
  beginning_cash_cents: number;
  ending_cash_cents: number;
  change_in_cash_cents: number;
  operating_activities: Section<'amount_cents'>;
  investing_activities: Section<'amount_cents'>;
  financing_activities: Section<'amount_cents'>;
}

const FLOW_CLASSES: readonly string[] = ['non_cash', 'working_capital', 'investing', 'financing'];

/**
 * Where a category's change goes. Retained earnings are left out (net income is already the first line)
 * unless something was posted straight to them, which is a distribution to owners. A category with no
 * usable class falls back by type so that no change of a balance is ever dropped.
 */
function flowClassOf(chart: Chart, node: CategoryNode, activity: ActivityMap): FlowClass | undefined {
  if (node.role === 'retained_earnings') return (activity.get(node.id)?.lines ?? 0) > 0 ? 'financing' : undefined;
  const cls = effectiveCashFlowClass(chart, node);
  if (cls !== null && FLOW_CLASSES.includes(cls)) return cls as FlowClass;
  return node.accountType === 'equity' ? 'financing' : 'working_capital';
}

const groupLine = (id: string, name: string, amount: number, position: number): Line => ({
  category_id: id,
  name,
  amount_cents: amount,
  position,
  parent_category_id: null,
});

/**
 * The categories of one class as a tree, like any statement section: each line is the category's own cash
 * effect plus that of its descendants of the same class, so no change is counted twice. Roots hang under
 * `group` (a grp_ id) when given.
 */
function classSection(nodes: CategoryNode[], activity: ActivityMap, group: string | null): Section<'amount_cents'> {
  const section = buildSection(nodes, (n) => creditNormal(activity.get(n.id)), 'amount_cents');
  if (group !== null) for (const l of section.categories) l.parent_category_id ??= group;
  return section;
}

function operatingSection(netIncome: number, byClass: Map<FlowClass, CategoryNode[]>, activity: ActivityMap): Section<'amount_cents'> {
  const nonCash = classSection(byClass.get('non_cash') ?? [], activity, 'grp_non_cash_expenses');
  const workingCapital = classSection(byClass.get('working_capital') ?? [], activity, 'grp_working_capital');
  const roots = [
    groupLine('grp_net_income', 'Net Income', netIncome, 1),
    groupLine('grp_non_cash_expenses', 'Non-Cash Expenses', nonCash.total_cents, 2),
    groupLine('grp_working_capital', 'Changes in Working Capital', workingCapital.total_cents, 3),
  ];
  return {
    total_cents: roots.reduce((t, l) => t + l.amount_cents, 0),
    categories: [roots[0], roots[1], ...nonCash.categories, roots[2], ...workingCapital.categories],
  };
}

/** The cash flow statement for start..end inclusive (dates YYYY-MM-DD, start <= end). */
export function cashFlow(db: Db, companyId: string, start: string, end: string): CashFlow {
  return readSnapshot(db, () => buildCashFlow(db, companyId, start, end));
}

function buildCashFlow(db: Db, companyId: string, start: string, end: string): CashFlow {
  const chart = loadChart(db, companyId);
  const activity = activityBetween(db, companyId, start, end);
  const cashNode = chart.byRole.get('cash');
  const cashNodes = cashNode ? subtree(cashNode) : [];
  const isCash = new Set(cashNodes.map((n) => n.id));

  const byClass = new Map<FlowClass, CategoryNode[]>();
  for (const node of chart.ordered) {
    if (!BALANCE_SHEET_TYPES.has(node.accountType) || isCash.has(node.id)) continue;
    const cls = flowClassOf(chart, node, activity);
    if (!cls) continue;
    const list = byClass.get(cls);
    if (list) list.push(node);
    else byClass.set(cls, [node]);
  }

  const netIncome = netIncomeOf(chart, activity);
  const operating = operatingSection(netIncome, byClass, activity);
  const investing = classSection(byClass.get('investing') ?? [], activity, null);
  const financing = classSection(byClass.get('financing') ?? [], activity, null);
  const before = activityBetween(db, companyId, BEFORE_ALL_DATES, previousDay(start));
  const cashOf = (a: ActivityMap) => cashNodes.reduce((t, n) => t + debitNormal(a.get(n.id)), 0);
  const beginningCash = cashOf(before);

  return {
    object: 'cash_flow',
    start_date: start,
    end_date: end,
    currency: companyBooks(db, companyId).currency,
    refreshed_at: latestCreated(activity),
    net_income_cents: netIncome,
    beginning_cash_cents: beginningCash,
    ending_cash_cents: beginningCash + cashOf(activity),
    change_in_cash_cents: operating.total_cents + investing.total_cents + financing.total_cents,
    operating_activities: operating,
    investing_activities: investing,
    financing_activities: financing,
  };
}
