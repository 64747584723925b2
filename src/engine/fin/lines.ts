// One line of a statement: the figure a FIN.PNL / FIN.BALANCE / FIN.CASHFLOW cell shows. The statement is
// fetched whole (the API has no section filter) and every line of every cell of that period is read from
// the same cached answer.

import type { ActivityEntry, BalanceSheet, CashFlow, IncomeStatement } from '../../api/types';
import { normalizeName } from '../tree';

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

/** Figures computed across sections, addressable by name in FIN.PNL. */
export const INCOME_FIGURES: Readonly<Record<string, keyof IncomeStatement>> = {
  'net income': 'net_income_cents',
  'operating income': 'operating_income_cents',
};

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
