import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { all, categories, departments, expectError, growth, one, standardIds, startup } from './txnFixtures';

let sb: TestSandbox;
let admin: string;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
});
afterAll(() => sb?.close());

const get = (path: string, key = admin) => call(sb, key, 'GET', path);
const patch = (id: string, body: unknown, key = admin, headers?: Record<string, string>) => call(sb, key, 'PATCH', `/transactions/${id}`, body, headers);

/** Calendar years later; 29 February becomes the 28th in a year without one (as date libraries do). */
function addYears(date: string, years: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const lastDay = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${y + years}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

describe('GET /transactions (classic mode)', () => {
  it('lists visible transactions newest first with the full object', async () => {
    const res = await get('/transactions');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/transactions', has_more: true });
    expect(res.body.watermark).toBeUndefined();
    const data = res.body.data;
    expect(data).toHaveLength(100);
    expect(res.body.next_cursor).toBe(data[99].id);
    for (let i = 1; i < data.length; i++) {
      const [a, b] = [data[i - 1], data[i]];
      expect(a.date > b.date || (a.date === b.date && a.id > b.id)).toBe(true);
    }
    const t = data[0];
    expect(Object.keys(t).sort()).toEqual(
      [
        'accounting_date', 'amount_cents', 'categorized', 'category_id', 'category_name', 'created', 'currency', 'date', 'deleted',
        'department_id', 'department_name', 'description', 'id', 'merchant', 'object', 'source', 'spread', 'status',
        'transaction_type', 'transfer_id', 'updated',
      ].sort(),
    );
    expect(t).toMatchObject({ object: 'transaction', deleted: false });
    expect(Object.keys(t.source).sort()).toEqual(['account_name', 'type', 'vendor']);
    expect(Number.isInteger(t.amount_cents) && Number.isInteger(t.updated) && Number.isInteger(t.created)).toBe(true);
  });

  it('pages with next_cursor and no overlap', async () => {
    const first = await get('/transactions?limit=5');
    const second = await get(`/transactions?limit=5&starting_after=${first.body.next_cursor}`);
    const both = await get('/transactions?limit=10');
    expect([...first.body.data, ...second.body.data].map((t: any) => t.id)).toEqual(both.body.data.map((t: any) => t.id));
  });

  it('derives names, categorized and accounting_date', async () => {
    const row = one(
      sb,
      `SELECT t.id FROM transactions t WHERE company_id = ? AND category_id IS NOT NULL AND department_id IS NOT NULL AND hidden = 0 AND deleted = 0 LIMIT 1`,
      growth(sb),
    );
    const t = (await get(`/transactions/${row.id}`)).body;
    const cat = one(sb, 'SELECT name FROM categories WHERE id = ?', t.category_id);
    const dept = one(sb, 'SELECT name FROM departments WHERE id = ?', t.department_id);
    expect(t).toMatchObject({ categorized: true, category_name: cat.name, department_name: dept.name, accounting_date: t.date });

    const split = one(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'split' AND hidden = 0 AND deleted = 0", growth(sb));
    const parts = all(sb, 'SELECT category_id FROM transaction_splits WHERE transaction_id = ?', split.id);
    const s = (await get(`/transactions/${split.id}`)).body;
    expect(s).toMatchObject({ transaction_type: 'split', category_id: null, categorized: parts.every((p) => p.category_id !== null) });
  });

  it('applies every filter', async () => {
    const check = async (query: string, pred: (t: any) => boolean) => {
      const res = await get(`/transactions?limit=200&${query}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const t of res.body.data) expect([query, pred(t)]).toEqual([query, true]);
    };
    await check('status=pending', (t) => t.status === 'pending');
    await check('status=approved', (t) => t.status === 'approved');
    await check('transaction_type=transfer', (t) => t.transaction_type === 'transfer' && t.transfer_id !== null);
    await check('transaction_type=split', (t) => t.transaction_type === 'split');
    await check('categorized=false', (t) => t.categorized === false);
    await check('categorized=true', (t) => t.categorized === true);
    const someCategory = one(sb, 'SELECT category_id FROM transactions WHERE company_id = ? AND category_id IS NOT NULL AND hidden = 0 AND deleted = 0', growth(sb));
    await check(`category_id=${someCategory.category_id}`, (t) => t.category_id === someCategory.category_id);
    const merchant = one(sb, 'SELECT merchant FROM transactions WHERE company_id = ? AND merchant IS NOT NULL AND hidden = 0 AND deleted = 0', growth(sb)).merchant as string;
    const fragment = merchant.slice(1, 4).toUpperCase();
    await check(`merchant=${encodeURIComponent(fragment)}`, (t) => t.merchant.toLowerCase().includes(fragment.toLowerCase()));
    const vendor = one(sb, 'SELECT source_vendor FROM transactions WHERE company_id = ? AND hidden = 0 AND deleted = 0', growth(sb)).source_vendor as string;
    await check(`source_vendor=${encodeURIComponent(vendor.toUpperCase())}`, (t) => t.source.vendor.toLowerCase() === vendor.toLowerCase());
    await check('source_type=BANK', (t) => t.source.type === 'bank');
    await check('source_type=credit', (t) => t.source.type === 'credit');
    const day = (await get('/transactions?limit=1')).body.data[0].date as string;
    const from = addDays(day, -10);
    await check(`start_date=${from}&end_date=${day}`, (t) => t.date >= from && t.date <= day);
    const exact = await get(`/transactions?start_date=${day}&end_date=${day}`);
    expect(exact.body.data.every((t: any) => t.date === day)).toBe(true);
    const combined = await get('/transactions?status=approved&transaction_type=standard&categorized=true&limit=50');
    expect(combined.body.data.every((t: any) => t.status === 'approved' && t.transaction_type === 'standard' && t.categorized)).toBe(true);
  });

  it('rejects invalid filters with 400', async () => {
    const otherCompanyCategory = one(sb, 'SELECT id FROM categories WHERE company_id = ?', startup(sb)).id;
    const cases: [string, string, string][] = [
      ['status=open', 'invalid_request', 'status'],
      ['transaction_type=refund', 'invalid_request', 'transaction_type'],
      ['categorized=yes', 'invalid_request', 'categorized'],
      ['category_id=dept_123', 'invalid_request', 'category_id'],
      ['category_id=cat_doesnotexist', 'invalid_request', 'category_id'],
      [`category_id=${otherCompanyCategory}`, 'invalid_request', 'category_id'],
      ['source_type=savings', 'invalid_request', 'source_type'],
      ['start_date=2024-02-30', 'invalid_request', 'start_date'],
      ['end_date=01/02/2024', 'invalid_request', 'end_date'],
      ['start_date=2024-03-01&end_date=2024-02-01', 'invalid_date_range', 'start_date'],
      ['status=approved&status=pending', 'invalid_request', 'status'],
      ['merchant=', 'invalid_request', 'merchant'],
      ['limit=0', 'invalid_request', 'limit'],
      ['limit=501', 'invalid_request', 'limit'],
      ['limit=ten', 'invalid_request', 'limit'],
    ];
    for (const [query, code, param] of cases) {
      const res = await get(`/transactions?${query}`);
      expect([query, res.status, res.body.error?.code, res.body.error?.param]).toEqual([query, 400, code, param]);
    }
  });

  it('404s an unknown starting_after', async () => {
    expectError(await get('/transactions?starting_after=txn_doesnotexist'), 404, 'resource_missing', 'starting_after');
    const foreign = one(sb, 'SELECT id FROM transactions WHERE company_id = ?', startup(sb)).id;
    expectError(await get(`/transactions?starting_after=${foreign}`), 404, 'resource_missing', 'starting_after');
  });

  it('never lists hidden or deleted transactions', async () => {
    const hiddenId = one(sb, 'SELECT id FROM transactions WHERE company_id = ? AND hidden = 1', growth(sb)).id;
    const [deletedId] = standardIds(sb, growth(sb), 1, 50);
    await sb.control(`transactions/${deletedId}`, { deleted: true });
    const dates = all(sb, 'SELECT date FROM transactions WHERE id IN (?, ?)', hiddenId, deletedId).map((r) => r.date);
    for (const date of dates) {
      const res = await get(`/transactions?start_date=${date}&end_date=${date}&limit=500`);
      const ids = res.body.data.map((t: any) => t.id);
      expect(ids).not.toContain(hiddenId);
      expect(ids).not.toContain(deletedId);
    }
    for (const id of [hiddenId, deletedId]) {
      expectError(await get(`/transactions/${id}`), 404, 'resource_missing', 'id');
      expectError(await patch(id, { merchant: 'X' }), 404, 'resource_missing', 'id');
    }
  });

  it('needs Transactions: View', async () => {
    expectError(await get('/transactions', sb.keys['growth-reports']), 403, 'insufficient_permission');
    expectError(await get('/transactions/txn_x', sb.keys['growth-reports']), 403, 'insufficient_permission');
    expect((await get('/transactions?limit=1', sb.keys['growth-readonly'])).status).toBe(200);
  });

  it('keeps companies apart', async () => {
    const res = await get('/transactions?limit=500', sb.keys['startup-admin']);
    const ids = new Set(all(sb, 'SELECT id FROM transactions WHERE company_id = ?', startup(sb)).map((r) => r.id));
    expect(res.body.data.every((t: any) => ids.has(t.id))).toBe(true);
  });
});

describe('GET /transactions/{id}', () => {
  it('returns the transaction unwrapped, equal to the list item', async () => {
    const item = (await get('/transactions?limit=1')).body.data[0];
    const res = await get(`/transactions/${item.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(item);
  });

  it('404s malformed, unknown and foreign ids', async () => {
    const foreign = standardIds(sb, growth(sb), 1)[0];
    for (const [id, key] of [['txn_doesnotexist', admin], ['12345', admin], ['cat_abc', admin], [foreign, sb.keys['startup-admin']]]) {
      expectError(await get(`/transactions/${id}`, key), 404, 'resource_missing', 'id');
    }
  });
});

describe('PATCH /transactions/{id}', () => {
  const today = () => sb.running.ctx.clock.today();
  const incorporation = () => one(sb, 'SELECT incorporation_date FROM companies WHERE id = ?', growth(sb)).incorporation_date as string;

  it('edits the five fields and returns the full updated transaction', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 100);
    const before = (await get(`/transactions/${id}`)).body;
    const dept = departments(sb, growth(sb)).assignable[0];
    const cat = categories(sb, growth(sb)).selectable.find((c) => c !== before.category_id)!;
    const accountingDate = addDays(before.date, 3);
    const spread = { start_date: before.date, end_date: addDays(before.date, 90) };
    const res = await patch(id, { merchant: 'Renamed Vendor', accounting_date: accountingDate, department_id: dept, category_id: cat, spread });
    expect(res.status).toBe(200);
    const deptName = one(sb, 'SELECT name FROM departments WHERE id = ?', dept).name;
    const catName = one(sb, 'SELECT name FROM categories WHERE id = ?', cat).name;
    expect(res.body).toMatchObject({
      id,
      object: 'transaction',
      merchant: 'Renamed Vendor',
      accounting_date: accountingDate,
      date: before.date,
      department_id: dept,
      department_name: deptName,
      category_id: cat,
      category_name: catName,
      categorized: true,
      spread,
      deleted: false,
    });
    expect(res.body.updated).toBeGreaterThanOrEqual(before.updated);
    expect((await get(`/transactions/${id}`)).body).toEqual(res.body);
    const stored = one(sb, 'SELECT department_source, update_seq FROM transactions WHERE id = ?', id);
    expect(stored.department_source).toBe('manual');
    const entries = all(sb, "SELECT date, kind FROM journal_entries WHERE transaction_id = ? ORDER BY date", id);
    if (before.status === 'approved') {
      expect(entries.find((e) => e.kind === 'transaction')?.date).toBe(accountingDate);
      expect(entries.filter((e) => e.kind === 'spread').length).toBeGreaterThanOrEqual(3);
    }

    const restored = await patch(id, { accounting_date: null, spread: null, department_id: null, category_id: null, merchant: null });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ accounting_date: before.date, spread: null, department_id: null, department_name: null, category_id: null, merchant: null, categorized: false });
  });

  it('bumps updated and the sync position only when something changes', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 110);
    await patch(id, { merchant: 'Same Name' });
    const seq = one(sb, 'SELECT update_seq FROM transactions WHERE id = ?', id).update_seq;
    await patch(id, { merchant: 'Same Name' });
    expect(one(sb, 'SELECT update_seq FROM transactions WHERE id = ?', id).update_seq).toBe(seq);
    await patch(id, { merchant: 'Other Name' });
    expect(one(sb, 'SELECT update_seq FROM transactions WHERE id = ?', id).update_seq).toBeGreaterThan(seq);
  });

  it('enforces the accounting_date window', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 120);
    const lastOk = addDays(addYears(today(), 3), -1);
    expect((await patch(id, { accounting_date: incorporation() })).status).toBe(200);
    expect((await patch(id, { accounting_date: lastOk })).status).toBe(200);
    expectError(await patch(id, { accounting_date: addDays(incorporation(), -1) }), 422, 'transaction_update_failed', 'accounting_date');
    expectError(await patch(id, { accounting_date: addYears(today(), 3) }), 422, 'transaction_update_failed', 'accounting_date');
    expect((await get(`/transactions/${id}`)).body.accounting_date).toBe(lastOk);
  });

  it('applies all fields or none', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 130);
    const before = (await get(`/transactions/${id}`)).body;
    const dept = departments(sb, growth(sb)).assignable.find((d) => d !== before.department_id)!;
    const res = await patch(id, { department_id: dept, merchant: 'Should Not Stick', accounting_date: addYears(today(), 4) });
    expectError(res, 422, 'transaction_update_failed', 'accounting_date');
    expect((await get(`/transactions/${id}`)).body).toEqual(before);
  });

  it('rejects non-assignable departments and non-selectable categories with 422', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 140);
    expectError(await patch(id, { department_id: departments(sb, growth(sb)).notAssignable }), 422, 'transaction_update_failed', 'department_id');
    expectError(await patch(id, { category_id: categories(sb, growth(sb)).notSelectable }), 422, 'transaction_update_failed', 'category_id');
  });

  it('404s missing, foreign and wrong-prefix departments and categories', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 150);
    const foreignDept = one(sb, 'SELECT id FROM departments WHERE company_id = ?', startup(sb))?.id;
    const foreignCat = one(sb, 'SELECT id FROM categories WHERE company_id = ?', startup(sb)).id;
    for (const dept of ['dept_doesnotexist', 'cat_abc', '', foreignDept]) {
      expectError(await patch(id, { department_id: dept }), 404, 'resource_missing', 'department_id');
    }
    for (const cat of ['cat_doesnotexist', 'dept_abc', foreignCat]) {
      expectError(await patch(id, { category_id: cat }), 404, 'resource_missing', 'category_id');
    }
  });

  it('refuses transfers and splits with 422 naming the first field in server order', async () => {
    const transfer = one(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'transfer' AND hidden = 0 AND deleted = 0", growth(sb)).id;
    const split = one(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'split' AND hidden = 0 AND deleted = 0", growth(sb)).id;
    expectError(await patch(transfer, { merchant: 'X', department_id: null }), 422, 'transaction_update_failed', 'department_id');
    expectError(await patch(split, { merchant: 'X' }), 422, 'transaction_update_failed', 'merchant');
    expectError(await patch(split, { category_id: null, accounting_date: null }), 422, 'transaction_update_failed', 'accounting_date');
  });

  it('validates the body', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 160);
    const cases: [unknown, number, string, string | undefined][] = [
      [{}, 400, 'parameter_missing', undefined],
      [{ memo: 'x' }, 400, 'parameter_missing', undefined],
      [{ merchant: 'ok', description: 'no' }, 400, 'invalid_request', 'description'],
      [[{ merchant: 'x' }], 400, 'invalid_request', undefined],
      ['null', 400, 'invalid_request', undefined],
      ['{"merchant": ', 400, 'invalid_request', undefined],
      [{ accounting_date: '2024-13-01' }, 400, 'invalid_request', 'accounting_date'],
      [{ accounting_date: 20240101 }, 400, 'invalid_request', 'accounting_date'],
      [{ department_id: 42 }, 400, 'invalid_request', 'department_id'],
      [{ category_id: ['cat_x'] }, 400, 'invalid_request', 'category_id'],
      [{ merchant: '' }, 400, 'invalid_request', 'merchant'],
      [{ merchant: 'x'.repeat(201) }, 400, 'invalid_request', 'merchant'],
      [{ merchant: 'x'.repeat(100_000) }, 400, 'invalid_request', 'merchant'],
      [{ spread: 'monthly' }, 400, 'invalid_request', 'spread'],
      [{ spread: { start_date: '2024-05-01', end_date: '2024-01-01' } }, 400, 'invalid_request', 'spread'],
      [{ spread: { start_date: '2024-05-01' } }, 400, 'invalid_request', 'spread.end_date'],
      [{ spread: { start_date: '2024-01-01', end_date: '2024-02-01', months: 2 } }, 400, 'invalid_request', 'spread.months'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await patch(id, body);
      expect([body, res.status, res.body.error?.code, res.body.error?.param]).toEqual([body, status, code, param]);
    }
    expectError(await patch(id, 'merchant=x', admin, { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'invalid_request');
  });

  it('needs Transactions: Manage and keeps companies apart', async () => {
    const [id] = standardIds(sb, growth(sb), 1, 170);
    expectError(await patch(id, { merchant: 'x' }, sb.keys['growth-readonly']), 403, 'insufficient_permission');
    expectError(await patch(id, { merchant: 'x' }, sb.keys['startup-admin']), 404, 'resource_missing', 'id');
    expectError(await patch('txn_doesnotexist', { merchant: 'x' }), 404, 'resource_missing', 'id');
  });
});
