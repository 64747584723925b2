// Derivation through the one cached reader, against the sandbox (issue 30): a total or a statement the
// cached statements decide costs no call, is cached, priced at 0 calls "from the monthly statements", made
// stale by what makes its sources stale, and fetched as before whenever the identity does not decide it.
// Every figure is checked against the API's own answer to the same request (a plain client, not counted).
import type { Category, Client } from '../../../src/api';
import { touchedBy } from '../../../src/engine/reader/touched';
import { canonicalKey, type CachedAnswer, type ReadRequest } from '../../../src/engine/reader/requestCache';
import { costText } from '../../../src/engine/statements';
import type { Dialect } from '../../../src/sandbox/http/dialect';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, type TestRuntime } from '../../support/runtime';
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

const year = lastFullYear();
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (m: number) => new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
const month = (m: number): ReadRequest => ({ path: '/reports/income_statement', query: { start_date: `${year}-${pad(m)}-01`, end_date: lastDay(m) } });
const quarter = (q: number) => ({ start_date: `${year}-${pad(3 * q - 2)}-01`, end_date: lastDay(3 * q) });
const total = (category: string, q: number, extra: Record<string, string> = {}): ReadRequest => ({ path: '/aggregations/total', query: { category_id: category, ...quarter(q), ...extra } });

/** The sandbox's counter around `work`. */
async function counted<T>(sb: TestSandbox, work: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const company = sb.companies['growth-admin'];
  const before = await sb.usage(company);
  const value = await work();
  return { value, calls: (await sb.usage(company)) - before };
}

/** Reads a request through the runtime's reader the way every reader of the add-in does. */
function read(rt: TestRuntime, r: ReadRequest): Promise<CachedAnswer<unknown>> {
  const c = rt.client;
  const q = r.query as Record<string, string>;
  switch (r.path) {
    case '/categories':
      return rt.reader.read(r, (o) => c.categories.list(o));
    case '/reports/income_statement':
      return rt.reader.read(r, (o) => c.reports.incomeStatement({ start_date: q.start_date, end_date: q.end_date }, o));
    case '/reports/cash_flow':
      return rt.reader.read(r, (o) => c.reports.cashFlow({ start_date: q.start_date, end_date: q.end_date }, o));
    case '/reports/balance_sheet':
      return rt.reader.read(r, (o) => c.reports.balanceSheet({ date: q.date }, o));
    default:
      return rt.reader.read(r, (o) => c.aggregations.total({ category_id: q.category_id, ...q }, o));
  }
}

