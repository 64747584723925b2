// A controller's model at the scale of issue 17, on the Growth demo company: 10,000 FIN.PNL cells (40
// income-statement categories x 12 months of a year, repeated in the ways people type them: by name and by
// path, months as text, as date serials and as ISO days), 2,000 FIN.TOTAL cells (20 categories x 4 quarters,
// 5 of them also with a merchant) and 500 FIN.BALANCE cells (balance-sheet categories at 12 month ends).
// Shared by the bench (bench/finCells.ts) and the test that holds its counts and values
// (test/engine/fin/modelScale.sandbox.test.ts). The expected value of every cell is worked out here from the API's
// own figures, read with a plain client, without the engine's FIN code.

import type { AggregationTotal, BalanceSheet, Category, Client, IncomeStatement } from '../../src/api';
import { isoToSerial } from '../../src/engine/dates';

export type ModelFunction = 'pnl' | 'total' | 'balance';

export interface ModelCell {
  fn: ModelFunction;
  /** The arguments as Excel hands them over (null for an omitted optional one), without the invocation. */
  args: (string | number | null)[];
  /** The request whose answer the value comes from, and how to read it (for the expected values). */
  source: { kind: 'income_statement'; month: number; categoryId: string } | { kind: 'balance_sheet'; month: number; categoryId: string } | { kind: 'total'; key: string };
}

export interface FinModel {
  year: number;
  cells: ModelCell[];
  counts: Record<ModelFunction, number>;
  /** Distinct requests the model needs: what a cold recalculation cannot spend less than. */
  floorParts: Record<string, number>;
  floor: number;
  /** The distinct /aggregations/total requests by key. */
  totals: Map<string, { category_id: string; start_date: string; end_date: string; merchant?: string }>;
}

