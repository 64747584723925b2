import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { all, expectError, growth, one, startup } from './txnFixtures';

let sb: TestSandbox;
let admin: string;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
});
afterAll(() => sb?.close());

const get = (path: string, key = admin) => call(sb, key, 'GET', path);
const create = (body: unknown, key = admin, headers?: Record<string, string>) => call(sb, key, 'POST', '/accounts', body, headers);

async function everyPage(path: string, limit: number, key = admin): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const after: string = cursor ? `&starting_after=${encodeURIComponent(cursor)}` : '';
    const res = await get(`${path}${sep}limit=${limit}${after}`, key);
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    cursor = res.body.has_more ? res.body.next_cursor : null;
  } while (cursor);
  return items;
}

describe('GET /accounts', () => {
  it('lists every account of the company, oldest first', async () => {
    const res = await get('/accounts');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/accounts', has_more: false, next_cursor: null });
    const expected = all(sb, 'SELECT id FROM accounts WHERE company_id = ? ORDER BY seq', growth(sb)).map((r) => r.id);
    expect(res.body.data.map((a: any) => a.id)).toEqual(expected);
    for (const a of res.body.data) {
      expect(Object.keys(a).sort()).toEqual(['account_name', 'created', 'id', 'manual', 'object', 'type', 'vendor']);
      expect(a.object).toBe('account');
      expect(a.vendor).toBe(a.vendor.toLowerCase());
    }
    expect(await everyPage('/accounts', 2)).toEqual(res.body.data);
  });

  it('400s an unusable cursor or limit', async () => {
    const card = one(sb, 'SELECT id FROM cards WHERE company_id = ?', growth(sb)).id;
    const foreign = one(sb, 'SELECT id FROM accounts WHERE company_id = ?', startup(sb)).id;
    for (const c of ['acct_doesnotexist', 'garbage', card, foreign, '']) {
      expectError(await get(`/accounts?starting_after=${encodeURIComponent(c)}`), 400, 'invalid_request', 'starting_after');
    }
    expectError(await get('/accounts?limit=0'), 400, 'invalid_request', 'limit');
  });

  it('needs Transactions: View and keeps companies apart', async () => {
    expectError(await get('/accounts', sb.keys['growth-reports']), 403, 'insufficient_permission');
    const theirs = await get('/accounts', sb.keys['startup-admin']);
    const ids = all(sb, 'SELECT id FROM accounts WHERE company_id = ? ORDER BY seq', startup(sb)).map((r) => r.id);
    expect(theirs.body.data.map((a: any) => a.id)).toEqual(ids);
  });
});

