import { AFTER_ALL_DATES, BEFORE_ALL_DATES } from '../calendar';
import type { Db } from '../db/open';
import { prepared } from './sql';

// Journal entries as the API shows them: the entry with its lines, ordered by date then creation.

export interface JournalLineItem {
  category_id: string;
  department_id: string | null;
  debit_cents: number;
  credit_cents: number;
}

export interface JournalEntryItem {
  id: string;
  object: 'journal_entry';
  date: string;
  transaction_id: string | null;
  kind: string;
  memo: string | null;
  created: number;
  lines: JournalLineItem[];
}

export interface JournalFilters {
  /** Entries with a line in one of these categories. */
  categoryIds?: string[];
  /** Entries with a line in one of these departments. */
  departmentIds?: string[];
  transactionId?: string;
  start?: string;
  end?: string;
}

/** Keyset position of an entry in the list order. */
export interface EntryPosition {
  date: string;
  seq: number;
}

interface EntryRow {
  seq: number;
  id: string;
  date: string;
  transaction_id: string | null;
  kind: string;
  memo: string | null;
  created: number;
}

const ENTRY_COLUMNS = 'e.seq, e.id, e.date, e.transaction_id, e.kind, e.memo, e.created';

export function entryPosition(db: Db, companyId: string, id: string): EntryPosition | undefined {
  return prepared(db, 'SELECT date, seq FROM journal_entries WHERE company_id = ? AND id = ?').get(companyId, id) as EntryPosition | undefined;
}

/** The page of entries after `after` (exclusive) matching every filter; at most `limit` rows. */
export function listJournalEntries(
  db: Db,
  companyId: string,
  filters: JournalFilters,
  after: EntryPosition | null,
  limit: number,
): JournalEntryItem[] {
  const from = [filters.start, after?.date].filter((d): d is string => d !== undefined).sort().pop() ?? BEFORE_ALL_DATES;
  const params = {
    company: companyId,
    from,
    to: filters.end ?? AFTER_ALL_DATES,
    afterDate: after?.date ?? null,
    afterSeq: after?.seq ?? null,
    txn: filters.transactionId ?? null,
    categories: JSON.stringify(filters.categoryIds ?? []),
    departments: JSON.stringify(filters.departmentIds ?? []),
    limit,
  };
  // Only the filters in use go into the SQL, so that each variant gets its own plan (the transaction
  // filter through its index, the others through the date-ordered scan).
  const where = ['e.company_id = @company', 'e.date >= @from', 'e.date <= @to'];
  if (after) where.push('(e.date > @afterDate OR (e.date = @afterDate AND e.seq > @afterSeq))');
  if (filters.transactionId !== undefined) where.push('e.transaction_id = @txn');
  const lineFilter = (column: string, param: string) =>
    `e.id IN (SELECT entry_id FROM journal_lines WHERE company_id = @company AND date >= @from AND date <= @to
                AND ${column} IN (SELECT value FROM json_each(@${param})))`;
  if (filters.categoryIds) where.push(lineFilter('category_id', 'categories'));
  if (filters.departmentIds) where.push(lineFilter('department_id', 'departments'));
  const rows = prepared(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM journal_entries e WHERE ${where.join(' AND ')} ORDER BY e.date, e.seq LIMIT @limit`,
  ).all(params) as EntryRow[];
  return withLines(db, companyId, rows);
}

export function getJournalEntry(db: Db, companyId: string, id: string): JournalEntryItem | undefined {
  const row = prepared(db, `SELECT ${ENTRY_COLUMNS} FROM journal_entries e WHERE e.company_id = ? AND e.id = ?`).get(companyId, id) as
    | EntryRow
    | undefined;
  return row ? withLines(db, companyId, [row])[0] : undefined;
}

function withLines(db: Db, companyId: string, rows: EntryRow[]): JournalEntryItem[] {
  if (rows.length === 0) return [];
  // The unary + keeps SQLite from scanning the company's lines through a company index: the page's few
  // entry ids, looked up through the primary key, are far fewer rows.
  const lines = prepared(
    db,
    `SELECT entry_id, category_id, department_id, debit_cents, credit_cents FROM journal_lines
      WHERE +company_id = ? AND entry_id IN (SELECT value FROM json_each(?)) ORDER BY entry_id, line`,
  ).all(companyId, JSON.stringify(rows.map((r) => r.id))) as (JournalLineItem & { entry_id: string })[];
  const byEntry = new Map<string, JournalLineItem[]>();
  for (const { entry_id, ...l } of lines) {
    const list = byEntry.get(entry_id);
    if (list) list.push(l);
    else byEntry.set(entry_id, [l]);
  }
  return rows.map((r) => ({
    id: r.id,
    object: 'journal_entry',
    date: r.date,
    transaction_id: r.transaction_id,
    kind: r.kind,
    memo: r.memo,
    created: r.created,
    lines: byEntry.get(r.id) ?? [],
  }));
}

/** The department and its descendants; empty when the company has no such department. */
export function departmentSubtreeIds(db: Db, companyId: string, id: string): string[] {
  const rows = prepared(db, 'SELECT id, parent_id FROM departments WHERE company_id = ?').all(companyId) as { id: string; parent_id: string | null }[];
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (r.parent_id === null) continue;
    const list = children.get(r.parent_id);
    if (list) list.push(r.id);
    else children.set(r.parent_id, [r.id]);
  }
  if (!rows.some((r) => r.id === id)) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (d: string) => {
    if (seen.has(d)) return;
    seen.add(d);
    out.push(d);
    (children.get(d) ?? []).forEach(walk);
  };
  walk(id);
  return out;
}