export const MODEL_SIZE = { pnl: 10_000, total: 2_000, balance: 500 } as const;
const PNL_CATEGORIES = 40;
const TOTAL_CATEGORIES = 20;
const MERCHANT_CATEGORIES = 5;

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function serial(iso: string): number {
  const r = isoToSerial(iso, 1900);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** Full paths and whether a name is unique, from the category list. */
function namesOf(categories: Category[]) {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const pathOf = (c: Category): string[] => (c.parent_id && byId.has(c.parent_id) ? [...pathOf(byId.get(c.parent_id)!), c.name] : [c.name]);
  const seen = new Map<string, number>();
  for (const c of categories) seen.set(c.name.toLowerCase(), (seen.get(c.name.toLowerCase()) ?? 0) + 1);
  const parents = new Set(categories.map((c) => c.parent_id));
  return {
    path: (c: Category) => pathOf(c).join(' > '),
    tail: (c: Category) => pathOf(c).slice(-2).join(' > '),
    unique: (c: Category) => seen.get(c.name.toLowerCase()) === 1,
    isLeaf: (c: Category) => !parents.has(c.id),
  };
}

/** The model for `year` on the company `client` reads (setup calls: the category list and a few merchant pages). */
export async function defineFinModel(client: Client, year: number): Promise<FinModel> {
  const { data: categories } = await client.categories.list();
  const names = namesOf(categories);
  const periodic = categories.filter((c) => !c.point_in_time);
  if (periodic.length < PNL_CATEGORIES) throw new Error(`only ${periodic.length} income-statement categories`);
  const pnlCategories = periodic.slice(0, PNL_CATEGORIES);
  const nameOf = (c: Category) => (names.unique(c) ? c.name : names.path(c));

  const cells: ModelCell[] = [];
  // FIN.PNL: the 480 (category, month) pairs, each typed five ways in turn.
  const pairs = PNL_CATEGORIES * 12;
  for (let i = 0; i < MODEL_SIZE.pnl; i++) {
    const c = pnlCategories[Math.floor((i % pairs) / 12)];
    const month = (i % 12) + 1;
    const ym = `${year}-${pad(month)}`;
    const first = `${ym}-01`;
    const last = `${ym}-${pad(lastDay(year, month))}`;
    const form = Math.floor(i / pairs) % 5;
    const args: (string | number | null)[] =
      form === 0 ? [nameOf(c), ym, null]
      : form === 1 ? [names.path(c), ym, null]
      : form === 2 ? [nameOf(c), serial(first), serial(last)]
      : form === 3 ? [names.tail(c), first, last]
      : [`  ${nameOf(c).toUpperCase()} `, ym, ym];
    cells.push({ fn: 'pnl', args, source: { kind: 'income_statement', month, categoryId: c.id } });
  }

  // FIN.TOTAL: 20 leaf categories with merchants x 4 quarters, and the first 5 of them again with a merchant.
  const withMerchant: { c: Category; merchant: string }[] = [];
  for (const c of periodic) {
    if (withMerchant.length >= TOTAL_CATEGORIES) break;
    if (!names.isLeaf(c)) continue;
    const page = await client.merchants.list({ category_id: c.id, limit: 1 });
    if (page.data.length > 0) withMerchant.push({ c, merchant: String(page.data[0].name) });
  }
  if (withMerchant.length < TOTAL_CATEGORIES) throw new Error(`only ${withMerchant.length} leaf categories with merchants`);
  const totals = new Map<string, { category_id: string; start_date: string; end_date: string; merchant?: string }>();
  const distinctTotals: { args: (string | number | null)[][]; key: string }[] = [];
  for (let q = 1; q <= 4; q++) {
    const start = `${year}-${pad(3 * q - 2)}`;
    const end = `${year}-${pad(3 * q)}`;
    const range = { start_date: `${start}-01`, end_date: `${end}-${pad(lastDay(year, 3 * q))}` };
    withMerchant.forEach(({ c, merchant }, k) => {
      const plain = `${c.id}|${q}`;
      totals.set(plain, { category_id: c.id, ...range });
      distinctTotals.push({ key: plain, args: [[nameOf(c), `${year}-Q${q}`, null, null], [names.path(c), start, end, null]] });
      if (k < MERCHANT_CATEGORIES) {
        const key = `${c.id}|${q}|${merchant}`;
        totals.set(key, { category_id: c.id, ...range, merchant });
        distinctTotals.push({ key, args: [[nameOf(c), `${year}-Q${q}`, null, merchant], [names.tail(c), start, end, merchant]] });
      }
    });
  }
  for (let j = 0; j < MODEL_SIZE.total; j++) {
    const d = distinctTotals[j % distinctTotals.length];
    const forms = d.args;
    cells.push({ fn: 'total', args: forms[Math.floor(j / distinctTotals.length) % forms.length], source: { kind: 'total', key: d.key } });
  }

  // FIN.BALANCE: balance-sheet leaves at each month end, as the month or as the month end's serial.
  const balances = categories.filter((c) => c.point_in_time && names.isLeaf(c));
  for (let k = 0; k < MODEL_SIZE.balance; k++) {
    const c = balances[k % balances.length];
    const month = (Math.floor(k / balances.length) % 12) + 1;
    const ym = `${year}-${pad(month)}`;
    const date = Math.floor(k / (balances.length * 12)) % 2 === 0 ? ym : serial(`${ym}-${pad(lastDay(year, month))}`);
    cells.push({ fn: 'balance', args: [nameOf(c), date], source: { kind: 'balance_sheet', month, categoryId: c.id } });
  }

  const floorParts = { 'categories list': 1, 'income statements': 12, 'balance sheets': 12, 'category totals': totals.size };
  return {
    year,
    cells,
    counts: { pnl: MODEL_SIZE.pnl, total: MODEL_SIZE.total, balance: MODEL_SIZE.balance },
    floorParts,
    floor: Object.values(floorParts).reduce((a, b) => a + b, 0),
    totals,
  };
}

interface Line {
  category_id: string;
  amount_cents?: number;
  balance_cents?: number;
}

function lineCents(report: object, sections: readonly string[], categoryId: string, field: 'amount_cents' | 'balance_cents'): number {
  for (const key of sections) {
    const lines = (report as Record<string, { categories?: Line[] } | undefined>)[key]?.categories ?? [];
    const line = lines.find((l) => l.category_id === categoryId);
    if (line) return line[field] ?? 0;
  }
  return 0; // a category the statement does not list had no activity
}

const INCOME = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'];
const BALANCE = ['assets', 'liabilities', 'equity'];

/** Every cell's value from the API's figures (one plain call per distinct request), in currency units. */
export async function expectedValues(client: Client, model: FinModel): Promise<number[]> {
  const months = Array.from({ length: 12 }, (_, i) => i + 1);
  const span = (m: number) => ({ start: `${model.year}-${pad(m)}-01`, end: `${model.year}-${pad(m)}-${pad(lastDay(model.year, m))}` });
  const income = new Map<number, IncomeStatement>();
  const balance = new Map<number, BalanceSheet>();
  const totals = new Map<string, AggregationTotal>();
  for (const m of months) {
    income.set(m, await client.reports.incomeStatement({ start_date: span(m).start, end_date: span(m).end }));
    balance.set(m, await client.reports.balanceSheet({ date: span(m).end }));
  }
  for (const [key, params] of model.totals) totals.set(key, await client.aggregations.total(params));
  const units = (cents: number) => (cents === 0 ? 0 : cents / 100);
  return model.cells.map(({ source: s }) => {
    if (s.kind === 'income_statement') return units(lineCents(income.get(s.month)!, INCOME, s.categoryId, 'amount_cents'));
    if (s.kind === 'balance_sheet') return units(lineCents(balance.get(s.month)!, BALANCE, s.categoryId, 'balance_cents'));
    return units(totals.get(s.key)!.total_cents);
  });
}
