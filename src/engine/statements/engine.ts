// Statements in sheets as one object for the task pane (and tests and the bench): what a block costs,
// inserting it, and refreshing the recorded blocks. Host-free: it reads through the connection's cached
// reader and writes through the workbook port.

import type { RefreshReport } from '../fin';
import type { RefreshKindStamp } from '../render/statementGrid';
import type { CachedReader, CallCost } from '../reader/cachedReader';
import type { CapBlock } from '../reader/capBlock';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import { forgetBlock, insertStatement, refreshStatement, type BlockDeps, type BlockResult } from './blocks';
import { chartOfAccounts, type CategoriesClient } from '../budgets/column';
import type { Category } from '../../api/types';
import type { Tree } from '../tree';
import { blockRequests, type ReportsClient } from './columns';
import type { DepartmentsClient } from '../departments/block';
import { planRefresh, refreshAll, refreshBlock, reprice, type CacheFacts, type RefreshBlock, type RefreshOutcome, type RefreshPlan } from './refresh';
import type { StatementSpec } from './spec';
import type { YearMonth } from '../dates';
import type { ReadRequest } from '../reader/requestCache';
import type { WriteTarget } from '../ports/workbook';
import { planRoll, rollForward, type RollOutcome, type RollPlan } from '../reporting/rollForward';

export interface StatementsEngineOptions {
  gateway: WorkbookGateway;
  reader: CachedReader;
  client: ReportsClient & DepartmentsClient & CategoriesClient;
  /** Shown in each block's title. */
  companyName: string;
  now?: () => number;
  /** The user's IANA time zone (the host's: the engine never reads the machine's), for the refresh times on the sheets. */
  timeZone?: string;
}

type Progress = (done: number, total: number) => void;

export interface StatementsEngine {
  /** What inserting this block spends (reports already cached are free); never calls the API. */
  cost(spec: StatementSpec): Promise<CallCost>;
  /** On a new sheet named after the block, at the selected cell, or where a template puts it. */
  insert(spec: StatementSpec, where: 'newSheet' | 'selection' | WriteTarget, onProgress?: Progress): Promise<BlockResult>;
  /** The company's blocks and what refreshing them costs; never calls the API. */
  plan(): Promise<RefreshPlan>;
  /** A plan's blocks priced again by what the cache knows now (after a sync marked what changed); reads no workbook. */
  reprice(plan: RefreshPlan): Promise<RefreshPlan>;
  /**
   * `formulas` is the report of the runtime's refresh of the FIN cells run just before (for all, it marked the
   * cache due). `scope: 'changed'` refreshes only what is known to have changed: pass changedOnly(plan).
   */
  refreshAll(plan: RefreshPlan, options: { formulas?: RefreshReport; onProgress?: Progress; scope?: 'all' | 'changed'; stamp?: RefreshKindStamp }): Promise<RefreshOutcome>;
  /** Refresh this block: its reports fetched again whatever is cached, rewritten in place. */
  refreshBlock(block: RefreshBlock, onProgress?: Progress): Promise<BindingRecord>;
  /** Rebuilds a block in place through the cache (what a full refresh does for each block; the bench's reopen). */
  rebuild(binding: BindingRecord, onProgress?: Progress): Promise<BlockResult>;
  /** The monthly-cap block in force, if any: nothing can be fetched until its reset. */
  capBlock(): Promise<CapBlock | null>;
  /** Stops tracking a block: its name and its binding go, its cells stay as they are. */
  forget(binding: BindingRecord): Promise<void>;
  /** What moving the reporting period to `month` spends (the relative blocks' new periods not cached); never calls the API. */
  planRoll(month: YearMonth, formulaReads?: readonly ReadRequest[]): Promise<RollPlan>;
  /**
   * Until the returned function is called, reads of these requests follow the plan their cost was shown from
   * (a run of several inserts, as the board pack's: reader/derivations.ts).
   */
  follow(requests: readonly ReadRequest[]): Promise<() => void>;
  /** Moves the reporting period and rebuilds the relative blocks at their new dates through the cache. */
  roll(plan: RollPlan, onProgress?: Progress): Promise<RollOutcome>;
  /** The company's chart of accounts through the cache (a template's formulas name its categories). */
  chart(): Promise<Tree<Category>>;
}

export function createStatementsEngine(options: StatementsEngineOptions): StatementsEngine {
  const deps: BlockDeps = {
    gateway: options.gateway,
    reader: options.reader,
    client: options.client,
    companyName: options.companyName,
    now: options.now ?? Date.now,
    timeZone: options.timeZone,
  };
  const { reader } = options;
  const factsOf = (company: string): CacheFacts => ({
    cachedKeys: () => reader.cache.storedKeys(company),
    staleKeys: () => reader.cache.staleKeys(company),
    changes: () => reader.cache.changes(company),
    isFrozen: (key) => reader.cache.isFrozen(key),
    withDependents: (requests) => reader.withDependents(requests),
    callsOf: (keys) => reader.callsOf(keys),
  });
  return {
    cost: (spec) => reader.cost(blockRequests(spec)),
    insert: async (spec, where, onProgress) => {
      reader.newRun();
      const unfollow = await reader.follow(blockRequests(spec));
      try {
        return await insertStatement(deps, spec, where, onProgress);
      } finally {
        unfollow();
      }
    },
    follow: (requests) => reader.follow(requests),
    plan: async () => {
      const company = await reader.companyId();
      return planRefresh(options.gateway, company, factsOf(company));
    },
    reprice: async (plan) => {
      const company = await reader.companyId();
      return reprice(plan, company, factsOf(company));
    },
    // Part of a refresh that started the run (the workbook's or a scope's), after the FIN cells: a pause the
    // formulas' failures opened holds for the blocks too.
    refreshAll: (plan, o) => refreshAll(deps, plan, o),
    refreshBlock: (block, onProgress) => {
      reader.newRun();
      return refreshBlock(deps, block, onProgress);
    },
    rebuild: (binding, onProgress) => refreshStatement(deps, binding, { fresh: false, kind: 'full', onProgress }),
    capBlock: () => reader.capBlock(),
    forget: (binding) => forgetBlock(options.gateway, binding),
    planRoll: (month, formulaReads) => planRoll(options.gateway, reader, month, formulaReads),
    roll: async (plan, onProgress) => {
      reader.newRun();
      const unfollow = await reader.follow(plan.requests);
      try {
        return await rollForward(deps, plan, onProgress);
      } finally {
        unfollow();
      }
    },
    chart: () => chartOfAccounts(reader, options.client),
  };
}
