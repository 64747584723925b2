// FIN cells against an API that answers the spec's open points otherwise than our sandbox's standard
// dialect (docs/api-decisions.md): where a rule of the spec decides, the cell shows the right figure; where
// none does, it shows #N/A naming the endpoint, the field expected and the fields found -- never
// `undefined`, never a figure that cannot be vouched for, and never the formula's fault (#VALUE!). The real
// client over real HTTP (a fake server), wired as the runtime wires it.
import type { LearnedNamesStore } from '../../../src/api';
import { errorBody, page, rel, startFakeApi, TEST_KEY, type FakeApi, type Recorded, type Reply } from '../../api/helpers/fakeApi';
import { finError, finOverFakeApi } from './finOverFakeApi';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const CATEGORIES = [
  { id: 'cat_rev', object: 'category', name: 'Revenue', account_type: 'revenue', point_in_time: false, tier: 1, position: 1, parent_id: null },
  { id: 'cat_soft', object: 'category', name: 'Software', account_type: 'expense', point_in_time: false, tier: 1, position: 2, parent_id: null },
  { id: 'cat_cash', object: 'category', name: 'Cash', account_type: 'asset', point_in_time: true, tier: 1, position: 3, parent_id: null },
];

function serve(answers: Record<string, (req: Recorded) => Reply>) {
  api.setHandler((req) => {
    const path = rel(req);
    if (path === '/categories') return { status: 200, body: { object: 'list', url: '/api/v1/categories', data: CATEGORIES } };
    const answer = answers[path];
    return answer ? answer(req) : { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'no') };
  });
}



const service = (learnedNames?: LearnedNamesStore) => finOverFakeApi(api, { learnedNames });

const calls = (path: string) => api.requests.filter((r) => rel(r) === path);

/** An API that names the category parameter `category` and the total's amount `amount_cents`. */
const totalsByCategory = (req: Recorded): Reply => {
  const category = req.query.get('category');
  if (!category) return { status: 400, body: errorBody('invalid_request_error', 'parameter_missing', 'Missing required parameter: category.', 'category') };
  return { status: 200, body: { object: 'category_total', category, amount_cents: category === 'cat_rev' ? 1234567 : -89000, currency: 'USD' } };
};

