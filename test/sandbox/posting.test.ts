import { openDatabase, type Db } from '../../src/sandbox/db/open';
import {
  insertJournalEntry,
  rebuildCompanyLedger,
  rebuildTransactionEntries,
  spreadMonthEnds,
} from '../../src/sandbox/ledger/posting';
import { CATEGORY_ROLES } from '../../src/sandbox/ledger/roles';
import { seededRandom } from '../../src/sandbox/ids';

const NOW = 1_750_000_000;
const C = 'comp_test1';

interface Fixture {
  db: Db;
  cat: Record<string, string>;
  acct: Record<string, string>;
}

/** A minimal company: one category per role plus a revenue and two expense categories, three accounts. */
function fixture(): Fixture {
  const db = openDatabase(':memory:');
  db.prepare(
    `INSERT INTO companies (id, name, legal_name, entity_type, federal_ein_last4, plan, plan_status, rbac_enabled, status, created)
     VALUES (?, 'Test Co', 'Test Co, Inc.', 'c_corporation', '0000', 'growth', 'active', 1, 'active', 1)`,
  ).run(C);
  const cat: Record<string, string> = {};
  const insCat = db.prepare(
    `INSERT INTO categories (id, company_id, name, account_type, point_in_time, tier, position, parent_id, selectable, role, cash_flow_class, created)
     VALUES (?, ?, ?, ?, ?, 1, ?, NULL, 1, ?, NULL, 1)`,
  );
  const types: Record<string, string> = {
    cash: 'asset', card_liability: 'liability', accounts_receivable: 'asset', prepaid_expenses: 'asset',
    accumulated_depreciation: 'asset', accrued_liabilities: 'liability', retained_earnings: 'equity',
    opening_equity: 'equity', depreciation_expense: 'expense', uncategorized_income: 'revenue', uncategorized_expense: 'expense',
  };
  let pos = 0;
  for (const role of CATEGORY_ROLES) {
    cat[role] = `cat_${role.replace(/_/g, '')}`;
    const t = types[role];
    insCat.run(cat[role], C, role, t, ['asset', 'liability', 'equity'].includes(t) ? 1 : 0, ++pos, role);
  }
  for (const [k, t] of [['revenue', 'revenue'], ['software', 'expense'], ['meals', 'expense']] as const) {
    cat[k] = `cat_${k}`;
    insCat.run(cat[k], C, k, t, 0, ++pos, null);
  }
  const acct: Record<string, string> = { checking: 'acct_checking', card: 'acct_card', savings: 'acct_savings' };
  const insAcct = db.prepare(
    `INSERT INTO accounts (id, company_id, vendor, type, account_name, manual, category_id, created) VALUES (?, ?, ?, ?, ?, 0, ?, 1)`,
  );
  insAcct.run(acct.checking, C, 'chase', 'bank', 'Checking', cat.cash);
  insAcct.run(acct.card, C, 'amex', 'credit', 'Amex', cat.card_liability);
  insAcct.run(acct.savings, C, 'mercury', 'bank', 'Savings', null); // no category: posts by type (Cash)
  db.prepare(`INSERT INTO departments (id, company_id, name, tier, parent_id, position, assignable, created) VALUES ('dept_eng', ?, 'Eng', 1, NULL, 1, 1, 1)`).run(C);
  return { db, cat, acct };
}

let seq = 0;
interface TxnSpec {
  id?: string;
  date?: string;
  override?: string | null;
  amount: number;
  account: string;
  category?: string | null;
  department?: string | null;
  merchant?: string | null;
  type?: 'standard' | 'transfer' | 'split';
  status?: 'approved' | 'pending';
  spread?: { start_date: string; end_date: string } | null;
  transferId?: string | null;
  hidden?: number;
  deleted?: number;
}

