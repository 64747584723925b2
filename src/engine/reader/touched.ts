// Which cached answers a change to transactions touches, from the requests alone. The add-in knows exactly
// what its own push, shift or resume changed (issue 13, item 1); a sync of the changes since the last one
// (sync/changeFeed.ts) knows less -- the API gives the rows as they are now, not what changed in them -- so
// those changes count as moving the amounts themselves (issue 14, item 3); a department edit touches only answers
// by department (issue 27). Where a request cannot be placed (a date the
// API defaults, an endpoint whose date parameters are not shown) it counts as touched: a wasted call on the
// next refresh is cheaper than a wrong figure on a board slide. The rules are in docs/api-decisions.md.

import type { ReadRequest } from './requestCache';
import { walkKind } from './walks';

/** One transaction as a change saw it: ISO dates (YYYY-MM-DD). */
export interface TransactionChange {
  /** The transaction, when known (the add-in's own changes: a later sync recognises them). */
  id?: string;
  /** The transaction's date: what the list filters `start_date`/`end_date` use; it never changes. */
  date: string;
  /** The effective accounting date (the override, else the date) before and after: what reports use. */
  accountingBefore: string;
  accountingAfter: string;
  /**
   * The amounts the transaction posts may have changed too (a new, deleted or recategorised transaction, a
   * new amount, or any change the add-in did not make): every report holding either accounting date is
   * touched, not only those the move crosses, and so are merchant lists. Absent: only the department or
   * the accounting date changed, as in the add-in's own pushes.
   */
  postings?: boolean;
  /**
   * The department may have changed (the add-in's own push of a Department edit; a change it did not make
   * has `postings`). Reports and totals have no department: only answers by department are touched by it.
   */
  department?: boolean;
  /**
   * Inclusive day ranges (YYYY-MM-DD) where the transaction posts or posted besides its accounting dates:
   * the months a spread recognises it in, before and after (spec: `spread`; the sandbox dates each month's
   * part on its last day), or a month known only to the month (the placement memory, sync/placements.ts).
   * With `postings` every answer over them is touched; with `department` alone, the answers by department.
   */
  ranges?: ReadonlyArray<readonly [string, string]>;
  /** The transaction's date known only to the month (a tombstone without dates, placed by memory): lists over any day of it. */
  dateRange?: readonly [string, string];
}

type Query = Record<string, unknown>;

const day = (iso: string) => iso.slice(0, 10);
const month = (iso: string) => iso.slice(0, 7);

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
}

/** The move of one accounting date, in a report's precision (days) or a total's (months). */
interface Move {
  before: string;
  after: string;
  from: string;
  to: string;
  postings: boolean;
  /** Postings anywhere from `from` to `to` (a spread's months), not only on its two ends. */
  range?: boolean;
}

function movesIn(changes: readonly TransactionChange[], unit: (iso: string) => string): Move[] {
  const moves: Move[] = changes
    .filter((c) => c.postings || unit(c.accountingBefore) !== unit(c.accountingAfter))
    .map((c) => {
      const [before, after] = [unit(c.accountingBefore), unit(c.accountingAfter)];
      return { before, after, from: before < after ? before : after, to: before < after ? after : before, postings: c.postings === true };
    });
  // A range of changed postings: touched wherever it overlaps, as a move from its first day to its last.
  for (const c of changes) {
    if (!c.postings) continue;
    for (const [first, last] of c.ranges ?? []) moves.push({ before: unit(first), after: unit(last), from: unit(first), to: unit(last), postings: true, range: true });
  }
  return moves;
}

/**
 * Activity over [start, end] (an income statement, a periodic total): changed when exactly one end of a
 * move falls inside; a move within the period, or from one month of it to another, leaves it as it was.
 * Changed postings change any period holding either date.
 */
