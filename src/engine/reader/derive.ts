// Answers the cached statements already determine (issue 30): an identity of the spec decides them exactly,
// so reading them costs no call. Each identity and the spec sentence it rests on is in docs/api-decisions.md
// ("Figures derived from the monthly statements"):
//   - a category total over whole months (no merchant) is the category's line on the income statement of
//     those months ("the day is ignored; periodic totals include both selected months"; a line carries its
//     descendants' subtotals; both are credit minus debit for every category that is not an asset), and the
//     income statement of several months is the sum of statements that tile them (period activity);
//   - a point-in-time total is the balance sheet's line at the month end ("cumulative through the selected
//     month"; `balance_cents` is the natural sign, the total's sign rule for assets and the others);
//   - an income statement or cash flow over several whole months is its months' summed line by line (period
//     activity is additive), a cash flow's beginning cash the first month's and its ending cash the last's.
// Anything these do not decide exactly -- a merchant filter, a range not in whole months, a category missing
// from the statements or with a descendant in another section, months whose lines differ, a figure whose
// kind (flow or balance) is not known -- is declined (null), and the request is fetched as before.

import type { Category } from '../../api/types';
import { endOfMonth, firstDayOf, isIsoDate, lastDayOf, monthIndex, monthIndexToYearMonth } from '../dates';
import type { ReadRequest } from './requestCache';

const INCOME_STATEMENT = '/reports/income_statement';
const CASH_FLOW = '/reports/cash_flow';
const BALANCE_SHEET = '/reports/balance_sheet';
const TOTAL = '/aggregations/total';
export const CATEGORIES: ReadRequest = { path: '/categories' };

/** What the reader says of a figure it derived (the cost preview's reason). */
export const DERIVED_REASON = 'from the monthly statements';

type Statement = typeof INCOME_STATEMENT | typeof CASH_FLOW;

/** A request an identity may answer; months are month indexes (year * 12 + month - 1). */
export type Derivation =
  | { kind: 'statement'; path: Statement; from: number; to: number }
  | { kind: 'periodTotal'; category: string; from: number; to: number; form: 'date' | 'month' }
  | { kind: 'balanceTotal'; category: string; month: number; form: 'date' | 'month' };

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

function given(query: ReadRequest['query'], name: string): string | undefined {
  const v = query?.[name];
  if (v === undefined || v === null || v === '') return undefined;
  return typeof v === 'string' ? v : undefined;
}

