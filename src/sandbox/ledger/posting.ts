// Double-entry posting of transactions into journal_entries / journal_lines.
//
// One model, applied everywhere: every report and total is read from these lines (what the spec leaves open
// is in docs/api-decisions.md, "Reports and totals"):
// - Only approved transactions that are neither hidden nor deleted post. Pending, hidden and deleted
//   transactions post nothing; a zero amount posts nothing either.
// - Effective accounting date = accounting_date_override ?? date.
// - Standard transaction of amount a: the source side is the account's balance-sheet category
//   (accounts.category_id: Cash for bank accounts, the card liability for credit accounts). a > 0: debit
//   source a, credit the transaction's category a. a < 0: debit the category |a|, credit source |a|.
//   Category NULL posts to the 'uncategorized_income' role (a > 0) or 'uncategorized_expense' role (a < 0).
// - Transfer: two rows share transfer_id. Only the outgoing (negative) leg posts: debit the incoming
//   leg's account category, credit its own account category. The incoming leg posts nothing. The
//   outgoing leg alone decides whether the transfer posts (its status / hidden / deleted); the incoming
//   leg is only read for its account. An outgoing leg whose counterpart row is missing posts like a
//   standard transaction (its category, or uncategorized expense).
// - Split: one entry; the source line carries the total, then one line per part on the part's category
//   (uncategorized role by the part's sign when it has none), with the part's department. Parts must sum
//   to the transaction amount (a mismatch is a bug and throws).
// - Spread {start_date, end_date} (standard transactions only; ignored on transfers and splits): on the
//   accounting date the whole amount moves between the source and a deferral category instead of the
//   transaction's category; then one 'spread' entry per month, from the month of start_date to the month of
//   end_date, dated the LAST day of each month, moves an equal part (remainder cents in the last month) from
//   the deferral to the category. The deferral nets to zero after the last month.
//   Deferral category: 'prepaid_expenses' for an expense (a < 0). For income (a > 0) the roles list has no
//   deferred revenue, and parking income in Prepaid Expenses would give an asset a credit balance, so
//   income spreads wait in 'accrued_liabilities' (a current liability standing in for deferred revenue).
//   Both are working-capital categories, so the cash flow treats either the same way. Months before the
//   accounting date are still dated at their own month end (the deferral is briefly on the other side);
//   the ledger stays balanced either way.
// - Lines: debit_cents and credit_cents are non-negative integers and exactly one of them is non-zero.
//   Debit lines come first in an entry.
// - Departments and merchants on lines: the department goes on the line of the transaction's category
//   (or of each split part) only: departments describe where income or cost belongs, not where the
//   money sat. The merchant goes on EVERY line of the entry (source, category, deferral), so
//   /parties/merchants finds the counterparty from any category it touched, Cash and card liabilities
//   included.
// - Journal entry ids are new on every (re)post (`je_` + 16 letters/digits): the spec says ids change when
//   the books behind a source are rebuilt.

import { monthEnd, monthsBetween } from '../calendar';
import type { Db } from '../db/open';
import { newId } from '../ids';
import type { CategoryRole } from './roles';

export type JournalEntryKind = 'transaction' | 'spread' | 'opening' | 'depreciation' | 'accrual';

export interface JournalLineInput {
  categoryId: string;
  departmentId: string | null;
  merchant: string | null;
  debitCents: number;
  creditCents: number;
}

export interface JournalEntryInput {
  companyId: string;
  date: string;
  kind: JournalEntryKind;
  memo: string | null;
  transactionId: string | null;
  created: number;
  lines: JournalLineInput[];
}

/** Options of the posting functions. `random` makes the new journal entry ids deterministic (seed). */
export interface PostingOptions {
  random?: () => number;
}

/** The transaction columns posting reads. */
export interface PostableTransaction {
  id: string;
  company_id: string;
  date: string;
  accounting_date_override: string | null;
  amount_cents: number;
  merchant: string | null;
  description: string | null;
  category_id: string | null;
  department_id: string | null;
  transaction_type: string;
  account_id: string;
  status: string;
  spread: string | null;
  transfer_id: string | null;
  hidden: number;
  deleted: number;
  updated: number;
}

export interface SplitPart {
  part: number;
  category_id: string | null;
  department_id: string | null;
  amount_cents: number;
}

/** What posting needs to know about a company, loaded once (rebuildCompanyLedger) or per call. */
export interface LedgerLookup {
  roleCategory(role: CategoryRole): string;
  accountCategory(accountId: string): string;
  accountName(accountId: string): string | null;
  splitParts(txnId: string): SplitPart[];
  /** The account of the other leg of a transfer, undefined when there is none. */
  transferCounterpartAccount(txn: PostableTransaction): string | undefined;
}

