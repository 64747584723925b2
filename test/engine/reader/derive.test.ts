// The identities' refusals (src/engine/reader/derive.ts): what no identity decides exactly is declined (null),
// so the reader fetches it as before. The figures the identities do decide are checked against the sandbox
// in derivation.sandbox.test.ts; here, the shapes an API could answer that must not be summed.
import { balanceIdentityOf, derivationOf, derive, statementRequest, sumStatements, tiling, type Derivation } from '../../../src/engine/reader/derive';
import { requestKey, type ReadRequest } from '../../../src/engine/reader/requestCache';

const IS = '/reports/income_statement';
const total = (query: Record<string, string>): ReadRequest => ({ path: '/aggregations/total', query });
const must = (r: ReadRequest): Derivation => derivationOf(r)!;

const line = (id: string, cents: number, parent: string | null = null) => ({ category_id: id, name: id, amount_cents: cents, position: 1, parent_category_id: parent });
const statement = (month: string, revenue: ReturnType<typeof line>[], extra: Record<string, unknown> = {}) => ({
  object: 'income_statement',
  start_date: `${month}-01`,
  end_date: `${month}-${month.endsWith('02') ? '28' : '31'}`,
  currency: 'USD',
  refreshed_at: 1,
  revenue: { total_cents: revenue.filter((l) => l.parent_category_id === null).reduce((t, l) => t + l.amount_cents, 0), categories: revenue },
  net_income_cents: revenue.filter((l) => l.parent_category_id === null).reduce((t, l) => t + l.amount_cents, 0),
  ...extra,
});
const categories = (list: { id: string; parent?: string; pit?: boolean; type?: string }[]) => ({
  data: list.map((c) => ({ id: c.id, parent_id: c.parent ?? null, point_in_time: c.pit ?? false, account_type: c.type ?? 'revenue', name: c.id })),
});

describe('which requests an identity may answer', () => {
  test('totals: whole months by the spec (the day is ignored), both date forms; no merchant, no stray parameter, no reversed months', () => {
    expect(derivationOf(total({ category_id: 'cat_a', start_date: '2025-01-15', end_date: '2025-03-02' }))).toMatchObject({ kind: 'periodTotal', form: 'date' });
    expect(derivationOf(total({ category_id: 'cat_a', start_month: '2025-01', end_month: '2025-03' }))).toMatchObject({ kind: 'periodTotal', form: 'month' });
    expect(derivationOf(total({ category_id: 'cat_a', date: '2025-03-10' }))).toMatchObject({ kind: 'balanceTotal' });
    expect(derivationOf(total({ category_id: 'cat_a', end_month: '2025-03' }))).toMatchObject({ kind: 'balanceTotal', form: 'month' });
    expect(derivationOf(total({ category_id: 'cat_a', start_date: '2025-01-01', end_date: '2025-03-31', merchant: 'Acme' }))).toBeNull();
    expect(derivationOf(total({ category_id: 'cat_a', start_date: '2025-01-01', end_date: '2025-03-31', date: '2025-03-31' }))).toBeNull();
    expect(derivationOf(total({ category_id: 'cat_a', start_date: '2025-04-01', end_date: '2025-03-31' }))).toBeNull();
    expect(derivationOf(total({ category_id: 'cat_a', start_date: '2025-02-30', end_date: '2025-03-31' }))).toBeNull();
    expect(derivationOf(total({ category_id: 'grp_x', start_date: '2025-01-01', end_date: '2025-03-31' }))).toBeNull();
  });

  test('statements: several whole months only', () => {
    expect(derivationOf({ path: IS, query: { start_date: '2025-01-01', end_date: '2025-03-31' } })).toMatchObject({ kind: 'statement' });
    expect(derivationOf({ path: IS, query: { start_date: '2025-01-01', end_date: '2025-01-31' } })).toBeNull();
    expect(derivationOf({ path: IS, query: { start_date: '2025-01-02', end_date: '2025-03-31' } })).toBeNull();
    expect(derivationOf({ path: IS, query: { start_date: '2025-01-01', end_date: '2025-03-30' } })).toBeNull();
    expect(derivationOf({ path: IS, query: { start_date: '2025-01-01' } })).toBeNull();
    expect(derivationOf({ path: '/reports/balance_sheet', query: { date: '2025-03-31' } })).toBeNull();
  });

  test('tiling takes the fewest statements at hand, a covering one whole, never the request itself', () => {
    const d = must({ path: IS, query: { start_date: '2025-01-01', end_date: '2025-04-30' } });
    const from = (d as { from: number }).from;
    const month = (i: number) => requestKey(statementRequest(IS, from + i, from + i));
    const keys = new Set([requestKey(statementRequest(IS, from, from + 2)), ...[0, 1, 2, 3].map(month)]);
    expect(tiling(d, (r) => keys.has(requestKey(r)))!.map((r) => r.query)).toEqual([
      { start_date: '2025-01-01', end_date: '2025-03-31' },
      { start_date: '2025-04-01', end_date: '2025-04-30' },
    ]);
    keys.delete(month(3));
    expect(tiling(d, (r) => keys.has(requestKey(r)))).toBeNull();
  });
});

