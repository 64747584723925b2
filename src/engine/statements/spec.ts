// What a statement block is: the statement, the period, the layout and the units the user chose, how it
// is described and named, and how it is stored in the block's binding (so Refresh can rebuild it and
// drill-down can read it).

import type { Result } from '../result';
import { customPeriod, isEndOfMonth, namedPeriod, periodLabel, startOfMonth, type NamedPeriodKey, type Period, type YearMonth } from '../dates';
import type { Scale, StatementGrid, StatementReport } from '../render';
import type { BindingRecord, Json } from '../ports/workbook';
import { isRelation, relationLabel, rollSpec, type PeriodRelation } from './relative';

export type StatementKind = StatementReport['object'];
export type LayoutKey = 'single' | 'months' | 'quarters' | 'prior_period' | 'prior_year' | 'prior_ytd' | 'by_department' | 'budget';
export type PeriodChoice = NamedPeriodKey | 'custom';

export const STATEMENTS: readonly { key: StatementKind; label: string; sheet: string }[] = [
  { key: 'income_statement', label: 'Income statement', sheet: 'P&L' },
  { key: 'balance_sheet', label: 'Balance sheet', sheet: 'Balance sheet' },
  { key: 'cash_flow', label: 'Cash flow', sheet: 'Cash flow' },
];

export const LAYOUTS: readonly { key: LayoutKey; label: string }[] = [
  { key: 'single', label: 'One period' },
  { key: 'months', label: 'Months side by side' },
  { key: 'quarters', label: 'Quarters side by side' },
  { key: 'prior_period', label: 'Against the prior period' },
  { key: 'prior_year', label: 'Against the same period last year' },
  { key: 'prior_ytd', label: 'Against the prior year to date' },
  { key: 'by_department', label: 'By department' },
  { key: 'budget', label: 'Against budget' },
];

/** Departments are on income and cost only (journal lines of the income statement's categories: src/engine/departments); a budget is kept for them too (engine/budgets). */
export function offersLayout(statement: StatementKind, layout: LayoutKey): boolean {
  return (layout !== 'by_department' && layout !== 'budget') || statement === 'income_statement';
}

/** The layouts that put a period beside one other to compare with: they may get variance columns. */
const COMPARISONS: readonly LayoutKey[] = ['prior_period', 'prior_year', 'prior_ytd'];

export const SCALES: readonly { key: Scale; label: string }[] = [
  { key: 'units', label: 'Units' },
  { key: 'thousands', label: 'Thousands' },
  { key: 'millions', label: 'Millions' },
];

export const STATEMENT_BINDING_KIND = 'statement';

/** Everything a statement block is built from; stored in its binding. */
export interface StatementSpec {
  statement: StatementKind;
  /** What the user picked (for the description); the dates below are what is fetched. */
  period: PeriodChoice;
  start: string;
  end: string;
  layout: LayoutKey;
  scale: Scale;
  fiscalYearStartMonth: number;
  /** A Total column after the periods (months or quarters of a periodic statement; see offersTotal). */
  total?: boolean;
  /** Variance and Variance % columns after the two periods of a comparison (see offersVariance). */
  variance?: boolean;
  /** How the dates follow the reporting period (relative.ts); none for a block of fixed dates. */
  relation?: PeriodRelation;
  /** By department: the department whose children are the columns (a dept_ id); absent, the tree's top tier. */
  departmentsUnder?: string;
  /** The kept budget (its workbook name) an income statement "against budget" compares with (engine/budgets). */
  budget?: string;
}

/** Periods side by side of a statement that flows over time can be totalled; a balance sheet's dates cannot. */
export function offersTotal(spec: Pick<StatementSpec, 'statement' | 'layout'>): boolean {
  return spec.statement !== 'balance_sheet' && (spec.layout === 'months' || spec.layout === 'quarters');
}

/** An income statement against a kept budget: Actual, Budget and their variance, always (engine/budgets). */
export function comparesBudget(spec: Pick<StatementSpec, 'statement' | 'layout'>): boolean {
  return spec.layout === 'budget' && spec.statement === 'income_statement';
}

/** A comparison of two periods can show their variance, computed when the block is written (no call). */
export function offersVariance(spec: Pick<StatementSpec, 'layout'>): boolean {
  return COMPARISONS.includes(spec.layout);
}

export function statementLabel(kind: StatementKind): string {
  return STATEMENTS.find((s) => s.key === kind)?.label ?? kind;
}

export function layoutLabel(layout: LayoutKey): string {
  return LAYOUTS.find((l) => l.key === layout)?.label ?? layout;
}

