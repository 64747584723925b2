import { monthEnd, monthOf, monthStart, monthsBetween } from '../calendar';
import type { Db } from '../db/open';
import { prepared } from './sql';

// Debits and credits per category over a date range, the input of every statement and total.
//
// A year of a large company is hundreds of thousands of journal lines, and a GROUP BY over them costs far
// more than a report may take. Whole calendar months are therefore aggregated once and kept per company;
// a report adds up its months and queries only the partial months at its edges. A kept month is reused
// while the fingerprint of its entries (how many, and the highest entry seq) is unchanged: posting never
// edits an entry in place, it deletes it and inserts a new one with a higher seq, so any change to a
// month's books changes one of the two.

export interface Activity {
  debit: number;
  credit: number;
  lines: number;
  /** Latest creation time of an entry with a line here; null when there is none. */
  maxCreated: number | null;
}

export type ActivityMap = Map<string, Activity>;

interface MonthSlice {
  fingerprint: string;
  activity: ActivityMap;
}

const slices = new WeakMap<Db, Map<string, Map<string, MonthSlice>>>();

function companySlices(db: Db, companyId: string): Map<string, MonthSlice> {
  let byCompany = slices.get(db);
  if (!byCompany) slices.set(db, (byCompany = new Map()));
  let months = byCompany.get(companyId);
  if (!months) byCompany.set(companyId, (months = new Map()));
  return months;
}

const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Adds `from` into `into` (mutating it). */
export function addActivity(into: ActivityMap, from: ActivityMap): ActivityMap {
  for (const [id, a] of from) {
    const t = into.get(id);
    if (!t) into.set(id, { ...a });
    else {
      t.debit += a.debit;
      t.credit += a.credit;
      t.lines += a.lines;
      t.maxCreated = latest(t.maxCreated, a.maxCreated);
    }
  }
  return into;
}

/** Latest maxCreated over the given categories (all of them when ids is omitted). */
export function latestCreated(activity: ActivityMap, ids?: Iterable<string>): number | null {
  let out: number | null = null;
  if (ids === undefined) for (const a of activity.values()) out = latest(out, a.maxCreated);
  else for (const id of ids) out = latest(out, activity.get(id)?.maxCreated ?? null);
  return out;
}

function queryActivity(db: Db, companyId: string, from: string, to: string): ActivityMap {
  const rows = prepared(
    db,
    `SELECT l.category_id, SUM(l.debit_cents) AS debit, SUM(l.credit_cents) AS credit, COUNT(*) AS lines,
            MAX(e.created) AS max_created
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.company_id = ? AND l.date >= ? AND l.date <= ?
      GROUP BY l.category_id`,
  ).all(companyId, from, to) as { category_id: string; debit: number; credit: number; lines: number; max_created: number }[];
  return new Map(rows.map((r) => [r.category_id, { debit: r.debit, credit: r.credit, lines: r.lines, maxCreated: r.max_created }]));
}

/** Month (YYYY-MM) -> "count:max seq" of the entries dated in it, for the months from..to that have any. */
function monthFingerprints(db: Db, companyId: string, from: string, to: string): Map<string, string> {
  const rows = prepared(
    db,
    `SELECT date, COUNT(*) AS n, MAX(seq) AS s FROM journal_entries
      WHERE company_id = ? AND date >= ? AND date <= ? GROUP BY date`,
  ).all(companyId, from, to) as { date: string; n: number; s: number }[];
  const acc = new Map<string, { n: number; s: number }>();
  for (const r of rows) {
    const m = monthOf(r.date);
    const a = acc.get(m);
    if (!a) acc.set(m, { n: r.n, s: r.s });
    else {
      a.n += r.n;
      a.s = Math.max(a.s, r.s);
    }
  }
  return new Map([...acc].map(([m, a]) => [m, `${a.n}:${a.s}`]));
}

/** First and last dates with a posting, widened to whole months; undefined when nothing is posted. */
function postedMonths(db: Db, companyId: string): { first: string; last: string } | undefined {
  const row = prepared(
    db,
    `SELECT (SELECT MIN(date) FROM journal_entries WHERE company_id = @c) AS first,
            (SELECT MAX(date) FROM journal_entries WHERE company_id = @c) AS last`,
  ).get({ c: companyId }) as { first: string | null; last: string | null };
  if (row.first === null || row.last === null) return undefined;
  return { first: monthStart(row.first), last: monthEnd(row.last) };
}

/** Activity per category of the entries dated from..to inclusive ('YYYY-MM-DD'; open bounds allowed). */
export function activityBetween(db: Db, companyId: string, from: string, to: string): ActivityMap {
  const total: ActivityMap = new Map();
  const posted = postedMonths(db, companyId);
  if (!posted) return total;
  const lo = from > posted.first ? from : posted.first;
  const hi = to < posted.last ? to : posted.last;
  if (lo > hi) return total;

  const kept = companySlices(db, companyId);
  let fingerprints: Map<string, string> | undefined;
  for (const start of monthsBetween(lo, hi)) {
    const m = monthOf(start);
    const end = monthEnd(start);
    const segFrom = lo > start ? lo : start;
    const segTo = hi < end ? hi : end;
    if (segFrom !== start || segTo !== end) {
      addActivity(total, queryActivity(db, companyId, segFrom, segTo));
      continue;
    }
    fingerprints ??= monthFingerprints(db, companyId, lo, hi);
    const fingerprint = fingerprints.get(m);
    if (fingerprint === undefined) {
      kept.delete(m);
      continue;
    }
    let slice = kept.get(m);
    if (slice?.fingerprint !== fingerprint) kept.set(m, (slice = { fingerprint, activity: queryActivity(db, companyId, start, end) }));
    addActivity(total, slice.activity);
  }
  return total;
}