describe('what is not summed', () => {
  const jan = statement('2025-01', [line('cat_r', 100)]);
  const feb = statement('2025-02', [line('cat_r', 50)]);

  test('the sum of two months, and the refusals: lines that differ, an unknown figure, months not consecutive', () => {
    expect(sumStatements([jan, feb])).toMatchObject({ start_date: '2025-01-01', end_date: '2025-02-28', net_income_cents: 150, revenue: { total_cents: 150 } });
    expect(sumStatements([jan, statement('2025-02', [line('cat_r', 50), line('cat_s', 1)])])).toBeNull();
    expect(sumStatements([jan, statement('2025-02', [line('cat_r', 50)], { mystery_cents: 3 })])).toBeNull();
    expect(sumStatements([{ ...jan, mystery_cents: 1 }, { ...feb, mystery_cents: 2 }])).toBeNull();
    expect(sumStatements([jan, statement('2025-03', [line('cat_r', 50)])])).toBeNull();
    expect(sumStatements([jan, { ...feb, currency: 'EUR' }])).toBeNull();
  });

  test('a cash flow whose months\' cash does not chain', () => {
    const cf = (month: string, begin: number, change: number) => ({ ...statement(month, [line('cat_r', change)]), object: 'cash_flow', change_in_cash_cents: change, beginning_cash_cents: begin, ending_cash_cents: begin + change });
    expect(sumStatements([cf('2025-01', 10, 5), cf('2025-02', 15, 1)])).toMatchObject({ beginning_cash_cents: 10, ending_cash_cents: 16, change_in_cash_cents: 6 });
    expect(sumStatements([cf('2025-01', 10, 5), cf('2025-02', 14, 1)])).toBeNull();
  });

  test('a total: a descendant outside the line\'s section, an asset, the wrong date shape, a category not in the list', () => {
    const q = must(total({ category_id: 'cat_p', start_date: '2025-01-01', end_date: '2025-02-28' }));
    const withChild = [statement('2025-01', [line('cat_p', 7), line('cat_c', 7, 'cat_p')]), statement('2025-02', [line('cat_p', 3), line('cat_c', 3, 'cat_p')])];
    expect(derive(q, withChild, categories([{ id: 'cat_p' }, { id: 'cat_c', parent: 'cat_p' }]))).toMatchObject({ total_cents: 10, category_id: 'cat_p', start_date: '2025-01-01', end_date: '2025-02-28', merchant: null });
    // A child the list has but the line's section does not: the line is not the category's total.
    expect(derive(q, withChild, categories([{ id: 'cat_p' }, { id: 'cat_c', parent: 'cat_p' }, { id: 'cat_x', parent: 'cat_p', type: 'expense' }]))).toBeNull();
    expect(derive(q, withChild, categories([{ id: 'cat_p', type: 'asset' }, { id: 'cat_c', parent: 'cat_p' }]))).toBeNull();
    expect(derive(q, withChild, categories([{ id: 'cat_p', pit: true }, { id: 'cat_c', parent: 'cat_p' }]))).toBeNull();
    expect(derive(q, withChild, categories([{ id: 'cat_c' }]))).toBeNull();
    expect(derive(q, withChild, undefined)).toBeNull();
  });

  test('a category on none of the statements: 0 only where another statement shows its section, absent from these', () => {
    const q = must(total({ category_id: 'cat_t', start_date: '2025-01-01', end_date: '2025-02-28' }));
    const list = categories([{ id: 'cat_r' }, { id: 'cat_t', type: 'tax' }]);
    expect(derive(q, [jan, feb], list)).toBeNull();
    const withTaxes = statement('2025-03', [line('cat_r', 1)], { taxes: { total_cents: -4, categories: [line('cat_t', -4)] } });
    expect(derive(q, [jan, feb], list, [withTaxes])).toMatchObject({ total_cents: 0 });
    // Its section present but the line missing: not decided.
    const emptyTaxes = (s: typeof jan) => ({ ...s, taxes: { total_cents: 0, categories: [] } });
    expect(derive(q, [emptyTaxes(jan), feb], list, [withTaxes])).toBeNull();
  });
});

