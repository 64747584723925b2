import crypto from 'node:crypto';
import { openDatabase, getMeta, type Db } from '../../src/sandbox/db/open';
import { CATEGORY_ROLES } from '../../src/sandbox/ledger/roles';
import { rebuildCompanyLedger } from '../../src/sandbox/ledger/posting';
import { PERMISSION_AREAS, parsePermissions, allAt, ACCESS_TEMPLATES } from '../../src/sandbox/permissions';
import { listRoster, seedDatabase, ROSTER_LABELS } from '../../src/sandbox/seed';

const TODAY = '2025-06-15';
// 13:00 in Los Angeles on TODAY
const NOW = Math.floor(Date.UTC(2025, 5, 15, 20, 0, 0) / 1000);

type Row = Record<string, unknown>;
const all = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as Row[];
const one = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as Row;
const num = (db: Db, sql: string, ...args: unknown[]) => Object.values(one(db, sql, ...args))[0] as number;
const str = (db: Db, sql: string, ...args: unknown[]) => Object.values(one(db, sql, ...args))[0] as string;

function seeded(transactions: number): Db {
  const db = openDatabase(':memory:');
  seedDatabase(db, { transactions, today: TODAY, now: NOW });
  return db;
}

function tableHash(db: Db, sql: string): string {
  const h = crypto.createHash('sha256');
  for (const r of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) h.update(JSON.stringify(r));
  return h.digest('hex');
}

let db: Db;
let growth: string;

beforeAll(() => {
  db = seeded(3000);
  growth = listRoster(db).find((r) => r.label === 'growth-admin')!.company_id;
});

afterAll(() => db.close());

describe('determinism', () => {
  it('gives identical tables for the same (transactions, today)', () => {
    const other = seeded(3000);
    const queries = [
      'SELECT * FROM transactions ORDER BY id',
      'SELECT * FROM transaction_splits ORDER BY transaction_id, part',
      'SELECT * FROM journal_entries ORDER BY seq',
      'SELECT * FROM journal_lines ORDER BY entry_id, line',
      'SELECT * FROM categories ORDER BY id',
      'SELECT * FROM departments ORDER BY id',
      'SELECT * FROM api_keys ORDER BY key',
      'SELECT * FROM rules ORDER BY seq',
      'SELECT * FROM invitations ORDER BY id',
    ];
    for (const q of queries) expect(tableHash(other, q)).toBe(tableHash(db, q));
    other.close();
  });

  it('keeps the roster keys whatever the transaction count', () => {
    const small = seeded(400);
    expect(listRoster(small)).toEqual(listRoster(db));
    small.close();
  });

  it('refuses to seed a database twice', () => {
    expect(() => seedDatabase(db, { transactions: 3000, today: TODAY, now: NOW })).toThrow(/already/);
  });

  it('records the seed parameters in meta', () => {
    expect(getMeta(db, 'seed_today')).toBe(TODAY);
    expect(getMeta(db, 'seed_transactions')).toBe('3000');
  });
});

