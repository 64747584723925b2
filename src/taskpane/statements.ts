// Statements in sheets, host-free: which reports a (statement, period, layout) needs, what that costs,
// fetching them through the shared cache with progress, rendering them with the engine (the one place
// cents become units) and writing the block through the gateway, recorded as a binding so Refresh can
// rebuild it in place.

import type { Client } from '../api';
import type { ReportDateParams, ReportPeriodParams } from '../api/types';
import type { Result } from '../engine/dates';
import {
  customPeriod,
  namedPeriod,
  periodLabel,
  priorPeriod,
  samePeriodLastYear,
  splitPeriod,
  type NamedPeriodKey,
  type Period,
} from '../engine/periods';
import { renderStatement, type Scale, type StatementGrid, type StatementReport } from '../engine/render';
import { canonicalKey, type ReadRequest, type RequestCache } from '../engine/requestCache';
import { plural } from '../engine/text/plural';
import { cellA1, parseQualified } from '../excel/address';
import type { BindingRecord, GridWrite, Json, WorkbookGateway, WriteTarget, WrittenRange } from '../excel/gateway';

export type StatementKind = StatementReport['object'];
export type LayoutKey = 'single' | 'months' | 'quarters' | 'prior_period' | 'prior_year';
export type PeriodChoice = NamedPeriodKey | 'custom';

export const STATEMENTS: readonly { key: StatementKind; label: string; sheet: string }[] = [
  { key: 'income_statement', label: 'Income statement', sheet: 'P&L' },
  { key: 'balance_sheet', label: 'Balance sheet', sheet: 'Balance sheet' },
  { key: 'cash_flow', label: 'Cash flow', sheet: 'Cash flow' },
];

export const LAYOUTS: readonly { key: LayoutKey; label: string }[] = [
  { key: 'single', label: 'One period' },
  { key: 'months', label: 'Months side by side' },
  { key: 'quarters', label: 'Quarters side by side' },
  { key: 'prior_period', label: 'Against the prior period' },
  { key: 'prior_year', label: 'Against the same period last year' },
];

export const SCALES: readonly { key: Scale; label: string }[] = [
  { key: 'units', label: 'Units' },
  { key: 'thousands', label: 'Thousands' },
  { key: 'millions', label: 'Millions' },
];

export const STATEMENT_BINDING_KIND = 'statement';

/** A block is shown as stale when its data is older than this. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Everything a statement block is built from; stored in its binding. */
export interface StatementSpec {
  statement: StatementKind;
  /** What the user picked (for the description); the dates below are what is fetched. */
  period: PeriodChoice;
  start: string;
  end: string;
  layout: LayoutKey;
  scale: Scale;
  fiscalYearStartMonth: number;
}

export interface StatementColumn {
  /** Periodic statements. */
  start?: string;
  end?: string;
  /** Balance sheet: the date it is taken at. */
  date?: string;
  request: ReadRequest;
}

export function statementLabel(kind: StatementKind): string {
  return STATEMENTS.find((s) => s.key === kind)?.label ?? kind;
}

export function layoutLabel(layout: LayoutKey): string {
  return LAYOUTS.find((l) => l.key === layout)?.label ?? layout;
}

/** The period the user picked, resolved against the company's today. */
export function resolvePeriod(
  choice: PeriodChoice,
  options: { today: string; fiscalYearStartMonth: number; customStart?: string; customEnd?: string },
): Result<Period> {
  if (choice === 'custom') {
    return customPeriod(options.customStart ?? '', options.customEnd ?? '', { fiscalYearStartMonth: options.fiscalYearStartMonth });
  }
  return { ok: true, value: namedPeriod(choice, { today: options.today, fiscalYearStartMonth: options.fiscalYearStartMonth }) };
}

/** "FY2025", "Q3 2026", "2026-07-15 to 2026-08-10": the label of the spec's whole period. */
export function specPeriodLabel(spec: Pick<StatementSpec, 'start' | 'end' | 'fiscalYearStartMonth'>): string {
  try {
    return periodLabel(spec.start, spec.end, { fiscalYearStartMonth: spec.fiscalYearStartMonth });
  } catch {
    return `${spec.start} to ${spec.end}`;
  }
}

