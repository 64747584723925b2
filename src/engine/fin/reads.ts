// The FIN functions' reads: every one through the CachedReader, so a cell never spends a call that
// another cell (or a statement block) already spent. Value preview only peeks at the cache, and each
// answer used moves the "data as of" time.
//
// An evaluation reads synchronously (pending.ts): an answer in memory that changes nothing about the data's
// age is used at once; anything else is read by `read` -- once for every evaluation waiting for the same
// request -- while the evaluation waits, and kept in its Evaluation for its next attempt.

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
  ReportDateParams,
  ReportPeriodParams,
} from '../../api/types';
import type { Period } from '../dates';
import type { CachedReader } from '../reader/cachedReader';
import { cashRequests, lacksCash, withCashFrom } from '../reader/cashFlowCash';
import type { CallReads, CellReads } from './cellReads';
import type { FinCall } from './finCall';
import { requestKey, type CachedAnswer, type ReadRequest } from '../reader/requestCache';
import type { FinClient } from './client';
import { FinError, finErrors } from './errors';
import type { Freshness } from './freshness';
import { Pending } from './pending';
import { buildTree, type Tree, type TreeNode } from '../tree';
import { resolveInTree, type Resolution } from './resolve';
import { activityRequest, fetchActivity, type DepartmentActivity } from '../departments/activity';
import { DepartmentBook } from '../departments/book';
import { isRefusal } from '../refusal';

/** Per evaluation: `preview` is Excel's formula value preview (invocation.isInValuePreview). */
export interface EvalContext {
  readonly preview?: boolean;
  /** What a failed evaluation rejects with, made from its FinError (a cell's own error); the FinError by default. */
  readonly failure?: (error: FinError) => unknown;
  /** Told of each request the evaluation reads (the cost of recalculating a formula is taken from them). */
  readonly noteRead?: (req: ReadRequest) => void;
  /** Where each cell's reads are kept, by the evaluation's call and its address (cellReads.ts). */
  readonly cellReads?: CellReads;
  /**
   * The call is one its cell made before (cellReads.ts): Excel calculating the cell again, not a formula just
   * typed. Outside a refresh such an evaluation reads what the cache keeps (FinReads.openRefresh).
   */
  readonly repeat?: boolean;
}

/** One evaluation of a FIN cell, across its attempts: the answers it had to wait for. */
export class Evaluation implements EvalContext {
  private waited?: Map<string, CachedAnswer<unknown>>;
  /** The record of what this evaluation reads in its cell (cellReads.ts), made at its first read. */
  cellRecord?: CallReads;

  /** `ctx` is the caller's, shared by many evaluations: nothing of it is copied. `call`: the cell's, if any. */
  constructor(
    readonly ctx: EvalContext,
    readonly call?: FinCall,
  ) {}

  get preview(): boolean {
    return this.ctx.preview === true;
  }

  /** Whether its cell made this call before: found at its first read, before that read is kept for the cell. */
  private repeated?: boolean;

  get repeat(): boolean {
    return (this.repeated ??= this.call !== undefined && this.ctx.cellReads?.madeBefore(this.call) === true);
  }

  /** Told to the caller's noteRead, and kept for the cell the call is in. */
  noteRead(req: ReadRequest): void {
    void this.repeat;
    this.ctx.noteRead?.(req);
    this.ctx.cellReads?.note(this, req);
  }

  /** The answer to `req` this evaluation waited for, if it did. */
  waitedFor<T>(req: ReadRequest): CachedAnswer<T> | undefined {
    return this.waited?.get(requestKey(req)) as CachedAnswer<T> | undefined;
  }

  /** Kept for the next attempt, whatever the cache does meanwhile (an answer served stale, a preview's peek). */
  keep(req: ReadRequest, answer: CachedAnswer<unknown>): void {
    (this.waited ??= new Map()).set(requestKey(req), answer);
  }
}

/** Resolutions kept per tree (a model names a few hundred categories; this bounds a pathological one). */
const MAX_RESOLUTIONS = 20_000;

export class FinReads {
  private readonly trees = new WeakMap<object, Tree<Category> | Tree<Department>>();
  /** What each typed name resolved to, per tree: thousands of cells name the same few categories. */
  private readonly resolutions = new WeakMap<object, Map<string, Resolution<Category> | Resolution<Department>>>();
  /** Each period's split by department, per answer of its journal activity (and of its statement). */
  private readonly books = new WeakMap<object, { statement: object; book: DepartmentBook | FinError }>();
  /** Reads under way for waiting evaluations, by request (value previews read on their own). */
  private readonly reading = new Map<string, Promise<CachedAnswer<unknown>>>();
  /** Refreshes of the FIN cells under way (FinService.refreshAll): only they fetch an answer due for a refresh. */
  private refreshes = 0;