describe('roster', () => {
  it('lists every label once, in roster order, with svc_ keys of 40 letters/digits', () => {
    const roster = listRoster(db);
    expect(roster.map((r) => r.label)).toEqual([...ROSTER_LABELS]);
    for (const r of roster) expect(r.key).toMatch(/^svc_[A-Za-z0-9]{40}$/);
    expect(new Set(roster.map((r) => r.key)).size).toBe(roster.length);
  });

  const state = (label: string) =>
    one(
      db,
      `SELECT k.revoked, u.active, m.role, m.permissions, m.status AS membership, c.plan, c.plan_status, c.rbac_enabled, c.status AS company_status, c.id AS company_id
         FROM api_keys k JOIN users u ON u.id = k.user_id JOIN companies c ON c.id = k.company_id
         LEFT JOIN memberships m ON m.company_id = k.company_id AND m.user_id = k.user_id WHERE k.label = ?`,
      label,
    );

  it('sets the permissions and company states of each label', () => {
    const admin = state('growth-admin');
    expect(admin).toMatchObject({ revoked: 0, active: 1, membership: 'active', plan: 'growth', plan_status: 'active', rbac_enabled: 1, company_status: 'active' });
    expect(parsePermissions(admin.permissions as string)).toEqual(allAt('manage'));

    expect(parsePermissions(state('growth-readonly').permissions as string)).toEqual({ ...allAt('view'), api_access: 'manage' });
    expect(parsePermissions(state('growth-no-api').permissions as string)).toEqual({ ...allAt('manage'), api_access: 'none' });
    expect(parsePermissions(state('growth-reports').permissions as string)).toEqual({ ...allAt('none'), api_access: 'manage', reports: 'view' });

    expect(state('startup-admin')).toMatchObject({ plan: 'startup', rbac_enabled: 0, role: 'admin', company_status: 'active', plan_status: 'active' });
    expect(state('formation-admin')).toMatchObject({ plan: 'formation', role: 'admin', company_status: 'active', plan_status: 'active' });
    expect(state('removed')).toMatchObject({ membership: 'removed', active: 1, revoked: 0, company_id: growth, role: 'admin' });
    expect(state('deactivated')).toMatchObject({ membership: 'active', active: 0, revoked: 0, company_id: growth });
    expect(state('revoked')).toMatchObject({ revoked: 1, active: 1, membership: 'active', company_id: growth, role: 'admin' });
    const closed = state('closed');
    expect(closed).toMatchObject({ company_status: 'closed', plan_status: 'active', active: 1, membership: 'active', role: 'admin' });
    expect(closed.company_id).not.toBe(growth);
    const nosub = state('no-subscription');
    expect(nosub).toMatchObject({ plan_status: 'ended', company_status: 'active', active: 1, membership: 'active', role: 'admin' });
    expect(nosub.company_id).not.toBe(growth);
    const growth2 = state('growth2-admin');
    expect(growth2).toMatchObject({ revoked: 0, active: 1, membership: 'active', role: 'admin', plan: 'growth', plan_status: 'active', rbac_enabled: 1, company_status: 'active' });
    expect(parsePermissions(growth2.permissions as string)).toEqual(allAt('manage'));
    expect(new Set(['startup-admin', 'formation-admin', 'closed', 'no-subscription', 'growth2-admin'].map((l) => state(l).company_id)).size).toBe(5);
    expect(growth2.company_id).not.toBe(growth);
  });

  it('stores every membership with all permission areas and a known role', () => {
    for (const m of all(db, 'SELECT role, permissions FROM memberships')) {
      const p = JSON.parse(m.permissions as string);
      expect(Object.keys(p).sort()).toEqual([...PERMISSION_AREAS].sort());
      expect(['admin', 'read_only', 'custom']).toContain(m.role);
      if (m.role === 'admin') expect(p).toEqual(ACCESS_TEMPLATES.admin);
      if (m.role === 'read_only') expect(p).toEqual(ACCESS_TEMPLATES.read_only);
    }
  });

  it('fills the company records', () => {
    for (const c of all(db, 'SELECT * FROM companies')) {
      expect(c.currency).toBe('USD');
      expect(c.federal_ein_last4).toMatch(/^\d{4}$/);
      expect(c.incorporation_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.address_city).toBeTruthy();
      expect(c.created as number).toBeLessThan(NOW);
    }
    const g = one(db, 'SELECT * FROM companies WHERE id = ?', growth);
    expect(g).toMatchObject({ name: 'Northwind Analytics', entity_type: 'c_corporation' });
    expect(g.incorporation_date as string < '2022-07-01').toBe(true);
    const g2 = one(db, 'SELECT * FROM companies WHERE id = ?', listRoster(db).find((r) => r.label === 'growth2-admin')!.company_id);
    expect(g2).toMatchObject({ name: 'Westbrook Software', plan: 'growth', currency: g.currency, fiscal_year_start_month: g.fiscal_year_start_month });
    expect(g2.incorporation_date as string < '2023-06-16').toBe(true);
  });
});

