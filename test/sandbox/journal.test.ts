import { startSandbox, type TestSandbox } from '../support/sandbox';
import { categoryNamed, expectError, get, ok } from './ledgerFixtures';

// GET /journal_entries and /journal_entries/{id}: item shape, order, keyset paging, filters and their
// errors, retrieval, ids that change when the books are rebuilt, permissions and company isolation.

let sb: TestSandbox;
let admin: string;
let growth: string;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb.close();
});

const db = () => sb.running.ctx.db;
/** Last year: the seeded two years to today always hold all of it (hard-coded years ran out at some dates). */
let Y: string;
beforeAll(() => {
  Y = String(Number(sb.running.ctx.clock.today().slice(0, 4)) - 1);
});
const sortedKeys = (o: object) => Object.keys(o).sort();

interface Entry {
  id: string;
  date: string;
  transaction_id: string | null;
  kind: string;
  lines: { category_id: string; department_id: string | null; debit_cents: number; credit_cents: number }[];
}

/** Every entry of a filtered list, following next_cursor. */
async function allPages(query: string, limit = 500): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&starting_after=${encodeURIComponent(cursor)}` : '';
    const page = await ok(sb, admin, `/journal_entries?limit=${limit}${query}${after}`);
    out.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return out;
}

function expectListOrder(entries: Entry[]) {
  for (let i = 1; i < entries.length; i++) expect(entries[i - 1].date <= entries[i].date).toBe(true);
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
}

describe('GET /journal_entries', () => {
  it('returns a list envelope of balanced entries ordered by date', async () => {
    const page = await ok(sb, admin, '/journal_entries');
    expect(sortedKeys(page)).toEqual(['data', 'has_more', 'next_cursor', 'object', 'url']);
    expect(page).toMatchObject({ object: 'list', url: '/api/v1/journal_entries', has_more: true });
    expect(page.data).toHaveLength(100);
    expect(page.next_cursor).toBe(page.data[99].id);
    for (const e of page.data) {
      expect(sortedKeys(e)).toEqual(['created', 'date', 'id', 'kind', 'lines', 'memo', 'object', 'transaction_id']);
      expect(e.object).toBe('journal_entry');
      expect(e.id).toMatch(/^je_/);
      expect(['transaction', 'opening', 'depreciation', 'accrual', 'spread']).toContain(e.kind);
      expect(e.lines.length).toBeGreaterThanOrEqual(2);
      for (const l of e.lines) expect(sortedKeys(l)).toEqual(['category_id', 'credit_cents', 'debit_cents', 'department_id']);
      const debits = e.lines.reduce((t: number, l: Entry['lines'][0]) => t + l.debit_cents, 0);
      expect(debits).toBe(e.lines.reduce((t: number, l: Entry['lines'][0]) => t + l.credit_cents, 0));
    }
    expectListOrder(page.data);
    // The opening entry is dated on the first day of the history.
    expect(page.data[0].date).toBe((db().prepare('SELECT MIN(date) AS d FROM journal_entries WHERE company_id = ?').get(growth) as { d: string }).d);
  });

  it('pages with the last entry id as the cursor, without gaps or repeats', async () => {
    const ten = await ok(sb, admin, '/journal_entries?limit=10');
    const first = await ok(sb, admin, '/journal_entries?limit=4');
    const second = await ok(sb, admin, `/journal_entries?limit=6&starting_after=${first.next_cursor}`);
    expect([...first.data, ...second.data].map((e: Entry) => e.id)).toEqual(ten.data.map((e: Entry) => e.id));
  });

  it('filters by date range (inclusive) and pages to the end', async () => {
    const entries = await allPages(`&start_date=${Y}-03-01&end_date=${Y}-03-31`);
    const expected = db()
      .prepare(`SELECT COUNT(*) AS n FROM journal_entries WHERE company_id = ? AND date BETWEEN '${Y}-03-01' AND '${Y}-03-31'`)
      .get(growth) as { n: number };
    expect(entries).toHaveLength(expected.n);
    expect(entries.every((e) => e.date >= `${Y}-03-01` && e.date <= `${Y}-03-31`)).toBe(true);
    expect(entries.some((e) => e.date === `${Y}-03-31`)).toBe(true);
    expectListOrder(entries);
    const last = await ok(sb, admin, `/journal_entries?start_date=${Y}-03-01&end_date=${Y}-03-31&starting_after=${entries[entries.length - 1].id}`);
    expect(last).toMatchObject({ has_more: false, next_cursor: null, data: [] });
  });

  it('filters by category, a parent category matching its descendants', async () => {
    const rent = categoryNamed(sb, growth, 'Rent');
    const leaf = await allPages(`&category_id=${rent.id}`);
    const n = db().prepare('SELECT COUNT(DISTINCT entry_id) AS n FROM journal_lines WHERE company_id = ? AND category_id = ?').get(growth, rent.id) as { n: number };
    expect(leaf.length).toBe(n.n);
    expect(leaf.every((e) => e.lines.some((l) => l.category_id === rent.id))).toBe(true);

    const ga = categoryNamed(sb, growth, 'General & Administrative');
    const children = db().prepare('SELECT id FROM categories WHERE parent_id = ?').all(ga.id).map((r: any) => r.id as string);
    const parent = await allPages(`&category_id=${ga.id}&start_date=${Y}-06-01&end_date=${Y}-06-30`);
    expect(parent.length).toBeGreaterThan(0);
    expect(parent.every((e) => e.lines.some((l) => children.includes(l.category_id)))).toBe(true);
    expect(parent.some((e) => e.lines.some((l) => l.category_id === rent.id))).toBe(true);
  });

  it('filters by department, a parent department matching its descendants', async () => {
    const rows = db().prepare('SELECT id, parent_id FROM departments WHERE company_id = ? ORDER BY rowid').all(growth) as { id: string; parent_id: string | null }[];
    const root = rows.find((r) => r.parent_id === null)!;
    const branch = rows.find((r) => r.parent_id === root.id)!;
    const under = new Set([branch.id]);
    // rows come in insertion order, parents before children, so one pass collects the whole subtree
    for (const r of rows) if (r.parent_id && under.has(r.parent_id)) under.add(r.id);
    const entries = await allPages(`&department_id=${branch.id}&start_date=${Y}-05-01&end_date=${Y}-05-31`);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.lines.some((l) => l.department_id !== null && under.has(l.department_id)))).toBe(true);
  });

  it('filters by transaction; a pending transaction has no entries', async () => {
    const posted = db()
      .prepare(
        `SELECT transaction_id AS id, COUNT(*) AS n FROM journal_entries WHERE company_id = ? AND transaction_id IS NOT NULL
          GROUP BY transaction_id HAVING n > 1 LIMIT 1`,
      )
      .get(growth) as { id: string; n: number };
    const entries = await allPages(`&transaction_id=${posted.id}`);
    expect(entries).toHaveLength(posted.n);
    expect(entries.every((e) => e.transaction_id === posted.id)).toBe(true);
    const pending = db().prepare("SELECT id FROM transactions WHERE company_id = ? AND status = 'pending' LIMIT 1").get(growth) as { id: string };
    expect((await ok(sb, admin, `/journal_entries?transaction_id=${pending.id}`)).data).toEqual([]);
  });

  it('matches nothing for well-formed ids that name nothing, or another company', async () => {
    const foreignCat = db().prepare('SELECT id FROM categories WHERE company_id = ? LIMIT 1').get(sb.companies['startup-admin']) as { id: string };
    for (const q of ['category_id=cat_doesNotExist1', `category_id=${foreignCat.id}`, 'transaction_id=txn_nope', 'department_id=dept_nope']) {
      expect(await ok(sb, admin, `/journal_entries?${q}`)).toMatchObject({ data: [], has_more: false, next_cursor: null });
    }
  });

  it.each([
    ['category_id=groceries', 'category_id'],
    ['category_id=grp_working_capital', 'category_id'],
    ['category_id=grp_net_income', 'category_id'],
    ['category_id=', 'category_id'],
    ['transaction_id=12345', 'transaction_id'],
    ['department_id=dept_', 'department_id'],
    ['start_date=2025-3-1', 'start_date'],
    ['end_date=2025-02-30', 'end_date'],
    ['start_date=2025-03-01T00:00:00Z', 'start_date'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=ten', 'limit'],
    ['starting_after=je_doesNotExist', 'starting_after'],
    ['starting_after=', 'starting_after'],
    ['category_id=cat_a&category_id=cat_b', 'category_id'],
  ])('rejects %s with 400 invalid_request', async (query, param) => {
    expectError(await get(sb, admin, `/journal_entries?${query}`), 400, 'invalid_request', param);
  });

  it('rejects a reversed date range', async () => {
    expectError(await get(sb, admin, '/journal_entries?start_date=2025-03-02&end_date=2025-03-01'), 400, 'invalid_date_range', 'start_date');
  });
});

describe('GET /journal_entries/{id}', () => {
  it('returns the entry directly, exactly as listed', async () => {
    const listed = (await ok(sb, admin, '/journal_entries?start_date=2025-02-01&limit=3')).data as Entry[];
    for (const e of listed) expect(await ok(sb, admin, `/journal_entries/${e.id}`)).toEqual(e);
  });

  it.each(['je_doesNotExist00', 'not-an-id', '12345', 'grp_net_income'])('404s %s with param id', async (id) => {
    expectError(await get(sb, admin, `/journal_entries/${id}`), 404, 'resource_missing', 'id');
  });

  it('gives new ids when the books behind a transaction are rebuilt', async () => {
    const txn = db()
      .prepare("SELECT transaction_id AS id FROM journal_entries WHERE company_id = ? AND kind = 'transaction' AND transaction_id IS NOT NULL LIMIT 1")
      .get(growth) as { id: string };
    const before = await allPages(`&transaction_id=${txn.id}`);
    await sb.control(`transactions/${txn.id}`, { description: 'rebuilt by the journal test' });
    const after = await allPages(`&transaction_id=${txn.id}`);
    expect(after).toHaveLength(before.length);
    expect(after.map((e) => e.lines)).toEqual(before.map((e) => e.lines));
    for (const e of before) expectError(await get(sb, admin, `/journal_entries/${e.id}`), 404, 'resource_missing', 'id');
    expectError(await get(sb, admin, `/journal_entries?starting_after=${before[0].id}`), 400, 'invalid_request', 'starting_after');
    expect((await ok(sb, admin, `/journal_entries/${after[0].id}`)).transaction_id).toBe(txn.id);
  });
});

describe('journal permissions and isolation', () => {
  it("never shows one company's entries to another", async () => {
    const growthEntry = (await ok(sb, admin, '/journal_entries?limit=1')).data[0] as Entry;
    const startupKey = sb.keys['startup-admin'];
    expectError(await get(sb, startupKey, `/journal_entries/${growthEntry.id}`), 404, 'resource_missing', 'id');
    expectError(await get(sb, startupKey, `/journal_entries?starting_after=${growthEntry.id}`), 400, 'invalid_request', 'starting_after');
    const theirs = (await ok(sb, startupKey, '/journal_entries?limit=500')).data as Entry[];
    expect(theirs.length).toBeGreaterThan(0);
    const startupCats = new Set(
      (db().prepare('SELECT id FROM categories WHERE company_id = ?').all(sb.companies['startup-admin']) as { id: string }[]).map((r) => r.id),
    );
    expect(theirs.every((e) => e.lines.every((l) => startupCats.has(l.category_id)))).toBe(true);
  });

  it('needs Reports: View, checked before the parameters', async () => {
    expect((await get(sb, sb.keys['growth-reports'], '/journal_entries?limit=1')).status).toBe(200);
    const key = sb.keys['growth-readonly'];
    const id = (await ok(sb, key, '/journal_entries?limit=1')).data[0].id;
    await sb.control('members', { key, permissions: { reports: 'none' } });
    expectError(await get(sb, key, '/journal_entries?limit=0'), 403, 'insufficient_permission');
    expectError(await get(sb, key, `/journal_entries/${id}`), 403, 'insufficient_permission');
    expectError(await get(sb, key, '/journal_entries/nope'), 403, 'insufficient_permission');
    await sb.control('members', { key, permissions: { reports: 'view' } });
  });
});
