// The brain of the FIN spreadsheet functions, host-free. functions.ts parses nothing and decides nothing:
// it hands the raw cell arguments to a FinService method and turns the answer (a number, a 2-D array) or
// the FinError into a cell. The service only composes: dates (inputs.ts), reads through the one cached
// reader (reads.ts), single values (values.ts), statements (statements.ts), lists (lists.ts), the data's
// age (freshness.ts) and Refresh all (refresh.ts). An evaluation is a synchronous attempt, made again when
// what it waited for is ready (pending.ts); attempts take turns on the main thread (turns.ts), so a
// recalculation of a big model comes in slices the task pane can breathe between.

import type { Department } from '../../api/types';
import type { CachedReader } from '../reader/cachedReader';
import type { CacheStore } from '../ports/storage';
import { FinActivity, type FinBatch } from './activity';
import type { FinClient } from './client';
import { CALL_ATTEMPTS } from './calls';
import type { FinCall } from './finCall';
import { FinError, monthlyLimitError, toFinError } from './errors';
import { Freshness, formatDataAsOf, NOT_FETCHED_TEXT } from './freshness';
import { FinInputs, type DateSystemSource } from './inputs';
import type { Matrix } from './matrix';
import { settle } from './pending';
import { periodText } from './period';
import { FinReads, type EvalContext, type Evaluation } from './reads';
import { refreshFinCells, type RefreshOptions, type RefreshReport } from './refresh';
import type { TreeNode } from '../tree';
import { Turns, type TurnOptions } from './turns';
import * as values from './values';

// Made once, not per evaluation: turns.ts takes an attempt and its arguments apart.
const departmentNamed = (parts: values.ValueParts, input: unknown, ev: Evaluation): TreeNode<Department> => parts.reads.department(ev, input);

export interface FinServiceOptions {
  client: FinClient;
  /** The one cached reader of the connection (shared with the pane's statements and transactions). */
  reader: CachedReader;
  /** The company's calendar date, `YYYY-MM-DD` (calendarDateAt(Date.now()) in the add-in). */
  today: () => string;
  /** The workbook's date system; only asked for when an argument is an Excel serial number. */
  dateSystem: DateSystemSource;
  /** 1-12, default 1. */
  fiscalYearStartMonth?: number | (() => number);
  /** Where the "data as of" time persists, so a reopened workbook shows it without a call. */
  stateStore?: CacheStore;
  /** Upper bound for reading the workbook's date system from the host (default 15 s). */
  hostTimeoutMs?: number;
  /** How evaluations share the main thread, and their time limit (turns.ts). */
  turns?: TurnOptions;
}

export class FinService {
  private readonly client: FinClient;
  private readonly reader: CachedReader;
  private readonly inputs: FinInputs;
  private readonly freshness: Freshness;
  private readonly reads: FinReads;
  private readonly parts: values.ValueParts;
  private readonly activity = new FinActivity();
  private readonly turns: Turns<values.ValueParts>;
  private readonly stateStore?: CacheStore;
  private refreshing?: Promise<RefreshReport>;

  constructor(options: FinServiceOptions) {
    this.client = options.client;
    this.reader = options.reader;
    const fy = options.fiscalYearStartMonth ?? 1;
    this.inputs = new FinInputs({
      today: options.today,
      dateSystem: options.dateSystem,
      fiscalYearStart: typeof fy === 'function' ? fy : () => fy,
      hostTimeoutMs: options.hostTimeoutMs,
    });
    this.stateStore = options.stateStore;
    this.freshness = new Freshness(options.stateStore);
    this.reads = new FinReads(options.client, options.reader, this.freshness);
    this.parts = { reads: this.reads, inputs: this.inputs };
    this.turns = new Turns(this.activity, this.parts, options.turns);
  }

  /**
   * A FIN cell's call (functions.ts hands them over as Excel makes them, thousands in one go): evaluated in
   * turns, by its name (calls.ts), its arguments read when its turn comes. FIN.PERIOD reads nothing: it is
   * answered at once.
   */
  evaluate<T>(call: FinCall, ctx: EvalContext = {}): Promise<T> {
    const attempt = CALL_ATTEMPTS[call.name];
    if (attempt) return this.turns.run(ctx, attempt, call.args, call) as Promise<T>;
    if (call.name === 'PERIOD') return this.period({ base: call.args[0], offset: call.args[1], kind: call.args[2] }, ctx) as Promise<T>;
    return Promise.reject(new FinError('na', `FIN.${call.name} is not a function of this version of the add-in`, 'internal'));
  }

  // The same calls, typed, for the add-in's own code and its tests.

  total(args: { category: unknown; start: unknown; end?: unknown; merchant?: unknown; department?: unknown }, ctx?: EvalContext): Promise<number> {
    const department = args.department === undefined ? [] : [undefined, args.department];
    return this.evaluate({ name: 'TOTAL', args: [args.category, args.start, args.end, args.merchant, ...department] }, ctx);
  }