describe('chart of accounts', () => {
  it('has exactly one category per role in every company, and Cash named exactly (Alderbrook names it its own way)', () => {
    const alderbrook = listRoster(db).find((r) => r.label === 'growth3-admin')!.company_id;
    for (const { id } of all(db, 'SELECT id FROM companies')) {
      for (const role of CATEGORY_ROLES) {
        expect(num(db, 'SELECT COUNT(*) FROM categories WHERE company_id = ? AND role = ?', id, role)).toBe(1);
      }
      const cash = one(db, "SELECT * FROM categories WHERE company_id = ? AND role = 'cash'", id);
      expect(cash).toMatchObject({ name: id === alderbrook ? 'Bank & Cash' : 'Cash', point_in_time: 1, cash_flow_class: 'cash', account_type: 'asset' });
    }
  });

  it('is three tiers with consistent parents, point-in-time balance-sheet types and selectable leaves', () => {
    const cats = all(db, 'SELECT * FROM categories WHERE company_id = ?', growth);
    expect(cats.length).toBeGreaterThanOrEqual(40);
    expect(cats.length).toBeLessThanOrEqual(65);
    const byId = new Map(cats.map((c) => [c.id, c]));
    const parents = new Set(cats.map((c) => c.parent_id).filter(Boolean));
    expect(new Set(cats.map((c) => c.tier))).toEqual(new Set([1, 2, 3]));
    for (const c of cats) {
      const pit = ['asset', 'liability', 'equity'].includes(c.account_type as string);
      expect(['asset', 'liability', 'equity', 'revenue', 'expense', 'other_income', 'other_expense', 'tax']).toContain(c.account_type);
      expect(c.point_in_time).toBe(pit ? 1 : 0);
      if (pit) expect(['cash', 'working_capital', 'non_cash', 'investing', 'financing', 'none']).toContain(c.cash_flow_class);
      if (c.parent_id) {
        const p = byId.get(c.parent_id)!;
        expect(c.tier).toBe((p.tier as number) + 1);
        expect(p.account_type).toBe(c.account_type);
      } else expect(c.tier).toBe(1);
      if (parents.has(c.id)) expect(c.selectable).toBe(0);
    }
    const leaves = cats.filter((c) => !parents.has(c.id));
    expect(leaves.filter((c) => c.selectable === 0 && !c.role).length).toBeGreaterThanOrEqual(1);
    expect(leaves.filter((c) => c.selectable === 0).length).toBeGreaterThanOrEqual(3);
    for (const role of ['uncategorized_income', 'uncategorized_expense']) {
      expect(cats.find((c) => c.role === role)).toMatchObject({ tier: 1, selectable: 0, parent_id: null });
    }
    // sibling positions are 1..n
    const groups = new Map<unknown, number[]>();
    for (const c of cats) groups.set(c.parent_id, [...(groups.get(c.parent_id) ?? []), c.position as number]);
    for (const ps of groups.values()) expect(ps.sort((a, b) => a - b)).toEqual(ps.map((_, i) => i + 1));
  });
});

describe('departments', () => {
  it('is four tiers, depth-first positions, only leaves assignable, duplicate names', () => {
    const depts = all(db, 'SELECT * FROM departments WHERE company_id = ? ORDER BY position', growth);
    expect(Math.max(...depts.map((d) => d.tier as number))).toBe(4);
    const parents = new Set(depts.map((d) => d.parent_id).filter(Boolean));
    const pos = new Map(depts.map((d) => [d.id, d.position as number]));
    for (const d of depts) {
      if (parents.has(d.id)) expect(d.assignable).toBe(0);
      if (d.parent_id) expect(pos.get(d.id)!).toBeGreaterThan(pos.get(d.parent_id)!);
    }
    // depth-first: every node directly follows its parent or the previous node's subtree
    const ids = depts.map((d) => d.id);
    for (let i = 1; i < depts.length; i++) {
      const ancestors: unknown[] = [];
      for (let p: unknown = depts[i - 1].id; p; p = depts.find((d) => d.id === p)?.parent_id) ancestors.push(p);
      expect(ancestors).toContain(depts[i].parent_id);
    }
    expect(ids.length).toBe(new Set(ids).size);
    const leaves = depts.filter((d) => !parents.has(d.id));
    expect(leaves.some((d) => d.assignable === 1)).toBe(true);
    expect(leaves.some((d) => d.assignable === 0)).toBe(true);
    const names = depts.map((d) => d.name);
    expect(names.length).toBeGreaterThan(new Set(names).size);
  });
});

