import { startSandbox, type TestSandbox } from '../support/sandbox';
import { categories, categoryNamed, categoryWithRole, expectError, get, lineOf, ok, today } from './ledgerFixtures';

// GET /aggregations/total and GET /parties/merchants: shapes, monthly granularity, the date shape chosen
// by the category's point_in_time, the deprecated month parameters, merchant filtering, errors,
// permissions and company isolation.

let sb: TestSandbox;
let admin: string;
let growth: string;
/** The last full year before today: wholly inside the seeded two years, whatever day the suite runs. */
let Y: number;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
  Y = Number((await today(sb)).slice(0, 4)) - 1;
});
afterAll(async () => {
  await sb.close();
});

const db = () => sb.running.ctx.db;
const sortedKeys = (o: object) => Object.keys(o).sort();
const TOTAL_KEYS = [
  'category_id',
  'currency',
  'date',
  'end_date',
  'end_month',
  'merchant',
  'month',
  'object',
  'refreshed_at',
  'start_date',
  'start_month',
  'total_cents',
].sort();

/** Oracle: credit minus debit of a category's own lines with this merchant, from..to. */
function merchantSum(categoryId: string, merchant: string, from: string, to: string): number {
  const r = db()
    .prepare(
      `SELECT COALESCE(SUM(credit_cents - debit_cents), 0) AS v FROM journal_lines
        WHERE company_id = ? AND category_id = ? AND merchant = ? AND date BETWEEN ? AND ?`,
    )
    .get(growth, categoryId, merchant, from, to) as { v: number };
  return r.v;
}

