// The journal activity of one period by category and department: what every figure by department is read
// from (docs/architecture.md, "Figures by department", says why journal entries and what it costs).
//
// The API's reports and totals have no department; its journal entries carry one on each line. So the
// period's entries are walked once, every page of 500 (GET /journal_entries with the period's dates), and
// kept as one answer: each (category, department) pair's credit minus debit, which is the income
// statement's sign. A few hundred pairs, where the entries themselves would be megabytes: the answer fits
// the cache's budget, so a reopened workbook reads it again for nothing. The walk is priced by its pages
// (reader/walks.ts).
//
// The journal entry's fields and its date filter's names are not shown in the spec: entries are read by
// src/api/journal.ts's rules, and every entry must be dated inside the period asked, as a drill-down checks.
// An API that does not read the date range under the names sent (start_date, end_date) answers an entry of
// another day: the walk stops there, on its first page, and the answer is refused by name.

import { UnreadableAnswer } from '../../api/answerShape';
import { iteratePages } from '../../api/paging';
import type { CallOptions } from '../../api/transport';
import type { JournalEntry, JournalEntryListParams, ListPage } from '../../api/types';
import type { ReadRequest } from '../reader/requestCache';
import { WALK_PAGE_SIZE, WALK_PARAM } from '../reader/walks';

const LIST = '/journal_entries';

/** The kind of walk (reader/walks.ts), and the version of the answer's shape kept under it. */
export const DEPARTMENT_WALK = 'department-activity-v1';

/** One (category, department) pair: credit minus debit in cents; department null where the line has none. */
export type ActivityLine = readonly [categoryId: string, departmentId: string | null, cents: number];

export interface DepartmentActivity {
  readonly object: 'department_activity';
  readonly start_date: string;
  readonly end_date: string;
  /** Calls the walk took, and entries it read (reader/walks.ts prices the next walk by them). */
  readonly pages: number;
  readonly items: number;
  /** Non-zero pairs only. */
  readonly lines: readonly ActivityLine[];
  /** Some line came as one signed amount, read as debit positive (src/api/journal.ts). */
  readonly signed: boolean;
  /** Unix seconds of the latest entry's creation (as a report's refreshed_at); null when none. */
  readonly refreshed_at: number | null;
}

/** What the walk needs of the API client (createClient's result satisfies it). */
export interface JournalClient {
  readonly journalEntries: { list(params: JournalEntryListParams, opts?: CallOptions): Promise<ListPage<JournalEntry>> };
}

export interface ActivityPeriod {
  /** Inclusive, YYYY-MM-DD. */
  readonly start: string;
  readonly end: string;
}

/** The cached answer's request: the period and the walk's kind; `fin_walk` is never sent. */
export function activityRequest(period: ActivityPeriod): ReadRequest {
  return { path: LIST, query: { start_date: period.start, end_date: period.end, [WALK_PARAM]: DEPARTMENT_WALK } };
}

/** An entry dated outside the period: the API did not apply the date range sent. */
function outsidePeriod(entry: JournalEntry, period: ActivityPeriod): UnreadableAnswer {
  return new UnreadableAnswer({
    endpoint: LIST,
    expected: 'date range',
    found: [],
    detail:
      `The API's ${LIST} answered an entry dated ${entry.date} when asked for ${period.start} to ${period.end}: it does not read the date range ` +
      'under the names this add-in sends (start_date, end_date), so figures by department cannot be read from it. Nothing was written; ' +
      'tell whoever runs the API, and use figures without a department meanwhile',
  });
}

/** A line whose department the client could not read: booking it as no department would move its amount. */
function departmentUnread(entry: JournalEntry, fields: readonly string[]): UnreadableAnswer {
  return new UnreadableAnswer({
    endpoint: LIST,
    expected: 'department',
    found: fields,
    detail:
      `The API's ${LIST} answered a journal line of entry ${entry.id} whose department this add-in cannot read (line fields: ${fields.join(', ') || 'none'}; ` +
      'read are department_id, a dept_ id, an object whose id is one, or a department field that is null for none). Figures by department ' +
      'cannot be read from it: booked as no department they would be wrong. Nothing was written; tell whoever runs the API, and use figures without a department meanwhile',
  });
}

/** Walks the period's entries (every page) and adds their lines up by category and department. */
export async function fetchActivity(client: JournalClient, period: ActivityPeriod, opts?: CallOptions): Promise<DepartmentActivity> {
  const sums = new Map<string, { category: string; department: string | null; cents: number }>();
  let pages = 0;
  let items = 0;
  let signed = false;
  let refreshedAt: number | null = null;
  const params: JournalEntryListParams = { start_date: period.start, end_date: period.end, limit: WALK_PAGE_SIZE };
  for await (const page of iteratePages((p: JournalEntryListParams, o) => client.journalEntries.list(p, o), params, LIST, opts)) {
    pages += 1;
    for (const entry of page.data) {
      if (entry.date < period.start || entry.date > period.end) throw outsidePeriod(entry, period);
      items += 1;
      if (entry.created > 0 && (refreshedAt === null || entry.created > refreshedAt)) refreshedAt = entry.created;
      for (const line of entry.lines) {
        if (line.signed) signed = true;
        if (line.department_unread) throw departmentUnread(entry, line.department_unread);
        const key = `${line.category_id}\u0000${line.department_id ?? ''}`;
        const sum = sums.get(key) ?? { category: line.category_id, department: line.department_id, cents: 0 };
        sum.cents += line.credit_cents - line.debit_cents;
        sums.set(key, sum);
      }
    }
  }
  const lines: ActivityLine[] = [...sums.values()].filter((s) => s.cents !== 0).map((s) => [s.category, s.department, s.cents]);
  return { object: 'department_activity', start_date: period.start, end_date: period.end, pages, items, lines, signed, refreshed_at: refreshedAt };
}