describe('accounts and cards', () => {
  it('has bank, credit, reimbursement and intercompany accounts posting to the right categories', () => {
    const accts = all(
      db,
      `SELECT a.*, c.role FROM accounts a JOIN categories c ON c.id = a.category_id WHERE a.company_id = ? ORDER BY a.seq`,
      growth,
    );
    const types = new Set(accts.map((a) => a.type));
    for (const t of ['bank', 'credit', 'reimbursement', 'intercompany_expense']) expect(types).toContain(t);
    for (const a of accts) {
      if (a.type === 'bank') expect(a.role).toBe('cash');
      if (a.type === 'credit') expect(a.role).toBe('card_liability');
      expect(a.vendor).toBe((a.vendor as string).toLowerCase());
    }
    expect(accts.some((a) => a.manual === 1)).toBe(true);
    expect(accts.some((a) => a.manual === 0)).toBe(true);
  });

  it('has real, inactive, stub and metadata-only cards', () => {
    const cards = all(db, 'SELECT * FROM cards WHERE company_id = ?', growth);
    expect(cards.some((c) => c.status === 'active' && c.type === 'physical')).toBe(true);
    expect(cards.some((c) => c.status === 'inactive')).toBe(true);
    expect(cards.some((c) => c.type === 'virtual')).toBe(true);
    const nulls = cards.filter((c) => c.account_id === null);
    expect(nulls.length).toBeGreaterThanOrEqual(3);
    for (const c of nulls) {
      expect(c).toMatchObject({ last_four: null, type: null, status: null });
      expect(c.name).toBeTruthy();
    }
    expect(nulls.filter((c) => c.provider === 'brex').length).toBeGreaterThanOrEqual(2);
    // card transactions are on the card's account when the card has one
    const mismatched = num(
      db,
      `SELECT COUNT(*) FROM transactions t JOIN cards c ON c.id = t.card_id WHERE t.company_id = ? AND c.account_id IS NOT NULL AND c.account_id != t.account_id`,
      growth,
    );
    expect(mismatched).toBe(0);
  });
});