/** The period the user picked, resolved against the company's today. */
export function resolvePeriod(
  choice: PeriodChoice,
  options: { today: string; fiscalYearStartMonth: number; customStart?: string; customEnd?: string },
): Result<Period> {
  if (choice === 'custom') {
    return customPeriod(options.customStart ?? '', options.customEnd ?? '', { fiscalYearStartMonth: options.fiscalYearStartMonth });
  }
  return { ok: true, value: namedPeriod(choice, { today: options.today, fiscalYearStartMonth: options.fiscalYearStartMonth }) };
}

/**
 * "FY2025", "Q3 2026", "2026-07-15 to 2026-08-10": the label of the spec's whole period; against the prior
 * year to date, the year to date it shows ("YTD Oct 2026", "YTD 2026-11-23").
 */
export function specPeriodLabel(spec: Pick<StatementSpec, 'start' | 'end' | 'fiscalYearStartMonth'> & { layout?: LayoutKey }): string {
  try {
    if (spec.layout === 'prior_ytd') return yearToDateLabel(spec.end);
    return periodLabel(spec.start, spec.end, { fiscalYearStartMonth: spec.fiscalYearStartMonth });
  } catch {
    return `${spec.start} to ${spec.end}`;
  }
}

/** "YTD Oct 2026" (a year to date to a month end), "YTD 2026-11-23" (to a day). */
export function yearToDateLabel(end: string): string {
  return `YTD ${isEndOfMonth(end) ? periodLabel(startOfMonth(end), end) : end}`;
}

/**
 * Column headers other than the periods' own labels: a year to date reads "YTD Oct 2026", not "Jan 2026 to
 * Oct 2026" (a balance sheet's columns stay its dates). Undefined where the periods' labels serve.
 */
export function columnLabels(spec: StatementSpec, periods: readonly { end?: string }[]): string[] | undefined {
  if (spec.layout !== 'prior_ytd' || spec.statement === 'balance_sheet') return undefined;
  return periods.map((p) => yearToDateLabel(p.end ?? ''));
}

/** "Income statement, FY2025, months side by side with a total, in thousands"; a relative block names its relation too. */
export function describeSpec(spec: StatementSpec): string {
  const total = spec.total ? ' with a total' : '';
  const variance = spec.variance ? ' with variance' : '';
  const layout = spec.layout === 'budget' ? `against the budget ${spec.budget ?? ''}`.trim() : layoutLabel(spec.layout).toLowerCase();
  const units = spec.scale === 'units' ? '' : `, in ${spec.scale}`;
  const relation = spec.relation ? ` (${relationLabel(spec.relation).toLowerCase()})` : '';
  return `${statementLabel(spec.statement)}, ${specPeriodLabel(spec)}${relation}, ${layout}${total}${variance}${units}`;
}

/** Excel's limit on a sheet name. */
const SHEET_NAME_MAX = 31;

/** A relative block's sheet name says its relation, not the dates it was first written with. */
const RELATION_SHEET_WORDS: Readonly<Record<PeriodRelation, string>> = {
  month: 'month',
  quarter: 'quarter',
  ytd: 'YTD',
  last_year: 'month last year',
  ttm: 'TTM',
};

/** Few words for what can tell two blocks of one statement and period apart, in a sheet name. */
const LAYOUT_WORDS: Readonly<Record<LayoutKey, string>> = {
  single: 'one period',
  months: 'by month',
  quarters: 'by quarter',
  prior_period: 'vs prior period',
  prior_year: 'vs last year',
  prior_ytd: 'vs prior YTD',
  by_department: 'by department',
  budget: 'vs budget',
};

function baseSheetName(spec: StatementSpec): string {
  const s = STATEMENTS.find((x) => x.key === spec.statement);
  // A relative block's dates move with the reporting period, and a sheet name is not rewritten when they do.
  const period = spec.relation ? RELATION_SHEET_WORDS[spec.relation] : specPeriodLabel(spec);
  return `${s?.sheet ?? spec.statement} ${period}${spec.layout === 'budget' ? ' vs budget' : ''}`;
}

/**
 * "P&L FY2025"; a second block of the same statement and period is named by what differs from the first
 * one in the workbook ("P&L FY2025 (thousands)", "P&L FY2025 (by quarter)"), as many differences as fit in
 * Excel's 31 characters. A copy that differs in nothing keeps the plain name, which the workbook then makes
 * unique ("(2)"): there is nothing else to say about it.
 */
export function sheetNameFor(spec: StatementSpec, inWorkbook: readonly StatementSpec[] = []): string {
  const base = baseSheetName(spec);
  const first = inWorkbook.find((other) => baseSheetName(other) === base);
  if (!first) return base;
  const differences: string[] = [];
  if (first.layout !== spec.layout) differences.push(LAYOUT_WORDS[spec.layout]);
  if (first.scale !== spec.scale) differences.push(spec.scale);
  if (Boolean(first.total) !== Boolean(spec.total)) differences.push(spec.total ? 'total' : 'no total');
  if (Boolean(first.variance) !== Boolean(spec.variance)) differences.push(spec.variance ? 'variance' : 'no variance');
  if (spec.budget && first.budget !== spec.budget) differences.push(spec.budget);
  for (let n = differences.length; n > 0; n--) {
    const name = `${base} (${differences.slice(0, n).join(', ')})`;
    if (name.length <= SHEET_NAME_MAX) return name;
  }
  return base;
}

