// The FIN functions' reads: every one through the CachedReader, so a cell never spends a call that
// another cell (or a statement block) already spent. Value preview only peeks at the cache, and each
// answer used moves the "data as of" time.

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
import type { CachedAnswer, ReadRequest } from '../reader/requestCache';
import type { FinClient } from './client';
import { finErrors } from './errors';
import type { Freshness } from './freshness';
import { buildTree, type Tree, type TreeNode } from '../tree';
import { resolveInTree } from './resolve';

/** Per evaluation: `preview` is Excel's formula value preview (invocation.isInValuePreview). */
export interface EvalContext {
  readonly preview?: boolean;
  /** Told of each request the evaluation reads (the cost of recalculating a formula is taken from them). */
  readonly noteRead?: (req: ReadRequest) => void;
}

export class FinReads {
  private readonly trees = new WeakMap<object, Tree<Category> | Tree<Department>>();

  constructor(
    readonly client: FinClient,
    readonly reader: CachedReader,
    private readonly freshness: Freshness,
  ) {}

  /** The answer to one request: cached, else fetched once; in value preview the cached one or #N/A. */
  async read<T>(ctx: EvalContext, req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): Promise<CachedAnswer<T>> {
    ctx.noteRead?.(req);
    if (ctx.preview) {
      const company = this.reader.knownCompanyId();
      const hit = company ? await this.reader.peek<T>(req) : undefined;
      if (!company || !hit) throw finErrors.preview();
      void this.freshness.noteFetched(company, hit.fetchedAt);
      return hit;
    }
    const answer = await this.reader.read<T>(req, fetch);
    await this.freshness.noteFetched(await this.reader.companyId(), answer.fetchedAt);
    return answer;
  }

  incomeStatement(ctx: EvalContext, period: Period): Promise<CachedAnswer<IncomeStatement>> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    return this.read(ctx, { path: '/reports/income_statement', query: { ...params } }, (o) => this.client.reports.incomeStatement(params, o));
  }

  balanceSheet(ctx: EvalContext, date: string): Promise<CachedAnswer<BalanceSheet>> {
    const params: ReportDateParams = { date };
    return this.read(ctx, { path: '/reports/balance_sheet', query: { ...params } }, (o) => this.client.reports.balanceSheet(params, o));
  }

  cashFlow(ctx: EvalContext, period: Period): Promise<CachedAnswer<CashFlow>> {
    const params: ReportPeriodParams = { start_date: period.start, end_date: period.end };
    return this.read(ctx, { path: '/reports/cash_flow', query: { ...params } }, (o) => this.client.reports.cashFlow(params, o));
  }

  total(ctx: EvalContext, params: AggregationTotalParams): Promise<CachedAnswer<AggregationTotal>> {
    return this.read(ctx, { path: '/aggregations/total', query: { ...params } }, (o) => this.client.aggregations.total(params, o));
  }

  async categoryTree(ctx: EvalContext): Promise<Tree<Category>> {
    const { value } = await this.read(ctx, { path: '/categories' }, (o) => this.client.categories.list(o));
    return this.tree(value, 'category');
  }

  async departmentTree(ctx: EvalContext): Promise<Tree<Department>> {
    const { value } = await this.read(ctx, { path: '/departments' }, (o) => this.client.departments.list(o));
    return this.tree(value, 'department');
  }

  /** A category by name, unique tail of its path, or id. A blank name is refused before any call. */
  async category(ctx: EvalContext, input: unknown): Promise<TreeNode<Category>> {
    if (typeof input !== 'string' || input.trim() === '') {
      const result = resolveInTree(buildTree<Category>([], 'category'), input, 'cat_');
      if (!result.ok) throw result.error;
    }
    const result = resolveInTree(await this.categoryTree(ctx), input, 'cat_');
    if (!result.ok) throw result.error;
    return result.node;
  }

  async department(ctx: EvalContext, input: unknown): Promise<TreeNode<Department>> {
    const result = resolveInTree(await this.departmentTree(ctx), input, 'dept_');
    if (!result.ok) throw result.error;
    return result.node;
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