describe('transactions', () => {
  it('seeds the requested count for Growth and the fixed sizes elsewhere', () => {
    expect(num(db, 'SELECT COUNT(*) FROM transactions WHERE company_id = ?', growth)).toBe(3000);
    const counts = all(db, 'SELECT c.plan, c.status, c.plan_status, COUNT(t.id) AS n FROM companies c JOIN transactions t ON t.company_id = c.id GROUP BY c.id');
    // the second and third Growth companies have a fixed 3,000 whatever the first's count
    expect(counts.map((c) => c.n).sort((a, b) => (a as number) - (b as number))).toEqual([50, 50, 200, 2000, 3000, 3000, 3000]);
    const small = seeded(400);
    const growth2Of = (d: Db) => listRoster(d).find((r) => r.label === 'growth2-admin')!.company_id;
    expect(num(small, 'SELECT COUNT(*) FROM transactions WHERE company_id = ?', growth2Of(small))).toBe(3000);
    small.close();
  });

  it('has the required kinds of rows', () => {
    const q = (where: string) => num(db, `SELECT COUNT(*) FROM transactions WHERE company_id = ? AND ${where}`, growth);
    expect(q("transaction_type = 'transfer'")).toBeGreaterThan(10);
    expect(q("transaction_type = 'split'")).toBeGreaterThan(10);
    expect(q("status = 'pending'")).toBeGreaterThan(10);
    expect(q("transaction_type = 'standard' AND category_id IS NULL")).toBeGreaterThan(50);
    expect(q('deleted = 1')).toBeGreaterThan(0);
    expect(q('hidden = 1')).toBeGreaterThan(0);
    expect(q('spread IS NOT NULL')).toBeGreaterThan(0);
    expect(q('accounting_date_override IS NOT NULL')).toBeGreaterThan(0);
    expect(q('amount_cents > 0')).toBeGreaterThan(100);
    expect(q("department_source = 'rule'")).toBeGreaterThan(0);
    expect(q("department_source = 'manual'")).toBeGreaterThan(0);
    expect(q('card_id IS NOT NULL')).toBeGreaterThan(100);
    expect(q("source_type = 'intercompany_expense'")).toBeGreaterThan(0);
    expect(q("source_type = 'reimbursement'")).toBeGreaterThan(0);
    expect(q('amount_cents = 0')).toBe(0);
    // pending rows are recent
    expect(str(db, "SELECT MIN(date) FROM transactions WHERE company_id = ? AND status = 'pending'", growth) >= '2025-05-20').toBe(true);
    // balance-sheet categorized rows: equipment (investing), loan and equity (financing)
    const classes = all(
      db,
      `SELECT DISTINCT c.cash_flow_class FROM transactions t JOIN categories c ON c.id = t.category_id WHERE t.company_id = ? AND c.point_in_time = 1`,
      growth,
    ).map((r) => r.cash_flow_class);
    expect(classes).toEqual(expect.arrayContaining(['investing', 'financing']));
  });

  it('gives the second Growth company the same kinds of rows over the same two years to today', () => {
    const g2 = listRoster(db).find((r) => r.label === 'growth2-admin')!.company_id;
    const q = (where: string) => num(db, `SELECT COUNT(*) FROM transactions WHERE company_id = ? AND ${where}`, g2);
    expect(q("transaction_type = 'transfer'")).toBeGreaterThan(10);
    expect(q("transaction_type = 'split'")).toBeGreaterThan(10);
    expect(q("status = 'pending'")).toBeGreaterThan(10);
    expect(q("transaction_type = 'standard' AND category_id IS NULL")).toBeGreaterThan(50);
    expect(q('deleted = 1')).toBeGreaterThan(0);
    expect(q('hidden = 1')).toBeGreaterThan(0);
    expect(q('spread IS NOT NULL')).toBeGreaterThan(0);
    expect(q('accounting_date_override IS NOT NULL')).toBeGreaterThan(0);
    expect(q('amount_cents > 0')).toBeGreaterThan(100);
    expect(q('card_id IS NOT NULL')).toBeGreaterThan(100);
    expect(q("source_type = 'reimbursement'")).toBeGreaterThan(0);
    const span = one(db, 'SELECT MIN(date) AS lo, MAX(date) AS hi FROM transactions WHERE company_id = ?', g2);
    const growthSpan = one(db, 'SELECT MIN(date) AS lo, MAX(date) AS hi FROM transactions WHERE company_id = ?', growth);
    expect(span).toEqual(growthSpan);
    const classes = all(
      db,
      `SELECT DISTINCT c.cash_flow_class FROM transactions t JOIN categories c ON c.id = t.category_id WHERE t.company_id = ? AND c.point_in_time = 1`,
      g2,
    ).map((r) => r.cash_flow_class);
    expect(classes).toEqual(expect.arrayContaining(['investing', 'financing']));
  });

  it('stores formula-like merchants exactly as recorded, in every company', () => {
    for (const { id } of all(db, 'SELECT id FROM companies')) {
      const merchants = all(db, 'SELECT DISTINCT merchant FROM transactions WHERE company_id = ?', id).map((r) => r.merchant);
      expect(merchants).toEqual(expect.arrayContaining(['=HYPERLINK("http://x")', '+1 Coffee', '-Minus Labs', '@home Services']));
    }
  });

  it('pairs transfers: same transfer_id, one leg out and one leg in for the same amount on different accounts', () => {
    const pairs = all(
      db,
      `SELECT transfer_id, COUNT(*) AS n, SUM(amount_cents) AS net, MIN(amount_cents) AS lo, COUNT(DISTINCT account_id) AS accts
         FROM transactions WHERE company_id = ? AND transaction_type = 'transfer' GROUP BY transfer_id`,
      growth,
    );
    expect(pairs.length).toBeGreaterThan(5);
    for (const p of pairs) expect(p).toMatchObject({ n: 2, net: 0, accts: 2 });
    expect(num(db, "SELECT COUNT(*) FROM transactions WHERE transaction_type = 'transfer' AND (transfer_id IS NULL OR category_id IS NOT NULL)")).toBe(0);
  });

  it('gives splits 2-3 parts summing to the amount and no category of their own', () => {
    const splits = all(
      db,
      `SELECT t.id, t.amount_cents, t.category_id, COUNT(s.part) AS parts, SUM(s.amount_cents) AS total
         FROM transactions t LEFT JOIN transaction_splits s ON s.transaction_id = t.id
        WHERE t.transaction_type = 'split' GROUP BY t.id`,
    );
    for (const s of splits) {
      expect(s.category_id).toBeNull();
      expect(s.total).toBe(s.amount_cents);
      expect([2, 3]).toContain(s.parts);
    }
    expect(num(db, "SELECT COUNT(*) FROM transaction_splits s JOIN transactions t ON t.id = s.transaction_id WHERE t.transaction_type != 'split'")).toBe(0);
  });

  it('copies the source labels from the account and assigns only assignable leaf departments', () => {
    expect(
      num(
        db,
        `SELECT COUNT(*) FROM transactions t JOIN accounts a ON a.id = t.account_id
          WHERE t.source_vendor != a.vendor OR t.source_type != a.type OR t.source_account_name IS NOT a.account_name OR t.company_id != a.company_id`,
      ),
    ).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM transactions t JOIN departments d ON d.id = t.department_id WHERE d.assignable = 0')).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM transaction_splits s JOIN departments d ON d.id = s.department_id WHERE d.assignable = 0')).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM transactions t JOIN categories c ON c.id = t.category_id WHERE c.selectable = 0')).toBe(0);
    expect(num(db, "SELECT COUNT(*) FROM transactions WHERE currency != 'USD'")).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM transactions WHERE department_id IS NOT NULL AND department_source IS NULL')).toBe(0);
  });

  it('keeps timestamps before now and update_seq increasing with updated, per company', () => {
    expect(num(db, 'SELECT COUNT(*) FROM transactions WHERE created >= ? OR updated >= ? OR updated < created', NOW, NOW)).toBe(0);
    for (const { id } of all(db, 'SELECT id FROM companies')) {
      const rows = all(db, 'SELECT updated, update_seq FROM transactions WHERE company_id = ? ORDER BY update_seq', id);
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i].update_seq).toBe((rows[i - 1].update_seq as number) + 1);
        expect(rows[i].updated as number).toBeGreaterThanOrEqual(rows[i - 1].updated as number);
      }
      expect(num(db, "SELECT value FROM counters WHERE company_id = ? AND name = 'update_seq'", id)).toBe(rows.length);
    }
    for (const t of ['categories', 'departments', 'accounts', 'cards', 'rules', 'invitations', 'journal_entries', 'memberships', 'api_keys']) {
      expect(num(db, `SELECT COUNT(*) FROM ${t} WHERE created >= ?`, NOW)).toBe(0);
    }
  });

  it('dates transactions within the history and accounting dates after incorporation', () => {
    const r = one(db, 'SELECT MIN(date) AS lo, MAX(date) AS hi, MIN(COALESCE(accounting_date_override, date)) AS alo FROM transactions WHERE company_id = ?', growth);
    expect(r.hi).toBe(TODAY);
    expect(r.lo as string <= '2023-06-20').toBe(true);
    const inc = one(db, 'SELECT incorporation_date FROM companies WHERE id = ?', growth).incorporation_date as string;
    expect(r.alo as string >= inc).toBe(true);
    const closed = listRoster(db).find((x) => x.label === 'closed')!.company_id;
    expect(str(db, 'SELECT MAX(date) FROM transactions WHERE company_id = ?', closed) < TODAY).toBe(true);
  });
});