/** The specs of the statement blocks recorded in the workbook, oldest first. */
export function specsOf(bindings: readonly BindingRecord[]): StatementSpec[] {
  return bindings.flatMap((b) => {
    const spec = specFromBinding(b);
    return spec ? [spec] : [];
  });
}

export function specToParameters(spec: StatementSpec): { [key: string]: Json } {
  return {
    statement: spec.statement,
    period: spec.period,
    start: spec.start,
    end: spec.end,
    layout: spec.layout,
    scale: spec.scale,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
    // Only when asked for: blocks without a total keep the parameters they always had.
    ...(spec.total ? { total: true } : {}),
    ...(spec.variance ? { variance: true } : {}),
    ...(spec.relation ? { relation: spec.relation } : {}),
    ...(spec.departmentsUnder ? { departmentsUnder: spec.departmentsUnder } : {}),
    ...(spec.budget ? { budget: spec.budget } : {}),
  };
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** The spec a binding was written from, or null when it is not a statement block this engine understands. */
export function specFromBinding(binding: BindingRecord): StatementSpec | null {
  if (binding.kind !== STATEMENT_BINDING_KIND) return null;
  const p = binding.parameters as Record<string, Json>;
  const statement = STATEMENTS.find((s) => s.key === p.statement)?.key;
  const layout = LAYOUTS.find((l) => l.key === p.layout)?.key;
  const scale = SCALES.find((s) => s.key === p.scale)?.key;
  if (!statement || !layout || !scale || !offersLayout(statement, layout)) return null;
  if (typeof p.start !== 'string' || typeof p.end !== 'string' || !ISO.test(p.start) || !ISO.test(p.end) || p.start > p.end) return null;
  const fy = typeof p.fiscalYearStartMonth === 'number' && p.fiscalYearStartMonth >= 1 && p.fiscalYearStartMonth <= 12 ? p.fiscalYearStartMonth : 1;
  const spec: StatementSpec = {
    statement,
    period: typeof p.period === 'string' ? (p.period as PeriodChoice) : 'custom',
    start: p.start,
    end: p.end,
    layout,
    scale,
    fiscalYearStartMonth: fy,
  };
  if (p.total === true && offersTotal(spec)) spec.total = true;
  if (p.variance === true && offersVariance(spec)) spec.variance = true;
  if (isRelation(p.relation)) spec.relation = p.relation;
  if (layout === 'by_department' && typeof p.departmentsUnder === 'string' && p.departmentsUnder.startsWith('dept_')) spec.departmentsUnder = p.departmentsUnder;
  if (layout === 'budget') {
    if (!comparesBudget(spec) || typeof p.budget !== 'string' || p.budget === '') return null;
    spec.budget = p.budget;
  }
  return spec;
}

/**
 * A statement block's binding rolled to a reporting month: its new dates in its parameters (written when the
 * block is rebuilt), or null when it has no relation or its dates already are the month's.
 */
export function rollBinding(binding: BindingRecord, month: YearMonth): BindingRecord | null {
  const spec = specFromBinding(binding);
  if (!spec?.relation) return null;
  const rolled = rollSpec(spec, month);
  if (rolled.start === spec.start && rolled.end === spec.end) return null;
  return { ...binding, parameters: { ...binding.parameters, ...specToParameters(rolled) } };
}

/**
 * What a drill-down from a cell of the block needs, stored next to the spec: the category of each row of
 * the block (null for headings, totals, subtotals and cash-flow groups, which have no journal lines of
 * their own) and the period of each number column (block columns 1..n; a balance-sheet column is its
 * date, start = end; null for a Variance or Variance % column, which is no period). Rewritten on every
 * refresh, since the rows follow the data.
 */
export function drillParameters(grid: StatementGrid, spec?: Pick<StatementSpec, 'statement' | 'layout'>): { rowCategoryIds: (string | null)[]; columnPeriods: ({ start: string; end: string } | null)[] } {
  // Against budget, the second column is the budget's: no journal line explains it.
  const budgetColumn = spec && comparesBudget(spec) ? 1 : -1;
  return {
    rowCategoryIds: grid.rowInfo.map((info) => (info.role === 'line' && info.categoryId && !info.isGroup ? info.categoryId : null)),
    columnPeriods: grid.columns.map((c, i) => (c.variance || i === budgetColumn ? null : { start: c.start ?? c.date ?? '', end: c.end ?? c.date ?? '' })),
  };
}