function addTxn(f: Fixture, t: TxnSpec): string {
  const id = t.id ?? `txn_t${++seq}`;
  f.db.prepare(
    `INSERT INTO transactions (id, company_id, date, accounting_date_override, amount_cents, currency, merchant, description, category_id,
       department_id, department_source, transaction_type, account_id, card_id, source_vendor, source_type, source_account_name, status,
       spread, transfer_id, hidden, deleted, created, updated, update_seq)
     VALUES (?, ?, ?, ?, ?, 'USD', ?, NULL, ?, ?, NULL, ?, ?, NULL, 'x', 'bank', NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id, C, t.date ?? '2025-03-10', t.override ?? null, t.amount, t.merchant === undefined ? 'Vendor' : t.merchant, t.category ?? null,
    t.department ?? null, t.type ?? 'standard', t.account, t.status ?? 'approved', t.spread ? JSON.stringify(t.spread) : null,
    t.transferId ?? null, t.hidden ?? 0, t.deleted ?? 0, NOW - 100, NOW - 50, ++seq,
  );
  return id;
}

interface LineRow {
  entry_id: string;
  kind: string;
  date: string;
  category_id: string;
  department_id: string | null;
  merchant: string | null;
  debit_cents: number;
  credit_cents: number;
}

function linesOf(db: Db, txnId: string): LineRow[] {
  return db
    .prepare(
      `SELECT l.entry_id, e.kind, l.date, l.category_id, l.department_id, l.merchant, l.debit_cents, l.credit_cents
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE e.transaction_id = ? ORDER BY e.date, e.seq, l.line`,
    )
    .all(txnId) as LineRow[];
}

const entriesOf = (db: Db, txnId: string) =>
  db.prepare('SELECT id, kind, date, created FROM journal_entries WHERE transaction_id = ? ORDER BY date, seq').all(txnId) as {
    id: string;
    kind: string;
    date: string;
    created: number;
  }[];

/** Balance (debit - credit) of a category over the whole ledger, or up to a date. */
function balance(db: Db, categoryId: string, through = '9999-12-31'): number {
  return (
    db
      .prepare('SELECT COALESCE(SUM(debit_cents - credit_cents), 0) AS b FROM journal_lines WHERE category_id = ? AND date <= ?')
      .get(categoryId, through) as { b: number }
  ).b;
}

function expectBalancedEntries(db: Db): void {
  const bad = db
    .prepare('SELECT entry_id FROM journal_lines GROUP BY entry_id HAVING SUM(debit_cents) != SUM(credit_cents)')
    .all();
  expect(bad).toEqual([]);
  const oneSided = db
    .prepare('SELECT COUNT(*) AS n FROM journal_lines WHERE debit_cents < 0 OR credit_cents < 0 OR (debit_cents = 0) = (credit_cents = 0)')
    .get() as { n: number };
  expect(oneSided.n).toBe(0);
}

describe('insertJournalEntry', () => {
  it('inserts an entry with lines dated like the entry and returns a je_ id', () => {
    const f = fixture();
    const id = insertJournalEntry(f.db, {
      companyId: C,
      date: '2025-01-31',
      kind: 'opening',
      memo: 'Opening',
      transactionId: null,
      created: NOW,
      lines: [
        { categoryId: f.cat.cash, departmentId: null, merchant: null, debitCents: 500, creditCents: 0 },
        { categoryId: f.cat.opening_equity, departmentId: null, merchant: null, debitCents: 0, creditCents: 300 },
        { categoryId: f.cat.opening_equity, departmentId: null, merchant: null, debitCents: 0, creditCents: 200 },
      ],
    });
    expect(id).toMatch(/^je_[A-Za-z0-9]{16}$/);
    const lines = f.db.prepare('SELECT line, date, company_id FROM journal_lines WHERE entry_id = ? ORDER BY line').all(id);
    expect(lines).toEqual([
      { line: 1, date: '2025-01-31', company_id: C },
      { line: 2, date: '2025-01-31', company_id: C },
      { line: 3, date: '2025-01-31', company_id: C },
    ]);
  });

  it('throws on an unbalanced entry and on malformed lines, writing nothing', () => {
    const f = fixture();
    const base = { companyId: C, date: '2025-01-31', kind: 'accrual' as const, memo: null, transactionId: null, created: NOW };
    const l = (categoryId: string, debitCents: number, creditCents: number) => ({ categoryId, departmentId: null, merchant: null, debitCents, creditCents });
    expect(() => insertJournalEntry(f.db, { ...base, lines: [l(f.cat.cash, 100, 0), l(f.cat.revenue, 0, 99)] })).toThrow(/Unbalanced/);
    expect(() => insertJournalEntry(f.db, { ...base, lines: [l(f.cat.cash, -100, 0), l(f.cat.revenue, 0, -100)] })).toThrow();
    expect(() => insertJournalEntry(f.db, { ...base, lines: [l(f.cat.cash, 100, 100), l(f.cat.revenue, 0, 0)] })).toThrow();
    expect(() => insertJournalEntry(f.db, { ...base, lines: [l(f.cat.cash, 1.5, 0), l(f.cat.revenue, 0, 1.5)] })).toThrow();
    expect(() => insertJournalEntry(f.db, { ...base, lines: [] })).toThrow();
    expect((f.db.prepare('SELECT COUNT(*) AS n FROM journal_entries').get() as { n: number }).n).toBe(0);
  });
});

describe('posting: standard transactions', () => {
  it('posts an expense: debit the category (with department and merchant), credit the source', () => {
    const f = fixture();
    const id = addTxn(f, { amount: -12_345, account: f.acct.card, category: f.cat.software, department: 'dept_eng', merchant: 'GitHub' });
    rebuildTransactionEntries(f.db, id, NOW);
    const entries = entriesOf(f.db, id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'transaction', date: '2025-03-10', created: NOW });
    expect(linesOf(f.db, id).map(({ category_id, department_id, merchant, debit_cents, credit_cents }) => ({ category_id, department_id, merchant, debit_cents, credit_cents }))).toEqual([
      { category_id: f.cat.software, department_id: 'dept_eng', merchant: 'GitHub', debit_cents: 12_345, credit_cents: 0 },
      { category_id: f.cat.card_liability, department_id: null, merchant: 'GitHub', debit_cents: 0, credit_cents: 12_345 },
    ]);
  });

  it('posts income: debit the source, credit the category', () => {
    const f = fixture();
    const id = addTxn(f, { amount: 50_000, account: f.acct.checking, category: f.cat.revenue });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(balance(f.db, f.cat.cash)).toBe(50_000);
    expect(balance(f.db, f.cat.revenue)).toBe(-50_000);
  });

  it('posts uncategorized rows to the uncategorized roles by sign', () => {
    const f = fixture();
    const inc = addTxn(f, { amount: 700, account: f.acct.checking, category: null });
    const exp = addTxn(f, { amount: -300, account: f.acct.checking, category: null });
    rebuildTransactionEntries(f.db, inc, NOW);
    rebuildTransactionEntries(f.db, exp, NOW);
    expect(balance(f.db, f.cat.uncategorized_income)).toBe(-700);
    expect(balance(f.db, f.cat.uncategorized_expense)).toBe(300);
    expect(balance(f.db, f.cat.cash)).toBe(400);
  });

  it('uses the accounting date override as the entry date', () => {
    const f = fixture();
    const id = addTxn(f, { date: '2025-03-02', override: '2025-02-28', amount: -100, account: f.acct.checking, category: f.cat.meals });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id).map((e) => e.date)).toEqual(['2025-02-28']);
    expect(linesOf(f.db, id).every((l) => l.date === '2025-02-28')).toBe(true);
  });

  it('posts an account without category_id by its type (bank -> Cash)', () => {
    const f = fixture();
    const id = addTxn(f, { amount: 900, account: f.acct.savings, category: f.cat.revenue });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(balance(f.db, f.cat.cash)).toBe(900);
  });

  it('posts nothing for pending, hidden and deleted transactions', () => {
    const f = fixture();
    const ids = [
      addTxn(f, { amount: -100, account: f.acct.card, category: f.cat.meals, status: 'pending' }),
      addTxn(f, { amount: -100, account: f.acct.card, category: f.cat.meals, hidden: 1 }),
      addTxn(f, { amount: -100, account: f.acct.card, category: f.cat.meals, deleted: 1 }),
    ];
    for (const id of ids) rebuildTransactionEntries(f.db, id, NOW);
    expect((f.db.prepare('SELECT COUNT(*) AS n FROM journal_entries').get() as { n: number }).n).toBe(0);
  });
});

describe('transfers', () => {
  it('posts once, from the outgoing leg: debit the receiving account category, credit the paying one', () => {
    const f = fixture();
    const out = addTxn(f, { amount: -80_000, account: f.acct.checking, type: 'transfer', transferId: 'trf_1', merchant: 'Amex payment' });
    const inn = addTxn(f, { amount: 80_000, account: f.acct.card, type: 'transfer', transferId: 'trf_1', merchant: 'Amex payment' });
    rebuildTransactionEntries(f.db, out, NOW);
    rebuildTransactionEntries(f.db, inn, NOW);
    expect(entriesOf(f.db, inn)).toHaveLength(0);
    const lines = linesOf(f.db, out);
    expect(lines.map((l) => [l.category_id, l.debit_cents, l.credit_cents])).toEqual([
      [f.cat.card_liability, 80_000, 0],
      [f.cat.cash, 0, 80_000],
    ]);
    expect((f.db.prepare('SELECT COUNT(*) AS n FROM journal_entries').get() as { n: number }).n).toBe(1);
    expect(balance(f.db, f.cat.uncategorized_expense)).toBe(0);
    expectBalancedEntries(f.db);
  });

  it('rebuilding either leg keeps exactly one entry for the pair', () => {
    const f = fixture();
    const out = addTxn(f, { amount: -500, account: f.acct.checking, type: 'transfer', transferId: 'trf_2' });
    const inn = addTxn(f, { amount: 500, account: f.acct.card, type: 'transfer', transferId: 'trf_2' });
    rebuildCompanyLedger(f.db, C, NOW);
    rebuildTransactionEntries(f.db, inn, NOW);
    rebuildTransactionEntries(f.db, out, NOW);
    expect(entriesOf(f.db, out)).toHaveLength(1);
    expect(entriesOf(f.db, inn)).toHaveLength(0);
  });

  it('an outgoing leg without its counterpart posts like a standard row', () => {
    const f = fixture();
    const out = addTxn(f, { amount: -500, account: f.acct.checking, type: 'transfer', transferId: 'trf_lonely' });
    rebuildTransactionEntries(f.db, out, NOW);
    expect(balance(f.db, f.cat.uncategorized_expense)).toBe(500);
    expect(balance(f.db, f.cat.cash)).toBe(-500);
  });
});

describe('splits', () => {
  function addSplit(f: Fixture, amount: number, parts: [string | null, string | null, number][]): string {
    const id = addTxn(f, { amount, account: f.acct.card, type: 'split', category: null, merchant: 'Costco' });
    const ins = f.db.prepare('INSERT INTO transaction_splits (transaction_id, part, category_id, department_id, amount_cents) VALUES (?, ?, ?, ?, ?)');
    parts.forEach(([c, d, a], i) => ins.run(id, i + 1, c, d, a));
    return id;
  }

  it('posts one entry with the source total and one line per part', () => {
    const f = fixture();
    const id = addSplit(f, -10_000, [
      [f.cat.software, 'dept_eng', -6_000],
      [f.cat.meals, null, -3_000],
      [null, null, -1_000],
    ]);
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id)).toHaveLength(1);
    const lines = linesOf(f.db, id);
    expect(lines.map((l) => [l.category_id, l.department_id, l.debit_cents, l.credit_cents])).toEqual([
      [f.cat.software, 'dept_eng', 6_000, 0],
      [f.cat.meals, null, 3_000, 0],
      [f.cat.uncategorized_expense, null, 1_000, 0],
      [f.cat.card_liability, null, 0, 10_000],
    ]);
    expect(lines.every((l) => l.merchant === 'Costco')).toBe(true);
  });

  it('handles parts of mixed sign and refuses parts that do not sum to the amount', () => {
    const f = fixture();
    const mixed = addSplit(f, -1_000, [
      [f.cat.software, null, -1_500],
      [f.cat.revenue, null, 500],
    ]);
    rebuildTransactionEntries(f.db, mixed, NOW);
    expectBalancedEntries(f.db);
    expect(balance(f.db, f.cat.card_liability)).toBe(-1_000);
    const broken = addSplit(f, -1_000, [[f.cat.software, null, -900]]);
    expect(() => rebuildTransactionEntries(f.db, broken, NOW)).toThrow(/sum/);
  });
});

describe('spreads', () => {
  it('spreadMonthEnds lists the last day of every month, across years and leap Februaries', () => {
    expect(spreadMonthEnds('2023-11-15', '2024-03-01')).toEqual(['2023-11-30', '2023-12-31', '2024-01-31', '2024-02-29', '2024-03-31']);
    expect(spreadMonthEnds('2025-02-01', '2025-02-28')).toEqual(['2025-02-28']);
  });

  it('parks an expense in prepaid on the accounting date and recognises equal monthly parts (remainder last)', () => {
    const f = fixture();
    const id = addTxn(f, {
      date: '2025-01-10',
      amount: -100_000,
      account: f.acct.checking,
      category: f.cat.software,
      department: 'dept_eng',
      spread: { start_date: '2025-01-01', end_date: '2025-03-31' },
    });
    rebuildTransactionEntries(f.db, id, NOW);
    const entries = entriesOf(f.db, id);
    expect(entries.map((e) => [e.kind, e.date])).toEqual([
      ['transaction', '2025-01-10'],
      ['spread', '2025-01-31'],
      ['spread', '2025-02-28'],
      ['spread', '2025-03-31'],
    ]);
    expect(balance(f.db, f.cat.prepaid_expenses, '2025-01-10')).toBe(100_000);
    expect(balance(f.db, f.cat.software, '2025-01-10')).toBe(0);
    expect(balance(f.db, f.cat.software, '2025-01-31')).toBe(33_333);
    expect(balance(f.db, f.cat.software, '2025-02-28')).toBe(66_666);
    expect(balance(f.db, f.cat.software, '2025-03-31')).toBe(100_000);
    expect(balance(f.db, f.cat.prepaid_expenses, '2025-02-28')).toBe(33_334);
    expect(balance(f.db, f.cat.prepaid_expenses, '2025-03-31')).toBe(0);
    expect(balance(f.db, f.cat.cash)).toBe(-100_000);
    const spreadLines = linesOf(f.db, id).filter((l) => l.kind === 'spread' && l.category_id === f.cat.software);
    expect(spreadLines.every((l) => l.department_id === 'dept_eng')).toBe(true);
    expectBalancedEntries(f.db);
  });

  it('defers income in accrued liabilities and nets it to zero', () => {
    const f = fixture();
    const id = addTxn(f, { date: '2025-01-05', amount: 1_200, account: f.acct.checking, category: f.cat.revenue, spread: { start_date: '2025-01-01', end_date: '2025-12-31' } });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id)).toHaveLength(13);
    expect(balance(f.db, f.cat.accrued_liabilities, '2025-01-05')).toBe(-1_200);
    expect(balance(f.db, f.cat.revenue, '2025-06-30')).toBe(-600);
    expect(balance(f.db, f.cat.accrued_liabilities)).toBe(0);
    expect(balance(f.db, f.cat.prepaid_expenses)).toBe(0);
    expectBalancedEntries(f.db);
  });

  it('ignores a spread on a pending row (nothing posts) and posts it once approved', () => {
    const f = fixture();
    const id = addTxn(f, { amount: -300, account: f.acct.card, category: f.cat.software, status: 'pending', spread: { start_date: '2025-03-01', end_date: '2025-05-31' } });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id)).toHaveLength(0);
    f.db.prepare("UPDATE transactions SET status = 'approved' WHERE id = ?").run(id);
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id)).toHaveLength(4);
    expect(balance(f.db, f.cat.software)).toBe(300);
  });
});

describe('rebuilds', () => {
  it('rebuildTransactionEntries replaces the entries with new ids and the current state', () => {
    const f = fixture();
    const id = addTxn(f, { amount: -2_000, account: f.acct.card, category: f.cat.software, spread: { start_date: '2025-03-01', end_date: '2025-04-30' } });
    rebuildTransactionEntries(f.db, id, NOW);
    const before = entriesOf(f.db, id).map((e) => e.id);
    expect(before).toHaveLength(3);
    f.db.prepare('UPDATE transactions SET category_id = ?, spread = NULL WHERE id = ?').run(f.cat.meals, id);
    rebuildTransactionEntries(f.db, id, NOW + 10);
    const after = entriesOf(f.db, id);
    expect(after).toHaveLength(1);
    expect(after[0].created).toBe(NOW + 10);
    expect(before).not.toContain(after[0].id);
    for (const old of before) {
      expect(f.db.prepare('SELECT COUNT(*) AS n FROM journal_lines WHERE entry_id = ?').get(old)).toEqual({ n: 0 });
      expect(f.db.prepare('SELECT COUNT(*) AS n FROM journal_entries WHERE id = ?').get(old)).toEqual({ n: 0 });
    }
    expect(balance(f.db, f.cat.software)).toBe(0);
    expect(balance(f.db, f.cat.meals)).toBe(2_000);
    expect(balance(f.db, f.cat.prepaid_expenses)).toBe(0);
  });

  it('rebuilding after the row becomes pending or deleted removes its entries', () => {
    const f = fixture();
    const id = addTxn(f, { amount: -2_000, account: f.acct.card, category: f.cat.software });
    rebuildTransactionEntries(f.db, id, NOW);
    f.db.prepare('UPDATE transactions SET deleted = 1 WHERE id = ?').run(id);
    rebuildTransactionEntries(f.db, id, NOW);
    expect(entriesOf(f.db, id)).toHaveLength(0);
  });

  it('rebuildCompanyLedger reposts every transaction, keeps non-transaction entries, and stamps created from updated', () => {
    const f = fixture();
    const opening = insertJournalEntry(f.db, {
      companyId: C, date: '2025-01-01', kind: 'opening', memo: null, transactionId: null, created: NOW,
      lines: [
        { categoryId: f.cat.cash, departmentId: null, merchant: null, debitCents: 1_000_000, creditCents: 0 },
        { categoryId: f.cat.opening_equity, departmentId: null, merchant: null, debitCents: 0, creditCents: 1_000_000 },
      ],
    });
    const a = addTxn(f, { amount: -100, account: f.acct.card, category: f.cat.meals });
    const b = addTxn(f, { amount: 250, account: f.acct.checking, category: f.cat.revenue });
    addTxn(f, { amount: -999, account: f.acct.card, category: f.cat.meals, status: 'pending' });
    rebuildCompanyLedger(f.db, C, NOW);
    const first = [...entriesOf(f.db, a), ...entriesOf(f.db, b)].map((e) => e.id);
    expect(first).toHaveLength(2);
    expect(entriesOf(f.db, a)[0].created).toBe(NOW - 50); // the row's updated, below now
    rebuildCompanyLedger(f.db, C, NOW);
    const second = [...entriesOf(f.db, a), ...entriesOf(f.db, b)].map((e) => e.id);
    expect(second).toHaveLength(2);
    expect(second.some((id) => first.includes(id))).toBe(false);
    expect(f.db.prepare('SELECT kind FROM journal_entries WHERE id = ?').get(opening)).toEqual({ kind: 'opening' });
    expect(balance(f.db, f.cat.cash)).toBe(1_000_250);
    expect(balance(f.db, f.cat.meals)).toBe(100);
    expectBalancedEntries(f.db);
  });

  it('gives deterministic entry ids with a seeded random', () => {
    const ids = [1, 2].map(() => {
      const f = fixture();
      addTxn(f, { id: 'txn_fixed', amount: -100, account: f.acct.card, category: f.cat.meals });
      rebuildCompanyLedger(f.db, C, NOW, { random: seededRandom(42) });
      return entriesOf(f.db, 'txn_fixed')[0].id;
    });
    expect(ids[0]).toBe(ids[1]);
  });

  it('keeps formula-like merchants exactly as recorded, on every line', () => {
    const f = fixture();
    const id = addTxn(f, { amount: -4_321, account: f.acct.card, category: f.cat.meals, merchant: '=HYPERLINK("http://x")' });
    rebuildTransactionEntries(f.db, id, NOW);
    expect(f.db.prepare('SELECT merchant FROM transactions WHERE id = ?').get(id)).toEqual({ merchant: '=HYPERLINK("http://x")' });
    expect(linesOf(f.db, id).map((l) => l.merchant)).toEqual(['=HYPERLINK("http://x")', '=HYPERLINK("http://x")']);
  });
});