/** The columns of a block, in order: one report request each. */
export function columnsFor(spec: StatementSpec): StatementColumn[] {
  const options = { fiscalYearStartMonth: spec.fiscalYearStartMonth };
  const base = { start: spec.start, end: spec.end };
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

/** The distinct requests of some columns (the same request twice is one call). */
export function distinctRequests(companyId: string, columns: readonly StatementColumn[]): Map<string, ReadRequest> {
  const out = new Map<string, ReadRequest>();
  for (const c of columns) out.set(canonicalKey(companyId, c.request), c.request);
  return out;
}

export interface Cost {
  /** Distinct requests needed. */
  requests: number;
  /** Of those, answered by the cache. */
  cached: number;
  /** Calls it will spend: requests not cached. */
  calls: number;
}

/** What fetching these columns through the cache will spend; never calls the API. */
export async function estimateCost(cache: RequestCache, companyId: string, columns: readonly StatementColumn[]): Promise<Cost> {
  const requests = [...distinctRequests(companyId, columns).values()];
  const hits = await Promise.all(requests.map((r) => cache.peek(companyId, r)));
  const cached = hits.filter((h) => h !== undefined).length;
  return { requests: requests.length, cached, calls: requests.length - cached };
}

export function costText(cost: Cost): string {
  return `Costs ${plural(cost.calls, 'call')} (${cost.cached} cached)`;
}

/** One API call for one report request. */
function callReport(client: Client, request: ReadRequest): Promise<StatementReport> {
  const q = request.query ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (request.path) {
    case '/reports/income_statement':
      return client.reports.incomeStatement({ start_date: text(q.start_date), end_date: text(q.end_date) }) as Promise<StatementReport>;
    case '/reports/cash_flow':
      return client.reports.cashFlow({ start_date: text(q.start_date), end_date: text(q.end_date) }) as Promise<StatementReport>;
    case '/reports/balance_sheet':
      return client.reports.balanceSheet({ date: text(q.date) }) as Promise<StatementReport>;
    default:
      return Promise.reject(new Error(`Not a report request: ${request.path}`));
  }
}

export interface FetchOptions {
  client: Client;
  cache: RequestCache;
  companyId: string;
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
}

/**
 * The reports of the columns, each distinct request once, concurrently (the client's limiter paces them).
 * When one fails, the others still settle (their answers are cached, so a retry costs less), then the
 * first failure is thrown, a monthly-limit one before any other.
 */
export async function fetchColumns(columns: readonly StatementColumn[], options: FetchOptions): Promise<Fetched> {
  const { client, cache, companyId } = options;
  const distinct = distinctRequests(companyId, columns);
  const total = distinct.size;
  let done = 0;
  options.onProgress?.(0, total);
  const answers = new Map<string, { value: StatementReport; fetchedAt: number }>();
  const settled = await Promise.allSettled(
    [...distinct.entries()].map(async ([key, request]) => {
      const answer = options.fresh
        ? await cache.refresh<StatementReport>(companyId, request, () => callReport(client, request))
        : await cache.get<StatementReport>(companyId, request, () => callReport(client, request));
      answers.set(key, answer);
      done += 1;
      options.onProgress?.(done, total);
    }),
  );
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  if (failures.length > 0) {
    throw failures.find((e) => (e as { code?: unknown })?.code === 'monthly_limit_exceeded') ?? failures[0];
  }
  const reports = columns.map((c) => answers.get(canonicalKey(companyId, c.request))!.value);
  const fetchedAt = Math.min(...[...answers.values()].map((a) => a.fetchedAt));
  return { reports, fetchedAt };
}

/** The engine's rendering of a block. */
export function renderSpec(spec: StatementSpec, fetched: Fetched, companyName: string): StatementGrid {
  return renderStatement({
    reports: fetched.reports,
    companyName,
    refreshedAt: new Date(fetched.fetchedAt),
    scale: spec.scale,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
  });
}

/** StatementGrid -> the gateway's GridWrite: strings stay text, numbers numbers, empties blank. */
export function toGridWrite(grid: StatementGrid): GridWrite {
  return {
    values: grid.rows.map((row) => row.map((cell) => (cell.kind === 'empty' ? null : cell.value))),
    cellFormats: grid.numberFormats,
    boldRows: grid.rowInfo.flatMap((info, r) => (info.bold ? [r] : [])),
    indentLevels: grid.rowInfo.map((info) => info.indent),
    outlineLevels: grid.rowInfo.map((info) => info.outlineLevel),
    columnWidths: grid.columnWidths,
  };
}

export function outlineDepth(grid: StatementGrid): number {
  return grid.rowInfo.reduce((m, info) => Math.max(m, info.outlineLevel), 0);
}

// ---------------------------------------------------------------------------------------------------
// Bindings

export function specToParameters(spec: StatementSpec): { [key: string]: Json } {
  return {
    statement: spec.statement,
    period: spec.period,
    start: spec.start,
    end: spec.end,
    layout: spec.layout,
    scale: spec.scale,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
  };
}

/**
 * What a drill-down from a cell of the block needs, stored next to the spec: the category of each row of
 * the block (null for headings, totals, subtotals and cash-flow groups, which have no journal lines of
 * their own) and the period of each number column (block columns 1..n; a balance-sheet column is its
 * date, start = end). Rewritten on every refresh, since the rows follow the data.
 */
export function drillParameters(grid: StatementGrid): { rowCategoryIds: (string | null)[]; columnPeriods: { start: string; end: string }[] } {
  return {
    rowCategoryIds: grid.rowInfo.map((info) => (info.role === 'line' && info.categoryId && !info.isGroup ? info.categoryId : null)),
    columnPeriods: grid.columns.map((c) => ({ start: c.start ?? c.date ?? '', end: c.end ?? c.date ?? '' })),
  };
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** The spec a binding was written from, or null when it is not a statement block this pane understands. */
export function specFromBinding(binding: BindingRecord): StatementSpec | null {
  if (binding.kind !== STATEMENT_BINDING_KIND) return null;
  const p = binding.parameters as Record<string, Json>;
  const statement = STATEMENTS.find((s) => s.key === p.statement)?.key;
  const layout = LAYOUTS.find((l) => l.key === p.layout)?.key;
  const scale = SCALES.find((s) => s.key === p.scale)?.key;
  if (!statement || !layout || !scale) return null;
  if (typeof p.start !== 'string' || typeof p.end !== 'string' || !ISO.test(p.start) || !ISO.test(p.end) || p.start > p.end) return null;
  const fy = typeof p.fiscalYearStartMonth === 'number' && p.fiscalYearStartMonth >= 1 && p.fiscalYearStartMonth <= 12 ? p.fiscalYearStartMonth : 1;
  return {
    statement,
    period: typeof p.period === 'string' ? (p.period as PeriodChoice) : 'custom',
    start: p.start,
    end: p.end,
    layout,
    scale,
    fiscalYearStartMonth: fy,
  };
}

/** "Income statement, FY2025, months side by side, in thousands". */
export function describeSpec(spec: StatementSpec): string {
  const units = spec.scale === 'units' ? '' : `, in ${spec.scale}`;
  return `${statementLabel(spec.statement)}, ${specPeriodLabel(spec)}, ${layoutLabel(spec.layout).toLowerCase()}${units}`;
}

export function sheetNameFor(spec: StatementSpec): string {
  const s = STATEMENTS.find((x) => x.key === spec.statement);
  return `${s?.sheet ?? spec.statement} ${specPeriodLabel(spec)}`;
}

let sequence = 0;
function newBindingId(now: number): string {
  sequence += 1;
  const random = typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `statement-${now.toString(36)}-${sequence}-${random}`;
}

export interface BlockDeps {
  gateway: WorkbookGateway;
  client: Client;
  cache: RequestCache;
  companyId: string;
  companyName: string;
  now: () => number;
}

export interface BlockResult {
  written: WrittenRange;
  binding: BindingRecord;
}

/** Fetches, renders and writes a new block (on a new sheet or at the selected cell) and records it. */
export async function insertStatement(
  deps: BlockDeps,
  spec: StatementSpec,
  where: 'newSheet' | 'selection',
  onProgress?: (done: number, total: number) => void,
): Promise<BlockResult> {
  const columns = columnsFor(spec);
  const fetched = await fetchColumns(columns, { client: deps.client, cache: deps.cache, companyId: deps.companyId, onProgress });
  const grid = renderSpec(spec, fetched, deps.companyName);
  let target: WriteTarget;
  if (where === 'selection') {
    const cell = await deps.gateway.getSelectedCell();
    target = { kind: 'anchor', sheet: cell.sheet, cell: cell.cell };
  } else {
    target = { kind: 'newSheet', name: sheetNameFor(spec) };
  }
  const written = await deps.gateway.writeGrid(target, toGridWrite(grid));
  const binding: BindingRecord = {
    id: newBindingId(deps.now()),
    kind: STATEMENT_BINDING_KIND,
    parameters: { ...specToParameters(spec), ...drillParameters(grid) },
    company: deps.companyId,
    refreshedAt: new Date(fetched.fetchedAt).toISOString(),
    address: written.address,
    outlineDepth: outlineDepth(grid),
  };
  await deps.gateway.saveBinding(binding);
  return { written, binding };
}

/**
 * Rebuilds a block in place: same periods, new data, written over the old block (which is cleared and
 * ungrouped first), and the binding updated. `fresh` bypasses the cache (Refresh this block); Refresh all
 * has cleared the cache already and goes through it, so blocks sharing a report share one call.
 */
export async function refreshStatement(
  deps: BlockDeps,
  binding: BindingRecord,
  options: { fresh: boolean; onProgress?: (done: number, total: number) => void },
): Promise<BlockResult> {
  const spec = specFromBinding(binding);
  if (!spec) throw new Error(`Block ${binding.id} is not a statement this pane can rebuild`);
  const fetched = await fetchColumns(columnsFor(spec), {
    client: deps.client,
    cache: deps.cache,
    companyId: deps.companyId,
    fresh: options.fresh,
    onProgress: options.onProgress,
  });
  const grid = renderSpec(spec, fetched, deps.companyName);
  const { sheet, box } = parseQualified(binding.address);
  const written = await deps.gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(box.row, box.col) }, toGridWrite(grid), {
    replace: { address: binding.address, outlineDepth: binding.outlineDepth ?? 0 },
  });
  const next: BindingRecord = {
    ...binding,
    parameters: { ...binding.parameters, ...drillParameters(grid) },
    refreshedAt: new Date(fetched.fetchedAt).toISOString(),
    address: written.address,
    outlineDepth: outlineDepth(grid),
  };
  await deps.gateway.saveBinding(next);
  return { written, binding: next };
}
