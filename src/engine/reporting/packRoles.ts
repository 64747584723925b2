// The board pack's roles: what each of its KPIs and charts reads, on any company's chart of accounts. What the
// spec gives every statement is read by the spec's names (FIN.PNL("Total Revenue"), FIN.BALANCE("Cash"):
// engine/fin/lines.ts). A role the spec does not name, the cost of revenue the gross margin needs, is mapped to
// one of the company's categories when the pack is inserted: proposed here from the chart (by name, then by
// place), confirmed or changed by the user, kept with the pack. A KPI whose role has no mapping is left out
// with a word in its cell, never an error on the board's sheet.

import type { Category } from '../../api/types';
import { chartOfAccounts, type CategoriesClient } from '../budgets/column';
import type { CachedReader } from '../reader/cachedReader';
import { CATEGORIES_READ } from './packReads';
import { normalizeName } from '../tree';

/** A category chosen for a role, as the pack records it (the id the formulas read, the name the sheet shows). */
export interface RoleCategory {
  id: string;
  name: string;
}

export interface PackRoles {
  /**
   * The expense category holding the cost of revenue (gross margin = revenue less it, over revenue; operating
   * expenses are the other expenses). null: the company has none, or none was chosen.
   */
  costOfRevenue: RoleCategory | null;
}

export interface RoleProposal {
  roles: PackRoles;
  /** The categories the cost of revenue may be, likeliest first (the proposal, when any, is the first). */
  candidates: (RoleCategory & { path: string })[];
}

// What companies call their cost of revenue, best first: a name equal to one of these is proposed, one that
// only contains one is offered first but not proposed ("did you mean").
const COST_OF_REVENUE_NAMES = ['cost of revenue', 'cost of sales', 'cost of goods sold', 'cogs', 'cost of services', 'direct costs'];

function nameScore(name: string): number {
  const n = normalizeName(name);
  const exact = COST_OF_REVENUE_NAMES.indexOf(n);
  if (exact >= 0) return 100 - exact;
  return COST_OF_REVENUE_NAMES.some((s) => n.includes(s)) || n.startsWith('cost of') ? 10 : 0;
}

function pathOf(c: Category, byId: ReadonlyMap<string, Category>): string {
  const names: string[] = [];
  for (let at: Category | undefined = c; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) names.unshift(at.name);
  return names.join(' > ');
}

/**
 * The roles proposed for a company's chart, and the candidates for each: periodic expense categories, those
 * named like a cost of revenue first, then by tier and position (a root or a high tier is likelier a group of
 * costs than a leaf). Reads nothing but the chart given.
 */
export function proposePackRoles(chart: readonly Category[]): RoleProposal {
  const byId = new Map(chart.map((c) => [c.id, c]));
  const expenses = chart.filter((c) => c.account_type === 'expense' && !c.point_in_time);
  const ranked = expenses
    .map((c, i) => ({ c, score: nameScore(c.name), i }))
    .sort((a, b) => b.score - a.score || a.c.tier - b.c.tier || a.i - b.i);
  const candidates = ranked.map(({ c }) => ({ id: c.id, name: c.name, path: pathOf(c, byId) }));
  const best = ranked[0];
  const proposed = best && best.score >= 90 ? { id: best.c.id, name: best.c.name } : null;
  return { roles: { costOfRevenue: proposed }, candidates };
}

/**
 * The roles proposed for the company's chart, read through the cache (the pack's own reads include it);
 * `cachedOnly`: null rather than a call when the chart is not cached (a pane showing the choice spends nothing).
 */
export async function proposeRolesFor(reader: CachedReader, client: CategoriesClient, options: { cachedOnly?: boolean } = {}): Promise<RoleProposal | null> {
  if (options.cachedOnly && !reader.fresh(CATEGORIES_READ)) return null;
  const chart = await chartOfAccounts(reader, client);
  return proposePackRoles([...chart.byId.values()].map((n) => n.item));
}

/** A category id inside a formula's text: written as a string literal, quotes doubled, so it can never be more. */
export function formulaText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Roles as recorded in the workbook, or null when the record holds none readable (a pack of an earlier version). */
export function rolesFromRecord(value: unknown): PackRoles | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const cor = (value as { costOfRevenue?: unknown }).costOfRevenue;
  if (cor === null) return { costOfRevenue: null };
  if (cor && typeof cor === 'object') {
    const { id, name } = cor as { id?: unknown; name?: unknown };
    if (typeof id === 'string' && typeof name === 'string') return { costOfRevenue: { id, name } };
  }
  return null;
}