describe('GET /aggregations/total', () => {
  it('totals a periodic category over whole months, in both date forms', async () => {
    const c = categoryNamed(sb, growth, 'Software Subscriptions');
    const body = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_date=${Y}-03-15&end_date=${Y}-05-02`);
    expect(sortedKeys(body)).toEqual(TOTAL_KEYS);
    expect(body).toMatchObject({
      object: 'aggregation_total',
      category_id: c.id,
      currency: 'USD',
      start_date: `${Y}-03-01`,
      end_date: `${Y}-05-31`,
      start_month: `${Y}-03`,
      end_month: `${Y}-05`,
      date: null,
      month: null,
      merchant: null,
    });
    expect(Number.isInteger(body.refreshed_at)).toBe(true);
    expect(body.total_cents).toBeLessThan(0);
    const is = await ok(sb, admin, `/reports/income_statement?start_date=${Y}-03-01&end_date=${Y}-05-31`);
    expect(body.total_cents).toBe(lineOf(is.expenses, c.id).amount_cents);
    const byMonth = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_month=${Y}-03&end_month=${Y}-05`);
    expect(byMonth).toEqual(body);
  });

  it('totals a parent with its descendants, revenue positive', async () => {
    const c = categoryNamed(sb, growth, 'Revenue');
    const body = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_date=${Y}-01-01&end_date=${Y}-01-31`);
    const is = await ok(sb, admin, `/reports/income_statement?start_date=${Y}-01-01&end_date=${Y}-01-31`);
    expect(body.total_cents).toBe(is.revenue.total_cents);
    expect(body.total_cents).toBeGreaterThan(0);
  });

  it('takes the cumulative balance of a point-in-time category through the month of date', async () => {
    const cash = categoryWithRole(sb, growth, 'cash');
    const body = await ok(sb, admin, `/aggregations/total?category_id=${cash.id}&date=${Y}-06-10`);
    expect(sortedKeys(body)).toEqual(TOTAL_KEYS);
    expect(body).toMatchObject({ start_date: null, end_date: null, start_month: null, end_month: null, date: `${Y}-06-30`, month: `${Y}-06` });
    const bs = await ok(sb, admin, `/reports/balance_sheet?date=${Y}-06-30`);
    expect(body.total_cents).toBe(bs.cash_cents);
    expect(await ok(sb, admin, `/aggregations/total?category_id=${cash.id}&end_month=${Y}-06`)).toEqual(body);
  });

  it('gives Retained Earnings and the equity root their balance-sheet values', async () => {
    const bs = await ok(sb, admin, `/reports/balance_sheet?date=${Y}-08-31`);
    const re = categoryWithRole(sb, growth, 'retained_earnings');
    expect((await ok(sb, admin, `/aggregations/total?category_id=${re.id}&date=${Y}-08-01`)).total_cents).toBe(
      bs.equity.retained_earnings.ending_balance_cents,
    );
    const equity = categories(sb, growth).find((c) => c.account_type === 'equity' && c.parent_id === null)!;
    expect((await ok(sb, admin, `/aggregations/total?category_id=${equity.id}&date=${Y}-08-01`)).total_cents).toBe(bs.equity.total_cents);
  });

  it('is zero with refreshed_at null when nothing matches', async () => {
    const c = categoryNamed(sb, growth, 'Rent');
    const body = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_date=1990-01-01&end_date=1990-12-31`);
    expect(body).toMatchObject({ total_cents: 0, refreshed_at: null });
  });

  it('filters on the exact, case-sensitive merchant name', async () => {
    const c = categoryNamed(sb, growth, 'Software Subscriptions');
    const names = (await ok(sb, admin, `/parties/merchants?category_id=${c.id}&limit=500`)).data.map((m: any) => m.name as string);
    const merchant = names.find((n: string) => n !== n.toLowerCase())!;
    const q = `/aggregations/total?category_id=${c.id}&start_date=${Y}-01-01&end_date=${Y}-12-31&merchant=${encodeURIComponent(merchant)}`;
    const body = await ok(sb, admin, q);
    expect(body.merchant).toBe(merchant);
    expect(body.total_cents).toBe(merchantSum(c.id, merchant, `${Y}-01-01`, `${Y}-12-31`));
    expect(body.total_cents).not.toBe(0);
    const all = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_date=${Y}-01-01&end_date=${Y}-12-31`);
    expect(Math.abs(body.total_cents)).toBeLessThan(Math.abs(all.total_cents));
    const lower = merchant.toLowerCase();
    if (!names.includes(lower)) {
      const none = await ok(sb, admin, `/aggregations/total?category_id=${c.id}&start_date=${Y}-01-01&end_date=${Y}-12-31&merchant=${encodeURIComponent(lower)}`);
      expect(none).toMatchObject({ total_cents: 0, refreshed_at: null, merchant: lower });
    }
  });

  describe('errors', () => {
    const periodic = () => categoryNamed(sb, growth, 'Rent').id;
    const pit = () => categoryWithRole(sb, growth, 'cash').id;

    it('needs category_id (400 parameter_missing)', async () => {
      expectError(await get(sb, admin, '/aggregations/total?start_date=2025-01-01&end_date=2025-01-31'), 400, 'parameter_missing', 'category_id');
      expectError(await get(sb, admin, '/aggregations/total?category_id=&date=2025-01-01'), 400, 'parameter_missing', 'category_id');
    });

    it('404s a malformed, unknown, grp_ or foreign category', async () => {
      const foreign = categoryNamed(sb, sb.companies['startup-admin'], 'Rent').id;
      for (const id of ['rent', 'cat_doesNotExist1', 'grp_working_capital', foreign]) {
        expectError(await get(sb, admin, `/aggregations/total?category_id=${id}&start_date=2025-01-01&end_date=2025-01-31`), 404, 'resource_missing', 'category_id');
      }
      expectError(await get(sb, sb.keys['startup-admin'], `/aggregations/total?category_id=${periodic()}&start_date=2025-01-01&end_date=2025-01-31`), 404, 'resource_missing', 'category_id');
    });

    it.each([
      ['periodic', 'start_month=2025-01&end_date=2025-02-28', 'invalid_request', 'start_month'],
      ['periodic', 'start_date=2025-01-01&end_month=2025-02', 'invalid_request', 'end_month'],
      ['periodic', 'date=2025-01-31', 'invalid_request', 'date'],
      ['periodic', 'start_date=2025-01-01&end_date=2025-01-31&date=2025-01-31', 'invalid_request', 'date'],
      ['pit', 'start_date=2025-01-01&end_date=2025-01-31', 'invalid_request', 'start_date'],
      ['pit', 'start_month=2025-01&end_month=2025-02', 'invalid_request', 'start_month'],
      ['pit', 'end_month=2025-01&date=2025-01-31', 'invalid_request', 'end_month'],
      ['periodic', '', 'parameter_missing', 'start_date'],
      ['periodic', 'start_date=2025-01-01', 'parameter_missing', 'end_date'],
      ['periodic', 'end_month=2025-01', 'parameter_missing', 'start_month'],
      ['pit', '', 'parameter_missing', 'date'],
      ['pit', 'date=', 'parameter_missing', 'date'],
      ['periodic', 'start_date=2025-1-01&end_date=2025-01-31', 'invalid_date', 'start_date'],
      ['periodic', 'start_date=2025-01-01&end_date=2025-02-30', 'invalid_date', 'end_date'],
      ['periodic', 'start_date=2025-01&end_date=2025-02', 'invalid_date', 'start_date'],
      ['periodic', 'start_month=2025-13&end_month=2025-12', 'invalid_date', 'start_month'],
      ['periodic', 'start_month=2025-01&end_month=2025-1', 'invalid_date', 'end_month'],
      ['pit', 'date=01/31/2025', 'invalid_date', 'date'],
      ['pit', 'end_month=2025-01-31', 'invalid_date', 'end_month'],
      ['periodic', 'start_date=2025-03-01&end_date=2025-02-28', 'invalid_date_range', 'start_date'],
      ['periodic', 'start_month=2025-03&end_month=2025-02', 'invalid_date_range', 'start_month'],
    ])('%s category with %s: 400 %s on %s', async (kind, query, code, param) => {
      const id = kind === 'pit' ? pit() : periodic();
      expectError(await get(sb, admin, `/aggregations/total?category_id=${id}&${query}`), 400, code, param);
    });

    it('ignores the day, so a reversed range inside one month is fine', async () => {
      const body = await ok(sb, admin, `/aggregations/total?category_id=${periodic()}&start_date=2025-03-20&end_date=2025-03-01`);
      expect(body).toMatchObject({ start_date: '2025-03-01', end_date: '2025-03-31' });
    });
  });

  it('needs Reports: View', async () => {
    const id = categoryNamed(sb, growth, 'Rent').id;
    const q = `/aggregations/total?category_id=${id}&start_date=2025-01-01&end_date=2025-01-31`;
    expect((await get(sb, sb.keys['growth-reports'], q)).status).toBe(200);
    const key = sb.keys['growth-readonly'];
    await sb.control('members', { key, permissions: { reports: 'none' } });
    expectError(await get(sb, key, q), 403, 'insufficient_permission');
    expectError(await get(sb, key, '/aggregations/total'), 403, 'insufficient_permission');
    expectError(await get(sb, key, `/parties/merchants?category_id=${id}`), 403, 'insufficient_permission');
    await sb.control('members', { key, permissions: { reports: 'view' } });
  });
});

describe('GET /parties/merchants', () => {
  const recorded = (ids: string[]) =>
    (
      db()
        .prepare(
          `SELECT DISTINCT merchant FROM journal_lines WHERE company_id = ? AND category_id IN (SELECT value FROM json_each(?))
            AND merchant IS NOT NULL ORDER BY merchant`,
        )
        .all(growth, JSON.stringify(ids)) as { merchant: string }[]
    ).map((r) => r.merchant);

  async function allNames(categoryId: string, limit: number): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const after: string = cursor ? `&starting_after=${encodeURIComponent(cursor)}` : '';
      const page = await ok(sb, admin, `/parties/merchants?category_id=${categoryId}&limit=${limit}${after}`);
      expect(page).toMatchObject({ object: 'list', url: '/api/v1/parties/merchants' });
      for (const m of page.data) expect(m).toEqual({ object: 'merchant', name: expect.any(String) });
      names.push(...page.data.map((m: any) => m.name));
      cursor = page.has_more ? page.next_cursor : null;
      if (!page.has_more) expect(page.next_cursor).toBeNull();
    } while (cursor);
    return names;
  }

  it('lists the distinct names of a category in binary order, paged with an opaque cursor', async () => {
    const c = categoryNamed(sb, growth, 'Software Subscriptions');
    const names = await allNames(c.id, 7);
    expect(names).toEqual(recorded([c.id]));
    expect(names.length).toBeGreaterThan(7);
    expect([...names].sort()).toEqual(names);
  });

  it("covers a parent category's descendants", async () => {
    const ga = categoryNamed(sb, growth, 'General & Administrative');
    const children = (db().prepare('SELECT id FROM categories WHERE parent_id = ?').all(ga.id) as { id: string }[]).map((r) => r.id);
    expect(await allNames(ga.id, 500)).toEqual(recorded([ga.id, ...children]));
  });

  it('leaves out names recorded only on pending (held) transactions', async () => {
    const c = categoryNamed(sb, growth, 'Office Supplies');
    const txn = db()
      .prepare("SELECT id FROM transactions WHERE company_id = ? AND category_id = ? AND status = 'approved' AND transaction_type = 'standard' LIMIT 1")
      .get(growth, c.id) as { id: string };
    await sb.control(`transactions/${txn.id}`, { merchant: 'Zz Held Merchant', status: 'pending' });
    expect(await allNames(c.id, 500)).not.toContain('Zz Held Merchant');
    await sb.control(`transactions/${txn.id}`, { status: 'approved' });
    expect(await allNames(c.id, 500)).toContain('Zz Held Merchant');
  });

  it('is empty for a category with no names', async () => {
    const re = categoryWithRole(sb, growth, 'retained_earnings');
    expect(await ok(sb, admin, `/parties/merchants?category_id=${re.id}`)).toMatchObject({ data: [], has_more: false, next_cursor: null });
  });

  it('rejects unusable cursors and limits with 400 invalid_request', async () => {
    const a = categoryNamed(sb, growth, 'Software Subscriptions').id;
    const b = categoryNamed(sb, growth, 'Advertising').id;
    const cursor = (await ok(sb, admin, `/parties/merchants?category_id=${a}&limit=1`)).next_cursor as string;
    const journalCursor = (await ok(sb, admin, '/journal_entries?limit=1')).next_cursor as string;
    for (const bad of [`${cursor.slice(0, -2)}xx`, 'Adobe', '', journalCursor]) {
      expectError(await get(sb, admin, `/parties/merchants?category_id=${a}&starting_after=${encodeURIComponent(bad)}`), 400, 'invalid_request', 'starting_after');
    }
    expectError(await get(sb, admin, `/parties/merchants?category_id=${b}&starting_after=${encodeURIComponent(cursor)}`), 400, 'invalid_request', 'starting_after');
    for (const limit of ['0', '501', 'x']) {
      expectError(await get(sb, admin, `/parties/merchants?category_id=${a}&limit=${limit}`), 400, 'invalid_request', 'limit');
    }
  });

  it('needs category_id and 404s categories the company does not have', async () => {
    expectError(await get(sb, admin, '/parties/merchants'), 400, 'parameter_missing', 'category_id');
    const foreign = categoryNamed(sb, sb.companies['startup-admin'], 'Rent').id;
    for (const id of ['nope', 'cat_doesNotExist1', 'grp_non_cash_expenses', foreign]) {
      expectError(await get(sb, admin, `/parties/merchants?category_id=${id}`), 404, 'resource_missing', 'category_id');
    }
  });
});