  /** The department, where given, after the company's place (calls.ts), as a cell's arguments have it. */
  pnl(args: { line: unknown; start: unknown; end?: unknown; department?: unknown }, ctx?: EvalContext): Promise<number> {
    const department = args.department === undefined ? [] : [undefined, args.department];
    return this.evaluate({ name: 'PNL', args: [args.line, args.start, args.end, ...department] }, ctx);
  }

  balance(args: { category: unknown; date: unknown }, ctx?: EvalContext): Promise<number> {
    return this.evaluate({ name: 'BALANCE', args: [args.category, args.date] }, ctx);
  }

  cashflow(args: { line: unknown; start: unknown; end?: unknown }, ctx?: EvalContext): Promise<number> {
    return this.evaluate({ name: 'CASHFLOW', args: [args.line, args.start, args.end] }, ctx);
  }

  incomeStatement(args: { start: unknown; end?: unknown; scale?: unknown }, ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'INCOME_STATEMENT', args: [args.start, args.end, args.scale] }, ctx);
  }

  balanceSheet(args: { date: unknown; scale?: unknown }, ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'BALANCE_SHEET', args: [args.date, args.scale] }, ctx);
  }

  cashFlowStatement(args: { start: unknown; end?: unknown; scale?: unknown }, ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'CASH_FLOW', args: [args.start, args.end, args.scale] }, ctx);
  }

  transactions(args: { start: unknown; end?: unknown; category?: unknown; status?: unknown; maxRows?: unknown }, ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'TRANSACTIONS', args: [args.start, args.end, args.category, args.status, args.maxRows] }, ctx);
  }

  categories(ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'CATEGORIES', args: [] }, ctx);
  }

  departments(ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'DEPARTMENTS', args: [] }, ctx);
  }

  merchants(args: { category: unknown }, ctx?: EvalContext): Promise<Matrix> {
    return this.evaluate({ name: 'MERCHANTS', args: [args.category] }, ctx);
  }

  /** Resolves a department the way FIN arguments are (name, unique tail of a path, or id). */
  resolveDepartment(input: unknown, ctx: EvalContext = {}): Promise<TreeNode<Department>> {
    return this.turns.run(ctx, departmentNamed, input);
  }

  // Periods ---------------------------------------------------------------------------------------

  /**
   * FIN.PERIOD: period text keyed on a month (period.ts). Local: no call, no turn, not an evaluation the
   * activity counts (it reads nothing), so a recalculation of the reporting period's cells costs nothing.
   */
  async period(args: { base: unknown; offset?: unknown; kind?: unknown }, ctx: EvalContext = {}): Promise<string> {
    try {
      return await settle(() => periodText(this.inputs, args));
    } catch (error) {
      const fin = toFinError(error, '');
      throw ctx.failure ? ctx.failure(fin) : fin;
    }
  }

  // Freshness and refresh -------------------------------------------------------------------------

  /** When the data the FIN cells show was fetched (the oldest answer in use); never calls the API. */
  dataAsOf(): Promise<number | undefined> {
    return this.freshness.dataAsOf(this.reader.knownCompanyId());
  }

  /** FIN.REFRESHED's text: "2026-11-21 14:03 UTC", or "Not fetched yet". */
  async refreshedText(): Promise<string> {
    const at = await this.dataAsOf();
    return at === undefined ? NOT_FETCHED_TEXT : formatDataAsOf(at);
  }

  /** Called when the data-as-of time changes or a refresh clears the cache (FIN.REFRESHED streams it). */
  onChange(listener: () => void): () => void {
    return this.freshness.onChange(listener);
  }

  /** The monthly-limit block in force, as the cells word it, if any (the pane shows it before a refresh). */
  async monthlyLimit(): Promise<FinError | null> {
    const block = await this.reader.capBlock();
    return block ? monthlyLimitError(block.cap, block.resetDate) : null;
  }

  /**
   * Upper estimate of what Refresh all will spend: the answers cached for the company (each was one call,
   * a walk its pages). Needs the stateStore (the persistent CacheStore); undefined without it.
   */
  async estimateRefreshCalls(): Promise<number | undefined> {
    const company = this.reader.knownCompanyId();
    if (!this.stateStore || !company) return undefined;
    try {
      const calls = await this.reader.callsOf(await this.reader.cache.storedKeys(company));
      return [...calls.values()].reduce((n, c) => n + c, 0);
    } catch {
      return undefined;
    }
  }

  /** Refresh all of the FIN cells (one at a time: a second call joins the first). */
  refreshAll(options: RefreshOptions): Promise<RefreshReport> {
    this.refreshing ??= refreshFinCells(
      { client: this.client, reader: this.reader, freshness: this.freshness, inputs: this.inputs, activity: this.activity, openRefresh: () => this.reads.openRefresh() },
      options,
    ).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * Told after each batch of evaluations (a recalculation, a formula entered) once it has settled: the
   * pane's usage log puts what a batch spent on a line of its own.
   */
  onBatch(listener: (batch: FinBatch) => void): () => void {
    return this.activity.onBatch(listener);
  }

  /** Resolves true once no FIN evaluation has run for `quietMs`; false if not within `timeoutMs`. */
  whenIdle(quietMs?: number, timeoutMs?: number): Promise<boolean> {
    return this.activity.whenIdle(quietMs, timeoutMs);
  }
}