/** The query's non-empty parameter names. */
function named(query: ReadRequest['query']): string[] {
  return Object.keys(query ?? {}).filter((k) => {
    const v = query![k];
    return v !== undefined && v !== null && v !== '';
  });
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A month parameter: a full date (its day ignored) or, in the deprecated form, YYYY-MM. */
function monthOf(value: string | undefined, form: 'date' | 'month'): number | undefined {
  if (value === undefined) return undefined;
  if (form === 'month') return MONTH.test(value) ? monthIndex(`${value}-01`) : undefined;
  return isIsoDate(value) ? monthIndex(value) : undefined;
}

const firstDay = (m: number) => {
  const ym = monthIndexToYearMonth(m);
  return firstDayOf(ym.year, ym.month);
};
const lastDay = (m: number) => {
  const ym = monthIndexToYearMonth(m);
  return lastDayOf(ym.year, ym.month);
};
const monthText = (m: number) => firstDay(m).slice(0, 7);

/** Which identity could answer `req`, or null when none can (what is derived is decided by the request alone). */
export function derivationOf(req: ReadRequest): Derivation | null {
  const q = req.query;
  const names = named(q).sort().join(',');
  if (req.path === INCOME_STATEMENT || req.path === CASH_FLOW) {
    if (names !== 'end_date,start_date') return null;
    const start = given(q, 'start_date');
    const end = given(q, 'end_date');
    if (!start || !end || !isIsoDate(start) || !isIsoDate(end) || !start.endsWith('-01') || endOfMonth(end) !== end) return null;
    const from = monthIndex(start);
    const to = monthIndex(end);
    return to > from ? { kind: 'statement', path: req.path, from, to } : null;
  }
  if (req.path !== TOTAL) return null;
  const category = given(q, 'category_id');
  if (!category || !category.startsWith('cat_')) return null;
  switch (names) {
    case 'category_id,end_date,start_date':
    case 'category_id,end_month,start_month': {
      const form = names.includes('month') ? 'month' : 'date';
      const from = monthOf(given(q, form === 'month' ? 'start_month' : 'start_date'), form);
      const to = monthOf(given(q, form === 'month' ? 'end_month' : 'end_date'), form);
      return from !== undefined && to !== undefined && from <= to ? { kind: 'periodTotal', category, from, to, form } : null;
    }
    case 'category_id,date':
    case 'category_id,end_month': {
      const form = names.includes('month') ? 'month' : 'date';
      const month = monthOf(given(q, form === 'month' ? 'end_month' : 'date'), form);
      return month === undefined ? null : { kind: 'balanceTotal', category, month, form };
    }
    default:
      // A merchant filter, or parameters no identity speaks of.
      return null;
  }
}

/** A statement over the whole months from..to, as every reader of the add-in asks for it. */
export function statementRequest(path: Statement, from: number, to: number): ReadRequest {
  return { path, query: { start_date: firstDay(from), end_date: lastDay(to) } };
}

function balanceSheetRequest(month: number): ReadRequest {
  return { path: BALANCE_SHEET, query: { date: lastDay(month) } };
}

/** The monthly statements an answer is derived from when nothing covering is cached: what a plan fetches. */
export function monthlySources(d: Derivation): ReadRequest[] {
  if (d.kind === 'balanceTotal') return [balanceSheetRequest(d.month)];
  const path = d.kind === 'statement' ? d.path : INCOME_STATEMENT;
  const out: ReadRequest[] = [];
  for (let m = d.from; m <= d.to; m++) out.push(statementRequest(path, m, m));
  return out;
}

/**
 * The fewest statements among those `available` that tile the derivation's months exactly (a statement
 * never tiles itself); null when none do. A balance total has its one balance sheet.
 */
export function tiling(d: Derivation, available: (req: ReadRequest) => boolean): ReadRequest[] | null {
  if (d.kind === 'balanceTotal') {
    const sheet = balanceSheetRequest(d.month);
    return available(sheet) ? [sheet] : null;
  }
  const path = d.kind === 'statement' ? d.path : INCOME_STATEMENT;
  const months = d.to - d.from + 1;
  // best[i]: the fewest pieces covering the first i months, and the piece that ends there.
  const best: { pieces: number; piece?: ReadRequest; start: number }[] = [{ pieces: 0, start: 0 }];
  for (let i = 1; i <= months; i++) {
    best[i] = { pieces: Infinity, start: -1 };
    for (let j = 0; j < i; j++) {
      if (best[j].pieces === Infinity) continue;
      if (d.kind === 'statement' && j === 0 && i === months) continue;
      const piece = statementRequest(path, d.from + j, d.from + i - 1);
      if (best[j].pieces + 1 < best[i].pieces && available(piece)) best[i] = { pieces: best[j].pieces + 1, piece, start: j };
    }
  }
  if (best[months].pieces === Infinity) return null;
  const out: ReadRequest[] = [];
  for (let i = months; i > 0; i = best[i].start) out.unshift(best[i].piece!);
  return out;
}

/** The latest of the sources' refreshed_at (null when none has one), as the API's own statements take it. */
function latestRefresh(answers: readonly Json[]): number | null {
  const times = answers.map((a) => a.refreshed_at).filter((t): t is number => typeof t === 'number');
  return times.length > 0 ? Math.max(...times) : null;
}

/** The fields of an answer that hold sections (an object with whole-cents total_cents and a categories array). */
function sectionKeys(report: Json): string[] {
  return Object.keys(report).filter((k) => isRecord(report[k]) && isCents((report[k] as Json).total_cents) && Array.isArray((report[k] as Json).categories));
}

/** Figures of a period's statement outside its sections: flows add up, balances are taken at the ends. */
const FLOWS = new Set(['operating_income_cents', 'net_income_cents', 'change_in_cash_cents']);
const OPENING = 'beginning_cash_cents';
const CLOSING = 'ending_cash_cents';
/** Fields that differ from month to month by nature: each is made anew. */
const PERIOD_FIELDS = new Set(['start_date', 'end_date', 'refreshed_at']);

/**
 * The statement of the whole run of `pieces` (consecutive, in order), each section summed line by line; null
 * when anything about them is not exactly additive: a section whose lines differ between pieces, a figure of
 * unknown kind, fields that disagree.
 */
export function sumStatements(pieces: readonly unknown[]): Json | null {
  if (pieces.length < 2 || !pieces.every(isRecord)) return null;
  const reports = pieces as Json[];
  const first = reports[0];
  const last = reports[reports.length - 1];
  const out: Json = {};
  const keys = [...new Set(reports.flatMap((r) => Object.keys(r)))];
  for (const key of keys) {
    if (PERIOD_FIELDS.has(key)) continue;
    const present = reports.filter((r) => key in r);
    if (sectionKeys(present[0]).includes(key)) {
      const section = sumSection(present.map((r) => r[key]));
      if (!section) return null;
      out[key] = section;
    } else if (key.endsWith('_cents')) {
      // Money outside the sections: a known flow (summed) or the cash at the ends; every piece must have it.
      if (present.length !== reports.length || !present.every((r) => isCents(r[key]))) return null;
      if (FLOWS.has(key)) out[key] = reports.reduce((t, r) => t + (r[key] as number), 0);
      else if (key === OPENING) out[key] = first[key];
      else if (key === CLOSING) out[key] = last[key];
      else return null;
    } else {
      // Anything else (object, currency...) must be the same in every piece.
      if (present.length !== reports.length) return null;
      const text = JSON.stringify(first[key]);
      if (!reports.every((r) => JSON.stringify(r[key]) === text)) return null;
      out[key] = first[key];
    }
  }
  for (let i = 1; i < reports.length; i++) {
    // Consecutive and in order: each piece starts the day after the previous ends.
    const prev = reports[i - 1].end_date;
    const next = reports[i].start_date;
    if (typeof prev !== 'string' || typeof next !== 'string' || !isIsoDate(prev) || !isIsoDate(next) || monthIndex(next) !== monthIndex(prev) + 1) return null;
    // A cash flow's cash chains: what one month ends with, the next begins with.
    if (OPENING in reports[i] && reports[i][OPENING] !== reports[i - 1][CLOSING]) return null;
  }
  if (typeof first[OPENING] === 'number' && typeof last[CLOSING] === 'number' && typeof out.change_in_cash_cents === 'number') {
    if ((out[OPENING] as number) + out.change_in_cash_cents !== out[CLOSING]) return null;
  }
  out.start_date = first.start_date;
  out.end_date = last.end_date;
  out.refreshed_at = latestRefresh(reports);
  // In the order the pieces have them.
  const ordered: Json = {};
  for (const key of Object.keys(first)) if (key in out) ordered[key] = out[key];
  for (const key of Object.keys(out)) if (!(key in ordered)) ordered[key] = out[key];
  return ordered;
}

/** One section of several periods: the same lines in the same order in each, amounts and total summed. */
function sumSection(sections: readonly unknown[]): Json | null {
  const first = sections[0] as Json;
  const lines = first.categories as Json[];
  const ids = lines.map((l) => (isRecord(l) ? l.category_id : undefined));
  const sectionFieldsOf = Object.keys(first).filter((k) => k !== 'categories' && k !== 'total_cents');
  let total = 0;
  const sums = lines.map(() => 0);
  for (const s of sections) {
    if (!isRecord(s) || !isCents(s.total_cents) || !Array.isArray(s.categories) || s.categories.length !== lines.length) return null;
    // Fields beside the lines (a balance sheet's retained earnings) have no period sum: not a periodic section.
    if (Object.keys(s).some((k) => k !== 'categories' && k !== 'total_cents' && !sectionFieldsOf.includes(k))) return null;
    for (const k of sectionFieldsOf) if (JSON.stringify(s[k]) !== JSON.stringify(first[k])) return null;
    total += s.total_cents;
    const cats = s.categories as unknown[];
    for (let i = 0; i < lines.length; i++) {
      const line = cats[i];
      if (!isRecord(line) || line.category_id !== ids[i] || !isCents(line.amount_cents)) return null;
      if (line.parent_category_id !== lines[i].parent_category_id || line.name !== lines[i].name || line.position !== lines[i].position) return null;
      sums[i] += line.amount_cents;
    }
  }
  return { ...first, total_cents: total, categories: lines.map((l, i) => ({ ...l, amount_cents: sums[i] })) };
}

/** The category and its descendants per the category list; undefined when the list does not hold it. */
function subtreeOf(categories: readonly Category[], id: string): { node: Category; descendants: string[] } | undefined {
  const node = categories.find((c) => c.id === id);
  if (!node) return undefined;
  const children = new Map<string, string[]>();
  for (const c of categories) if (c.parent_id) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c.id]);
  const descendants: string[] = [];
  const walk = (at: string) => {
    for (const child of children.get(at) ?? []) {
      if (descendants.includes(child) || child === id) continue;
      descendants.push(child);
      walk(child);
    }
  };
  walk(id);
  return { node, descendants };
}

