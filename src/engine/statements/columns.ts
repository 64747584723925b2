// The columns of a statement block: one report request per period of the layout, and fetching them
// through the one cached reader (each distinct request once; a report a FIN cell or another block already
// fetched costs nothing).

import type { BalanceSheet, CashFlow, ReportDateParams, ReportPeriodParams } from '../../api/types';
import { cashRequests, lacksCash, withCashFrom } from '../reader/cashFlowCash';
import type { CallOptions } from '../../api/transport';
import { priorPeriod, samePeriodLastYear, splitPeriod, yearToDate, type Period } from '../dates';
import type { StatementReport } from '../render';
import type { CachedReader, CallCost } from '../reader/cachedReader';
import { requestKey, type CachedAnswer, type ReadRequest } from '../reader/requestCache';
import { plural } from '../text/plural';
import { derivedNote } from '../reader/derivedCost';
import { byDepartmentRequests } from '../departments/block';
import { CATEGORIES_REQUEST } from '../budgets/column';
import { comparesBudget, type StatementSpec } from './spec';

export interface StatementColumn {
  /** Periodic statements. */
  start?: string;
  end?: string;
  /** Balance sheet: the date it is taken at. */
  date?: string;
  request: ReadRequest;
}

/** What fetching the reports needs of the API client (createClient's result satisfies it). */
export interface ReportsClient {
  readonly reports: {
    incomeStatement(params: ReportPeriodParams, opts?: CallOptions): Promise<unknown>;
    balanceSheet(params: ReportDateParams, opts?: CallOptions): Promise<unknown>;
    cashFlow(params: ReportPeriodParams, opts?: CallOptions): Promise<unknown>;
  };
}

/**
 * The columns of a block, in order: one report request each. By department, the columns are known only
 * from the department list: these are the requests the block reads (src/engine/departments/block.ts).
 */
export function columnsFor(spec: StatementSpec): StatementColumn[] {
  const options = { fiscalYearStartMonth: spec.fiscalYearStartMonth };
  const base = { start: spec.start, end: spec.end };
  if (spec.layout === 'by_department') return byDepartmentRequests(base).map((request) => ({ ...base, request }));
  let periods: Pick<Period, 'start' | 'end'>[];
  switch (spec.layout) {
    case 'months':
      periods = splitPeriod(base, 'month', options);
      break;
    case 'quarters':
      periods = splitPeriod(base, 'quarter', options);
      break;
    case 'prior_period':
      periods = [base, priorPeriod(base, options)];
      break;
    case 'prior_year':
      periods = [base, samePeriodLastYear(base, options)];
      break;
    case 'prior_ytd': {
      // The fiscal year to the end of the chosen period, against the same span a year earlier.
      const ytd = yearToDate(spec.end, spec.fiscalYearStartMonth);
      periods = [ytd, samePeriodLastYear(ytd, options)];
      break;
    }
    default:
      periods = [base];
  }
  return periods.map((p) => {
    if (spec.statement === 'balance_sheet') {
      const query: ReportDateParams = { date: p.end };
      return { date: p.end, request: { path: '/reports/balance_sheet', query: { ...query } } };
    }
    const query: ReportPeriodParams = { start_date: p.start, end_date: p.end };
    return { start: p.start, end: p.end, request: { path: `/reports/${spec.statement}`, query: { ...query } } };
  });
}

/**
 * Every request a block reads: its columns' reports, and against a budget the chart of accounts its lines are
 * matched to (the budget itself is read from the workbook: no call).
 */
export function blockRequests(spec: StatementSpec): ReadRequest[] {
  const reports = columnsFor(spec).map((c) => c.request);
  return comparesBudget(spec) ? [...reports, CATEGORIES_REQUEST] : reports;
}

/** The distinct requests of some columns (the same request twice is one call), by request key. */
export function distinctRequests(columns: readonly StatementColumn[]): Map<string, ReadRequest> {
  const out = new Map<string, ReadRequest>();
  for (const c of columns) out.set(requestKey(c.request), c.request);
  return out;
}

/**
 * "Costs 3 calls (9 cached)". A walk over pages not read yet (by department: the period's journal entries) is
 * priced "about" from the company's other walks, or "at least" its first page (reader/walks.ts).
 */
export function costText(cost: CallCost): string {
  const pages = cost.estimated ? '; journal entries are read 500 to a call, so their pages are known once read' : '';
  return `Costs ${cost.estimated ? `${cost.estimated} ` : ''}${plural(cost.calls, 'call')} (${cost.cached} cached${pages})${derivedNote(cost)}`;
}

