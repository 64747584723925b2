// The statement block "P&L by department": one column per department of one level of the tree (split.ts),
// Unassigned, the columns only some periods need, then Total: the API's own income statement for the
// period. Four answers, read through the cached reader like every block's: the period's journal activity
// (a walk, priced by its pages), the income statement, and the category and department lists. The columns
// must add up to the statement line by line (book.ts) before anything is written.

import type { CallOptions } from '../../api/transport';
import type { Category, Department, FullList, IncomeStatement, ReportPeriodParams } from '../../api/types';
import type { CachedReader } from '../reader/cachedReader';
import type { CachedAnswer, ReadRequest } from '../reader/requestCache';
import { Refusal } from '../refusal';
import type { StatementReport } from '../render/reportShapes';
import { buildTree } from '../tree';
import { activityRequest, fetchActivity, type ActivityPeriod, type DepartmentActivity, type JournalClient } from './activity';
import { DepartmentBook } from './book';
import { defaultParent, splitUnder, type SplitColumn } from './split';

/** What the block reads of the API client (createClient's result satisfies it). */
export interface DepartmentsClient extends JournalClient {
  readonly categories: { list(opts?: CallOptions): Promise<FullList<Category>> };
  readonly departments: { list(opts?: CallOptions): Promise<FullList<Department>> };
  readonly reports: { incomeStatement(params: ReportPeriodParams, opts?: CallOptions): Promise<unknown> };
}

export interface ByDepartment extends ActivityPeriod {
  /** The department whose children are the columns; absent: the tree's top tier. */
  readonly parent?: string;
}

export const CATEGORIES_REQUEST: ReadRequest = { path: '/categories' };
export const DEPARTMENTS_REQUEST: ReadRequest = { path: '/departments' };

export function incomeStatementRequest(period: ActivityPeriod): ReadRequest {
  const query: ReportPeriodParams = { start_date: period.start, end_date: period.end };
  return { path: '/reports/income_statement', query: { ...query } };
}

/** What the block reads, each once: what it costs and what a refresh of it fetches again. */
export function byDepartmentRequests(period: ActivityPeriod): ReadRequest[] {
  return [activityRequest(period), incomeStatementRequest(period), CATEGORIES_REQUEST, DEPARTMENTS_REQUEST];
}

/** The block's figures, as a statement block's fetch gives them, with what the renderer and the binding need besides. */
export interface DepartmentColumns {
  /** One report per column, Total last. */
  reports: StatementReport[];
  /** Unix ms of the oldest answer used. */
  fetchedAt: number;
  /** The column headers: department names, Unassigned, Total. */
  labels: string[];
  /** The line under the statement's name. */
  description: string;
  /** Stored in the binding next to the drill-down's: what each column is (null: the Total, the whole statement). */
  parameters: { columnDepartments: (string | null)[] };
}

export interface FetchDepartmentsOptions {
  reader: CachedReader;
  client: DepartmentsClient;
  /** Fetch again whatever is cached (Refresh this block). */
  fresh?: boolean;
  onProgress?: (done: number, total: number) => void;
}

/** How a binding names a column that is not one department: its kind, with the parent for "<parent> itself". */
function columnName(column: SplitColumn): string {
  return column.kind === 'department' ? column.departmentId! : column.kind === 'parent' ? `parent:${column.departmentId}` : column.kind;
}

export async function fetchByDepartment(block: ByDepartment, options: FetchDepartmentsOptions): Promise<DepartmentColumns> {
  const { reader, client, fresh } = options;
  const period: ActivityPeriod = { start: block.start, end: block.end };
  let done = 0;
  const total = 4;
  options.onProgress?.(0, total);
  const read = async <T>(req: ReadRequest, fetch: (o: CallOptions) => Promise<T>): Promise<CachedAnswer<T>> => {
    const answer = await reader.read<T>(req, fetch, { fresh });
    // A block is written from one refresh, never a mix of old and new figures (as fetchColumns).
    if (answer.stale) throw answer.stale.error;
    options.onProgress?.(++done, total);
    return answer;
  };
  const settled = await Promise.allSettled([
    read<DepartmentActivity>(activityRequest(period), (o) => fetchActivity(client, period, o)),
    read<IncomeStatement>(incomeStatementRequest(period), (o) => client.reports.incomeStatement({ start_date: period.start, end_date: period.end }, o) as Promise<IncomeStatement>),
    read<FullList<Category>>(CATEGORIES_REQUEST, (o) => client.categories.list(o)),
    read<FullList<Department>>(DEPARTMENTS_REQUEST, (o) => client.departments.list(o)),
  ] as const);
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  if (failures.length > 0) throw failures.find((e) => (e as { code?: unknown })?.code === 'monthly_limit_exceeded') ?? failures[0];
  const [activity, statement, categories, departments] = settled.map((s) => (s as PromiseFulfilledResult<CachedAnswer<unknown>>).value) as [
    CachedAnswer<DepartmentActivity>,
    CachedAnswer<IncomeStatement>,
    CachedAnswer<FullList<Category>>,
    CachedAnswer<FullList<Department>>,
  ];

  const tree = buildTree(departments.value.data ?? [], 'department');
  if (block.parent && !tree.byId.has(block.parent)) {
    throw new Refusal(
      'The department is no longer listed',
      `This block shows the departments under ${block.parent}, which the API's department list no longer has. Insert the block again under another department; this one was left as it was.`,
      'department_gone',
    );
  }
  // No department chosen (the board pack's block): under the company's own department when the tree has one
  // at its top, as the Reports tab proposes, not its one top-tier column.
  const split = splitUnder(tree, block.parent ?? defaultParent(tree));
  const book = new DepartmentBook(statement.value, activity.value, buildTree(categories.value.data ?? [], 'category'));
  const shown = split.columns
    .map((column, i) => ({ column, includes: (d: string | null) => split.columnOf(d) === i }))
    .filter(({ column, includes }) => column.always || book.has(includes));
  return {
    reports: [...shown.map(({ includes }) => book.report(includes)), statement.value] as unknown as StatementReport[],
    fetchedAt: Math.min(activity.fetchedAt, statement.fetchedAt, categories.fetchedAt, departments.fetchedAt),
    labels: [...shown.map(({ column }) => column.label), 'Total'],
    description: `For the period ${period.start} to ${period.end}, by department: ${split.described}, each with the departments under it`,
    parameters: { columnDepartments: [...shown.map(({ column }) => columnName(column)), null] },
  };
}
