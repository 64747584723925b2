// The brain of the FIN spreadsheet functions, host-free. functions.ts parses nothing and decides nothing:
// it hands the raw cell arguments to a FinService method and turns the answer (a number, a 2-D array) or
// the FinError into a cell.
//
// Calls are the scarcest resource, so every API read goes through RequestCache.get with the request's
// canonical form: identical requests from any number of cells share one call, and the answer is kept (in
// memory and in the persistent store) until Refresh all. Value preview only peeks. After the API says the
// monthly cap is spent, nothing is sent until the reset instant; cached answers are still served.

import { DateTime } from 'luxon';
import { CAP_ZONE } from '../../api/calendar';
import { ApiError, MonthlyLimitError } from '../../api/errors';
import type { CallOptions } from '../../api/transport';
import type {
  AggregationTotal,
  AggregationTotalParams,
  BalanceSheet,
  CashFlow,
  Category,
  Department,
  FullList,
  IncomeStatement,
  ListPage,
  Merchant,
  MerchantListParams,
  ReportDateParams,
  ReportPeriodParams,
  Transaction,
  TransactionListParams,
} from '../../api/types';
import {
  argumentEndDate,
  argumentsToPeriod,
  parseDateArgument,
  type DateArgument,
  type DateSystem,
  type Period,
} from '../dates';
import { monthlyCoverage, pointInTimeCoverage } from '../periods';
import { cellValues } from '../render/grid';
import { RenderError, centsToDisplay, unitsNote, type Scale } from '../render/money';
import type { StatementReport } from '../render/reportShapes';
import { renderStatement } from '../render/statementGrid';
import { canonicalKey, type CacheStore, type ReadRequest, type RequestCache } from '../requestCache';
import { plural } from '../text/plural';
import { isMissing, optionalText, parseMaxRows, parseScale, parseStatus } from './args';
import { FinError, capFromMessage, finErrors, fromApiError, isFinError, monthlyLimitError } from './errors';
import {
  CASH_FLOW_FIGURES,
  INCOME_FIGURES,
  balanceSheetLine,
  cashFlowGroups,
  cashFlowLine,
  figureCents,
  figureKey,
  incomeStatementLine,
} from './lines';
import { buildTree, normalizeName, resolveInTree, type Tree, type TreeNode } from './resolve';

// ---------------------------------------------------------------------------------------------------
// What the service needs

/** The slice of the src/api client the FIN functions use (createClient's result satisfies it). */
export interface FinClient {
  readonly companyId: string | null;
  /** Spends one GET /company only when the company is not known yet. */
  ensureCompanyId(opts?: CallOptions): Promise<string>;
  readonly categories: { list(opts?: CallOptions): Promise<FullList<Category>> };
  readonly departments: { list(opts?: CallOptions): Promise<FullList<Department>> };
  readonly reports: {
    incomeStatement(params: ReportPeriodParams, opts?: CallOptions): Promise<IncomeStatement>;
    balanceSheet(params: ReportDateParams, opts?: CallOptions): Promise<BalanceSheet>;
    cashFlow(params: ReportPeriodParams, opts?: CallOptions): Promise<CashFlow>;
  };
  readonly aggregations: { total(params: AggregationTotalParams, opts?: CallOptions): Promise<AggregationTotal> };
  readonly merchants: { list(params: MerchantListParams, opts?: CallOptions): Promise<ListPage<Merchant>> };
  readonly transactions: { list(params: TransactionListParams, opts?: CallOptions): Promise<ListPage<Transaction>> };
  readonly meter: {
    /** Calls counted this Pacific month for the client's company. */
    count(): Promise<number>;
    /** Set by the client when the server refused a call for the monthly cap (cleared at the reset). */
    readonly monthlyLimit?: { resetDate: string; reset: { epochMs: number } } | null;
  };
}

export type DateSystemValue = 1900 | 1904 | DateSystem;
export type DateSystemSource = DateSystemValue | (() => DateSystemValue | Promise<DateSystemValue>);

export interface FinServiceOptions {
  client: FinClient;
  cache: RequestCache;
  /** The company's calendar date, `YYYY-MM-DD` (calendarDateAt(Date.now()) in the add-in). */
  today: () => string;
  /** The workbook's date system; only asked for when an argument is an Excel serial number. */
  dateSystem: DateSystemSource;
  /** 1-12, default 1. */
  fiscalYearStartMonth?: number | (() => number);
  /** Wall clock in ms (monthly-limit expiry, refresh timing). */
  now?: () => number;
  /**
   * Small persistent state next to the cache (the add-in passes the same CacheStore): the monthly-limit
   * block and the "data as of" time, so a reopened workbook knows both without a call.
   */
  stateStore?: CacheStore;
  /** Upper bound for one API read including the client's retries (default 120 s). */
  apiTimeoutMs?: number;
  /** Upper bound for reading the workbook's date system from the host (default 15 s). */
  hostTimeoutMs?: number;
}