/** One API call for one report request. */
function callReport(client: ReportsClient, request: ReadRequest, opts: CallOptions): Promise<StatementReport> {
  const q = request.query ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (request.path) {
    case '/reports/income_statement':
      return client.reports.incomeStatement({ start_date: text(q.start_date), end_date: text(q.end_date) }, opts) as Promise<StatementReport>;
    case '/reports/cash_flow':
      return client.reports.cashFlow({ start_date: text(q.start_date), end_date: text(q.end_date) }, opts) as Promise<StatementReport>;
    case '/reports/balance_sheet':
      return client.reports.balanceSheet({ date: text(q.date) }, opts) as Promise<StatementReport>;
    default:
      return Promise.reject(new Error(`Not a report request: ${request.path}`));
  }
}

export interface FetchOptions {
  reader: CachedReader;
  client: ReportsClient;
  /** Fetch again whatever is cached, and keep the new answers (Refresh this block): one call per request. */
  fresh?: boolean;
  /** Called as requests settle: done of total distinct requests. */
  onProgress?: (done: number, total: number) => void;
}

export interface Fetched {
  /** One report per column. */
  reports: StatementReport[];
  /** Unix ms of the oldest answer used (what "Refreshed" on the block means). */
  fetchedAt: number;
  /** Column headers and the description line, where the columns are not periods (by department). */
  labels?: string[];
  description?: string;
  /** Kept in the binding with the drill-down's parameters (what each column is, by department). */
  parameters?: Record<string, (string | null)[] | string | null>;
}

/**
 * The reports of the columns, each distinct request once, concurrently (the client's limiter paces them).
 * When one fails, the others still settle (their answers are cached, so a retry costs less), then the
 * first failure is thrown, a monthly-limit one before any other. An old answer served because its refresh
 * failed counts as that failure.
 */
export async function fetchColumns(columns: readonly StatementColumn[], options: FetchOptions): Promise<Fetched> {
  const { reader, client } = options;
  const distinct = distinctRequests(columns);
  const total = distinct.size;
  let done = 0;
  options.onProgress?.(0, total);
  const answers = new Map<string, CachedAnswer<StatementReport>>();
  const settled = await Promise.allSettled(
    [...distinct.entries()].map(async ([key, request]) => {
      const answer = await reader.read<StatementReport>(request, (o) => callReport(client, request, o), { fresh: options.fresh });
      answers.set(key, answer);
      done += 1;
      options.onProgress?.(done, total);
    }),
  );
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  // An answer kept from before because its refresh failed is a failure here: a block is written from one
  // refresh, never a mix of old and new figures, so the block keeps what it shows and is marked failed.
  for (const answer of answers.values()) if (answer.stale) failures.push(answer.stale.error);
  if (failures.length > 0) {
    throw failures.find((e) => (e as { code?: unknown })?.code === 'monthly_limit_exceeded') ?? failures[0];
  }
  const reports = columns.map((c) => answers.get(requestKey(c.request))!.value);
  const cash = await cashOfCashFlows(columns, reports, options);
  const fetchedAt = Math.min(...[...answers.values()].map((a) => a.fetchedAt), ...cash.fetchedAt);
  return { reports: cash.reports, fetchedAt };
}

/**
 * Cash flows the API gave without beginning and ending cash get the balance sheets' (cashFlowCash.ts),
 * through the same cache: a balance sheet another column, block or cell holds costs nothing.
 */
async function cashOfCashFlows(
  columns: readonly StatementColumn[],
  reports: StatementReport[],
  options: FetchOptions,
): Promise<{ reports: StatementReport[]; fetchedAt: number[] }> {
  const lacking = columns.map((c, i) => (reports[i].object === 'cash_flow' && lacksCash(reports[i] as unknown as CashFlow) ? i : -1)).filter((i) => i >= 0);
  if (lacking.length === 0) return { reports, fetchedAt: [] };
  const { reader, client } = options;
  reader.noteCashFlowsLackCash();
  // A month's closing balance sheet is the next month's opening one: each distinct request is read once.
  const needed = new Map(lacking.flatMap((i) => cashRequests(columns[i].start!, columns[i].end!)).map((r) => [requestKey(r), r]));
  const sheets = new Map<string, CachedAnswer<BalanceSheet>>();
  await Promise.all(
    [...needed].map(async ([key, request]) => {
      const answer = await reader.read<BalanceSheet>(request, (o) => callReport(client, request, o) as unknown as Promise<BalanceSheet>, { fresh: options.fresh });
      if (answer.stale) throw answer.stale.error;
      sheets.set(key, answer);
    }),
  );
  const out = [...reports];
  for (const i of lacking) {
    const [opening, closing] = cashRequests(columns[i].start!, columns[i].end!).map((r) => sheets.get(requestKey(r))!.value);
    out[i] = withCashFrom(reports[i] as unknown as CashFlow, opening, closing) as unknown as StatementReport;
  }
  return { reports: out, fetchedAt: [...sheets.values()].map((a) => a.fetchedAt) };
}