describe('ledger', () => {
  it('balances every journal entry, with one-sided non-negative lines', () => {
    expect(all(db, 'SELECT entry_id FROM journal_lines GROUP BY entry_id HAVING SUM(debit_cents) != SUM(credit_cents)')).toEqual([]);
    expect(num(db, 'SELECT COUNT(*) FROM journal_lines WHERE debit_cents < 0 OR credit_cents < 0 OR (debit_cents = 0) = (credit_cents = 0)')).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE l.date != e.date OR l.company_id != e.company_id')).toBe(0);
    expect(num(db, 'SELECT COUNT(*) FROM journal_entries e WHERE NOT EXISTS (SELECT 1 FROM journal_lines l WHERE l.entry_id = e.id)')).toBe(0);
  });

  it('posts exactly the approved, visible, non-deleted rows (transfers once, from the outgoing leg)', () => {
    const posted = new Set(all(db, "SELECT DISTINCT transaction_id FROM journal_entries WHERE kind = 'transaction' AND company_id = ?", growth).map((r) => r.transaction_id));
    const expected = all(
      db,
      `SELECT id FROM transactions WHERE company_id = ? AND status = 'approved' AND hidden = 0 AND deleted = 0
         AND NOT (transaction_type = 'transfer' AND amount_cents > 0)`,
      growth,
    ).map((r) => r.id);
    expect(posted.size).toBe(expected.length);
    for (const id of expected) expect(posted.has(id)).toBe(true);
    expect(num(db, "SELECT COUNT(*) FROM journal_entries WHERE company_id = ? AND kind = 'transaction' GROUP BY transaction_id ORDER BY 1 DESC LIMIT 1", growth)).toBe(1);
  });

  it('has opening, depreciation and accrual entries, and spread recognitions', () => {
    const kinds = Object.fromEntries(all(db, 'SELECT kind, COUNT(*) AS n FROM journal_entries WHERE company_id = ? GROUP BY kind', growth).map((r) => [r.kind, r.n]));
    expect(kinds.opening).toBe(1);
    expect(kinds.depreciation).toBeGreaterThan(6);
    expect(kinds.accrual).toBeGreaterThan(20);
    expect(kinds.spread).toBeGreaterThan(12);
    expect(num(db, "SELECT COUNT(*) FROM journal_entries WHERE kind IN ('opening', 'depreciation', 'accrual') AND transaction_id IS NOT NULL")).toBe(0);
  });

  it('keeps Cash positive on every day and the working-capital balances on their natural side', () => {
    for (const { id } of all(db, 'SELECT id FROM companies')) {
      const role = (r: string) => one(db, 'SELECT id FROM categories WHERE company_id = ? AND role = ?', id, r).id;
      const days = all(db, 'SELECT date, SUM(debit_cents - credit_cents) AS d FROM journal_lines WHERE company_id = ? AND category_id = ? GROUP BY date ORDER BY date', id, role('cash'));
      let cash = 0;
      for (const d of days) {
        cash += d.d as number;
        expect(cash).toBeGreaterThan(0);
      }
      const bal = (r: string) => num(db, 'SELECT COALESCE(SUM(debit_cents - credit_cents), 0) FROM journal_lines WHERE company_id = ? AND category_id = ? AND date <= ?', id, role(r), TODAY);
      expect(bal('accounts_receivable')).toBeGreaterThanOrEqual(0);
      expect(bal('card_liability')).toBeLessThanOrEqual(0);
      expect(bal('accumulated_depreciation')).toBeLessThanOrEqual(0);
      expect(bal('retained_earnings')).toBe(0);
    }
  });

  it('nets every spread deferral to zero once the last month has passed', () => {
    const prepaid = one(db, "SELECT id FROM categories WHERE company_id = ? AND role = 'prepaid_expenses'", growth).id;
    expect(num(db, 'SELECT COALESCE(SUM(debit_cents - credit_cents), 0) FROM journal_lines WHERE category_id = ?', prepaid)).toBe(0);
    expect(num(db, 'SELECT COALESCE(SUM(debit_cents - credit_cents), 0) FROM journal_lines WHERE category_id = ? AND date <= ?', prepaid, TODAY)).toBeGreaterThan(0);
  });

  it('rebuildCompanyLedger reproduces the same balances with new entry ids', () => {
    const copy = seeded(3000);
    const before = all(copy, 'SELECT category_id, SUM(debit_cents) AS d, SUM(credit_cents) AS c FROM journal_lines WHERE company_id = ? GROUP BY category_id ORDER BY category_id', growth);
    const ids = new Set(all(copy, "SELECT id FROM journal_entries WHERE company_id = ? AND kind = 'transaction'", growth).map((r) => r.id));
    rebuildCompanyLedger(copy, growth, NOW);
    const after = all(copy, 'SELECT category_id, SUM(debit_cents) AS d, SUM(credit_cents) AS c FROM journal_lines WHERE company_id = ? GROUP BY category_id ORDER BY category_id', growth);
    expect(after).toEqual(before);
    const newIds = all(copy, "SELECT id FROM journal_entries WHERE company_id = ? AND kind = 'transaction'", growth).map((r) => r.id);
    expect(newIds.length).toBe(ids.size);
    expect(newIds.some((id) => ids.has(id))).toBe(false);
    expect(num(copy, "SELECT COUNT(*) FROM journal_entries WHERE company_id = ? AND kind = 'opening'", growth)).toBe(1);
    copy.close();
  });
});