describe.each(DIALECTS)('the reader derives what the cached statements decide (%s dialect)', (dialect) => {
  let sb: TestSandbox;
  let plain: Client;
  let categories: Category[];
  const named = (name: string) => categories.find((c) => c.name === name)!;
  beforeAll(async () => {
    sb = sandboxes[dialect];
    plain = (await testRuntime(sb)).client;
    categories = (await plain.categories.list()).data;
  });

  test('a quarter total from its three monthly statements: 0 calls, priced so, the API\'s figure, cached', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    // The variant learns the category parameter's name with its first total: paid here, not below.
    await read(rt, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    await Promise.all([1, 2, 3].map((m) => read(rt, month(m))));
    const software = total(named('Software Subscriptions').id, 1);
    const revenue = total(named('Revenue').id, 1);

    const cost = await rt.reader.cost([software, revenue, month(2)]);
    expect(cost).toEqual({ requests: 3, cached: 1, calls: 0, derived: 2 });
    expect(costText(cost)).toBe('Costs 0 calls (1 cached), and 2 from the monthly statements at no call');

    const { value, calls } = await counted(sb, () => Promise.all([read(rt, software), read(rt, revenue)]));
    expect(calls).toBe(0);
    const fetched = await Promise.all([plain.aggregations.total(software.query as never), plain.aggregations.total(revenue.query as never)]);
    expect(value.map((a) => (a.value as { total_cents: number }).total_cents)).toEqual(fetched.map((f) => f.total_cents));
    expect(fetched[1].total_cents).not.toBe(0);
    // refreshed_at: the latest of its statements'.
    const months = await Promise.all([1, 2, 3].map(async (m) => (await rt.reader.peek<{ refreshed_at: number }>(month(m)))!.value.refreshed_at));
    expect((value[1].value as { refreshed_at: number }).refreshed_at).toBe(Math.max(...months));
    // Cached: answered again without deriving, and fresh for a recalculation's synchronous path.
    expect(rt.reader.fresh(revenue)?.value).toEqual(value[1].value);
    expect(rt.reader.derivations.count).toBe(2);
  });

  test('fetched as before: a merchant filter, months not cached, derivation turned off', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await Promise.all([1, 2, 3].map((m) => read(rt, month(m))));
    const withMerchant = total(named('Revenue').id, 1, { merchant: 'No Such Merchant' });
    const notCached = total(named('Revenue').id, 2);
    expect(await rt.reader.cost([withMerchant, notCached])).toEqual({ requests: 2, cached: 0, calls: 2 });
    const both = await counted(sb, () => Promise.all([read(rt, withMerchant), read(rt, notCached)]));
    // The variant also learns the parameter's name with its first total (one call more).
    expect(both.calls).toBe(dialect === 'variant' ? 3 : 2);
    expect(rt.reader.derivations.count).toBe(0);

    rt.reader.derivations.setEnabled(false);
    const software = total(named('Software Subscriptions').id, 1);
    expect(await rt.reader.cost([software])).toEqual({ requests: 1, cached: 0, calls: 1 });
    expect((await counted(sb, () => read(rt, software))).calls).toBe(1);
    expect(rt.reader.derivations.count).toBe(0);
  });

  test('a point-in-time total from the balance sheet at that month end; a multi-month statement from its months', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    const sheet: ReadRequest = { path: '/reports/balance_sheet', query: { date: lastDay(6) } };
    await read(rt, sheet);
    await Promise.all([4, 5, 6].map((m) => Promise.all([read(rt, month(m)), read(rt, { ...month(m), path: '/reports/cash_flow' })])));
    const cash: ReadRequest = { path: '/aggregations/total', query: { category_id: named('Cash').id, date: `${year}-06-15` } };
    const q2: ReadRequest = { path: '/reports/income_statement', query: quarter(2) };
    const q2CashFlow: ReadRequest = { path: '/reports/cash_flow', query: quarter(2) };
    const { value, calls } = await counted(sb, () => Promise.all([read(rt, cash), read(rt, q2), read(rt, q2CashFlow)]));
    expect(calls).toBe(0);
    expect((value[0].value as { total_cents: number }).total_cents).toBe((await plain.aggregations.total({ category_id: named('Cash').id, date: `${year}-06-15` })).total_cents);
    expect(value[1].value).toEqual(await plain.reports.incomeStatement(quarter(2)));
    expect(value[2].value).toEqual(await plain.reports.cashFlow(quarter(2)));
  });

  test('a change that makes a source stale makes the derived answer stale; a source fetched again on purpose too', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await Promise.all([1, 2, 3].map((m) => read(rt, month(m))));
    const revenue = total(named('Revenue').id, 1);
    await read(rt, revenue);
    expect(await rt.reader.isStale(revenue)).toBe(false);
    // A February transaction's amount changed (a sync saw it): February's statement and the Q1 total.
    const marked = await rt.reader.markStale(touchedBy([{ date: `${year}-02-10`, accountingBefore: `${year}-02-10`, accountingAfter: `${year}-02-10`, postings: true }]));
    const company = sb.companies['growth-admin'];
    expect(marked).toEqual(expect.arrayContaining([canonicalKey(company, month(2)), canonicalKey(company, revenue)]));
    expect(await rt.reader.isStale(revenue)).toBe(true);
    // February fetched again, then the total is derived again from the three months: one call in all.
    const again = await counted(sb, async () => {
      await read(rt, month(2));
      return read(rt, revenue);
    });
    expect(again.calls).toBe(1);
    expect(await rt.reader.isStale(revenue)).toBe(false);
    // Refresh this block fetches March again: the total derived from it is due.
    await rt.reader.read(month(3), (o) => rt.client.reports.incomeStatement(month(3).query as never, o), { fresh: true });
    expect(await rt.reader.isStale(revenue)).toBe(true);
  });

  test('a refresh of the selection fetches a derived total again, or derives it from its months fetched again with it', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await read(rt, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    await Promise.all([1, 2, 3].map((m) => read(rt, month(m))));
    const revenue = total(named('Revenue').id, 1);
    await read(rt, revenue);
    expect(rt.reader.derivations.count).toBe(1);
    const company = sb.companies['growth-admin'];
    // The total alone: its months are as old as before, so it is fetched (priced so: its months are not in the refresh).
    const alone = [canonicalKey(company, revenue)];
    expect([...(await rt.reader.callsOf(alone)).values()]).toEqual([1]);
    await rt.reader.markDue(alone);
    expect((await counted(sb, () => read(rt, revenue))).calls).toBe(1);
    expect(rt.reader.derivations.count).toBe(1);
    // With its months: they are fetched again, and it is their sum (priced at no call).
    const withMonths = [canonicalKey(company, revenue), ...[1, 2, 3].map((m) => canonicalKey(company, month(m)))];
    expect([...(await rt.reader.callsOf(withMonths)).values()]).toEqual([0, 1, 1, 1]);
    await rt.reader.markDue(withMonths);
    const unplan = rt.reader.derivations.planSources(withMonths);
    const again = await counted(sb, () => read(rt, revenue));
    unplan();
    expect(again.calls).toBe(3);
    expect(rt.reader.derivations.count).toBe(2);
    expect((again.value.value as { total_cents: number }).total_cents).toBe((await plain.aggregations.total(revenue.query as never)).total_cents);
  });

  test('the plan fetches twelve months in place of forty quarterly totals, says so, and spends exactly that', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await read(rt, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    const leaves = categories.filter((c) => !c.point_in_time && c.account_type === 'expense' && !categories.some((x) => x.parent_id === c.id)).slice(0, 10);
    expect(leaves).toHaveLength(10);
    const totals = leaves.flatMap((c) => [1, 2, 3, 4].map((q) => total(c.id, q)));
    const cost = await rt.reader.cost(totals);
    expect(cost).toEqual({ requests: 40, cached: 0, calls: 12, derived: 40, instead: { fetch: 12, replace: 40 } });
    expect(costText(cost)).toBe('Costs 12 calls (0 cached), and 40 from the monthly statements at no call: 12 monthly statements fetched in place of 40 requests');
    // Read without following the plan (no run priced them): each total is fetched.
    const loose = await testRuntime(sb);
    await read(loose, { path: '/categories' });
    await read(loose, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    expect((await loose.reader.cost(totals)).instead).toEqual({ fetch: 12, replace: 40 });
    expect((await counted(sb, () => Promise.all(totals.slice(0, 4).map((t) => read(loose, t))))).calls).toBe(4);
    // The run that showed the cost follows its plan: the twelve months, and the forty totals from them.
    const unfollow = await rt.reader.follow(totals);
    const { value, calls } = await counted(sb, () => Promise.all(totals.map((t) => read(rt, t)))).finally(unfollow);
    expect(calls).toBe(12);
    const fetched = await Promise.all(totals.map((t) => plain.aggregations.total(t.query as never)));
    expect(value.map((a) => (a.value as { total_cents: number }).total_cents)).toEqual(fetched.map((f) => f.total_cents));

    // Two quarterly totals do not pay for six months: the plan fetches the totals.
    const few = [total(named('Revenue').id, 1), total(named('Revenue').id, 2)].map((t) => ({ ...t, query: { ...t.query, start_date: t.query!.start_date!.toString().replace(String(year), String(year - 1)), end_date: t.query!.end_date!.toString().replace(String(year), String(year - 1)) } }));
    expect(await rt.reader.cost(few)).toEqual({ requests: 2, cached: 0, calls: 2 });
  });

  test("a value preview shows what the cached statements decide, and never fetches a source, planned or not", async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await read(rt, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    await Promise.all([1, 2, 3].map((m) => read(rt, month(m))));
    const q1 = total(named('Revenue').id, 1);
    const { value, calls } = await counted(sb, () => rt.reader.peekOrDerive<{ total_cents: number }>(q1));
    expect(calls).toBe(0);
    expect(value?.value.total_cents).toBe((await plain.aggregations.total(q1.query as never)).total_cents);
    // The second quarter's months are not cached: a run that follows a plan would fetch them, a preview does not.
    const leaves = categories.filter((c) => !c.point_in_time && c.account_type === 'expense' && !categories.some((x) => x.parent_id === c.id)).slice(0, 10);
    const q2totals = leaves.flatMap((c) => [2, 3, 4].map((q) => total(c.id, q)));
    const unfollow = await rt.reader.follow(q2totals);
    try {
      const preview = await counted(sb, () => rt.reader.peekOrDerive(q2totals[0]));
      expect(preview).toEqual({ value: undefined, calls: 0 });
    } finally {
      unfollow();
    }
  });

  test('months a plan chose for its own totals are not fetched for another request read meanwhile: it costs what its own cost said', async () => {
    const rt = await testRuntime(sb);
    await read(rt, { path: '/categories' });
    await read(rt, total(named('Revenue').id, 4, { merchant: 'No Such Merchant' }));
    const leaves = categories.filter((c) => !c.point_in_time && c.account_type === 'expense' && !categories.some((x) => x.parent_id === c.id)).slice(0, 10);
    // A preview (the board pack's, say) plans the twelve months for forty totals, and is not acted on.
    expect((await rt.reader.cost(leaves.flatMap((c) => [1, 2, 3, 4].map((q) => total(c.id, q))))).instead).toEqual({ fetch: 12, replace: 40 });
    // A preview that derives the year to October from its months (a pack whose block reads them), not acted on either.
    const ytd: ReadRequest = { path: '/reports/income_statement', query: { start_date: `${year}-01-01`, end_date: lastDay(10) } };
    expect(await rt.reader.cost([ytd, ...Array.from({ length: 10 }, (_, i) => month(i + 1))])).toMatchObject({ calls: 10, derived: 1 });
    // The user inserts the year to October alone: priced 1 call, it spends 1, not the ten months.
    expect(await rt.reader.cost([ytd])).toEqual({ requests: 1, cached: 0, calls: 1 });
    const { value, calls } = await counted(sb, () => read(rt, ytd));
    expect(calls).toBe(1);
    const api = await plain.reports.incomeStatement({ start_date: `${year}-01-01`, end_date: lastDay(10) });
    expect((value.value as { net_income_cents: number }).net_income_cents).toBe(api.net_income_cents);
  });
});
