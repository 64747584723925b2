import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import {
  amountOf,
  categories,
  categoryWithRole,
  dayBefore,
  expectError,
  expectWellFormedSection,
  get,
  lineOf,
  monthEnd,
  ok,
  today,
  type Line,
} from './ledgerFixtures';

// GET /reports/income_statement, /reports/balance_sheet, /reports/cash_flow: shapes, sign rules, section
// rules, date parameters (strict ISO 8601, defaults, ranges), permissions and company isolation.

let sb: TestSandbox;
let admin: string;
let growth: string;
let todayDate: string;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
  todayDate = await today(sb);
});
afterAll(async () => {
  await sb.close();
});

const sortedKeys = (o: object) => Object.keys(o).sort();
const quarterStart = (date: string) => `${date.slice(0, 4)}-${String(Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
const year = () => String(Number(todayDate.slice(0, 4)) - 1);

describe('GET /reports/income_statement', () => {
  it('returns every periodic category in tree order, with section totals and the spec formulas', async () => {
    const y = year();
    const is = await ok(sb, admin, `/reports/income_statement?start_date=${y}-01-01&end_date=${y}-12-31`);
    expect(is).toMatchObject({ object: 'income_statement', start_date: `${y}-01-01`, end_date: `${y}-12-31`, currency: 'USD' });
    expect(Number.isInteger(is.refreshed_at)).toBe(true);
    const sections = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'];
    expect(sortedKeys(is)).toEqual(
      [...sections, 'object', 'start_date', 'end_date', 'currency', 'refreshed_at', 'operating_income_cents', 'net_income_cents'].sort(),
    );
    for (const s of sections) {
      expect(sortedKeys(is[s])).toEqual(['categories', 'total_cents']);
      for (const l of is[s].categories) expect(sortedKeys(l)).toEqual(['amount_cents', 'category_id', 'name', 'parent_category_id', 'position']);
      expectWellFormedSection(is[s]);
    }
    // Every periodic category appears exactly once, zero lines included.
    const periodic = categories(sb, growth).filter((c) => c.point_in_time === 0);
    const listed = sections.flatMap((s) => is[s].categories.map((l: Line) => l.category_id));
    expect(listed.sort()).toEqual(periodic.map((c) => c.id).sort());
    const unused = periodic.find((c) => c.name.startsWith('Legacy Expenses'))!;
    expect(lineOf(is.expenses, unused.id).amount_cents).toBe(0);
    // Uncategorized categories are only in their own sections.
    expect(is.uncategorized_income.categories.map((l: Line) => l.category_id)).toEqual([categoryWithRole(sb, growth, 'uncategorized_income').id]);
    expect(is.uncategorized_expenses.categories.map((l: Line) => l.category_id)).toEqual([categoryWithRole(sb, growth, 'uncategorized_expense').id]);
    // Signs: revenue positive, expenses negative.
    expect(is.revenue.total_cents).toBeGreaterThan(0);
    expect(is.expenses.total_cents).toBeLessThan(0);
    expect(is.operating_income_cents).toBe(
      is.revenue.total_cents + is.uncategorized_income.total_cents + is.expenses.total_cents + is.uncategorized_expenses.total_cents,
    );
    expect(is.net_income_cents).toBe(is.operating_income_cents + is.non_operating_income.total_cents + is.taxes.total_cents);
    expect(is.net_income_cents).toBe(sections.reduce((t, s) => t + is[s].total_cents, 0));
  });

  it('children follow their parent and are ordered by position', async () => {
    const is = await ok(sb, admin, `/reports/income_statement?start_date=${year()}-01-01&end_date=${year()}-03-31`);
    const lines: Line[] = is.expenses.categories;
    const byParent = new Map<string | null, Line[]>();
    for (const l of lines) byParent.set(l.parent_category_id, [...(byParent.get(l.parent_category_id) ?? []), l]);
    for (const siblings of byParent.values()) {
      const positions = siblings.map((s) => s.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('leaves out the optional sections when the period has no such activity', async () => {
    const is = await ok(sb, admin, '/reports/income_statement?start_date=1990-01-01&end_date=1990-12-31');
    expect(is).not.toHaveProperty('taxes');
    expect(is).not.toHaveProperty('uncategorized_income');
    expect(is).not.toHaveProperty('uncategorized_expenses');
    expect(is.refreshed_at).toBeNull();
    expect(is.net_income_cents).toBe(0);
    expect(is.revenue.categories.length).toBeGreaterThan(0);
    expect(is.revenue.categories.every((l: Line) => l.amount_cents === 0)).toBe(true);
  });

  it('defaults to the current quarter through today, also for blank values, and ignores unknown parameters', async () => {
    const expected = { start_date: quarterStart(todayDate), end_date: todayDate };
    expect(await ok(sb, admin, '/reports/income_statement')).toMatchObject(expected);
    expect(await ok(sb, admin, '/reports/income_statement?start_date=&end_date=%20&section=revenue&foo=1')).toMatchObject(expected);
    const onlyStart = await ok(sb, admin, `/reports/income_statement?start_date=${quarterStart(todayDate)}`);
    expect(onlyStart.end_date).toBe(todayDate);
  });

  it('accepts datetimes with Z or an offset and uses the calendar date written', async () => {
    const base = await ok(sb, admin, '/reports/income_statement?start_date=2025-01-05&end_date=2025-02-10');
    for (const [s, e] of [
      ['2025-01-05T00:00:00Z', '2025-02-10T23:59:59Z'],
      ['2025-01-05T23:30:00-08:00', '2025-02-10T00:15:00%2B05:30'],
      ['2025-01-05T10:00:00.123Z', '2025-02-10T10:00Z'],
    ]) {
      const is = await ok(sb, admin, `/reports/income_statement?start_date=${s}&end_date=${e}`);
      expect(is).toMatchObject({ start_date: '2025-01-05', end_date: '2025-02-10', net_income_cents: base.net_income_cents });
    }
  });

  it.each(['2026-1-5', '2026-01-05x', '01/05/2026', '2026-02-30', '2026-01', '20260105', '2026-01-05T25:00:00Z', '2026-01-05T10:00:00', 'today'])(
    'rejects %s as invalid_date naming the parameter',
    async (bad) => {
      expectError(await get(sb, admin, `/reports/income_statement?start_date=${encodeURIComponent(bad)}`), 400, 'invalid_date', 'start_date');
      expectError(await get(sb, admin, `/reports/income_statement?end_date=${encodeURIComponent(bad)}`), 400, 'invalid_date', 'end_date');
    },
  );

  it('rejects start_date after end_date with invalid_date_range on start_date', async () => {
    expectError(await get(sb, admin, '/reports/income_statement?start_date=2025-03-02&end_date=2025-03-01'), 400, 'invalid_date_range', 'start_date');
    const same = await ok(sb, admin, '/reports/income_statement?start_date=2025-03-01&end_date=2025-03-01');
    expect(same.start_date).toBe('2025-03-01');
  });

  it('rejects a parameter given twice', async () => {
    expectError(await get(sb, admin, '/reports/income_statement?start_date=2025-01-01&start_date=2025-02-01'), 400, 'invalid_request', 'start_date');
  });
});

describe('GET /reports/balance_sheet', () => {
  it('balances, carries retained earnings in equity, and reports cash as the Cash line', async () => {
    const date = `${year()}-06-30`;
    const bs = await ok(sb, admin, `/reports/balance_sheet?date=${date}`);
    expect(sortedKeys(bs)).toEqual(
      ['assets', 'cash_cents', 'currency', 'date', 'equity', 'liabilities', 'liabilities_and_equity_cents', 'object', 'refreshed_at'].sort(),
    );
    expect(bs).toMatchObject({ object: 'balance_sheet', date, currency: 'USD' });
    expect(Number.isInteger(bs.refreshed_at)).toBe(true);
    for (const s of ['assets', 'liabilities', 'equity']) {
      for (const l of bs[s].categories) expect(sortedKeys(l)).toEqual(['balance_cents', 'category_id', 'name', 'parent_category_id', 'position']);
      expectWellFormedSection(bs[s]);
    }
    expect(sortedKeys(bs.equity)).toEqual(['categories', 'retained_earnings', 'total_cents']);
    expect(bs.liabilities_and_equity_cents).toBe(bs.liabilities.total_cents + bs.equity.total_cents);
    expect(bs.liabilities_and_equity_cents).toBe(bs.assets.total_cents);
    expect(bs.cash_cents).toBe(lineOf(bs.assets, categoryWithRole(sb, growth, 'cash').id).balance_cents);
    expect(bs.cash_cents).toBeGreaterThan(0);
    const re = bs.equity.retained_earnings;
    expect(sortedKeys(re)).toEqual(['beginning_balance_cents', 'ending_balance_cents', 'net_income_cents']);
    expect(re.ending_balance_cents).toBe(re.beginning_balance_cents + re.net_income_cents);
    expect(lineOf(bs.equity, categoryWithRole(sb, growth, 'retained_earnings').id).balance_cents).toBe(re.ending_balance_cents);
    // Natural signs: the contra asset is negative, the card liability positive.
    expect(lineOf(bs.assets, categoryWithRole(sb, growth, 'accumulated_depreciation').id).balance_cents).toBeLessThan(0);
    expect(lineOf(bs.liabilities, categoryWithRole(sb, growth, 'card_liability').id).balance_cents).toBeGreaterThan(0);
  });

  it('splits retained earnings at the fiscal year start', async () => {
    const y = year();
    const bs = await ok(sb, admin, `/reports/balance_sheet?date=${y}-06-30`);
    const ytd = await ok(sb, admin, `/reports/income_statement?start_date=${y}-01-01&end_date=${y}-06-30`);
    const prior = await ok(sb, admin, `/reports/income_statement?start_date=1990-01-01&end_date=${Number(y) - 1}-12-31`);
    expect(bs.equity.retained_earnings).toEqual({
      beginning_balance_cents: prior.net_income_cents,
      net_income_cents: ytd.net_income_cents,
      ending_balance_cents: prior.net_income_cents + ytd.net_income_cents,
    });
  });

  it('lists every balance-sheet category, zero balances included, and is empty before any activity', async () => {
    const bs = await ok(sb, admin, '/reports/balance_sheet?date=1990-01-01');
    const pit = categories(sb, growth).filter((c) => c.point_in_time === 1);
    const listed = ['assets', 'liabilities', 'equity'].flatMap((s) => bs[s].categories.map((l: Line) => l.category_id));
    expect(listed.sort()).toEqual(pit.map((c) => c.id).sort());
    expect(bs).toMatchObject({ cash_cents: 0, liabilities_and_equity_cents: 0, refreshed_at: null });
    expect(bs.assets.total_cents).toBe(0);
  });

  it('defaults to today (absent or blank) and accepts a datetime', async () => {
    expect((await ok(sb, admin, '/reports/balance_sheet')).date).toBe(todayDate);
    expect((await ok(sb, admin, '/reports/balance_sheet?date=&x=1')).date).toBe(todayDate);
    expect((await ok(sb, admin, '/reports/balance_sheet?date=2025-04-30T12:00:00%2B02:00')).date).toBe('2025-04-30');
  });

  it('answers for the extremes of the calendar', async () => {
    const first = await ok(sb, admin, '/reports/balance_sheet?date=0000-01-01');
    expect(first).toMatchObject({ cash_cents: 0, liabilities_and_equity_cents: 0 });
    const last = await ok(sb, admin, '/reports/balance_sheet?date=9999-12-31');
    expect(last.liabilities_and_equity_cents).toBe(last.assets.total_cents);
    const all = await ok(sb, admin, '/reports/cash_flow?start_date=0000-01-01&end_date=9999-12-31');
    expect(all).toMatchObject({ beginning_cash_cents: 0, ending_cash_cents: last.cash_cents, change_in_cash_cents: last.cash_cents });
  });

  it.each(['2026-1-5', '2026-01-05x', '01/05/2026', '2026-02-30'])('rejects %s as invalid_date', async (bad) => {
    expectError(await get(sb, admin, `/reports/balance_sheet?date=${encodeURIComponent(bad)}`), 400, 'invalid_date', 'date');
  });
});

describe('GET /reports/cash_flow', () => {
  it('explains the change in cash with the indirect method', async () => {
    const y = year();
    const cf = await ok(sb, admin, `/reports/cash_flow?start_date=${y}-01-01&end_date=${y}-12-31`);
    expect(sortedKeys(cf)).toEqual(
      [
        'beginning_cash_cents',
        'change_in_cash_cents',
        'currency',
        'end_date',
        'ending_cash_cents',
        'financing_activities',
        'investing_activities',
        'net_income_cents',
        'object',
        'operating_activities',
        'refreshed_at',
        'start_date',
      ].sort(),
    );
    expect(cf).toMatchObject({ object: 'cash_flow', start_date: `${y}-01-01`, end_date: `${y}-12-31`, currency: 'USD' });
    for (const s of ['operating_activities', 'investing_activities', 'financing_activities']) expectWellFormedSection(cf[s]);
    const op: Line[] = cf.operating_activities.categories;
    expect(op.filter((l) => l.parent_category_id === null).map((l) => [l.category_id, l.name])).toEqual([
      ['grp_net_income', 'Net Income'],
      ['grp_non_cash_expenses', 'Non-Cash Expenses'],
      ['grp_working_capital', 'Changes in Working Capital'],
    ]);
    const accDep = categoryWithRole(sb, growth, 'accumulated_depreciation').id;
    expect(lineOf(cf.operating_activities, accDep)).toMatchObject({ parent_category_id: 'grp_non_cash_expenses' });
    expect(amountOf(lineOf(cf.operating_activities, accDep))).toBeGreaterThan(0);
    const ar = categoryWithRole(sb, growth, 'accounts_receivable').id;
    const wcRoots = op.filter((l) => l.parent_category_id === 'grp_working_capital').map((l) => l.category_id);
    expect(wcRoots.length).toBeGreaterThan(0);
    expect(op.some((l) => l.category_id === ar)).toBe(true);

    const is = await ok(sb, admin, `/reports/income_statement?start_date=${y}-01-01&end_date=${y}-12-31`);
    expect(cf.net_income_cents).toBe(is.net_income_cents);
    expect(lineOf(cf.operating_activities, 'grp_net_income').amount_cents).toBe(is.net_income_cents);
    expect(cf.change_in_cash_cents).toBe(
      cf.operating_activities.total_cents + cf.investing_activities.total_cents + cf.financing_activities.total_cents,
    );
    expect(cf.change_in_cash_cents).toBe(cf.ending_cash_cents - cf.beginning_cash_cents);
    const before = await ok(sb, admin, `/reports/balance_sheet?date=${Number(y) - 1}-12-31`);
    const after = await ok(sb, admin, `/reports/balance_sheet?date=${y}-12-31`);
    expect(cf.beginning_cash_cents).toBe(before.cash_cents);
    expect(cf.ending_cash_cents).toBe(after.cash_cents);
    // Neither Cash nor Retained Earnings is a line: net income is already the first one.
    const all = ['operating_activities', 'investing_activities', 'financing_activities'].flatMap((s) => cf[s].categories.map((l: Line) => l.category_id));
    expect(all).not.toContain(categoryWithRole(sb, growth, 'cash').id);
    expect(all).not.toContain(categoryWithRole(sb, growth, 'retained_earnings').id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('agrees with the balance sheet over a period that starts and ends mid-month', async () => {
    const cf = await ok(sb, admin, '/reports/cash_flow?start_date=2025-03-10&end_date=2025-04-20');
    const before = await ok(sb, admin, `/reports/balance_sheet?date=${dayBefore('2025-03-10')}`);
    const after = await ok(sb, admin, '/reports/balance_sheet?date=2025-04-20');
    expect(cf.change_in_cash_cents).toBe(after.cash_cents - before.cash_cents);
  });

  it('defaults to the current quarter through today and validates dates like the income statement', async () => {
    expect(await ok(sb, admin, '/reports/cash_flow?end_date=')).toMatchObject({ start_date: quarterStart(todayDate), end_date: todayDate });
    expectError(await get(sb, admin, '/reports/cash_flow?start_date=2025-13-01'), 400, 'invalid_date', 'start_date');
    expectError(await get(sb, admin, '/reports/cash_flow?end_date=2025-01-01Z'), 400, 'invalid_date', 'end_date');
    expectError(await get(sb, admin, '/reports/cash_flow?start_date=2025-05-01&end_date=2025-04-30'), 400, 'invalid_date_range', 'start_date');
  });
});

describe('reports follow changes to the books', () => {
  it('reflect a recategorized and then held transaction on the next request', async () => {
    // The earliest Rent payment before this year: on 31 December the seeded two years begin on 1 January of
    // last year, so "before last year" can hold none.
    const rent = categories(sb, growth).find((c) => c.name === 'Rent')!;
    const supplies = categories(sb, growth).find((c) => c.name === 'Office Supplies')!;
    const txn = sb.running.ctx.db
      .prepare(
        `SELECT id, amount_cents, COALESCE(accounting_date_override, date) AS d FROM transactions
          WHERE company_id = ? AND category_id = ? AND status = 'approved' AND transaction_type = 'standard'
            AND spread IS NULL AND hidden = 0 AND deleted = 0 AND date < ? ORDER BY date LIMIT 1`,
      )
      .get(growth, rent.id, `${todayDate.slice(0, 4)}-01-01`) as { id: string; amount_cents: number; d: string };
    const month = txn.d.slice(0, 7);
    const path = `/reports/income_statement?start_date=${month}-01&end_date=${monthEnd(month)}`;
    const before = await ok(sb, admin, path);
    const bsBefore = await ok(sb, admin, `/reports/balance_sheet?date=${before.end_date}`);

    await sb.control(`transactions/${txn.id}`, { category_id: supplies.id });
    const moved = await ok(sb, admin, path);
    expect(lineOf(moved.expenses, rent.id).amount_cents).toBe(amountOf(lineOf(before.expenses, rent.id)) - txn.amount_cents);
    expect(lineOf(moved.expenses, supplies.id).amount_cents).toBe(amountOf(lineOf(before.expenses, supplies.id)) + txn.amount_cents);
    expect(moved.net_income_cents).toBe(before.net_income_cents);

    await sb.control(`transactions/${txn.id}`, { status: 'pending' });
    const held = await ok(sb, admin, path);
    expect(held.net_income_cents).toBe(before.net_income_cents - txn.amount_cents);
    const bsHeld = await ok(sb, admin, `/reports/balance_sheet?date=${before.end_date}`);
    expect(bsHeld.equity.retained_earnings.ending_balance_cents).toBe(bsBefore.equity.retained_earnings.ending_balance_cents - txn.amount_cents);
    expect(bsHeld.assets.total_cents).toBe(bsHeld.liabilities_and_equity_cents);

    await sb.control(`transactions/${txn.id}`, { status: 'approved', category_id: rent.id });
    const restored = await ok(sb, admin, path);
    expect({ ...restored, refreshed_at: 0 }).toEqual({ ...before, refreshed_at: 0 });
  });
});

describe('report paths, permissions and isolation', () => {
  it.each(['/reports/income-statement', '/reports/balance-sheet', '/reports/cash-flow', '/reports', '/reports/income_statement/extra'])(
    '%s is 404 resource_missing',
    async (path) => {
      const res = await get(sb, admin, path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    },
  );

  it('serves Reports: View holders (growth-reports, growth-readonly) and refuses keys without API access', async () => {
    for (const label of ['growth-reports', 'growth-readonly']) {
      for (const path of ['/reports/income_statement', '/reports/balance_sheet', '/reports/cash_flow']) {
        expect((await get(sb, sb.keys[label], path)).status).toBe(200);
      }
    }
    expectError(await get(sb, sb.keys['growth-no-api'], '/reports/balance_sheet'), 403, 'insufficient_permission');
  });

  it("shows each company its own books", async () => {
    const mine = await ok(sb, admin, '/reports/balance_sheet');
    const theirs = await ok(sb, sb.keys['startup-admin'], '/reports/balance_sheet');
    expect(theirs.liabilities_and_equity_cents).toBe(theirs.assets.total_cents);
    const ids = (bs: any) => ['assets', 'liabilities', 'equity'].flatMap((s) => bs[s].categories.map((l: Line) => l.category_id));
    const own = new Set(categories(sb, sb.companies['startup-admin']).map((c) => c.id));
    expect(ids(theirs).every((id) => own.has(id))).toBe(true);
    expect(ids(theirs).some((id) => ids(mine).includes(id))).toBe(false);
  });

  it('refuses a key whose owner lost Reports: View, before validating parameters (checked live)', async () => {
    const key = sb.keys['growth-readonly'];
    await sb.control('members', { key, permissions: { reports: 'none' } });
    for (const path of ['/reports/income_statement?start_date=bad', '/reports/balance_sheet', '/reports/cash_flow']) {
      expectError(await call(sb, key, 'GET', path), 403, 'insufficient_permission');
    }
    await sb.control('members', { key, permissions: { reports: 'view' } });
    expect((await get(sb, key, '/reports/balance_sheet')).status).toBe(200);
  });
});
