import type { Db } from '../db/open';
import { prepared } from './sql';
import type { CategoryNode } from './tree';

// What the three statements share: the company's currency and fiscal year, the sign
// rules, and the section shape (every category listed depth-first, parents carrying their subtotals).

export const INCOME_STATEMENT_TYPES = new Set(['revenue', 'expense', 'other_income', 'other_expense', 'tax']);
export const BALANCE_SHEET_TYPES = new Set(['asset', 'liability', 'equity']);

export interface CompanyBooks {
  currency: string;
  /** 1 = the fiscal year is the calendar year. */
  fiscalYearStartMonth: number;
}

export function companyBooks(db: Db, companyId: string): CompanyBooks {
  const row = prepared(db, 'SELECT currency, fiscal_year_start_month FROM companies WHERE id = ?').get(companyId) as
    | { currency: string; fiscal_year_start_month: number }
    | undefined;
  const month = row?.fiscal_year_start_month ?? 1;
  return { currency: row?.currency ?? 'USD', fiscalYearStartMonth: month >= 1 && month <= 12 ? month : 1 };
}

/** Income statement sign: credit minus debit (revenue positive, expenses negative). */
export const creditNormal = (a: { debit: number; credit: number } | undefined) => (a ? a.credit - a.debit : 0);
export const debitNormal = (a: { debit: number; credit: number } | undefined) => (a ? a.debit - a.credit : 0);

export type AmountField = 'amount_cents' | 'balance_cents';

export type SectionLine<F extends AmountField> = {
  category_id: string;
  name: string;
  position: number;
  parent_category_id: string | null;
} & Record<F, number>;

export interface Section<F extends AmountField> {
  total_cents: number;
  categories: SectionLine<F>[];
}

/**
 * A statement section over `members` (in chart order): each line carries its own amount plus those of its
 * descendants inside the section; a member whose parent is outside the section is one of its roots, and
 * the total is the sum of the roots.
 */
export function buildSection<F extends AmountField>(members: CategoryNode[], own: (n: CategoryNode) => number, field: F): Section<F> {
  const inSection = new Set(members.map((m) => m.id));
  const rolled = new Map(members.map((m) => [m.id, own(m)]));
  for (let i = members.length - 1; i >= 0; i--) {
    const m = members[i];
    if (m.parentId !== null && inSection.has(m.parentId)) rolled.set(m.parentId, rolled.get(m.parentId)! + rolled.get(m.id)!);
  }
  let total = 0;
  const categories = members.map((m) => {
    const parent = m.parentId !== null && inSection.has(m.parentId) ? m.parentId : null;
    if (parent === null) total += rolled.get(m.id)!;
    return { category_id: m.id, name: m.name, [field]: rolled.get(m.id)!, position: m.position, parent_category_id: parent } as SectionLine<F>;
  });
  return { total_cents: total, categories };
}