describe('rules, integrations, team', () => {
  it('has about ten user rules with {conditions, actions} and hidden provider rules, seq following created', () => {
    const rules = all(db, 'SELECT * FROM rules WHERE company_id = ? ORDER BY seq', growth);
    const user = rules.filter((r) => r.owner === 'user');
    expect(user.length).toBeGreaterThanOrEqual(10);
    expect(rules.some((r) => r.owner === 'global')).toBe(true);
    expect(rules.some((r) => r.owner === 'category')).toBe(true);
    for (let i = 1; i < rules.length; i++) expect(rules[i].created as number).toBeGreaterThan(rules[i - 1].created as number);
    const fields = new Set<string>();
    for (const r of rules) {
      const def = JSON.parse(r.definition as string);
      expect(Object.keys(def).sort()).toEqual(['actions', 'conditions']);
      expect(def.conditions.length).toBeGreaterThan(0);
      expect(Object.keys(def.actions).length).toBeGreaterThan(0);
      for (const c of def.conditions) {
        fields.add(c.field);
        if (c.operator === 'between') expect(c.min).toBeLessThanOrEqual(c.max);
        if (c.field === 'account_id') expect(num(db, 'SELECT COUNT(*) FROM accounts WHERE id = ? AND company_id = ?', c.value, growth)).toBe(1);
        if (c.field === 'card_id') expect(num(db, 'SELECT COUNT(*) FROM cards WHERE id = ? AND company_id = ?', c.value, growth)).toBe(1);
      }
      if (def.actions.category_id) expect(num(db, 'SELECT selectable FROM categories WHERE id = ? AND company_id = ?', def.actions.category_id, growth)).toBe(1);
      if (def.actions.department_id) expect(num(db, 'SELECT assignable FROM departments WHERE id = ? AND company_id = ?', def.actions.department_id, growth)).toBe(1);
      expect(r.updated as number).toBeGreaterThanOrEqual(r.created as number);
    }
    expect([...fields]).toEqual(expect.arrayContaining(['merchant', 'description', 'amount_cents', 'account_id', 'card_id']));
  });

  it('has connected, connectable, non-connectable and unavailable integrations', () => {
    const ints = all(db, 'SELECT * FROM integrations WHERE company_id = ? ORDER BY position', growth);
    expect(ints.length).toBeGreaterThanOrEqual(6);
    expect(ints.some((i) => i.status === 'connected')).toBe(true);
    expect(ints.some((i) => i.status === 'not_connected' && i.api_connectable === 1 && i.available === 1)).toBe(true);
    expect(ints.some((i) => i.api_connectable === 0 && i.available === 1)).toBe(true);
    expect(ints.filter((i) => i.available === 0)).toHaveLength(1);
  });

  it('has pending, expired and accepted invitations with template and custom access', () => {
    const inv = all(db, 'SELECT * FROM invitations WHERE company_id = ?', growth);
    for (const i of inv) expect(i.id).toMatch(/^invite_[A-Za-z0-9]+$/);
    expect(inv.some((i) => i.status === 'pending' && (i.expires_at as number) > NOW)).toBe(true);
    expect(inv.some((i) => i.status === 'pending' && (i.expires_at as number) < NOW)).toBe(true);
    const accepted = inv.filter((i) => i.status === 'accepted');
    expect(accepted.length).toBeGreaterThan(0);
    for (const a of accepted) {
      expect(num(db, "SELECT COUNT(*) FROM memberships WHERE company_id = ? AND user_id = ? AND status = 'active'", growth, a.accepted_user_id)).toBe(1);
      expect(a.created as number).toBeLessThan(num(db, 'SELECT created FROM memberships WHERE company_id = ? AND user_id = ?', growth, a.accepted_user_id));
    }
    expect(inv.some((i) => i.access_template === 'admin' && i.permissions === null)).toBe(true);
    expect(inv.some((i) => i.access_template === 'read_only')).toBe(true);
    const custom = inv.filter((i) => i.access_template === null);
    expect(custom.length).toBeGreaterThan(0);
    for (const c of custom) expect(Object.keys(JSON.parse(c.permissions as string)).sort()).toEqual([...PERMISSION_AREAS].sort());
  });

  it('has members beyond the roster and unlabelled keys', () => {
    expect(num(db, 'SELECT COUNT(*) FROM memberships WHERE company_id = ?', growth)).toBeGreaterThan(8);
    expect(num(db, 'SELECT COUNT(*) FROM api_keys WHERE label IS NULL')).toBeGreaterThan(0);
  });
});