/** Per evaluation: `preview` is Excel's formula value preview (invocation.isInValuePreview). */
export interface EvalContext {
  readonly preview?: boolean;
}

export type CellValue = string | number | boolean;
export type Matrix = CellValue[][];

export interface RefreshOptions {
  /** Asks the host to recalculate every FIN cell (Excel: application.calculate(full)). */
  recalculate: () => Promise<void>;
  /** How long the service must stay idle after the recalculation before it is considered settled (ms). */
  quietMs?: number;
  /** Stop waiting for the FIN calls after this long (ms); the report then says `settled: false`. */
  timeoutMs?: number;
}

export interface RefreshReport {
  /** Calls spent by the refresh (the client meter's delta). */
  spent: number;
  /** Cached answers dropped before recalculating. */
  cleared: number;
  /** True when every FIN evaluation the recalculation started had settled. */
  settled: boolean;
  /** True when the monthly cap blocked the refresh (nothing was cleared, nothing spent). */
  limited: boolean;
  durationMs: number;
  /** "Refresh all spent 13 calls", for the ribbon command and the pane. */
  message: string;
}

// ---------------------------------------------------------------------------------------------------
// Constants

export const TRANSACTIONS_PAGE_SIZE = 500;
export const MERCHANTS_PAGE_SIZE = 500;
export const MAX_MERCHANTS = 10_000;
export const DEFAULT_API_TIMEOUT_MS = 120_000;

/**
 * Transaction and merchant pages are cached as the rows FIN.TRANSACTIONS shows, not as the API's page
 * (a 500-row page is about 300 KB of JSON and OfficeRuntime.storage holds 10 MB for everything). The
 * marker keeps that derived shape under a key of its own, so no other reader of the same request can
 * mistake it for the API's body.
 */
const TXN_VIEW = 'fin-rows-v1';

export const TRANSACTION_HEADERS = [
  'Date',
  'Accounting date',
  'Amount',
  'Currency',
  'Merchant',
  'Description',
  'Category',
  'Department',
  'Status',
  'Id',
] as const;

type TxnRow = [
  date: string,
  accountingDate: string | null,
  amountCents: number,
  currency: string,
  merchant: string | null,
  description: string | null,
  category: string | null,
  department: string | null,
  status: string,
  id: string,
];

interface TxnPage {
  rows: TxnRow[];
  has_more: boolean;
  next_cursor: string | null;
}

const STATEMENT_TITLES: Readonly<Record<StatementReport['object'], string>> = {
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  cash_flow: 'Cash flow statement',
};

interface LimitState {
  cap: number | null;
  resetDate: string;
  resetEpochMs: number;
}

const STATE_PREFIX = 'fin-state:';