const TXN_COLUMNS = `id, company_id, date, accounting_date_override, amount_cents, merchant, description, category_id,
  department_id, transaction_type, account_id, status, spread, transfer_id, hidden, deleted, updated`;

// ---------------------------------------------------------------------------------------------------
// Statements, prepared once per database handle.

interface Statements {
  insertEntry: import('better-sqlite3').Statement;
  insertLine: import('better-sqlite3').Statement;
  /** Two lines in one statement: most entries have exactly two, and this halves the native calls. */
  insertTwoLines: import('better-sqlite3').Statement;
  entryIdsOfTxn: import('better-sqlite3').Statement;
  deleteLinesOfEntry: import('better-sqlite3').Statement;
  deleteEntry: import('better-sqlite3').Statement;
  txnById: import('better-sqlite3').Statement;
  txnsOfTransfer: import('better-sqlite3').Statement;
  roles: import('better-sqlite3').Statement;
  accountById: import('better-sqlite3').Statement;
  splitParts: import('better-sqlite3').Statement;
  transferLegs: import('better-sqlite3').Statement;
}

const statementCache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = statementCache.get(db);
  if (!s) {
    s = {
      insertEntry: db.prepare(
        `INSERT INTO journal_entries (id, company_id, transaction_id, date, kind, memo, created)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertLine: db.prepare(
        `INSERT INTO journal_lines (entry_id, line, company_id, date, category_id, department_id, merchant, debit_cents, credit_cents)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertTwoLines: db.prepare(
        `INSERT INTO journal_lines (entry_id, line, company_id, date, category_id, department_id, merchant, debit_cents, credit_cents)
         VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?), (?, 2, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      entryIdsOfTxn: db.prepare(
        `SELECT id FROM journal_entries WHERE transaction_id = ? AND kind IN ('transaction', 'spread')`,
      ),
      deleteLinesOfEntry: db.prepare('DELETE FROM journal_lines WHERE entry_id = ?'),
      deleteEntry: db.prepare('DELETE FROM journal_entries WHERE id = ?'),
      txnById: db.prepare(`SELECT ${TXN_COLUMNS} FROM transactions WHERE id = ?`),
      txnsOfTransfer: db.prepare(`SELECT ${TXN_COLUMNS} FROM transactions WHERE company_id = ? AND transfer_id = ? ORDER BY id`),
      roles: db.prepare('SELECT id, role FROM categories WHERE company_id = ? AND role IS NOT NULL'),
      accountById: db.prepare('SELECT id, type, account_name, category_id FROM accounts WHERE id = ? AND company_id = ?'),
      splitParts: db.prepare('SELECT part, category_id, department_id, amount_cents FROM transaction_splits WHERE transaction_id = ? ORDER BY part'),
      transferLegs: db.prepare('SELECT id, account_id, amount_cents FROM transactions WHERE company_id = ? AND transfer_id = ?'),
    };
    statementCache.set(db, s);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Entries

function isCents(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/**
 * Inserts one journal entry and its lines (journal_lines.date copies the entry date) and returns the new
 * `je_` id. Throws when a line is malformed (negative, non-integer, both sides or neither side set) or
 * when the entry does not balance (sum of debits = sum of credits).
 */
export function insertJournalEntry(db: Db, entry: JournalEntryInput, random?: () => number): string {
  if (entry.lines.length === 0) throw new Error(`Journal entry on ${entry.date} has no lines`);
  let debits = 0;
  let credits = 0;
  for (const l of entry.lines) {
    if (!isCents(l.debitCents) || !isCents(l.creditCents)) {
      throw new Error(`Journal line amounts must be non-negative integer cents (got ${l.debitCents} / ${l.creditCents})`);
    }
    if ((l.debitCents === 0) === (l.creditCents === 0)) {
      throw new Error(`A journal line needs exactly one non-zero side (got ${l.debitCents} / ${l.creditCents})`);
    }
    debits += l.debitCents;
    credits += l.creditCents;
  }
  if (debits !== credits) {
    throw new Error(`Unbalanced journal entry (${entry.kind}, ${entry.date}, txn ${entry.transactionId}): debits ${debits} != credits ${credits}`);
  }
  const s = statements(db);
  const id = newId('je', random);
  s.insertEntry.run(id, entry.companyId, entry.transactionId, entry.date, entry.kind, entry.memo, entry.created);
  const { companyId, date, lines } = entry;
  if (lines.length === 2) {
    const [a, b] = lines;
    s.insertTwoLines.run(
      id, companyId, date, a.categoryId, a.departmentId, a.merchant, a.debitCents, a.creditCents,
      id, companyId, date, b.categoryId, b.departmentId, b.merchant, b.debitCents, b.creditCents,
    );
  } else {
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      s.insertLine.run(id, i + 1, companyId, date, l.categoryId, l.departmentId, l.merchant, l.debitCents, l.creditCents);
    }
  }
  return id;
}

/** The transaction's effective accounting date. */
export function effectiveDate(txn: { date: string; accounting_date_override: string | null }): string {
  return txn.accounting_date_override ?? txn.date;
}

/** Parses a stored spread; null when none. Throws on a malformed value (the routes validate before). */
export function parseSpread(raw: string | null): { start_date: string; end_date: string } | null {
  if (raw === null || raw === undefined) return null;
  const v = JSON.parse(raw) as { start_date?: unknown; end_date?: unknown } | null;
  if (v === null) return null;
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (typeof v.start_date !== 'string' || typeof v.end_date !== 'string' || !re.test(v.start_date) || !re.test(v.end_date)) {
    throw new Error(`Malformed spread: ${raw}`);
  }
  if (v.start_date > v.end_date) throw new Error(`Spread starts after it ends: ${raw}`);
  return { start_date: v.start_date, end_date: v.end_date };
}

/** The last day (YYYY-MM-DD) of each month from the month of start to the month of end, inclusive. */
export function spreadMonthEnds(startDate: string, endDate: string): string[] {
  return monthsBetween(startDate, endDate).map(monthEnd);
}

function line(categoryId: string, signedToCategory: number, departmentId: string | null, merchant: string | null): JournalLineInput {
  // signedToCategory > 0: debit; < 0: credit.
  return signedToCategory > 0
    ? { categoryId, departmentId, merchant, debitCents: signedToCategory, creditCents: 0 }
    : { categoryId, departmentId, merchant, debitCents: 0, creditCents: -signedToCategory };
}

function debitsFirst(lines: JournalLineInput[]): JournalLineInput[] {
  if (lines.length === 2) return lines[0].debitCents > 0 ? lines : [lines[1], lines[0]];
  return [...lines.filter((l) => l.debitCents > 0), ...lines.filter((l) => l.debitCents === 0)];
}

function categoryOrUncategorized(lookup: LedgerLookup, categoryId: string | null, amount: number): string {
  if (categoryId) return categoryId;
  return lookup.roleCategory(amount > 0 ? 'uncategorized_income' : 'uncategorized_expense');
}

/**
 * The journal entries a transaction produces (without ids), per the rules at the top of this file.
 * `created` is the creation time stamped on every entry.
 */
export function buildTransactionEntries(txn: PostableTransaction, lookup: LedgerLookup, created: number): JournalEntryInput[] {
  if (txn.status !== 'approved' || txn.hidden || txn.deleted) return [];
  const a = txn.amount_cents;
  if (a === 0) return [];
  const date = effectiveDate(txn);
  const merchant = txn.merchant;
  const memo = txn.merchant ?? txn.description ?? null;
  const base = { companyId: txn.company_id, transactionId: txn.id, created };
  const source = lookup.accountCategory(txn.account_id);

  if (txn.transaction_type === 'transfer' && txn.transfer_id) {
    if (a > 0) return []; // the incoming leg: the outgoing leg posts the whole transfer
    const other = lookup.transferCounterpartAccount(txn);
    if (other !== undefined) {
      const dest = lookup.accountCategory(other);
      const name = lookup.accountName(other);
      return [
        {
          ...base,
          date,
          kind: 'transaction',
          memo: memo ?? (name ? `Transfer to ${name}` : 'Transfer'),
          lines: [line(dest, -a, null, merchant), line(source, a, null, merchant)],
        },
      ];
    }
    // Orphan outgoing leg: falls through to a standard posting.
  }

  if (txn.transaction_type === 'split') {
    const parts = lookup.splitParts(txn.id);
    if (parts.length > 0) {
      const sum = parts.reduce((s, p) => s + p.amount_cents, 0);
      if (sum !== a) throw new Error(`Split parts of ${txn.id} sum to ${sum}, not ${a}`);
      const lines: JournalLineInput[] = [line(source, a, null, merchant)];
      for (const p of parts) {
        if (p.amount_cents === 0) continue;
        lines.push(line(categoryOrUncategorized(lookup, p.category_id, p.amount_cents), -p.amount_cents, p.department_id, merchant));
      }
      return [{ ...base, date, kind: 'transaction', memo, lines: debitsFirst(lines) }];
    }
    // A split without parts posts as one line on its category (uncategorized when none).
  }

  const category = categoryOrUncategorized(lookup, txn.category_id, a);
  const spread = txn.transaction_type === 'standard' ? parseSpread(txn.spread) : null;
  if (!spread) {
    return [
      {
        ...base,
        date,
        kind: 'transaction',
        memo,
        lines: debitsFirst([line(source, a, null, merchant), line(category, -a, txn.department_id, merchant)]),
      },
    ];
  }

  const deferral = lookup.roleCategory(a < 0 ? 'prepaid_expenses' : 'accrued_liabilities');
  const entries: JournalEntryInput[] = [
    {
      ...base,
      date,
      kind: 'transaction',
      memo,
      lines: debitsFirst([line(source, a, null, merchant), line(deferral, -a, null, merchant)]),
    },
  ];
  const months = spreadMonthEnds(spread.start_date, spread.end_date);
  const n = months.length;
  const sign = a < 0 ? -1 : 1;
  const total = Math.abs(a);
  const part = Math.floor(total / n);
  months.forEach((monthEnd, i) => {
    const amount = i === n - 1 ? total - part * (n - 1) : part;
    if (amount === 0) return;
    const signed = sign * amount; // same sign as the transaction
    entries.push({
      ...base,
      date: monthEnd,
      kind: 'spread',
      memo: `Spread ${i + 1} of ${n}${memo ? `: ${memo}` : ''}`,
      // moves the part from the deferral to the category (expense: debit category, credit prepaid)
      lines: debitsFirst([line(deferral, signed, null, merchant), line(category, -signed, txn.department_id, merchant)]),
    });
  });
  return entries;
}

// ---------------------------------------------------------------------------------------------------
// Lookups

interface RoleRow {
  id: string;
  role: CategoryRole;
}
interface AccountRow {
  id: string;
  type: string | null;
  account_name: string | null;
  category_id: string | null;
}

function roleMap(db: Db, companyId: string): Map<CategoryRole, string> {
  const rows = statements(db).roles.all(companyId) as RoleRow[];
  return new Map(rows.map((r) => [r.role, r.id]));
}

function makeRoleCategory(companyId: string, roles: Map<CategoryRole, string>): (role: CategoryRole) => string {
  return (role) => {
    const id = roles.get(role);
    if (!id) throw new Error(`Company ${companyId} has no category with role ${role}`);
    return id;
  };
}

/**
 * An account without category_id (for example a manual account created without one) posts by its type:
 * credit -> card liability, reimbursement -> accrued liabilities, anything else -> Cash.
 */
function accountCategoryOf(acct: AccountRow | undefined, accountId: string, roleCategory: (r: CategoryRole) => string): string {
  if (!acct) throw new Error(`Unknown account ${accountId}`);
  if (acct.category_id) return acct.category_id;
  if (acct.type === 'credit') return roleCategory('card_liability');
  if (acct.type === 'reimbursement') return roleCategory('accrued_liabilities');
  return roleCategory('cash');
}

/** A lookup that loads the company's roles and accounts once and every split and transfer leg up front. */
function loadCompanyLookup(db: Db, companyId: string): LedgerLookup {
  const roleCategory = makeRoleCategory(companyId, roleMap(db, companyId));
  const accounts = new Map(
    (db.prepare('SELECT id, type, account_name, category_id FROM accounts WHERE company_id = ?').all(companyId) as AccountRow[]).map(
      (a) => [a.id, a],
    ),
  );
  const splits = new Map<string, SplitPart[]>();
  const splitRows = db
    .prepare(
      `SELECT s.transaction_id, s.part, s.category_id, s.department_id, s.amount_cents
         FROM transaction_splits s JOIN transactions t ON t.id = s.transaction_id
        WHERE t.company_id = ? ORDER BY s.transaction_id, s.part`,
    )
    .all(companyId) as (SplitPart & { transaction_id: string })[];
  for (const r of splitRows) {
    let list = splits.get(r.transaction_id);
    if (!list) splits.set(r.transaction_id, (list = []));
    list.push({ part: r.part, category_id: r.category_id, department_id: r.department_id, amount_cents: r.amount_cents });
  }
  const legs = new Map<string, { id: string; account_id: string; amount_cents: number }[]>();
  const legRows = db
    .prepare('SELECT id, transfer_id, account_id, amount_cents FROM transactions WHERE company_id = ? AND transfer_id IS NOT NULL')
    .all(companyId) as { id: string; transfer_id: string; account_id: string; amount_cents: number }[];
  for (const r of legRows) {
    let list = legs.get(r.transfer_id);
    if (!list) legs.set(r.transfer_id, (list = []));
    list.push(r);
  }
  return {
    roleCategory,
    accountCategory: (id) => accountCategoryOf(accounts.get(id), id, roleCategory),
    accountName: (id) => accounts.get(id)?.account_name ?? null,
    splitParts: (id) => splits.get(id) ?? [],
    transferCounterpartAccount: (txn) => counterpart(legs.get(txn.transfer_id ?? '') ?? [], txn.id),
  };
}

function counterpart(legs: { id: string; account_id: string; amount_cents: number }[], selfId: string): string | undefined {
  const others = legs.filter((l) => l.id !== selfId);
  return (others.find((l) => l.amount_cents > 0) ?? others[0])?.account_id;
}

/** A lookup for one transaction: small queries, no company-wide loading. */
function singleLookup(db: Db, companyId: string): LedgerLookup {
  const s = statements(db);
  const roleCategory = makeRoleCategory(companyId, roleMap(db, companyId));
  const account = (id: string) => s.accountById.get(id, companyId) as AccountRow | undefined;
  return {
    roleCategory,
    accountCategory: (id) => accountCategoryOf(account(id), id, roleCategory),
    accountName: (id) => account(id)?.account_name ?? null,
    splitParts: (id) => s.splitParts.all(id) as SplitPart[],
    transferCounterpartAccount: (txn) =>
      counterpart(s.transferLegs.all(companyId, txn.transfer_id) as { id: string; account_id: string; amount_cents: number }[], txn.id),
  };
}

function loadTransaction(db: Db, txnId: string): PostableTransaction | undefined {
  return statements(db).txnById.get(txnId) as PostableTransaction | undefined;
}

// ---------------------------------------------------------------------------------------------------
// Public operations

function deleteEntriesOf(db: Db, txnId: string): void {
  const s = statements(db);
  for (const { id } of s.entryIdsOfTxn.all(txnId) as { id: string }[]) {
    s.deleteLinesOfEntry.run(id);
    s.deleteEntry.run(id);
  }
}

/**
 * Deletes the transaction's journal entries (kinds 'transaction' and 'spread') and their lines, then
 * posts it again; the new entries get new ids. For a transfer leg, both legs of the transfer are rebuilt
 * (the outgoing leg's entry depends on the pair). Call after any edit of accounting_date, department_id,
 * category_id, spread, merchant, or a status / hidden / deleted change. Entries are stamped `now`.
 */
export function rebuildTransactionEntries(db: Db, txnId: string, now: number, opts: PostingOptions = {}): void {
  const txn = loadTransaction(db, txnId);
  if (!txn) throw new Error(`Unknown transaction ${txnId}`);
  const lookup = singleLookup(db, txn.company_id);
  db.transaction(() => {
    let targets: PostableTransaction[] = [txn];
    if (txn.transfer_id) {
      targets = statements(db).txnsOfTransfer.all(txn.company_id, txn.transfer_id) as PostableTransaction[];
    }
    for (const t of targets) deleteEntriesOf(db, t.id);
    for (const t of targets) {
      for (const e of buildTransactionEntries(t, lookup, now)) insertJournalEntry(db, e, opts.random);
    }
  })();
}

/**
 * (Re)posts every transaction of a company in one SQLite transaction: deletes the company's
 * 'transaction' and 'spread' entries (other kinds stay), then posts every approved, visible,
 * non-deleted transaction in accounting-date order. Each entry's `created` is the transaction's
 * `updated` (when its current state was recorded), capped at `now`, so report refreshed_at values
 * reflect the data rather than the moment of the rebuild.
 */
export function rebuildCompanyLedger(db: Db, companyId: string, now: number, opts: PostingOptions = {}): void {
  db.transaction(() => {
    db.prepare(
      `DELETE FROM journal_lines WHERE entry_id IN
         (SELECT id FROM journal_entries WHERE company_id = ? AND kind IN ('transaction', 'spread'))`,
    ).run(companyId);
    db.prepare(`DELETE FROM journal_entries WHERE company_id = ? AND kind IN ('transaction', 'spread')`).run(companyId);
    const lookup = loadCompanyLookup(db, companyId);
    const txns = db
      .prepare(
        `SELECT ${TXN_COLUMNS} FROM transactions
          WHERE company_id = ? AND status = 'approved' AND hidden = 0 AND deleted = 0
          ORDER BY COALESCE(accounting_date_override, date), date, update_seq, id`,
      )
      .all(companyId) as PostableTransaction[];
    for (const t of txns) {
      for (const e of buildTransactionEntries(t, lookup, Math.min(t.updated, now))) insertJournalEntry(db, e, opts.random);
    }
  })();
}