describe('POST /accounts', () => {
  it('creates a manual account with a normalized vendor, then returns it again for a matching body', async () => {
    const res = await create({ account_name: 'Payroll  Reserve', vendor: 'Silicon-Valley Bank 4521', type: 'bank' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^acct_[A-Za-z0-9]+$/),
      object: 'account',
      vendor: 'silicon valley bank',
      type: 'bank',
      account_name: 'Payroll  Reserve',
      manual: true,
      created: expect.any(Number),
    });
    const list = await everyPage('/accounts', 500);
    expect(list[list.length - 1]).toEqual(res.body);
    const cash = one(sb, "SELECT id FROM categories WHERE company_id = ? AND role = 'cash'", growth(sb)).id;
    expect(one(sb, 'SELECT category_id FROM accounts WHERE id = ?', res.body.id).category_id).toBe(cash);

    for (const body of [
      { account_name: '  payroll reserve ', vendor: 'SILICON-VALLEY   BANK 4521', type: 'bank' },
      { account_name: 'PAYROLL RESERVE', vendor: 'silicon valley bank', type: 'bank' },
      { type: 'bank', vendor: 'Silicon Valley Bank', account_name: 'Payroll Reserve' },
    ]) {
      const again = await create(body);
      expect([body, again.status]).toEqual([body, 200]);
      expect(again.body).toEqual(res.body);
    }
    const credit = await create({ account_name: 'Payroll Reserve', vendor: 'Silicon-Valley Bank 4521', type: 'credit' });
    expect(credit.status).toBe(201);
    expect(credit.body.id).not.toBe(res.body.id);
    const liability = one(sb, "SELECT id FROM categories WHERE company_id = ? AND role = 'card_liability'", growth(sb)).id;
    expect(one(sb, 'SELECT category_id FROM accounts WHERE id = ?', credit.body.id).category_id).toBe(liability);
  });

  it('matches only manual accounts and creates nothing else', async () => {
    const manual = one(sb, 'SELECT * FROM accounts WHERE company_id = ? AND manual = 1 AND type = ?', growth(sb), 'bank');
    const same = await create({ account_name: manual.account_name.toUpperCase(), vendor: manual.vendor, type: 'bank' });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(manual.id);
    const provider = one(sb, "SELECT * FROM accounts WHERE company_id = ? AND manual = 0 AND type = 'bank'", growth(sb));
    const counts = () => all(sb, 'SELECT (SELECT COUNT(*) FROM transactions) AS t, (SELECT COUNT(*) FROM categories) AS c, (SELECT COUNT(*) FROM journal_entries) AS j')[0];
    const before = counts();
    const fresh = await create({ account_name: provider.account_name, vendor: provider.vendor, type: 'bank' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(provider.id);
    expect(counts()).toEqual(before);
  });

  it('validates the body', async () => {
    const ok = { account_name: 'Ops', vendor: 'Chase', type: 'bank' };
    const cases: [unknown, string, string | undefined][] = [
      [{ ...ok, institution: 'Chase' }, 'invalid_request', 'institution'],
      [{ ...ok, name: 'Ops' }, 'invalid_request', 'name'],
      [{ vendor: 'Chase', type: 'bank' }, 'parameter_missing', 'account_name'],
      [{ ...ok, account_name: null }, 'parameter_missing', 'account_name'],
      [{ ...ok, vendor: '   ' }, 'parameter_missing', 'vendor'],
      [{ ...ok, type: '' }, 'parameter_missing', 'type'],
      [{ ...ok, account_name: 5 }, 'invalid_request', 'account_name'],
      [{ ...ok, vendor: ['Chase'] }, 'invalid_request', 'vendor'],
      [{ ...ok, type: 'savings' }, 'invalid_request', 'type'],
      [{ ...ok, type: 'reimbursement' }, 'invalid_request', 'type'],
      [{ ...ok, account_name: 'x'.repeat(100_000) }, 'invalid_request', 'account_name'],
      [{ ...ok, vendor: '!!!' }, 'invalid_request', 'vendor'],
      [[ok], 'invalid_request', undefined],
      ['"Ops"', 'invalid_request', undefined],
      ['{"account_name": "Ops",', 'invalid_request', undefined],
    ];
    for (const [body, code, param] of cases) {
      const res = await create(body);
      expect([body, res.status, res.body.error?.code, res.body.error?.param]).toEqual([body, 400, code, param]);
    }
    expectError(await create(JSON.stringify(ok), admin, { 'content-type': 'text/plain' }), 400, 'invalid_request');
  });

  it('needs Transactions: Manage and keeps companies apart', async () => {
    const body = { account_name: 'Isolated', vendor: 'Mercury', type: 'bank' };
    expectError(await create(body, sb.keys['growth-readonly']), 403, 'insufficient_permission');
    const mine = await create(body);
    const theirs = await create(body, sb.keys['startup-admin']);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await get('/accounts?limit=500', sb.keys['startup-admin'])).body.data.map((a: any) => a.id)).not.toContain(mine.body.id);
  });
});

