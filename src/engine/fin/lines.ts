// One line of a statement: the figure a FIN.PNL / FIN.BALANCE / FIN.CASHFLOW cell shows. The statement is
// fetched whole (the API has no section filter) and every line of every cell of that period is read from
// the same cached answer.

import type { ActivityEntry, BalanceSheet, CashFlow, Category, IncomeStatement } from '../../api/types';
import { nodesNamed, normalizeName, type Tree } from '../tree';

export const INCOME_SECTIONS = [
  'revenue',
  'uncategorized_income',
  'expenses',
  'uncategorized_expenses',
  'non_operating_income',
  'taxes',
] as const;
export const BALANCE_SECTIONS = ['assets', 'liabilities', 'equity'] as const;
export const CASH_FLOW_SECTIONS = ['operating_activities', 'investing_activities', 'financing_activities'] as const;

interface LineLike {
  readonly category_id: string;
  readonly name: string;
  readonly amount_cents?: number;
  readonly balance_cents?: number;
}

interface SectionLike {
  readonly total_cents: number;
  readonly categories: readonly LineLike[];
}

function sectionsOf(report: unknown, keys: readonly string[]): SectionLike[] {
  const out: SectionLike[] = [];
  for (const key of keys) {
    const s = (report as Record<string, unknown>)[key];
    if (s && typeof s === 'object' && Array.isArray((s as SectionLike).categories)) out.push(s as SectionLike);
  }
  return out;
}

function findLine(report: unknown, keys: readonly string[], categoryId: string): LineLike | undefined {
  for (const section of sectionsOf(report, keys)) {
    const line = section.categories.find((l) => l.category_id === categoryId);
    if (line) return line;
  }
  return undefined;
}

/** Cents of a category on the income statement; undefined when the statement does not list it. */
export function incomeStatementLine(report: IncomeStatement, categoryId: string): number | undefined {
  return findLine(report, INCOME_SECTIONS, categoryId)?.amount_cents;
}

export function balanceSheetLine(report: BalanceSheet, categoryId: string): number | undefined {
  return findLine(report, BALANCE_SECTIONS, categoryId)?.balance_cents;
}

export function cashFlowLine(report: CashFlow, lineId: string): number | undefined {
  return findLine(report, CASH_FLOW_SECTIONS, lineId)?.amount_cents;
}

/** The synthetic grp_ lines of a cash flow (Net Income, Non-Cash Expenses, Changes in Working Capital). */
export function cashFlowGroups(report: CashFlow): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const section of sectionsOf(report, CASH_FLOW_SECTIONS)) {
    for (const line of section.categories) if (line.category_id.startsWith('grp_')) out.push(line as ActivityEntry);
  }
  return out;
}

/**
 * Lines the spec gives every income statement, addressable by name in FIN.PNL whatever the company calls its
 * categories (docs/fin-functions.md): the section totals and the two incomes computed across sections.
 */
export const INCOME_FIGURES: Readonly<Record<string, string>> = {
  'net income': 'net_income_cents',
  'operating income': 'operating_income_cents',
  'total revenue': 'revenue.total_cents',
  'total expenses': 'expenses.total_cents',
  'total non-operating income': 'non_operating_income.total_cents',
  'total taxes': 'taxes.total_cents',
  'total uncategorized income': 'uncategorized_income.total_cents',
  'total uncategorized expenses': 'uncategorized_expenses.total_cents',
};

/** Lines the spec gives every balance sheet, addressable by name in FIN.BALANCE. */
export const BALANCE_FIGURES: Readonly<Record<string, string>> = {
  'total assets': 'assets.total_cents',
  'total liabilities': 'liabilities.total_cents',
  'total equity': 'equity.total_cents',
  'total liabilities and equity': 'liabilities_and_equity_cents',
  'total liabilities & equity': 'liabilities_and_equity_cents',
  cash: 'cash_cents',
  'retained earnings': 'equity.retained_earnings.ending_balance_cents',
};

/**
 * Sections the spec makes optional ("present when such data exists"): only a section that is not there at all
 * reads as none. One that is there but malformed is refused like any other figure.
 */
const OPTIONAL_INCOME_SECTIONS: readonly string[] = ['uncategorized_income', 'uncategorized_expenses', 'taxes'];

/** An income statement figure (INCOME_FIGURES' values); undefined when the answer does not carry it as whole cents. */
export function incomeFigureCents(report: object, key: string): number | undefined {
  const section = key.split('.')[0];
  if (OPTIONAL_INCOME_SECTIONS.includes(section) && !Object.prototype.hasOwnProperty.call(report, section)) return 0;
  return figureCents(report, key);
}

/** Figures of the cash flow, addressable by name in FIN.CASHFLOW. Section totals by their activity name. */
export const CASH_FLOW_FIGURES: Readonly<Record<string, string>> = {
  'net income': 'net_income_cents',
  'change in cash': 'change_in_cash_cents',
  'net change in cash': 'change_in_cash_cents',
  'beginning cash': 'beginning_cash_cents',
  'ending cash': 'ending_cash_cents',
  'operating activities': 'operating_activities.total_cents',
  'investing activities': 'investing_activities.total_cents',
  'financing activities': 'financing_activities.total_cents',
};

export function figureKey(table: Readonly<Record<string, string>>, typed: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(table, normalizeName(typed)) ? table[normalizeName(typed)] : undefined;
}

/** Reads `a.b` paths of a report; undefined when absent or not whole cents. */
export function figureCents(report: unknown, key: string): number | undefined {
  let value: unknown = report;
  for (const part of key.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * The statement line the spec names (a value of `figures`) that `typed` is, unless the company's chart has a
 * category of that name: the company's own category wins, or is refused as ambiguous, by the one rule every
 * name follows (docs/fin-functions.md). So "Cash" stays the category where a chart has one, and a chart
 * without "Revenue" still answers "Total Revenue".
 */
export function namedFigure(chart: Tree<Category>, figures: Readonly<Record<string, string>>, typed: unknown): string | undefined {
  const figure = typeof typed === 'string' ? figureKey(figures, typed) : undefined;
  if (figure === undefined) return undefined;
  return nodesNamed(chart, typed as string).length > 0 ? undefined : figure;
}
