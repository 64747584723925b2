// Issue 30, item 3: exact, or not at all. Every figure derivation (src/engine/reader/derive.ts) gives is
// checked against the API's own answer to the same request, fetched, to the cent: over the sandbox's whole
// chart (leaf, parent, revenue, expense, other income, tax, asset, liability, equity), every month of two
// years, quarters, years to date and odd ranges, in both dialects. A derivation that declines is counted and
// must be one the identities say they cannot decide.
import type { Category, Client } from '../../../src/api';
import { lastDayOf } from '../../../src/engine/dates';
import { derivationOf, derive, type Derivation } from '../../../src/engine/reader/derive';
import type { ReadRequest } from '../../../src/engine/reader/requestCache';
import type { Dialect } from '../../../src/sandbox/http/dialect';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

const DIALECTS: readonly Dialect[] = ['standard', 'variant'];
const sandboxes = {} as Record<Dialect, TestSandbox>;

beforeAll(async () => {
  const [standard, variant] = await Promise.all(DIALECTS.map((dialect) => startSandbox({ dialect })));
  Object.assign(sandboxes, { standard, variant });
});
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((sb) => sb.close()));
});

const pad = (n: number) => String(n).padStart(2, '0');
const year = lastFullYear();
/** Two years of months: the year before last and last year, 1..24. */
const months = Array.from({ length: 24 }, (_, i) => ({ year: year - 1 + Math.floor(i / 12), month: (i % 12) + 1 }));
const first = (i: number) => `${months[i].year}-${pad(months[i].month)}-01`;
const last = (i: number) => lastDayOf(months[i].year, months[i].month);

/** Month ranges [from, to] (indexes into `months`): every quarter, every year to date, and odd ones. */
function ranges(): [number, number][] {
  const out: [number, number][] = [];
  for (let q = 0; q < 8; q++) out.push([3 * q, 3 * q + 2]);
  for (let m = 1; m < 24; m++) if (m % 12 !== 0) out.push([m < 12 ? 0 : 12, m]);
  out.push([0, 23], [1, 4], [5, 16], [10, 13], [7, 7], [22, 23]);
  return out;
}

/** A total request in the deprecated month form, for some ranges (the API still takes it). */
const monthText = (i: number) => first(i).slice(0, 7);

async function all<T>(items: readonly T[], each: (item: T) => Promise<unknown>, width = 8): Promise<unknown[]> {
  const out: unknown[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await each(items[i]);
      }
    }),
  );
  return out;
}

interface Sources {
  categories: { data: Category[] };
  incomeStatements: unknown[];
  cashFlows: unknown[];
  balanceSheets: unknown[];
}

async function sourcesOf(client: Client): Promise<Sources> {
  const idx = months.map((_, i) => i);
  const [categories, incomeStatements, cashFlows, balanceSheets] = await Promise.all([
    client.categories.list(),
    all(idx, (i) => client.reports.incomeStatement({ start_date: first(i), end_date: last(i) })),
    all(idx, (i) => client.reports.cashFlow({ start_date: first(i), end_date: last(i) })),
    all(idx, (i) => client.reports.balanceSheet({ date: last(i) })),
  ]);
  return { categories, incomeStatements, cashFlows, balanceSheets };
}

const slice = (list: unknown[], [from, to]: [number, number]) => list.slice(from, to + 1);

function must(req: ReadRequest): Derivation {
  const d = derivationOf(req);
  if (!d) throw new Error(`no derivation for ${JSON.stringify(req)}`);
  return d;
}