/**
 * The category's line in one statement: its section and amount, or 'absent' when no section has it, or null
 * when the line cannot stand for the category's total (a descendant is not in its section, the amount is not
 * whole cents).
 */
function lineOf(report: Json, category: string, descendants: readonly string[], field: 'amount_cents' | 'balance_cents'): { section: string; cents: number } | 'absent' | null {
  for (const key of sectionKeys(report)) {
    const lines = (report[key] as Json).categories as unknown[];
    const line = lines.find((l) => isRecord(l) && l.category_id === category) as Json | undefined;
    if (!line) continue;
    const ids = new Set(lines.map((l) => (isRecord(l) ? l.category_id : undefined)));
    if (!descendants.every((d) => ids.has(d)) || !isCents(line[field])) return null;
    return { section: key, cents: line[field] };
  }
  return 'absent';
}

function categoryList(list: unknown): Category[] | undefined {
  return isRecord(list) && Array.isArray(list.data) ? (list.data as Category[]) : undefined;
}

/** The section another income statement shows the category in, if one does (and the line there stands for it). */
function sectionElsewhere(statements: readonly unknown[], category: string, descendants: readonly string[]): string | undefined {
  for (const r of statements) {
    if (!isRecord(r) || r.object !== 'income_statement') continue;
    const line = lineOf(r, category, descendants, 'amount_cents');
    if (line !== null && line !== 'absent') return line.section;
  }
  return undefined;
}