describe('GET /cards', () => {
  it('lists every card, stubs and metadata cards included, oldest first', async () => {
    const res = await get('/cards?limit=500');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/cards', has_more: false, next_cursor: null });
    const expected = all(sb, 'SELECT id FROM cards WHERE company_id = ? ORDER BY seq', growth(sb)).map((r) => r.id);
    expect(res.body.data.map((c: any) => c.id)).toEqual(expected);
    for (const c of res.body.data) {
      expect(Object.keys(c).sort()).toEqual(['account_id', 'created', 'id', 'last_four', 'name', 'object', 'status', 'type']);
    }
    const stubs = res.body.data.filter((c: any) => c.account_id === null);
    expect(stubs.length).toBeGreaterThan(0);
    for (const s of stubs) expect(s).toMatchObject({ last_four: null, type: null, status: null, name: expect.any(String) });
    expect(await everyPage('/cards', 4)).toEqual(res.body.data);
  });

  it('filters by account_id before paging', async () => {
    const withCards = one(sb, 'SELECT account_id, COUNT(*) AS n FROM cards WHERE company_id = ? AND account_id IS NOT NULL GROUP BY account_id ORDER BY n DESC', growth(sb));
    const cards = await everyPage(`/cards?account_id=${withCards.account_id}`, 2);
    expect(cards).toHaveLength(withCards.n);
    expect(cards.every((c) => c.account_id === withCards.account_id)).toBe(true);
    const empty = one(sb, 'SELECT id FROM accounts a WHERE company_id = ? AND NOT EXISTS (SELECT 1 FROM cards c WHERE c.account_id = a.id)', growth(sb)).id;
    expect((await get(`/cards?account_id=${empty}`)).body).toMatchObject({ data: [], has_more: false, next_cursor: null });
  });

  it('404s an unknown, malformed, blank or foreign account_id', async () => {
    const foreign = one(sb, 'SELECT id FROM accounts WHERE company_id = ?', startup(sb)).id;
    for (const a of ['acct_doesnotexist', 'card_abc', '', foreign]) {
      expectError(await get(`/cards?account_id=${encodeURIComponent(a)}`), 404, 'resource_missing', 'account_id');
    }
  });

  it('binds the cursor to the account_id filter', async () => {
    const accountId = one(sb, 'SELECT account_id FROM cards WHERE company_id = ? AND account_id IS NOT NULL GROUP BY account_id HAVING COUNT(*) > 2', growth(sb)).account_id;
    const other = one(sb, 'SELECT id FROM accounts WHERE company_id = ? AND id <> ?', growth(sb), accountId).id;
    const filtered = await get(`/cards?account_id=${accountId}&limit=1`);
    const unfiltered = await get('/cards?limit=1');
    const accountsCursor = (await get('/accounts?limit=1')).body.next_cursor;
    const c = encodeURIComponent(filtered.body.next_cursor);
    expect((await get(`/cards?account_id=${accountId}&limit=1&starting_after=${c}`)).status).toBe(200);
    for (const q of [
      `starting_after=${c}`,
      `account_id=${other}&starting_after=${c}`,
      `account_id=${accountId}&starting_after=${encodeURIComponent(unfiltered.body.next_cursor)}`,
      `starting_after=${encodeURIComponent(accountsCursor)}`,
      `starting_after=${unfiltered.body.data[0].id}`,
      'starting_after=',
    ]) {
      expectError(await get(`/cards?${q}`), 400, 'invalid_request', 'starting_after');
    }
    const foreignCursor = (await get('/cards?limit=1', sb.keys['startup-admin'])).body.next_cursor;
    expectError(await get(`/cards?starting_after=${encodeURIComponent(foreignCursor)}`), 400, 'invalid_request', 'starting_after');
  });

  it('needs Transactions: View and keeps companies apart', async () => {
    expectError(await get('/cards', sb.keys['growth-reports']), 403, 'insufficient_permission');
    const theirs = await get('/cards?limit=500', sb.keys['startup-admin']);
    const ids = all(sb, 'SELECT id FROM cards WHERE company_id = ? ORDER BY seq', startup(sb)).map((r) => r.id);
    expect(theirs.body.data.map((c: any) => c.id)).toEqual(ids);
  });
});