  constructor(
    readonly client: FinClient,
    readonly reader: CachedReader,
    private readonly freshness: Freshness,
  ) {}

  /**
   * While it lasts, an evaluation fetches an answer due for a refresh again (a refresh of the FIN cells, whose
   * cost was shown). Outside, Excel recalculates FIN cells on its own when rows are inserted or deleted or
   * rows grouped (OfficeDev/office-js#3332, #3911: by design), and the add-in does all three: a cell that
   * makes again a call it made before is answered from the cache, due or not, and spends a call only for an
   * answer the cache does not hold. A formula just typed or edited still fetches what is due: its figure has
   * never been on show. Returns the function that ends it (once).
   */
  openRefresh(): () => void {
    this.refreshes += 1;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.refreshes -= 1;
    };
  }

  /**
   * The answer to one request: cached, else fetched once; in value preview the cached one (or one the cached
   * statements decide) or #N/A. An answer
   * due for a refresh is fetched again by a cell recalculated only during a refresh (openRefresh).
   */
  async read<T>(ctx: EvalContext, req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): Promise<CachedAnswer<T>> {
    ctx.noteRead?.(req);
    const ready = this.ready<T>(req);
    if (ready) return ready;
    if (ctx.preview) {
      const company = this.reader.knownCompanyId();
      const hit = company ? await this.reader.peekOrDerive<T>(req) : undefined;
      if (!company || !hit) throw finErrors.preview();
      void this.freshness.noteFetched(company, hit.fetchedAt);
      return hit;
    }
    if (this.refreshes === 0 && ctx.repeat === true) {
      const kept = await this.reader.kept<T>(req);
      if (kept) {
        await this.freshness.noteFetched(await this.reader.companyId(), kept.fetchedAt);
        return kept;
      }
    }
    const answer = await this.reader.read<T>(req, fetch);
    await this.freshness.noteFetched(await this.reader.companyId(), answer.fetchedAt);
    return answer;
  }

  /** An evaluation's answer to one request, now; else it waits for `read` (a Pending). */
  answer<T>(ev: Evaluation, req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): CachedAnswer<T> {
    ev.noteRead(req);
    const known = ev.waitedFor<T>(req) ?? this.ready<T>(req);
    if (known) return known;
    throw new Pending(this.shared(ev, req, fetch).then((answer) => ev.keep(req, answer)));
  }

  /** The cached path of a recalculation: an answer in memory, and nothing new about its age. */
  private ready<T>(req: ReadRequest): CachedAnswer<T> | undefined {
    const company = this.reader.knownCompanyId();
    const ready = company ? this.reader.fresh<T>(req) : undefined;
    return ready && this.freshness.covers(company!, ready.fetchedAt) ? ready : undefined;
  }

  /** `read`, once for every evaluation waiting for the same request (a cold model waits by the thousand). */
  private shared<T>(ctx: EvalContext, req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): Promise<CachedAnswer<T>> {
    if (ctx.preview) return this.read(ctx, req, fetch);
    const key = requestKey(req);
    let reading = this.reading.get(key) as Promise<CachedAnswer<T>> | undefined;
    if (!reading) {
      const started = this.read(ctx, req, fetch);
      const done = () => {
        if (this.reading.get(key) === started) this.reading.delete(key);
      };
      started.then(done, done);
      this.reading.set(key, started);
      reading = started;
    }
    return reading;
  }

  incomeStatement(ev: Evaluation, period: Period): CachedAnswer<IncomeStatement> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    return this.answer(ev, { path: '/reports/income_statement', query: { ...params } }, (o) => this.client.reports.incomeStatement(params, o));
  }

  balanceSheet(ev: Evaluation, date: string): CachedAnswer<BalanceSheet> {
    const params: ReportDateParams = { date };
    return this.answer(ev, { path: '/reports/balance_sheet', query: { ...params } }, (o) => this.client.reports.balanceSheet(params, o));
  }

  /**
   * A cash flow with its beginning and ending cash: the API's, or the balance sheets' (cashFlowCash.ts).
   * With `cash: false` (a figure that is not cash), the API's answer alone: a line or a refusal known from
   * it costs that one call, not the two balance sheets too.
   */
  cashFlow(ev: Evaluation, period: Period, cash = true): CachedAnswer<CashFlow> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    const answer = this.answer(ev, { path: '/reports/cash_flow', query: { ...params } }, (o) => this.client.reports.cashFlow(params, o));
    if (!cash || !lacksCash(answer.value)) return answer;
    this.reader.noteCashFlowsLackCash();
    const [opening, closing] = cashRequests(period.start, period.end).map((r) => this.balanceSheet(ev, String(r.query!.date)));
    return {
      value: withCashFrom(answer.value, opening.value, closing.value),
      fetchedAt: Math.min(answer.fetchedAt, opening.fetchedAt, closing.fetchedAt),
      ...(answer.stale ? { stale: answer.stale } : {}),
    };
  }

  total(ev: Evaluation, params: AggregationTotalParams): CachedAnswer<AggregationTotal> {
    return this.answer(ev, { path: '/aggregations/total', query: { ...params } }, (o) => this.client.aggregations.total(params, o));
  }

  /**
   * The period's statement split by department (src/engine/departments): its journal activity, its income
   * statement and the category list, the lines of every department together checked against the statement.
   */
  departmentBook(ev: Evaluation, period: Period): DepartmentBook {
    const tree = this.categoryTree(ev);
    const statement = this.incomeStatement(ev, period).value;
    const req = activityRequest(period);
    const { journalEntries } = this.client;
    if (!journalEntries) throw new FinError('na', 'This connection reads no journal entries, which figures by department come from', 'no_journal');
    const activity = this.answer<DepartmentActivity>(ev, req, (o) => fetchActivity({ journalEntries }, period, o)).value;
    let kept = this.books.get(activity);
    if (!kept || kept.statement !== statement) {
      let book: DepartmentBook | FinError;
      try {
        book = new DepartmentBook(statement, activity, tree);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        book = new FinError('na', error.message, error.code);
      }
      kept = { statement, book };
      this.books.set(activity, kept);
    }
    if (kept.book instanceof FinError) throw kept.book;
    return kept.book;
  }

  categoryTree(ev: Evaluation): Tree<Category> {
    const { value } = this.answer(ev, { path: '/categories' }, (o) => this.client.categories.list(o));
    return this.tree(value, 'category');
  }

  departmentTree(ev: Evaluation): Tree<Department> {
    const { value } = this.answer(ev, { path: '/departments' }, (o) => this.client.departments.list(o));
    return this.tree(value, 'department');
  }

  /** A category by name, unique tail of its path, or id. A blank name is refused before any call. */
  category(ev: Evaluation, input: unknown): TreeNode<Category> {
    if (typeof input !== 'string' || input.trim() === '') {
      const result = resolveInTree(buildTree<Category>([], 'category'), input, 'cat_');
      if (!result.ok) throw result.error;
    }
    const result = this.resolve(this.categoryTree(ev), input, 'cat_');
    if (!result.ok) throw result.error;
    return result.node;
  }

  department(ev: Evaluation, input: unknown): TreeNode<Department> {
    const result = this.resolve(this.departmentTree(ev), input, 'dept_');
    if (!result.ok) throw result.error;
    return result.node;
  }

  /** resolveInTree, once per typed text and tree. */
  private resolve<T extends Category | Department>(tree: Tree<T>, input: unknown, idPrefix: string): Resolution<T> {
    if (typeof input !== 'string') return resolveInTree(tree, input, idPrefix);
    let known = this.resolutions.get(tree);
    if (!known || known.size >= MAX_RESOLUTIONS) {
      known = new Map();
      this.resolutions.set(tree, known);
    }
    let result = known.get(input) as Resolution<T> | undefined;
    if (!result) {
      result = resolveInTree(tree, input, idPrefix);
      known.set(input, result as Resolution<Category> | Resolution<Department>);
    }
    return result;
  }

  /** The tree of a cached list, built once per answer. */
  private tree<T extends Category | Department>(list: FullList<T>, noun: 'category' | 'department'): Tree<T> {
    let tree = this.trees.get(list) as Tree<T> | undefined;
    if (!tree) {
      tree = buildTree(Array.isArray(list?.data) ? list.data : [], noun);
      this.trees.set(list, tree as Tree<Category> | Tree<Department>);
    }
    return tree;
  }
}