/**
 * What a balance total's identity rests on beyond the spec's sentences (issue 34, item 4; docs/api-decisions.md,
 * "Balance identities"), to be verified once per company against the API before it is relied on:
 *   - 'retained earnings': the category's subtree holds the equity line that carries retained earnings (named
 *     so, or whose balance is `retained_earnings.ending_balance_cents`): that the API lists it as a category
 *     with that balance, and that its total includes the computed earnings, is the sandbox's choice;
 *   - 'credit-balance asset': an asset whose subtree holds a credit balance (a contra account such as
 *     accumulated depreciation): that "natural sign" on the balance sheet is debit minus credit for it, as
 *     the total's sign rule, is this add-in's reading.
 * null: the identity rests on the spec's sentences alone.
 */
export type BalanceIdentity = 'retained earnings' | 'credit-balance asset';

export function balanceIdentityOf(category: string, sheet: unknown, categoryListAnswer: unknown): BalanceIdentity | null {
  const categories = categoryList(categoryListAnswer);
  const tree = categories && subtreeOf(categories, category);
  if (!tree || !isRecord(sheet)) return null;
  const ids = new Set([category, ...tree.descendants]);
  const lines = sectionKeys(sheet).flatMap((k) => ((sheet[k] as Json).categories as unknown[]).filter(isRecord));
  const equity = isRecord(sheet.equity) ? sheet.equity : {};
  const ending = isRecord(equity.retained_earnings) ? equity.retained_earnings.ending_balance_cents : undefined;
  const equityIds = new Set(categories.filter((c) => c.account_type === 'equity').map((c) => c.id));
  const carriesEarnings = (l: Json) => equityIds.has(String(l.category_id)) && ((typeof l.name === 'string' && /^retained earnings$/i.test(l.name.trim())) || (isCents(ending) && ending !== 0 && l.balance_cents === ending));
  if (lines.some((l) => ids.has(String(l.category_id)) && carriesEarnings(l))) return 'retained earnings';
  if (tree.node.account_type === 'asset' && lines.some((l) => ids.has(String(l.category_id)) && isCents(l.balance_cents) && l.balance_cents < 0)) return 'credit-balance asset';
  return null;
}