/** "2026-11-21 14:03 UTC": the time FIN.REFRESHED shows. */
export function formatDataAsOf(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export const NOT_FETCHED_TEXT = 'Not fetched yet';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isDeterministicFailure(error: unknown): boolean {
  // Answers that a second identical request would get again (and pay for again): keep them until
  // Refresh all. Transient ones (network, 5xx, burst 429) are retried by the next recalculation.
  return error instanceof ApiError && error.status !== null && [400, 401, 403, 404, 409, 422].includes(error.status);
}

function compactTransactions(page: ListPage<Transaction>): TxnPage {
  return {
    rows: page.data.map((t): TxnRow => [
      t.date,
      t.accounting_date ?? null,
      t.amount_cents,
      t.currency,
      t.merchant ?? null,
      t.description ?? null,
      t.category_name ?? null,
      t.department_name ?? null,
      t.status,
      t.id,
    ]),
    has_more: page.has_more === true,
    next_cursor: page.next_cursor ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------

export class FinService {
  private readonly client: FinClient;
  private readonly cache: RequestCache;
  private readonly todayOf: () => string;
  private readonly dateSystemSource: DateSystemSource;
  private readonly fiscalStart: () => number;
  private readonly now: () => number;
  private readonly stateStore?: CacheStore;
  private readonly apiTimeoutMs: number;
  private readonly hostTimeoutMs: number;

  /** Deterministic failures by canonical key, kept in memory until Refresh all. */
  private readonly failures = new Map<string, FinError>();
  private readonly trees = new WeakMap<object, Tree<Category> | Tree<Department>>();
  private readonly listeners = new Set<() => void>();
  private companyPromise?: Promise<string>;
  private dateSystemPromise?: Promise<DateSystem>;
  private stateLoaded?: Promise<void>;
  private limit: LimitState | null = null;
  private dataAsOfMs: number | undefined;
  /** Calls in flight; aborted when the monthly cap is hit, so requests still queued in the client's limiter are not sent. */
  private readonly inFlight = new Set<AbortController>();
  private active = 0;
  private operations = 0;
  private refreshing?: Promise<RefreshReport>;

  constructor(options: FinServiceOptions) {
    this.client = options.client;
    this.cache = options.cache;
    this.todayOf = options.today;
    this.dateSystemSource = options.dateSystem;
    const fy = options.fiscalYearStartMonth ?? 1;
    this.fiscalStart = typeof fy === 'function' ? fy : () => fy;
    this.now = options.now ?? Date.now;
    this.stateStore = options.stateStore;
    this.apiTimeoutMs = options.apiTimeoutMs ?? DEFAULT_API_TIMEOUT_MS;
    this.hostTimeoutMs = options.hostTimeoutMs ?? 15_000;
  }

  // -------------------------------------------------------------------------------------------------
  // Single values

  /**
   * FIN.TOTAL: /aggregations/total for a category and its descendants, in units. Periodic categories take
   * a range of whole months (the API ignores days; a range that is not whole months is refused with the
   * explanation instead of being silently widened); point-in-time categories take one date or period and
   * are read at its end, which must be a month end.
   */
  total(args: { category: unknown; start: unknown; end?: unknown; merchant?: unknown }, ctx: EvalContext = {}): Promise<number> {
    return this.track(async () => {
      // Arguments first: a bad date or merchant never costs the categories call.
      const first = await this.dateArg(args.start);
      const second = isMissing(args.end) ? undefined : await this.dateArg(args.end);
      const merchant = optionalText(args.merchant, 'merchant');
      const node = await this.resolveCategory(ctx, args.category);
      const query: AggregationTotalParams = { category_id: node.id };
      if (node.item.point_in_time) {
        if (second !== undefined) {
          throw finErrors.argument(
            `"${node.name}" is a balance (point in time): give one date or period, not a start and an end; it is read at the period's end`,
          );
        }
        const date = argumentEndDate(first);
        const coverage = pointInTimeCoverage(date);
        if (coverage.daysIgnored) {
          throw finErrors.argument(`${coverage.note} Use a month such as "${coverage.month}" or a month-end date, or FIN.BALANCE for an exact day`, 'not_whole_months');
        }
        query.date = coverage.through;
      } else {
        const range = argumentsToPeriod(first, second);
        if (!range.ok) throw finErrors.badDate(range.error);
        const coverage = monthlyCoverage(range.value);
        if (coverage.daysIgnored) {
          throw finErrors.argument(`${coverage.note} Use whole months such as "${coverage.startMonth}", or FIN.PNL for exact days`, 'not_whole_months');
        }
        query.start_date = coverage.covered.start;
        query.end_date = coverage.covered.end;
      }
      if (merchant !== undefined) query.merchant = merchant;
      const { value } = await this.read(ctx, { path: '/aggregations/total', query: { ...query } }, (o) => this.client.aggregations.total(query, o));
      return centsToDisplay(value.total_cents, 'units');
    });
  }

  /** FIN.PNL: one income statement line (a category, or "Net Income" / "Operating Income"), in units. */
  pnl(args: { line: unknown; start: unknown; end?: unknown }, ctx: EvalContext = {}): Promise<number> {
    return this.track(async () => {
      const period = await this.period(args.start, args.end);
      const figure = typeof args.line === 'string' ? figureKey(INCOME_FIGURES, args.line) : undefined;
      let categoryId: string | undefined;
      if (figure === undefined) {
        const node = await this.resolveCategory(ctx, args.line);
        if (node.item.point_in_time) {
          throw finErrors.argument(`"${node.name}" is a balance-sheet category: use FIN.BALANCE or FIN.TOTAL for it`, 'wrong_statement');
        }
        categoryId = node.id;
      }
      const report = await this.incomeStatementReport(ctx, period);
      // A periodic category the statement does not list had no activity in the period.
      const cents = figure !== undefined ? figureCents(report, figure) : (incomeStatementLine(report, categoryId!) ?? 0);
      if (cents === undefined) throw new FinError('na', `The income statement has no ${String(args.line)}`, 'missing_figure');
      return centsToDisplay(cents, 'units');
    });
  }

  /** FIN.BALANCE: one balance sheet line at a date (a period means its last day), in units. */
  balance(args: { category: unknown; date: unknown }, ctx: EvalContext = {}): Promise<number> {
    return this.track(async () => {
      const date = argumentEndDate(await this.dateArg(args.date));
      const node = await this.resolveCategory(ctx, args.category);
      if (!node.item.point_in_time) {
        throw finErrors.argument(`"${node.name}" is an income-statement category (activity over a period): use FIN.PNL or FIN.TOTAL for it`, 'wrong_statement');
      }
      const report = await this.balanceSheetReport(ctx, date);
      return centsToDisplay(balanceSheetLine(report, node.id) ?? 0, 'units');
    });
  }

  /**
   * FIN.CASHFLOW: one cash flow line. `line` is a figure ("Net Income", "Change in Cash", "Beginning Cash",
   * "Ending Cash", "Operating Activities"...), a grp_ group by id or name ("Changes in Working Capital"),
   * or a balance-sheet category whose change the statement shows.
   */
  cashflow(args: { line: unknown; start: unknown; end?: unknown }, ctx: EvalContext = {}): Promise<number> {
    return this.track(async () => {
      const period = await this.period(args.start, args.end);
      const typed = typeof args.line === 'string' ? args.line.trim() : '';
      const figure = typed ? figureKey(CASH_FLOW_FIGURES, typed) : undefined;
      if (figure !== undefined) {
        const cents = figureCents(await this.cashFlowReport(ctx, period), figure);
        if (cents === undefined) throw new FinError('na', `The cash flow statement has no "${typed}" figure`, 'missing_figure');
        return centsToDisplay(cents, 'units');
      }
      if (typed.startsWith('grp_')) {
        const cents = cashFlowLine(await this.cashFlowReport(ctx, period), typed);
        if (cents === undefined) throw finErrors.argument(`Unknown cash flow group "${typed}"`, 'unknown_line');
        return centsToDisplay(cents, 'units');
      }
      if (typed) {
        const report = await this.cashFlowReport(ctx, period);
        const group = cashFlowGroups(report).find((g) => normalizeName(g.name) === normalizeName(typed));
        if (group) return centsToDisplay(group.amount_cents, 'units');
      }
      const node = await this.resolveCategory(ctx, args.line);
      if (!node.item.point_in_time) {
        throw finErrors.argument(`"${node.name}" is an income-statement category: the cash flow shows it inside "Net Income"; use FIN.PNL`, 'wrong_statement');
      }
      const cents = cashFlowLine(await this.cashFlowReport(ctx, period), node.id);
      if (cents === undefined) {
        throw finErrors.argument(
          `"${node.name}" is not a line of this cash flow statement (cash itself is its result: use "Change in Cash", "Beginning Cash" or "Ending Cash")`,
          'unknown_line',
        );
      }
      return centsToDisplay(cents, 'units');
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Whole statements

  /** FIN.INCOME_STATEMENT: the statement for one period as a spilled array. */
  incomeStatement(args: { start: unknown; end?: unknown; scale?: unknown }, ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const scale = parseScale(args.scale);
      const period = await this.period(args.start, args.end);
      const { value, fetchedAt } = await this.readIncomeStatement(ctx, period);
      return this.statementMatrix(value, fetchedAt, scale);
    });
  }

  /** FIN.BALANCE_SHEET: the balance sheet at one date as a spilled array. */
  balanceSheet(args: { date: unknown; scale?: unknown }, ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const scale = parseScale(args.scale);
      const date = argumentEndDate(await this.dateArg(args.date));
      const { value, fetchedAt } = await this.readBalanceSheet(ctx, date);
      return this.statementMatrix(value, fetchedAt, scale);
    });
  }

  /** FIN.CASH_FLOW: the cash flow statement for one period as a spilled array. */
  cashFlowStatement(args: { start: unknown; end?: unknown; scale?: unknown }, ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const scale = parseScale(args.scale);
      const period = await this.period(args.start, args.end);
      const { value, fetchedAt } = await this.readCashFlow(ctx, period);
      return this.statementMatrix(value, fetchedAt, scale);
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Lists

  /**
   * FIN.TRANSACTIONS: a header row, then transactions dated start..end (newest first), pages of 500, at most
   * `maxRows` (default 1000, at most 10000); when more exist a last row says so. The category filter is the
   * API's: that one category, not its subcategories.
   */
  transactions(
    args: { start: unknown; end?: unknown; category?: unknown; status?: unknown; maxRows?: unknown },
    ctx: EvalContext = {},
  ): Promise<Matrix> {
    return this.track(async () => {
      const period = await this.period(args.start, args.end);
      const status = parseStatus(args.status);
      const maxRows = parseMaxRows(args.maxRows);
      const node = isMissing(args.category) ? undefined : await this.resolveCategory(ctx, args.category);
      const base: TransactionListParams = { start_date: period.start, end_date: period.end, limit: TRANSACTIONS_PAGE_SIZE };
      if (node) base.category_id = node.id;
      if (status) base.status = status;

      const rows: TxnRow[] = [];
      let capped = false;
      let cursor: string | undefined;
      const seen = new Set<string>();
      for (;;) {
        const params: TransactionListParams = cursor === undefined ? { ...base } : { ...base, starting_after: cursor };
        const { value: page } = await this.read(
          ctx,
          { path: '/transactions', query: { ...params, fin_view: TXN_VIEW } },
          async (o) => compactTransactions(await this.client.transactions.list(params, o)),
        );
        for (const row of page.rows) {
          if (rows.length >= maxRows) {
            capped = true;
            break;
          }
          rows.push(row);
        }
        if (capped || !page.has_more) break;
        if (rows.length >= maxRows) {
          capped = true;
          break;
        }
        const next = page.next_cursor;
        if (typeof next !== 'string' || next === '' || seen.has(next)) {
          throw new FinError('na', 'The API said more transactions follow but gave no usable cursor', 'invalid_response');
        }
        seen.add(next);
        cursor = next;
      }

      const width = TRANSACTION_HEADERS.length;
      const out: Matrix = [[...TRANSACTION_HEADERS]];
      for (const r of rows) {
        out.push([r[0], r[1] ?? '', centsToDisplay(r[2], 'units'), r[3], r[4] ?? '', r[5] ?? '', r[6] ?? '', r[7] ?? '', r[8], r[9]]);
      }
      const note = (text: string): CellValue[] => [text, ...new Array<CellValue>(width - 1).fill('')];
      if (capped) {
        out.push(note(`… more rows not shown (first ${maxRows}; raise max_rows up to 10000 or narrow the dates)`));
      } else if (rows.length === 0 && node && node.children.length > 0) {
        out.push(note(`No transactions: the filter matches "${node.name}" itself, not its subcategories`));
      }
      return out;
    });
  }

  /** FIN.CATEGORIES: every category with its full path, id, account type and point-in-time flag. */
  categories(ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const tree = await this.categoryTree(ctx);
      const out: Matrix = [['Category', 'Id', 'Account type', 'Point in time']];
      for (const node of tree.ordered) out.push([node.path, node.id, String(node.item.account_type ?? ''), node.item.point_in_time === true]);
      return out;
    });
  }

  /** FIN.DEPARTMENTS: every department with its full path, id and whether it can be assigned. */
  departments(ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const tree = await this.departmentTree(ctx);
      const out: Matrix = [['Department', 'Id', 'Assignable']];
      for (const node of tree.ordered) out.push([node.path, node.id, node.item.assignable === true]);
      return out;
    });
  }

  /** FIN.MERCHANTS: merchant names recorded for a category and its descendants (all months), by name. */
  merchants(args: { category: unknown }, ctx: EvalContext = {}): Promise<Matrix> {
    return this.track(async () => {
      const node = await this.resolveCategory(ctx, args.category);
      const names: string[] = [];
      let cursor: string | undefined;
      let capped = false;
      const seen = new Set<string>();
      for (;;) {
        const params: MerchantListParams =
          cursor === undefined
            ? { category_id: node.id, limit: MERCHANTS_PAGE_SIZE }
            : { category_id: node.id, limit: MERCHANTS_PAGE_SIZE, starting_after: cursor };
        const { value: page } = await this.read(ctx, { path: '/parties/merchants', query: { ...params } }, (o) => this.client.merchants.list(params, o));
        for (const m of page.data) {
          if (names.length >= MAX_MERCHANTS) {
            capped = true;
            break;
          }
          names.push(String(m.name));
        }
        if (capped || page.has_more !== true) break;
        const next = page.next_cursor;
        if (typeof next !== 'string' || next === '' || seen.has(next)) {
          throw new FinError('na', 'The API said more merchants follow but gave no usable cursor', 'invalid_response');
        }
        seen.add(next);
        cursor = next;
      }
      const out: Matrix = [['Merchant'], ...names.map((n) => [n])];
      if (capped) out.push([`… more merchants not shown (first ${MAX_MERCHANTS})`]);
      return out;
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Freshness and refresh

  /** When the data the FIN cells show was fetched (the oldest answer in use); never calls the API. */
  async dataAsOf(): Promise<number | undefined> {
    const company = this.client.companyId;
    if (company) await this.loadState(company);
    return this.dataAsOfMs;
  }

  /** FIN.REFRESHED's text: "2026-11-21 14:03 UTC", or "Not fetched yet". */
  async refreshedText(): Promise<string> {
    const at = await this.dataAsOf();
    return at === undefined ? NOT_FETCHED_TEXT : formatDataAsOf(at);
  }

  /** Called when the data-as-of time changes or a refresh clears the cache (FIN.REFRESHED streams it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The monthly-limit block in force, if any (the pane shows it before offering a refresh). */
  async monthlyLimit(): Promise<FinError | null> {
    const company = this.client.companyId;
    if (company) await this.loadState(company);
    try {
      this.assertNotLimited();
      return null;
    } catch (error) {
      return error as FinError;
    }
  }

  /**
   * Upper estimate of what Refresh all will spend: the answers cached for the company (each was one call).
   * Needs the stateStore (the persistent CacheStore); undefined without it.
   */
  async estimateRefreshCalls(): Promise<number | undefined> {
    const company = this.client.companyId;
    if (!this.stateStore || !company) return undefined;
    const prefix = canonicalKey(company, { path: '' });
    try {
      return (await this.stateStore.keys()).filter((k) => k.startsWith(prefix)).length;
    } catch {
      return undefined;
    }
  }

  /**
   * Refresh all: forget the company's cached answers, have the host recalculate every FIN cell, wait for
   * the FIN work that starts to settle, and report the calls it spent. Under the monthly cap nothing is
   * cleared (the cells keep their values) and nothing is spent.
   */
  refreshAll(options: RefreshOptions): Promise<RefreshReport> {
    this.refreshing ??= this.runRefresh(options).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Resolves true once no FIN work has run for `quietMs`; false if that did not happen within `timeoutMs`. */
  async whenIdle(quietMs = 300, timeoutMs = 300_000): Promise<boolean> {
    // Real time, not the injected clock: this waits on real evaluations.
    const deadline = Date.now() + timeoutMs;
    const step = Math.max(5, Math.min(50, quietMs));
    for (;;) {
      if (this.active === 0) {
        const mark = this.operations;
        await sleep(quietMs);
        if (this.active === 0 && this.operations === mark) return true;
      } else {
        await sleep(step);
      }
      if (Date.now() > deadline) return false;
    }
  }

  private async runRefresh(options: RefreshOptions): Promise<RefreshReport> {
    const started = Date.now();
    const report = (partial: Omit<RefreshReport, 'durationMs'>): RefreshReport => ({ ...partial, durationMs: Date.now() - started });
    let company: string;
    try {
      company = await this.companyId({});
      await this.loadState(company);
      this.assertNotLimited();
    } catch (error) {
      const fin = this.translate(error, '/company', false);
      return report({ spent: 0, cleared: 0, settled: true, limited: fin.code === 'monthly_limit', message: `Refresh all: nothing refreshed. ${fin.message}` });
    }
    const before = await this.client.meter.count();
    const cleared = await this.cache.clear(company);
    this.failures.clear();
    this.dateSystemPromise = undefined;
    await this.setDataAsOf(company, undefined, true);
    await options.recalculate();
    const settled = await this.whenIdle(options.quietMs ?? 300, options.timeoutMs ?? 300_000);
    const spent = Math.max(0, (await this.client.meter.count()) - before);
    const calls = plural(spent, 'call');
    const limited = this.limit !== null;
    let message = settled ? `Refresh all spent ${calls}` : `Refresh all spent ${calls} so far (some formulas were still calculating)`;
    if (limited) message += `; ${monthlyLimitError(this.limit!.cap, this.limit!.resetDate).message}`;
    return report({ spent, cleared, settled, limited, message });
  }

  // -------------------------------------------------------------------------------------------------
  // Reading through the cache

  private async read<T>(ctx: EvalContext, req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): Promise<{ value: T; fetchedAt: number }> {
    const company = await this.companyId(ctx);
    if (ctx.preview) {
      const hit = await this.cache.peek<T>(company, req);
      if (!hit) throw finErrors.preview();
      void this.noteFetched(company, hit.fetchedAt);
      return hit;
    }
    const key = canonicalKey(company, req);
    const failed = this.failures.get(key);
    if (failed) throw failed;
    let answer: { value: T; fetchedAt: number };
    try {
      answer = await this.cache.get<T>(company, req, () => this.call(company, key, req.path, fetch));
    } catch (error) {
      throw this.translate(error, req.path, false);
    }
    await this.noteFetched(company, answer.fetchedAt);
    return answer;
  }

  /** One API call: refused under the monthly cap, bounded in time, failures translated once. */
  private async call<T>(company: string, key: string, path: string, fetch: (opts: CallOptions) => Promise<T>): Promise<T> {
    await this.loadState(company);
    this.assertNotLimited();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.apiTimeoutMs);
    this.inFlight.add(controller);
    try {
      return await fetch({ signal: controller.signal });
    } catch (error) {
      const fin = this.translate(error, path, timedOut);
      if (isDeterministicFailure(error)) this.failures.set(key, fin);
      throw fin;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  private translate(error: unknown, path: string, timedOut: boolean): FinError {
    if (isFinError(error)) return error;
    if (error instanceof MonthlyLimitError) {
      this.block(error);
      return monthlyLimitError(this.limit!.cap, this.limit!.resetDate);
    }
    if (error instanceof ApiError) {
      if (error.code === 'aborted') {
        if (this.limit) return monthlyLimitError(this.limit.cap, this.limit.resetDate);
        if (timedOut) {
          return new FinError('na', `The API did not answer within ${Math.max(1, Math.round(this.apiTimeoutMs / 1000))} s; recalculate to try again`, 'timeout');
        }
      }
      return fromApiError(error, path);
    }
    if (error instanceof RenderError) return new FinError('na', `The API's answer could not be read: ${error.message}`, 'invalid_response');
    const message = error instanceof Error ? error.message : String(error);
    return new FinError('na', `Unexpected error: ${message}`, 'internal');
  }

  // -------------------------------------------------------------------------------------------------
  // The monthly cap

  private block(error: MonthlyLimitError): void {
    const stated = error.statedResetDate ? DateTime.fromISO(error.statedResetDate, { zone: CAP_ZONE }) : null;
    const resetEpochMs = stated && stated.isValid ? stated.toMillis() : error.computedReset.epochMs;
    this.limit = { cap: capFromMessage(error.message), resetDate: error.resetDate, resetEpochMs };
    // Requests already queued behind the client's concurrency limit are dropped, not sent.
    const queued = [...this.inFlight];
    this.inFlight.clear();
    for (const controller of queued) controller.abort();
    const company = this.client.companyId;
    if (company && this.stateStore) {
      void this.stateStore.set(`${STATE_PREFIX}${company}:monthly-limit`, JSON.stringify(this.limit)).catch(() => undefined);
    }
  }

  private assertNotLimited(): void {
    if (this.limit && this.now() >= this.limit.resetEpochMs) {
      this.limit = null;
      const company = this.client.companyId;
      if (company && this.stateStore) void this.stateStore.remove([`${STATE_PREFIX}${company}:monthly-limit`]).catch(() => undefined);
    }
    const known = this.client.meter.monthlyLimit;
    if (!this.limit && known && this.now() < known.reset.epochMs) {
      this.limit = { cap: null, resetDate: known.resetDate, resetEpochMs: known.reset.epochMs };
    }
    if (this.limit) throw monthlyLimitError(this.limit.cap, this.limit.resetDate);
  }

  // -------------------------------------------------------------------------------------------------
  // Persistent state: the cap block and the data-as-of time

  private loadState(company: string): Promise<void> {
    this.stateLoaded ??= (async () => {
      if (!this.stateStore) return;
      try {
        const [limitText, asOfText] = await Promise.all([
          this.stateStore.get(`${STATE_PREFIX}${company}:monthly-limit`),
          this.stateStore.get(`${STATE_PREFIX}${company}:data-as-of`),
        ]);
        if (limitText && !this.limit) {
          const parsed = JSON.parse(limitText) as LimitState;
          if (typeof parsed?.resetEpochMs === 'number' && typeof parsed.resetDate === 'string') this.limit = parsed;
        }
        const asOf = asOfText === undefined ? NaN : Number(asOfText);
        if (Number.isFinite(asOf) && (this.dataAsOfMs === undefined || asOf < this.dataAsOfMs)) this.dataAsOfMs = asOf;
      } catch {
        // Unreadable state is no state: the worst case is one call that the server refuses for free.
      }
    })();
    return this.stateLoaded;
  }

  private async noteFetched(company: string, fetchedAt: number): Promise<void> {
    await this.loadState(company);
    if (this.dataAsOfMs !== undefined && this.dataAsOfMs <= fetchedAt) return;
    await this.setDataAsOf(company, fetchedAt, false);
  }

  private async setDataAsOf(company: string, value: number | undefined, cleared: boolean): Promise<void> {
    this.dataAsOfMs = value;
    const key = `${STATE_PREFIX}${company}:data-as-of`;
    if (this.stateStore) {
      const write = value === undefined ? this.stateStore.remove([key]) : this.stateStore.set(key, String(value));
      await write.catch(() => undefined);
    }
    if (cleared || value !== undefined) this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's bug must not break an evaluation.
      }
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Pieces

  private track<T>(work: () => Promise<T>): Promise<T> {
    this.active += 1;
    this.operations += 1;
    let promise: Promise<T>;
    try {
      promise = work();
    } catch (error) {
      promise = Promise.reject(error);
    }
    return promise
      .catch((error: unknown) => {
        throw this.translate(error, '', false);
      })
      .finally(() => {
        this.active -= 1;
      });
  }

  private companyId(ctx: EvalContext): Promise<string> {
    const known = this.client.companyId;
    if (known) return Promise.resolve(known);
    // Only a client that was not told its company gets here; GET /company is the one way to learn it.
    if (ctx.preview) return Promise.reject(finErrors.preview());
    this.companyPromise ??= (async () => {
      this.assertNotLimited();
      try {
        return await this.client.ensureCompanyId({ timeoutMs: this.apiTimeoutMs });
      } catch (error) {
        this.companyPromise = undefined;
        throw this.translate(error, '/company', false);
      }
    })();
    return this.companyPromise;
  }

  private async dateSystem(): Promise<DateSystem> {
    const source = this.dateSystemSource;
    if (typeof source !== 'function') return String(source) === '1904' ? '1904' : '1900';
    this.dateSystemPromise ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const value = await Promise.race([
          Promise.resolve().then(source),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), this.hostTimeoutMs);
          }),
        ]);
        return String(value) === '1904' ? '1904' : '1900';
      } catch (error) {
        this.dateSystemPromise = undefined;
        const why = error instanceof Error ? error.message : String(error);
        throw new FinError('na', `Could not read the workbook's date system (${why}); recalculate to try again`, 'host');
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.dateSystemPromise;
  }

  private async dateArg(input: unknown): Promise<DateArgument> {
    const result = parseDateArgument(input, {
      today: this.todayOf(),
      // Text never needs the date system, so only serial numbers ask the host for it.
      dateSystem: typeof input === 'number' ? await this.dateSystem() : '1900',
      fiscalYearStartMonth: this.fiscalStart(),
    });
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  /** start (and optionally end) -> an inclusive range; an omitted end means the end of start's period. */
  private async period(start: unknown, end: unknown): Promise<Period> {
    const first = await this.dateArg(start);
    const second = isMissing(end) ? undefined : await this.dateArg(end);
    const result = argumentsToPeriod(first, second);
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  private async categoryTree(ctx: EvalContext): Promise<Tree<Category>> {
    const { value } = await this.read(ctx, { path: '/categories' }, (o) => this.client.categories.list(o));
    let tree = this.trees.get(value) as Tree<Category> | undefined;
    if (!tree) {
      tree = buildTree(Array.isArray(value?.data) ? value.data : [], 'category');
      this.trees.set(value, tree);
    }
    return tree;
  }

  private async departmentTree(ctx: EvalContext): Promise<Tree<Department>> {
    const { value } = await this.read(ctx, { path: '/departments' }, (o) => this.client.departments.list(o));
    let tree = this.trees.get(value) as Tree<Department> | undefined;
    if (!tree) {
      tree = buildTree(Array.isArray(value?.data) ? value.data : [], 'department');
      this.trees.set(value, tree);
    }
    return tree;
  }

  private async resolveCategory(ctx: EvalContext, input: unknown): Promise<TreeNode<Category>> {
    if (typeof input !== 'string' || input.trim() === '') {
      // Settled without spending the categories call.
      const result = resolveInTree(buildTree<Category>([], 'category'), input, 'cat_');
      if (!result.ok) throw result.error;
    }
    const result = resolveInTree(await this.categoryTree(ctx), input, 'cat_');
    if (!result.ok) throw result.error;
    return result.node;
  }

  /** Resolves a department the same way (name, unique tail of a path, or id). */
  async resolveDepartment(input: unknown, ctx: EvalContext = {}): Promise<TreeNode<Department>> {
    return this.track(async () => {
      const result = resolveInTree(await this.departmentTree(ctx), input, 'dept_');
      if (!result.ok) throw result.error;
      return result.node;
    });
  }

  private readIncomeStatement(ctx: EvalContext, period: Period): Promise<{ value: IncomeStatement; fetchedAt: number }> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    return this.read(ctx, { path: '/reports/income_statement', query: { ...params } }, (o) => this.client.reports.incomeStatement(params, o));
  }

  private readBalanceSheet(ctx: EvalContext, date: string): Promise<{ value: BalanceSheet; fetchedAt: number }> {
    const params: ReportDateParams = { date };
    return this.read(ctx, { path: '/reports/balance_sheet', query: { ...params } }, (o) => this.client.reports.balanceSheet(params, o));
  }

  private readCashFlow(ctx: EvalContext, period: Period): Promise<{ value: CashFlow; fetchedAt: number }> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    return this.read(ctx, { path: '/reports/cash_flow', query: { ...params } }, (o) => this.client.reports.cashFlow(params, o));
  }

  private async incomeStatementReport(ctx: EvalContext, period: Period): Promise<IncomeStatement> {
    return (await this.readIncomeStatement(ctx, period)).value;
  }

  private async balanceSheetReport(ctx: EvalContext, date: string): Promise<BalanceSheet> {
    return (await this.readBalanceSheet(ctx, date)).value;
  }

  private async cashFlowReport(ctx: EvalContext, period: Period): Promise<CashFlow> {
    return (await this.readCashFlow(ctx, period)).value;
  }

  /**
   * A statement as cell values through renderStatement (the one place cents become display numbers):
   * its column header row and body, without the title block (a formula's cell says what it is), and with
   * the statement's name and units in the top-left cell.
   */
  private statementMatrix(report: StatementReport, fetchedAt: number, scale: Scale): Matrix {
    const grid = renderStatement({
      reports: [report],
      companyName: '',
      refreshedAt: new Date(fetchedAt),
      scale,
      fiscalYearStartMonth: this.fiscalStart(),
    });
    const values: Matrix = cellValues(grid.rows.slice(grid.columnHeaderRow));
    values[0][0] = `${STATEMENT_TITLES[grid.kind]} (${unitsNote(grid.currency, scale)})`;
    return values;
  }
}