describe('FIN.TOTAL', () => {
  it("learns the category parameter's name from parameter_missing: one extra call, however many cells ask at once", async () => {
    serve({ '/aggregations/total': totalsByCategory });
    const fin = service();
    const months = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
    const figures = await Promise.all(months.flatMap((m) => [fin.total({ category: 'Revenue', start: m }), fin.total({ category: 'Software', start: m })]));
    expect(figures).toEqual(months.flatMap(() => [12345.67, -890]));
    const sent = calls('/aggregations/total');
    // 12 distinct totals, and the one that learned the name.
    expect(sent).toHaveLength(13);
    expect(sent.filter((r) => r.query.has('category_id'))).toHaveLength(1);
    expect(sent.slice(1).every((r) => r.query.has('category') && !r.query.has('category_id'))).toBe(true);
  });

  it('keeps the name it learned: a connection opened again spends no call to learn it', async () => {
    serve({ '/aggregations/total': totalsByCategory });
    const kept: Record<string, string> = {};
    const store: LearnedNamesStore = { load: async () => ({ ...kept }), save: async (names) => void Object.assign(kept, names) };
    expect(await service(store).total({ category: 'Revenue', start: '2026-01' })).toBe(12345.67);
    expect(calls('/aggregations/total')).toHaveLength(2);
    expect(await service(store).total({ category: 'Revenue', start: '2026-02' })).toBe(12345.67);
    expect(calls('/aggregations/total')).toHaveLength(3);
  });

  it('a total with several _cents fields and none named total_cents is #N/A naming the fields, once', async () => {
    serve({ '/aggregations/total': () => ({ status: 200, body: { object: 'aggregation_total', category_id: 'cat_rev', debit_cents: 100, credit_cents: 900, currency: 'USD' } }) });
    const fin = service();
    const error = await finError(fin.total({ category: 'Revenue', start: '2026-01' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toBe("The API's answer to /aggregations/total has no single amount ending in _cents, total_cents or a net beside its parts (received debit_cents 100, credit_cents 900) (fields: object, category_id, debit_cents, credit_cents, currency)");
    // Asking again gets the same answer: remembered, not sent again (until a refresh).
    await finError(fin.total({ category: 'Revenue', start: '2026-01' }));
    expect(calls('/aggregations/total')).toHaveLength(1);
  });
});

describe('FIN.TOTAL: learned names belong to a base URL (issue 35, item 5)', () => {
  /** The documented name, as a well-behaved API reads it. */
  const totalsByCategoryId = (req: Recorded): Reply => {
    const category = req.query.get('category_id');
    if (!category) return { status: 400, body: errorBody('invalid_request_error', 'parameter_missing', 'category_id is required', 'category_id') };
    return { status: 200, body: { object: 'aggregation_total', category_id: category, total_cents: 4200, currency: 'USD' } };
  };
  /** Storage as the runtime's: a save replaces what was kept. */
  const keptIn = (kept: Record<string, string>): LearnedNamesStore => ({
    load: async () => ({ ...kept }),
    save: async (names) => {
      for (const key of Object.keys(kept)) delete kept[key];
      Object.assign(kept, names);
    },
  });

  it('a name learned from one API is not sent to another base URL, and is dropped from storage with it', async () => {
    serve({ '/aggregations/total': totalsByCategory });
    const kept: Record<string, string> = {};
    expect(await service(keptIn(kept)).total({ category: 'Revenue', start: '2026-01' })).toBe(12345.67);
    expect(Object.values(kept)).toEqual(['category']);
    const other = await startFakeApi();
    try {
      other.setHandler((req) => (rel(req) === '/categories' ? { status: 200, body: { object: 'list', url: '/api/v1/categories', data: CATEGORIES } } : totalsByCategoryId(req)));
      expect(await finOverFakeApi(other, { learnedNames: keptIn(kept) }).total({ category: 'Revenue', start: '2026-01' })).toBe(42);
      const sent = other.requests.filter((r) => rel(r) === '/aggregations/total');
      expect(sent.map((r) => [...r.query.keys()].includes('category_id'))).toEqual([true]);
      expect(Object.entries(kept)).toEqual([[`${other.baseUrl} /aggregations/total category_id`, 'category_id']]);
    } finally {
      await other.close();
    }
  });

  it('a kept name the API refuses is learned again, for one call more, and kept in its place', async () => {
    const kept: Record<string, string> = {};
    serve({ '/aggregations/total': totalsByCategory });
    await service(keptIn(kept)).total({ category: 'Revenue', start: '2026-01' });
    // The same API now reads the documented name (it changed, or was replaced behind the same address).
    serve({ '/aggregations/total': totalsByCategoryId });
    const before = calls('/aggregations/total').length;
    const fin = service(keptIn(kept));
    expect(await fin.total({ category: 'Revenue', start: '2026-02' })).toBe(42);
    expect(await fin.total({ category: 'Revenue', start: '2026-03' })).toBe(42);
    expect(calls('/aggregations/total').length - before).toBe(3);
    expect(Object.values(kept)).toEqual(['category_id']);
  });

  it.each([
    ['the key itself', TEST_KEY],
    ['the key in another case', TEST_KEY.toUpperCase()],
    ['a piece of the key', 'x_TESTSECRET_k3y'],
    ["a header's name", 'authorization'],
    ['a name past 64 characters', 'c'.repeat(65)],
    ['text no parameter is named', 'category id'],
  ])('a param that is %s is never learned: the refusal is shown, and it reaches no URL or storage', async (_, param) => {
    serve({ '/aggregations/total': () => ({ status: 400, body: errorBody('invalid_request_error', 'parameter_missing', 'A parameter is missing.', param) }) });
    const kept: Record<string, string> = {};
    const error = await finError(service(keptIn(kept)).total({ category: 'Revenue', start: '2026-01' }));
    expect(error.message).toMatch(/missing/);
    expect(error.message.toLowerCase()).not.toContain('testsecret');
    expect(calls('/aggregations/total')).toHaveLength(1);
    expect(kept).toEqual({});
    expect(api.requests.some((r) => `${r.path}?${r.query.toString()}`.toLowerCase().includes('testsecret'))).toBe(false);
  });
});

describe('FIN.TOTAL: a field that is there but wrong is not absent (issue 35, items 3 and 4)', () => {
  const totalOf = (body: Record<string, unknown>) => serve({ '/aggregations/total': () => ({ status: 200, body: { object: 'aggregation_total', category_id: 'cat_rev', currency: 'USD', ...body } }) });

  it.each([
    ['null', null, 'null'],
    ['text', '5000', '"5000"'],
    ['fractional', 12.5, '12.5'],
    ['past 2^53', 2 ** 53 + 2, String(2 ** 53 + 2)],
  ])('total_cents %s beside another _cents field is #N/A naming what was received, not the other field', async (_, value, shown) => {
    totalOf({ total_cents: value, tax_cents: 5000 });
    const error = await finError(service().total({ category: 'Revenue', start: '2026-01' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toBe(`The API's answer to /aggregations/total has no total_cents that is whole cents (received total_cents ${shown}) (fields: object, category_id, currency, total_cents, tax_cents)`);
  });

  it('a net beside its debit and credit parts is the total: the same figure the statement gives', async () => {
    totalOf({ debit_cents: 100, credit_cents: 900, net_cents: 800 });
    expect(await service().total({ category: 'Revenue', start: '2026-01' })).toBe(8);
  });

  it('several amounts no rule ranks are #N/A naming each with its value', async () => {
    totalOf({ debit_cents: 100, credit_cents: 900, net_cents: 700 });
    const error = await finError(service().total({ category: 'Revenue', start: '2026-01' }));
    expect(error.message).toMatch(/received debit_cents 100, credit_cents 900, net_cents 700\)/);
  });
});

describe('FIN.MERCHANTS', () => {
  it('reads bare names, and names in an object under another field', async () => {
    serve({
      '/parties/merchants': (req) =>
        req.query.get('category_id') === 'cat_soft'
          ? { status: 200, body: page('/parties/merchants', ['Acme', 'Globex'], null) }
          : { status: 200, body: page('/parties/merchants', [{ object: 'party', display_name: 'Initech' }], null) },
    });
    const fin = service();
    expect(await fin.merchants({ category: 'Software' })).toEqual([['Merchant'], ['Acme'], ['Globex']]);
    expect(await fin.merchants({ category: 'Revenue' })).toEqual([['Merchant'], ['Initech']]);
  });

  it('a name that is not text is #N/A, not another text field of the item', async () => {
    serve({ '/parties/merchants': () => ({ status: 200, body: page('/parties/merchants', [{ object: 'party', name: 5, source: 'bank' }], null) }) });
    const error = await finError(service().merchants({ category: 'Software' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toBe("The API's answer to /parties/merchants has a merchant item with no name that is text (received name 5) (fields: object, name, source)");
  });

  it('an item with two text fields and no name is #N/A naming them, not a column of "undefined"', async () => {
    serve({ '/parties/merchants': () => ({ status: 200, body: page('/parties/merchants', [{ object: 'party', label: 'Acme', source: 'bank' }], null) }) });
    const error = await finError(service().merchants({ category: 'Software' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toBe("The API's answer to /parties/merchants has a merchant item with no name (a text field) (fields: object, label, source)");
  });
});

describe('FIN.PNL and FIN.BALANCE: every amount of the statement is placed, or the statement refused (issue 35, item 2)', () => {
  const entry = (amount: number) => ({ category_id: 'cat_rev', name: 'Revenue', amount_cents: amount, position: 1, parent_category_id: null });
  const empty = { total_cents: 0, categories: [] };

  it('a section the add-in does not show is refused by its path, even when it nets to zero', async () => {
    serve({
      '/reports/income_statement': () => ({
        status: 200,
        body: { object: 'income_statement', start_date: '2026-01-01', end_date: '2026-01-31', currency: 'USD', revenue: { total_cents: 500, categories: [entry(500)] }, expenses: empty, non_operating_income: empty, operating_income_cents: 500, net_income_cents: 500, other_items: { total_cents: 0, categories: [{ ...entry(4000), category_id: 'cat_gain' }, { ...entry(-4000), category_id: 'cat_loss' }] } },
      }),
    });
    const error = await finError(service().pnl({ line: 'Net Income', start: '2026-01' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toMatch(/^The API's income statement has amounts this add-in cannot place in the statement \(other_items.total_cents 0, other_items.categories\[0\].amount_cents 4000, other_items.categories\[1\].amount_cents -4000; /);
  });

  it('a balance sheet figure it does not show is refused; its retained earnings and liabilities-and-equity are shown', async () => {
    const sheet = (extra: Record<string, unknown>) => ({ object: 'balance_sheet', date: '2026-01-31', currency: 'USD', cash_cents: 100, liabilities_and_equity_cents: 0, assets: { total_cents: 0, categories: [] }, liabilities: empty, equity: { ...empty, retained_earnings: { beginning_balance_cents: 0, net_income_cents: 0, ending_balance_cents: 0 } }, ...extra });
    serve({ '/reports/balance_sheet': () => ({ status: 200, body: sheet({}) }) });
    expect(await service().balance({ category: 'Cash', date: '2026-01-31' })).toBe(0);
    serve({ '/reports/balance_sheet': () => ({ status: 200, body: sheet({ restricted_cash_cents: 2500 }) }) });
    const error = await finError(service().balance({ category: 'Cash', date: '2026-02-28' }));
    expect(error.message).toMatch(/^The API's balance sheet has amounts this add-in cannot place in the statement \(restricted_cash_cents 2500; /);
  });
});

describe('FIN.CASHFLOW', () => {
  const section = (total: number) => ({ total_cents: total, categories: [] });

  it('places sections named otherwise, and takes beginning and ending cash from the balance sheets', async () => {
    serve({
      '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', start_date: '2026-04-01', end_date: '2026-06-30', currency: 'USD', change_in_cash_cents: 500, operating_activities: section(800), investing: section(-200), financing: section(-100) } }),
      '/reports/balance_sheet': (req) => ({ status: 200, body: { object: 'balance_sheet', date: req.query.get('date'), currency: 'USD', cash_cents: req.query.get('date') === '2026-03-31' ? 10_000 : 10_500 } }),
    });
    const fin = service();
    expect(await fin.cashflow({ line: 'Investing Activities', start: '2026-Q2' })).toBe(-2);
    expect(await fin.cashflow({ line: 'Beginning Cash', start: '2026-Q2' })).toBe(100);
    expect(await fin.cashflow({ line: 'Ending Cash', start: '2026-Q2' })).toBe(105);
    expect(calls('/reports/balance_sheet').map((r) => r.query.get('date')).sort()).toEqual(['2026-03-31', '2026-06-30']);
    const missing = await finError(fin.cashflow({ line: 'Net Income', start: '2026-Q2' }));
    expect(missing).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(missing.message).toMatch(/^The API's cash flow has no net_income_cents \(FIN\.PNL\("Net Income", \.\.\.\) gives the period's net income; fields: object, start_date, /);
  });

  it('a section no activity names, or sections that miss part of the change in cash, are #N/A: nothing is dropped unseen', async () => {
    serve({ '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', change_in_cash_cents: 500, operating_activities: section(800), other: section(-300) } }) });
    const placed = await finError(service().cashflow({ line: 'Change in Cash', start: '2026-Q2' }));
    expect(placed.message).toBe('The API\'s cash flow has a section "other" this add-in cannot place among operating, investing and financing activities (sections: operating_activities, other)');
    serve({ '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', change_in_cash_cents: 500, operating_activities: section(800), investments: { total: -300 } } }) });
    const lost = await finError(service().cashflow({ line: 'Change in Cash', start: '2026-Q2' }));
    expect(lost).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(lost.message).toMatch(/add up to 800 cents, not its change in cash of 500 cents/);
  });

  it('sections in a container are placed; an amount in one not recognised is refused by its path even when it nets to zero (issue 35, item 2)', async () => {
    const loan = { total_cents: 0, categories: [{ category_id: 'cat_loan', name: 'Loan', amount_cents: 50_000, position: 1, parent_category_id: null }, { category_id: 'cat_eq', name: 'Equipment', amount_cents: -50_000, position: 2, parent_category_id: null }] };
    serve({ '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', change_in_cash_cents: 800, net_income_cents: 700, activities: { operating: section(800), investing: section(-300), financing: section(300) } } }) });
    const fin = service();
    expect(await fin.cashflow({ line: 'Investing Activities', start: '2026-Q2' })).toBe(-3);
    expect(await fin.cashflow({ line: 'Financing Activities', start: '2026-Q2' })).toBe(3);
    // A quiet month: what the client cannot place nets to zero, so the sections still add up to the change.
    serve({ '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', change_in_cash_cents: 800, operating_activities: section(800), other: { capital: loan } } }) });
    const error = await finError(service().cashflow({ line: 'Change in Cash', start: '2026-Q3' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toMatch(/has a section "other.capital" this add-in cannot place/);
    serve({ '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', change_in_cash_cents: 800, operating_activities: section(800), memo: { loan_drawdown_cents: 50_000, equipment_cents: -50_000 } } }) });
    const lost = await finError(service().cashflow({ line: 'Change in Cash', start: '2026-Q4' }));
    expect(lost.message).toMatch(/^The API's cash flow has amounts this add-in cannot place in the statement \(memo.loan_drawdown_cents 50000, memo.equipment_cents -50000; fields: object, change_in_cash_cents, operating_activities, memo\)/);
  });

  it('"Net Income" the cash flow lacks is refused for the cash flow\'s one call, naming the fields the API sent (issue 35, items 3 and 8)', async () => {
    serve({
      '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', start_date: '2026-04-01', end_date: '2026-06-30', change_in_cash_cents: 500, operating_activities: section(800), investing: section(-300) } }),
      '/reports/balance_sheet': (req) => ({ status: 200, body: { object: 'balance_sheet', date: req.query.get('date'), cash_cents: 10_000 } }),
    });
    const error = await finError(service().cashflow({ line: 'Net Income', start: '2026-Q2' }));
    expect(error.message).toMatch(/fields: object, start_date, end_date, change_in_cash_cents, operating_activities, investing\)$/);
    expect(api.requests.map(rel).filter((p) => p.startsWith('/reports'))).toEqual(['/reports/cash_flow']);
  });

  it('balance sheets whose cash does not differ by the change in cash are refused, not shown', async () => {
    serve({
      '/reports/cash_flow': () => ({ status: 200, body: { object: 'cash_flow', start_date: '2026-04-01', end_date: '2026-06-30', change_in_cash_cents: 500, operating_activities: section(500) } }),
      '/reports/balance_sheet': (req) => ({ status: 200, body: { object: 'balance_sheet', date: req.query.get('date'), cash_cents: 10_000 } }),
    });
    const error = await finError(service().cashflow({ line: 'Ending Cash', start: '2026-Q2' }));
    expect(error).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
    expect(error.message).toMatch(/does not differ by its change in cash of 500 cents/);
  });
});