/**
 * Whether the balance sheet's asset lines add up under debit minus credit: each parent's line the sum of its
 * children's ("parents contain subtotals of children"), the section's total the sum of its roots. A sheet
 * that signs a contra account by its own (credit) nature does not, and then no asset total is derived from
 * it: the line is not the total's figure.
 */
function assetsAddUp(sheet: Json, categories: readonly Category[]): boolean {
  const section = sheet.assets;
  if (!isRecord(section) || !Array.isArray(section.categories)) return false;
  const lines = new Map<string, number>();
  for (const l of section.categories) if (isRecord(l) && isCents(l.balance_cents)) lines.set(String(l.category_id), l.balance_cents);
  const parentOf = new Map(categories.map((c) => [c.id, c.parent_id]));
  const sums = new Map<string | null, number>();
  for (const [id, cents] of lines) {
    const parent = parentOf.get(id) ?? null;
    sums.set(parent, (sums.get(parent) ?? 0) + cents);
  }
  for (const [parent, sum] of sums) {
    if (parent === null ? section.total_cents !== sum : lines.has(parent) && lines.get(parent) !== sum) return false;
  }
  return true;
}

/** The total's answer, in the shape the add-in reads (api/aggregations.ts), from the identity's figures. */
function totalAnswer(d: Extract<Derivation, { kind: 'periodTotal' | 'balanceTotal' }>, cents: number, currency: unknown, refreshed: number | null): Json {
  const periodic = d.kind === 'periodTotal';
  return {
    object: 'aggregation_total',
    category_id: d.category,
    total_cents: cents,
    currency,
    start_date: periodic ? firstDay(d.from) : null,
    end_date: periodic ? lastDay(d.to) : null,
    start_month: periodic ? monthText(d.from) : null,
    end_month: periodic ? monthText(d.to) : null,
    date: periodic ? null : lastDay(d.month),
    month: periodic ? null : monthText(d.month),
    merchant: null,
    refreshed_at: refreshed,
  };
}

/**
 * The derived answer to `d` from its tiling's answers (in order) and the category list (totals need it: the
 * category's kind and descendants); null when the identity does not decide it exactly.
 */
export function derive(d: Derivation, pieces: readonly unknown[], categoryListAnswer?: unknown, otherStatements: readonly unknown[] = []): Json | null {
  if (d.kind === 'statement') return sumStatements(pieces);
  if (!pieces.every(isRecord) || pieces.length === 0) return null;
  const reports = pieces as Json[];
  const categories = categoryList(categoryListAnswer);
  const tree = categories && subtreeOf(categories, d.category);
  if (!tree) return null;
  const currency = reports[0].currency;
  if (!reports.every((r) => r.currency === currency)) return null;
  if (d.kind === 'balanceTotal') {
    if (tree.node.point_in_time !== true) return null;
    if (tree.node.account_type === 'asset' && !assetsAddUp(reports[0], categories)) return null;
    const line = lineOf(reports[0], d.category, tree.descendants, 'balance_cents');
    if (line === null || line === 'absent') return null;
    return totalAnswer(d, line.cents, currency, latestRefresh(reports));
  }
  if (tree.node.point_in_time !== false || tree.node.account_type === 'asset') return null;
  const lines = reports.map((r) => lineOf(r, d.category, tree.descendants, 'amount_cents'));
  if (lines.some((l) => l === null)) return null;
  const found = lines.filter((l): l is { section: string; cents: number } => l !== null && l !== 'absent');
  // On none of them: its section may be one shown only when something was posted there (taxes, the
  // uncategorized ones), as another income statement of the company tells.
  const section = found[0]?.section ?? sectionElsewhere(otherStatements, d.category, tree.descendants);
  if (section === undefined || found.some((l) => l.section !== section)) return null;
  // A statement without the category's section had nothing posted there ("present when such data exists").
  if (reports.some((r, i) => lines[i] === 'absent' && section in r)) return null;
  return totalAnswer(d, found.reduce((t, l) => t + l.cents, 0), currency, latestRefresh(reports));
}