function activity(moves: readonly Move[], start: string | undefined, end: string | undefined): boolean {
  if (moves.length === 0) return false;
  if (!start || !end) return true; // the API's default period follows today
  const inside = (d: string) => d >= start && d <= end;
  return moves.some((m) => {
    if (m.range) return m.from <= end && m.to >= start;
    return m.postings ? inside(m.before) || inside(m.after) : inside(m.before) !== inside(m.after);
  });
}

/** A balance on `date` (a balance sheet, a point-in-time total): changed from the earliest moved date on,
 * retained earnings included (the split between earlier years and this one follows the dates too). */
function balance(moves: readonly Move[], date: string | undefined): boolean {
  if (moves.length === 0) return false;
  return !date || moves.some((m) => date >= m.from);
}

/** A cash flow over [start, end]: its activity, and the working capital between the balances at its ends,
 * change when a move overlaps the period at all. */
function cashFlow(moves: readonly Move[], start: string | undefined, end: string | undefined): boolean {
  if (moves.length === 0) return false;
  if (!start || !end) return true;
  return moves.some((m) => m.from <= end && m.to >= start);
}

/**
 * Activity by department over [start, end] (the journal walk of src/engine/departments): as `activity`, and
 * a department that changed moves its amounts between columns of any period holding the accounting date.
 */
function byDepartment(changes: readonly TransactionChange[], start: string | undefined, end: string | undefined): boolean {
  if (changes.length === 0) return false;
  if (!start || !end) return true;
  const inside = (d: string) => d >= start && d <= end;
  return changes.some((c) => {
    const [before, after] = [day(c.accountingBefore), day(c.accountingAfter)];
    if ((c.postings || c.department) && (c.ranges ?? []).some(([first, last]) => day(first) <= end && day(last) >= start)) return true;
    return c.postings || c.department ? inside(before) || inside(after) : inside(before) !== inside(after);
  });
}

/** A predicate over cached requests: true for each answer the changes may have made wrong. */
export function touchedBy(changes: readonly TransactionChange[]): (req: ReadRequest) => boolean {
  // Reports take days; totals take months ("the day is ignored").
  const byDay = movesIn(changes, day);
  const byMonth = movesIn(changes, month);
  const dates = changes.map((c) => (c.dateRange ? [day(c.dateRange[0]), day(c.dateRange[1])] : [day(c.date), day(c.date)]));
  const postings = changes.some((c) => c.postings);

  /** A list of transactions by `date`: does its range hold a changed transaction? */
  const listed = (q: Query): boolean => {
    const start = text(q.start_date);
    const end = text(q.end_date);
    return dates.some(([first, last]) => (!start || last >= day(start)) && (!end || first <= day(end)));
  };
  const d = (v: unknown) => {
    const t = text(v);
    return t === undefined ? undefined : day(t);
  };
  const m = (v: unknown) => {
    const t = text(v);
    return t === undefined ? undefined : month(t);
  };

  return (req) => {
    const q: Query = req.query ?? {};
    // A walk reads its own dates back (every entry is checked against them), so it can be placed.
    if (req.path === '/journal_entries' && walkKind(req)) return byDepartment(changes, d(q.start_date), d(q.end_date));
    switch (req.path) {
      case '/reports/income_statement':
        return activity(byDay, d(q.start_date), d(q.end_date));
      case '/reports/cash_flow':
        return cashFlow(byDay, d(q.start_date), d(q.end_date));
      case '/reports/balance_sheet':
        return balance(byDay, d(q.date));
      case '/aggregations/total':
        if (text(q.date)) return balance(byMonth, m(q.date));
        // The deprecated month parameters (YYYY-MM) read the same way.
        return activity(byMonth, m(q.start_date ?? q.start_month), m(q.end_date ?? q.end_month));
      case '/transactions':
        return listed(q);
      case '/journal_entries':
        // Its date filter's names are not shown: any change may be in it.
        return changes.length > 0;
      case '/parties/merchants':
        // Names across all months: only a new, deleted or recategorised transaction can change them.
        return postings;
      default:
        // Company, categories, departments: no transaction changes them.
        return false;
    }
  };
}