describe('default size', () => {
  it('seeds 20,000 Growth transactions with one account holding more than 5,000', () => {
    const big = openDatabase(':memory:');
    const t0 = Date.now();
    seedDatabase(big, { today: TODAY, now: NOW });
    const ms = Date.now() - t0;
    const g = listRoster(big).find((r) => r.label === 'growth-admin')!.company_id;
    expect(num(big, 'SELECT COUNT(*) FROM transactions WHERE company_id = ?', g)).toBe(20_000);
    expect(num(big, 'SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM transactions WHERE company_id = ? GROUP BY account_id)', g)).toBeGreaterThan(5_000);
    const cats = num(big, 'SELECT COUNT(*) FROM categories WHERE company_id = ?', g);
    expect(cats).toBeGreaterThanOrEqual(40);
    expect(all(big, 'SELECT entry_id FROM journal_lines GROUP BY entry_id HAVING SUM(debit_cents) != SUM(credit_cents)')).toEqual([]);
    // the volume grows over the two years
    const first = num(big, "SELECT COUNT(*) FROM transactions WHERE company_id = ? AND date BETWEEN '2023-07-01' AND '2023-12-31'", g);
    const last = num(big, "SELECT COUNT(*) FROM transactions WHERE company_id = ? AND date BETWEEN '2024-12-01' AND '2025-05-31'", g);
    expect(last).toBeGreaterThan(first * 1.5);
    expect(ms).toBeLessThan(30_000);
    big.close();
  });
});