describe('balance totals and the identities they rest on (issue 34)', () => {
  const chart = categories([
    { id: 'cat_fixed', pit: true, type: 'asset' },
    { id: 'cat_equipment', parent: 'cat_fixed', pit: true, type: 'asset' },
    { id: 'cat_accum', parent: 'cat_fixed', pit: true, type: 'asset' },
    { id: 'cat_cash', pit: true, type: 'asset' },
    { id: 'cat_equity', pit: true, type: 'equity' },
    { id: 'cat_re', parent: 'cat_equity', pit: true, type: 'equity' },
    { id: 'cat_capital', parent: 'cat_equity', pit: true, type: 'equity' },
  ]);
  const bal = (id: string, cents: number, parent: string | null = null, name = id) => ({ category_id: id, name, balance_cents: cents, position: 1, parent_category_id: parent });
  /** A balance sheet; `accum` is how it signs accumulated depreciation (a credit balance of 300). */
  const sheet = (accum: number) => ({
    object: 'balance_sheet',
    date: '2025-03-31',
    currency: 'USD',
    refreshed_at: 1,
    assets: { total_cents: 1000 + 700, categories: [bal('cat_fixed', 700), bal('cat_equipment', 1000, 'cat_fixed'), bal('cat_accum', accum, 'cat_fixed'), bal('cat_cash', 1000)] },
    liabilities: { total_cents: 0, categories: [] },
    equity: { total_cents: 1700, categories: [bal('cat_equity', 1700), bal('cat_re', 1200, 'cat_equity', 'Retained Earnings'), bal('cat_capital', 500, 'cat_equity')], retained_earnings: { beginning_balance_cents: 1000, net_income_cents: 200, ending_balance_cents: 1200 } },
  });
  const at = (category: string) => must(total({ category_id: category, date: '2025-03-31' }));

  test('which identity a total rests on: retained earnings (the line and every ancestor), a credit-balance asset (and its parents), or none', () => {
    expect(balanceIdentityOf('cat_re', sheet(-300), chart)).toBe('retained earnings');
    expect(balanceIdentityOf('cat_equity', sheet(-300), chart)).toBe('retained earnings');
    expect(balanceIdentityOf('cat_capital', sheet(-300), chart)).toBeNull();
    expect(balanceIdentityOf('cat_accum', sheet(-300), chart)).toBe('credit-balance asset');
    expect(balanceIdentityOf('cat_fixed', sheet(-300), chart)).toBe('credit-balance asset');
    expect(balanceIdentityOf('cat_cash', sheet(-300), chart)).toBeNull();
  });

  test('a sheet that signs a contra account by its credit nature does not add up, and no asset total is derived from it', () => {
    expect(derive(at('cat_accum'), [sheet(-300)], chart)).toMatchObject({ total_cents: -300 });
    expect(derive(at('cat_cash'), [sheet(-300)], chart)).toMatchObject({ total_cents: 1000 });
    // Shown as +300: the parent is no longer the sum of its children; every asset total is fetched.
    expect(derive(at('cat_accum'), [sheet(300)], chart)).toBeNull();
    expect(derive(at('cat_cash'), [sheet(300)], chart)).toBeNull();
    // The other sections do not rest on it.
    expect(derive(at('cat_capital'), [sheet(300)], chart)).toMatchObject({ total_cents: 500 });
  });
});
