// Changes no sync shows (issue 34, item 3): the chart of accounts and the departments can change with no
// transaction changing. The spec gives no cheaper signal than the lists themselves: categories and
// departments carry no `updated` field (only `created`), the incremental sync covers transactions only,
// events and webhooks are "not shown", and a report names only the categories it holds, and only when it is
// fetched again. So Refresh changes reads each list again that the cached answers depend on -- one call each,
// only when the cache holds it -- and compares. A difference marks what depends on it:
//   - categories (a rename, a move under another parent, a new or removed category): every statement, total,
//     merchant list and transactions list (names, parent totals, name resolution, derived figures);
//   - departments: the answers by department (journal walks) and the transactions lists (department names).

import type { CallOptions } from '../../api/transport';
import type { CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';

export interface ReferenceClient {
  categories: { list(opts?: CallOptions): Promise<unknown> };
  departments: { list(opts?: CallOptions): Promise<unknown> };
}

export interface ReferenceChanges {
  /** Calls spent (one per list the cache holds). */
  calls: number;
  /** Which lists changed. */
  changed: Array<'categories' | 'departments'>;
  /** Cached answers marked due by them. */
  marked: number;
}

const CATEGORIES: ReadRequest = { path: '/categories' };
const DEPARTMENTS: ReadRequest = { path: '/departments' };

/** What a list says, for comparing: its items (the envelope's url carries nothing that changes). */
const itemsOf = (value: unknown) => JSON.stringify((value as { data?: unknown } | null)?.data ?? value);

const dependsOnCategories = (req: ReadRequest) => req.path !== '/categories' && req.path !== '/departments' && req.path !== '/company';
const dependsOnDepartments = (req: ReadRequest) => req.path === '/journal_entries' || req.path === '/transactions';

export async function referenceChanges(reader: CachedReader, client: ReferenceClient): Promise<ReferenceChanges> {
  const company = await reader.companyId();
  const out: ReferenceChanges = { calls: 0, changed: [], marked: 0 };
  const lists = [
    { name: 'categories' as const, req: CATEGORIES, fetch: (o: CallOptions) => client.categories.list(o), dependents: dependsOnCategories },
    { name: 'departments' as const, req: DEPARTMENTS, fetch: (o: CallOptions) => client.departments.list(o), dependents: dependsOnDepartments },
  ];
  for (const list of lists) {
    const kept = await reader.cache.peek(company, list.req);
    if (!kept) continue;
    out.calls += 1;
    const now = await reader.read(list.req, list.fetch, { fresh: true });
    if (itemsOf(now.value) === itemsOf(kept.value)) continue;
    out.changed.push(list.name);
    out.marked += (await reader.markStale(list.dependents)).length;
  }
  return out;
}

export function describeReferenceChanges(changes: ReferenceChanges): string {
  if (changes.changed.length === 0) return '';
  const what = changes.changed.map((c) => (c === 'categories' ? 'the chart of accounts' : 'the departments')).join(' and ');
  return ` ${what[0].toUpperCase()}${what.slice(1)} changed: ${changes.marked} cached ${changes.marked === 1 ? 'figure depends' : 'figures depend'} on ${changes.changed.length > 1 ? 'them' : 'it'} and ${changes.marked === 1 ? 'is' : 'are'} fetched again.`;
}