describe.each(DIALECTS)('derived figures equal the fetched ones to the cent (%s dialect)', (dialect) => {
  let client: Client;
  let sources: Sources;
  beforeAll(async () => {
    client = (await testRuntime(sandboxes[dialect])).client;
    sources = await sourcesOf(client);
  });

  test('category totals over whole months: every income-statement category, every range', async () => {
    const periodic = sources.categories.data.filter((c) => !c.point_in_time);
    const types = new Set(periodic.map((c) => c.account_type));
    // The chart has every kind the identity speaks of, leaves and parents among them.
    expect([...types].sort()).toEqual(expect.arrayContaining(['expense', 'other_income', 'revenue', 'tax']));
    const parents = new Set(sources.categories.data.map((c) => c.parent_id));
    expect(periodic.some((c) => parents.has(c.id))).toBe(true);
    expect(periodic.some((c) => !parents.has(c.id))).toBe(true);

    const cases = periodic.flatMap((c) => ranges().map((range, k) => ({ c, range, monthForm: k % 5 === 4 })));
    let compared = 0;
    let zeros = 0;
    const declined: string[] = [];
    await all(cases, async ({ c, range, monthForm }) => {
      const query = monthForm
        ? { category_id: c.id, start_month: monthText(range[0]), end_month: monthText(range[1]) }
        : { category_id: c.id, start_date: first(range[0]), end_date: last(range[1]) };
      const d = must({ path: '/aggregations/total', query });
      // From the range's statements; where the category is on none of them (an optional section with nothing
      // posted: taxes, the uncategorized ones), from its section on the other months' statements.
      const derived = derive(d, slice(sources.incomeStatements, range), sources.categories) ?? derive(d, slice(sources.incomeStatements, range), sources.categories, sources.incomeStatements);
      if (!derived) {
        declined.push(`${c.name} ${range.join('-')}`);
        return;
      }
      if (!slice(sources.incomeStatements, range).some((r) => JSON.stringify(r).includes(`"category_id":"${c.id}"`))) zeros += 1;
      const fetched = await client.aggregations.total(query);
      expect({ category: c.name, range, cents: derived.total_cents }).toEqual({ category: c.name, range, cents: fetched.total_cents });
      compared += 1;
    });
    expect(declined).toEqual([]);
    expect(compared).toBe(cases.length);
    // Some ranges have a category on none of their statements (its section shown only when posted to).
    expect(zeros).toBeGreaterThan(0);
  });

  test('point-in-time totals at every month end: every balance-sheet category (asset, liability, equity)', async () => {
    const balances = sources.categories.data.filter((c) => c.point_in_time);
    expect(new Set(balances.map((c) => c.account_type))).toEqual(new Set(['asset', 'liability', 'equity']));
    const cases = balances.flatMap((c) => months.map((_, i) => ({ c, i })));
    const declined: string[] = [];
    await all(cases, async ({ c, i }) => {
      const query = i % 6 === 5 ? { category_id: c.id, end_month: monthText(i) } : { category_id: c.id, date: i % 2 ? last(i) : first(i) };
      const derived = derive(must({ path: '/aggregations/total', query }), [sources.balanceSheets[i]], sources.categories);
      if (!derived) {
        declined.push(`${c.name} ${i}`);
        return;
      }
      const fetched = await client.aggregations.total(query);
      expect({ category: c.name, month: i, cents: derived.total_cents }).toEqual({ category: c.name, month: i, cents: fetched.total_cents });
    });
    expect(declined).toEqual([]);
  });

  test('income statements of several months: the sum of their months, every line and figure', async () => {
    const multi = ranges().filter(([a, b]) => b > a);
    await all(multi, async (range) => {
      const query = { start_date: first(range[0]), end_date: last(range[1]) };
      const derived = derive(must({ path: '/reports/income_statement', query }), slice(sources.incomeStatements, range));
      const fetched = await client.reports.incomeStatement(query);
      expect(derived).toEqual(fetched);
    });
  });

  test('cash flows of several months: activity summed, beginning cash the first month\'s, ending the last\'s; months whose lines differ are declined', async () => {
    const multi = ranges().filter(([a, b]) => b > a);
    let derivedCount = 0;
    await all(multi, async (range) => {
      const query = { start_date: first(range[0]), end_date: last(range[1]) };
      const derived = derive(must({ path: '/reports/cash_flow', query }), slice(sources.cashFlows, range));
      if (!derived) {
        // Only where the months list different lines (a distribution to owners shows only in its month).
        const ids = slice(sources.cashFlows, range).map((cf) => JSON.stringify(((cf as { financing_activities: { categories: { category_id: string }[] } }).financing_activities.categories).map((l) => l.category_id)));
        expect(new Set(ids).size).toBeGreaterThan(1);
        return;
      }
      derivedCount += 1;
      const fetched = await client.reports.cashFlow(query);
      expect(derived).toEqual(fetched);
    });
    expect(derivedCount).toBeGreaterThan(multi.length / 2);
  });
});
