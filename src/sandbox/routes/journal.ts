import type { RouteModule } from '../context';
import { callerOf } from '../context';
import type { Db } from '../db/open';
import { requirePermissions } from '../http/auth';
import { invalidDateRange, invalidRequest, resourceMissing } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { optFilterDate, optString, queryOf } from '../http/params';
import { departmentSubtreeIds, entryPosition, getJournalEntry, listJournalEntries, type EntryPosition, type JournalFilters } from '../ledger/journal';
import { loadChart, subtree } from '../ledger/tree';

type Query = ReturnType<typeof queryOf>;

/** An id filter: must look like an id of its kind; a well-formed id that names nothing matches nothing. */
function idFilter(q: Query, name: string, prefix: string): string | undefined {
  const v = optString(q, name);
  if (v === undefined) return undefined;
  if (name === 'category_id' && v.startsWith('grp_')) {
    throw invalidRequest('grp_ ids are cash flow presentation groups, not categories; they cannot filter journal entries.', name);
  }
  if (!new RegExp(`^${prefix}_[A-Za-z0-9_]+$`).test(v)) throw invalidRequest(`${name} must be a ${prefix}_ id.`, name);
  return v;
}

/** Category and department filters match the named node and everything under it. */
function journalFilters(db: Db, companyId: string, q: Query): JournalFilters {
  const categoryId = idFilter(q, 'category_id', 'cat');
  const transactionId = idFilter(q, 'transaction_id', 'txn');
  const departmentId = idFilter(q, 'department_id', 'dept');
  const start = optFilterDate(q, 'start_date');
  const end = optFilterDate(q, 'end_date');
  if (start !== undefined && end !== undefined && start > end) throw invalidDateRange();
  const filters: JournalFilters = { transactionId, start, end };
  if (categoryId !== undefined) {
    const node = loadChart(db, companyId).byId.get(categoryId);
    filters.categoryIds = node ? subtree(node).map((n) => n.id) : [];
  }
  if (departmentId !== undefined) filters.departmentIds = departmentSubtreeIds(db, companyId, departmentId);
  return filters;
}

/** The cursor is the id of the last entry of the previous page; one no longer in the books is unusable. */
function cursorPosition(db: Db, companyId: string, cursor: string): EntryPosition {
  const position = entryPosition(db, companyId, cursor);
  if (!position) throw invalidRequest('starting_after does not name a journal entry of this company.', 'starting_after');
  return position;
}

export const journalRoutes: RouteModule = (app, ctx) => {
  app.get('/journal_entries', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const q = queryOf(req);
    const { limit, startingAfter } = pageParams(q);
    const filters = journalFilters(ctx.db, caller.companyId, q);
    const after = startingAfter === undefined ? null : cursorPosition(ctx.db, caller.companyId, startingAfter);
    const rows = listJournalEntries(ctx.db, caller.companyId, filters, after, limit + 1);
    return pageOf('/journal_entries', rows, limit, (r) => r, (r) => r.id);
  });

  app.get('/journal_entries/:id', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const { id } = req.params as { id: string };
    const entry = getJournalEntry(ctx.db, caller.companyId, id);
    if (!entry) throw resourceMissing(`No such journal entry: '${id.slice(0, 80)}'.`, 'id');
    return entry;
  });
};
