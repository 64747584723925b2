// The workbook's workspace: what the pane works with once connected. It owns the engines of each connected
// company (statements, transactions tables routed to the company each was pulled from), the refresh wiring
// (the workbook's refresh and the refresh of a scope, company by company, the consolidated blocks last),
// which other companies the workbook reads, and the cost and cap rules every action is held to before it
// spends. A refresh walks down: the workspace asks the engine what changed, refreshes the FIN cells itself
// (the runtime recalculates them), then has the engine rebuild the blocks; the engine never calls back up.
// The pane, the bench and the tests all drive this wiring, so what they measure is what ships.

import type { Client, Plan } from '../api';
import type { CallsLeft } from '../engine/budget/callsLeft';
import { checkBudget, checkCost, forgetBudget, keepBudget, listBudgets, selectedBudget, type BudgetCheck, type KeptBudget } from '../engine/budgets';
import { exceedsLeft, notStartedText } from '../engine/budget/callsLeft';
import {
  consolidatedBlocks,
  consolidatedCost,
  consolidatedWith,
  insertConsolidated,
  refreshConsolidated,
  type ConsolidatedBlock,
  type ConsolidatedSpec,
  type Member,
} from '../engine/consolidation/insert';
import type { YearMonth } from '../engine/dates';
import type { CallCost } from '../engine/reader/cachedReader';
import { proposeRolesFor, type PackRoles, type RoleProposal } from '../engine/reporting/packRoles';
import { boardPackIn, checkPackBudget, insertBoardPack, packCosts, type BoardPack, type PackCosts, type PackOutcome, type PackParts } from '../engine/reporting/boardPack';
import { readReportingPeriod, type ReportingPeriod } from '../engine/reporting/period';
import { periodFormulas, type PeriodFormulas } from '../engine/reporting/periodFormulas';
import { shareAsValues, surveyWorkbook, type ShareFacts, type ShareResult, type SheetSurvey } from '../engine/share';
import { blockLines, chartsOf, insertBlockChart, removeBlockChart, type BlockChart, type ChartableBlock, type ChartChoice } from '../engine/charts/blockCharts';
import { openLog, recentEntries, type LogSummary } from '../engine/pushLog/log';
import { forgetBlock } from '../engine/statements/blocks';
import { blockRequests } from '../engine/statements/columns';
import { describeSpec, specFromBinding } from '../engine/statements/spec';
import { leadingPeriodsWithin, type FittingBlock } from '../engine/statements/fit';
import type { WrittenRange } from '../engine/ports/workbook';
import { refreshConsolidatedBlocks } from '../engine/consolidation/refreshBlocks';
import type { FinCell, FinService, RefreshReport } from '../engine/fin';
import type { SecretStore } from '../engine/ports/storage';
import type { BindingRecord, WorkbookGateway } from '../engine/ports/workbook';
import type { CachedReader } from '../engine/reader/cachedReader';
import { closedSettingKey } from '../engine/reader/closedBooks';
import type { ReadRequest } from '../engine/reader/requestCache';
import { combineRefreshes, companiesCostText, type CompanyRefreshResult } from '../engine/refresh/byCompany';
import { changedRefreshText, fullRefreshText, planWorkbookRefresh, type WorkbookPlan } from '../engine/refresh/plan';
import { planScopeRefresh, scopeArea, scopeCostText, startScopeRefresh, type ScopeKind, type ScopePlan, type ScopeRefreshDeps, type ScopeRefreshResult } from '../engine/refresh/scopeRefresh';
import { startWorkbookRefresh, type RefreshKind, type WorkbookRefreshDeps, type WorkbookRefreshResult } from '../engine/refresh/workbookRefresh';
import { Refusal } from '../engine/refusal';
import { blockCostText, createStatementsEngine, planAfter, type RefreshBlock, type StatementSpec, type StatementsEngine } from '../engine/statements';
import { createTransactionsEngine, tablesByCompany, type PollOptions, type TransactionsEngine } from '../engine/transactions';
import type { RuntimeHost } from './host';
import type { StoredConnection } from './connection';
import { planLabel } from './plans';
import type { RefreshAllOptions } from './runtime';

/** What the workspace needs of the shared runtime (the runtime module satisfies it). */
export interface WorkspaceRuntime {
  getClient(company?: string): Promise<Client | null>;
  getReader(company?: string): Promise<CachedReader | null>;
  getConnection(company?: string): Promise<StoredConnection | null>;
  getRuntimeHost(): RuntimeHost | null;
  refreshAll(options?: RefreshAllOptions): Promise<RefreshReport>;
  cellRequests(cells: readonly FinCell[], company?: string): { requests: ReadRequest[]; unknown: number; elsewhere: number };
  refreshCells(cells: readonly FinCell[], options: { label: string; company?: string }): Promise<RefreshReport>;
  cellCompanies(cells: readonly FinCell[]): { companyIds: string[]; unknown: number };
  getFinService(company?: string): Promise<FinService | null>;
  /** Derivation from the monthly statements on or off for a company, persisted (Runtime.setDerivation). */
  setDerivation?(on: boolean, options?: { company?: string; because?: string }): Promise<void>;
}

/** A statement block as the chart panel lists it. */
export interface ChartableStatement {
  bindingId: string;
  /** "Income statement, FY2025, months side by side". */
  description: string;
  /** Where it was last written (sheet-qualified). */
  address: string;
  charts: BlockChart[];
}

/** Where the workspace works: the runtime, the workbook, add-in storage for push journals, the clock. */
export interface WorkspaceEnv {
  runtime: WorkspaceRuntime;
  gateway: WorkbookGateway;
  journal: SecretStore;
  now: () => number;
  /** The user's IANA time zone, for the times written on sheets. */
  timeZone?: string;
  /** How long the FIN cells' recalculation is given to settle (the runtime's default when absent). */
  quietMs?: number;
  /** How a push polls its jobs (the engine's default when absent). */
  poll?: PollOptions;
}

/** A connection as the user set it up: its short name, the company, the plan the user gave for it. */
export interface ConnectionSettings {
  name: string;
  companyId: string;
  companyName: string;
  baseUrl: string;
  plan: Plan;
  fiscalYearStartMonth: number;
}

/** The connections the workspace works on: every one (the default first), and the default one's client. */
export interface WorkspaceConnections {
  connections: readonly ConnectionSettings[];
  client: Client;
  reader: CachedReader;
  /** A fingerprint of the default connection's key: binds push journal entries to it. */
  keyFingerprint: string;
  companyId: string;
  companyName: string;
  plan: Plan;
}

/** One connected company: its settings, its connection's client and reader, its statements engine. */
export interface CompanyWorkspace extends ConnectionSettings {
  client: Client;
  reader: CachedReader;
  keyFingerprint: string;
  statements: StatementsEngine;
}

/** Another company the workbook reads, with what a refresh would cost it and what its own cap leaves. */
export interface OtherCompanyPlan {
  company: CompanyWorkspace;
  plan: WorkbookPlan;
  left: CallsLeft | null;
}

/** A refresh of the workbook as shown before it spends: its cost, company by company, from plans read once. */
export interface RefreshAsk {
  kind: RefreshKind;
  text: string;
  /** The default company's plan (the pane lists its blocks). */
  plan: WorkbookPlan;
  others: OtherCompanyPlan[];
}

export interface RefreshProgressCallbacks {
  onPhase?: (phase: 'asking' | 'formulas') => void;
  onProgress?: (done: number, total: number, fetched: number) => void;
}

/** What the pane chooses of a board pack: its budget (a kept budget's name), if any, and its optional parts. */
export type PackOptions = PackParts & { budget?: string };
/** Inserting the pack: the roles as the user confirmed them, or (none given) as proposed from the company's chart. */
export type PackInsertOptions = PackOptions & { roles?: PackRoles };

export interface Workspace {
  /** The default company's statements engine. */
  readonly statements: StatementsEngine;
  /** The workbook's transactions tables, each refreshed and pushed on the connection of the company it was pulled from. */
  readonly transactions: TransactionsEngine;
  /** The default company, or another connected one (null when it is connected no more). */
  company(companyId?: string): Promise<CompanyWorkspace | null>;
  /** The calls left this month of a company (the default one when omitted) on the plan the user gave for it. */
  callsLeft(companyId?: string): Promise<CallsLeft | null>;
  /** Refuses (a Refusal saying why and what to do instead) an action of `calls` calls that would stop part way for the company's cap this month. */
  checkAffordable(what: string, calls: number, instead: string, companyId?: string): Promise<void>;
  /** The default company's refresh plan (its blocks, what each kind of refresh costs); never calls the API. */
  plan(): Promise<WorkbookPlan>;
  /** What a refresh of the workbook costs, every company it reads; refused when it cannot be afforded. */
  askRefresh(kind: RefreshKind): Promise<RefreshAsk>;
  /** The refresh asked, from the plans it showed; `plan` is the default company's afterwards. */
  refresh(ask: RefreshAsk, options?: RefreshProgressCallbacks & { includeReference?: boolean }): Promise<{ result: WorkbookRefreshResult; plan: WorkbookPlan }>;
  /** What refreshing this block costs; refused when it cannot be afforded. */
  askBlock(block: RefreshBlock): Promise<string>;
  refreshBlock(block: RefreshBlock, onProgress?: (done: number, total: number) => void): Promise<BindingRecord>;
  /** The selection or the active sheet as it is now, and exactly what refreshing it costs; refused when it cannot be afforded. */
  askScope(kind: ScopeKind, options?: { includeReference?: boolean }): Promise<{ plan: ScopePlan; text: string }>;
  refreshScope(plan: ScopePlan, options?: RefreshProgressCallbacks): Promise<ScopeRefreshResult>;
  /** Books closed through a month end (null: not closed) for the default company; says what that means. */
  closeBooks(through: string | null): Promise<string>;
  /** Stops tracking a block: its name and binding go, its cells stay. */
  forget(binding: BindingRecord): Promise<void>;
  /** A consolidated block's companies as connected here, by company id, headed by their connections' names now. */
  membersOf(block: ConsolidatedBlock): Promise<{ members: Member[] } | { missing: string[] }>;
  /** The leading periods of a block that fit within `left` calls, priced on the company's cache (the default one's when omitted). */
  fit(spec: StatementSpec, left: number, companyId?: string): Promise<FittingBlock | null>;
  /** The workbook's reporting period and board pack: the default company's. */
  readonly reporting: {
    period(): Promise<ReportingPeriod>;
    /** The board pack the workbook holds, by its KPI sheet (and its charts' sheet). */
    boardPack(): Promise<BoardPack | null>;
    /**
     * What inserting the pack with `options` spends, and what its charts and its P&L by department each add;
     * `budget` a kept budget's name to set the month and the year to date against, refused (a Refusal) when
     * that budget does not cover them, before any call.
     */
    packCost(month: YearMonth, options: PackOptions): Promise<PackCosts>;
    /** The pack's roles proposed from the company's chart, with the candidates of each (reads the chart through the cache; `cachedOnly`: null instead of a call). */
    proposeRoles(options?: { cachedOnly?: boolean }): Promise<RoleProposal | null>;
    insertPack(month: YearMonth, options: PackInsertOptions, onProgress?: (done: number, total: number) => void): Promise<PackOutcome>;
    /**
     * The FIN formulas naming FIN_PERIOD (outside `skipSheets`) and about what they spend when it moves, a
     * figure that `covered` (the pack's formulas' reads at the period now) or a relative block reads now not
     * counted: the move's cost has it already. Null where the host cannot pick out formulas.
     */
    readonly periodFormulas: ((skipSheets: readonly string[], covered?: readonly ReadRequest[]) => Promise<PeriodFormulas>) | null;
  };
  /** Companies side by side (connections by name): what a consolidated statement costs, inserting one, its blocks. */
  readonly consolidation: {
    blocks(): Promise<ConsolidatedBlock[]>;
    cost(names: readonly string[], spec: ConsolidatedSpec): Promise<{ calls: number; perCompany: { name: string; cost: CallCost }[] }>;
    /** Inserts it; `companyIds` says whose calls it spent (each company pays its own part). */
    insert(names: readonly string[], spec: ConsolidatedSpec, spent: (companyIds: string[], run: () => Promise<{ written: WrittenRange }>) => Promise<{ written: WrittenRange }>): Promise<{ written: WrittenRange; companies: number }>;
    /** Refresh this block: each company's report again, on its own connection; refused naming a company not connected here. */
    refresh(block: ConsolidatedBlock): Promise<{ written: WrittenRange }>;
    forget(binding: BindingRecord): Promise<void>;
  };
  /**
   * Charts of statement blocks (issue 28, item 2): which blocks there are with their charts, the lines a block
   * can chart, inserting one (recorded with the block, so its refreshes and roll forward keep it on its lines)
   * and taking one out. Excel only: no call.
   */
  readonly charts: {
    blocks(): Promise<ChartableStatement[]>;
    lines(bindingId: string): Promise<ChartableBlock>;
    insert(bindingId: string, choice: ChartChoice): Promise<{ chart: BlockChart; sheet: string; over: string }>;
    remove(bindingId: string, name: string): Promise<void>;
  };
  /** The push log (issue 28, item 3): its last entries, and its sheet shown. No call. */
  readonly pushLog: {
    recent(count?: number): Promise<{ sheet: string | null; entries: LogSummary[] }>;
    open(): Promise<string>;
  };
  /** Budgets kept in the workbook (engine/budgets), matched to the default company's chart of accounts; never sent anywhere. */
  readonly budgets: {
    /** The budgets the workbook keeps, and where each is now. */
    list(): Promise<KeptBudget[]>;
    /** What checking a budget spends: the chart of accounts, unless cached. */
    checkCost(): Promise<CallCost>;
    /** The budget at `address` (the selection when omitted) read and matched: what matches, what does not, what no line covers. */
    check(address?: string): Promise<BudgetCheck>;
    /** Keeps the cells as a budget under `name` (a visible workbook name), or points a kept budget's name there. */
    keep(name: string, address: string): Promise<KeptBudget>;
    /** The add-in stops offering it and its name goes; its cells stay. */
    forget(name: string): Promise<void>;
  };
  /** Share as values: what each sheet holds and what to warn about, then the values copies. */
  readonly share: {
    survey(finQuietMs: number): Promise<{ sheets: SheetSurvey[]; facts: ShareFacts }>;
    /** The push log is left out unless `includePushLog` (the user ticked it). */
    copy(sheets: readonly string[], facts: ShareFacts, onProgress?: (done: number, total: number) => void, options?: { includePushLog?: boolean }): Promise<ShareResult>;
  };
}

export function openWorkspace(env: WorkspaceEnv, connected: WorkspaceConnections): Workspace {
  const { runtime, gateway } = env;
  const statementsOf = (c: { client: Client; reader: CachedReader; companyName: string }): StatementsEngine =>
    createStatementsEngine({ gateway, reader: c.reader, client: c.client, companyName: c.companyName, now: env.now, timeZone: env.timeZone });
  const transactionsOf = (c: { client: Client; reader: CachedReader; keyFingerprint: string; companyName: string; name: string }): TransactionsEngine =>
    createTransactionsEngine({
      client: c.client,
      reader: c.reader,
      gateway,
      journal: env.journal,
      owner: { keyFingerprint: c.keyFingerprint, label: c.companyName },
      connection: c.name,
      timeZone: env.timeZone,
      now: env.now,
      poll: env.poll,
    });

  const defaultSettings = connected.connections.find((c) => c.companyId === connected.companyId);
  const own: CompanyWorkspace = {
    name: defaultSettings?.name ?? connected.companyName,
    companyId: connected.companyId,
    companyName: connected.companyName,
    baseUrl: defaultSettings?.baseUrl ?? connected.client.baseUrl,
    plan: connected.plan,
    fiscalYearStartMonth: defaultSettings?.fiscalYearStartMonth ?? 1,
    client: connected.client,
    reader: connected.reader,
    keyFingerprint: connected.keyFingerprint,
    statements: statementsOf(connected),
  };

  /** Other companies' workspaces, built once each (null: no longer connected). */
  const others = new Map<string, Promise<CompanyWorkspace | null>>();
  const company = (companyId?: string): Promise<CompanyWorkspace | null> => {
    if (companyId === undefined || companyId === own.companyId) return Promise.resolve(own);
    let found = others.get(companyId);
    if (!found) {
      found = (async () => {
        const settings = connected.connections.find((c) => c.companyId === companyId);
        if (!settings) return null;
        const [client, reader, stored] = await Promise.all([runtime.getClient(companyId), runtime.getReader(companyId), runtime.getConnection(companyId)]);
        if (!client || !reader || !stored?.keyFingerprint) return null;
        return { ...settings, client, reader, keyFingerprint: stored.keyFingerprint, statements: statementsOf({ client, reader, companyName: settings.companyName }) };
      })();
      others.set(companyId, found);
    }
    return found;
  };

  const ownTables = transactionsOf(own);
  const tableEngines = new Map<string, Promise<TransactionsEngine | null>>();
  const transactions = tablesByCompany({
    gateway,
    own: ownTables,
    engineFor: (companyId) => {
      if (companyId === own.companyId) return Promise.resolve(ownTables);
      let engine = tableEngines.get(companyId);
      if (!engine) {
        engine = company(companyId).then((c) => (c ? transactionsOf(c) : null));
        tableEngines.set(companyId, engine);
      }
      return engine;
    },
  });

  const callsLeftOf = async (c: CompanyWorkspace): Promise<CallsLeft | null> => {
    const left = await c.client.meter.remaining(c.plan).catch(() => undefined);
    if (left === undefined) return null;
    return { left, plan: planLabel(c.plan), resetDate: c.client.meter.nextReset().date };
  };

  /** While the cap is known to be spent, nothing can be fetched: refreshing would only empty the cache. */
  const refuseAtCap = async (c: CompanyWorkspace): Promise<void> => {
    const limit = await c.reader.capBlock();
    if (!limit) return;
    throw new Refusal(
      'Monthly API limit reached',
      `Nothing can be fetched until the limit resets on ${limit.resetDate} at 00:00 Pacific Time, so nothing was refreshed. The figures in the workbook stay as they are.`,
      'monthly_limit_exceeded',
    );
  };

  const refuseOverLeft = (who: string | null, what: string, calls: number, left: CallsLeft | null, instead: string): void => {
    if (!exceedsLeft(calls, left)) return;
    throw new Refusal('Not started: too few calls left this month', `${who ? `${who}: ` : ''}${notStartedText(what, calls, left)}${instead ? ` ${instead}` : ''}`, 'calls_left');
  };

  const planOf = async (c: CompanyWorkspace, tableCount?: number): Promise<WorkbookPlan> => {
    const store = c.reader.stateStore;
    if (!store) throw new Error('The connection has no storage for its refresh record');
    const tables = tableCount ?? (await transactions.tables()).filter((t) => t.company === c.companyId).length;
    return planWorkbookRefresh(await c.statements.plan(), tables, store, c.companyId, await consolidatedWith(gateway, c.companyId));
  };

  /** The other connections' companies this workbook reads: those with blocks or tables here, or answers cached. */
  const otherCompaniesRead = async (): Promise<CompanyWorkspace[]> => {
    const rest = connected.connections.filter((c) => c.companyId !== own.companyId);
    if (rest.length === 0) return [];
    const bound = new Set((await gateway.listBindings()).map((b) => b.company));
    const out: CompanyWorkspace[] = [];
    for (const settings of rest) {
      const other = await company(settings.companyId);
      if (!other) continue;
      const used = bound.has(other.companyId) || (await other.reader.cache.storedKeys(other.companyId).catch(() => [])).length > 0;
      if (used) out.push(other);
    }
    return out;
  };

  const refreshDeps = (c: CompanyWorkspace): WorkbookRefreshDeps => {
    const store = c.reader.stateStore;
    if (!store) throw new Error('The connection has no storage for its refresh record');
    return {
      statements: c.statements,
      tables: transactions,
      reader: c.reader,
      feed: { client: c.client, reader: c.reader, store },
      meter: c.client.meter,
      derivationOff: async (because) => runtime.setDerivation?.(false, { company: c.companyId, because }),
    };
  };

  const membersOf = async (block: ConsolidatedBlock): Promise<{ members: Member[] } | { missing: string[] }> => {
    const members: Member[] = [];
    const missing: string[] = [];
    for (const { name, companyId } of block.members) {
      const [connection, reader, client] = await Promise.all([runtime.getConnection(companyId), runtime.getReader(companyId), runtime.getClient(companyId)]);
      if (connection && reader && client) members.push({ name: connection.name, reader, client });
      else missing.push(name);
    }
    return missing.length > 0 ? { missing } : { members };
  };
  const consolidatedDeps = { gateway, timeZone: env.timeZone, now: env.now };
  /** Connections by name (each once), as companies of a consolidated statement. */
  const membersNamed = async (names: readonly string[]): Promise<Member[]> => {
    const out: Member[] = [];
    for (const name of names) {
      const [reader, client] = await Promise.all([runtime.getReader(name), runtime.getClient(name)]);
      if (reader && client) out.push({ name, reader, client });
    }
    return out;
  };

  const scopeDeps = (): ScopeRefreshDeps => {
    const host = runtime.getRuntimeHost();
    const finCellsIn = host?.finCellsIn?.bind(host);
    return {
      gateway,
      statements: own.statements,
      tables: transactions,
      reader: own.reader,
      // The default connection's cells: its reader marks what they read; cells of other companies are left out.
      cells: finCellsIn ? { finCellsIn, requestsOf: (cells) => runtime.cellRequests(cells, own.companyId) } : undefined,
      meter: own.client.meter,
      consolidated: { ...consolidatedDeps, membersOf },
    };
  };

  const periodFormulasOf = (): Workspace['reporting']['periodFormulas'] => {
    const host = runtime.getRuntimeHost();
    const finCellsIn = host?.finCellsIn?.bind(host);
    if (!finCellsIn) return null;
    const deps = {
      sheets: async () => (await gateway.listSheets()).map((sheet) => sheet.name),
      finCellsIn,
      requestsOf: (cells: readonly FinCell[]) => runtime.cellRequests(cells, own.companyId),
    };
    return async (skipSheets, covered = []) => {
      // What the company's relative blocks read now: moved with the period, the plan prices what they read then.
      const relative = (await gateway.listBindings()).filter((b) => b.company === own.companyId).flatMap((b) => {
        const spec = specFromBinding(b);
        return spec?.relation ? blockRequests(spec) : [];
      });
      return periodFormulas(deps, skipSheets, [...covered, ...relative]);
    };
  };

  /** The block's binding as the workbook holds it now; refused when it is gone (forgotten meanwhile). */
  const statementBinding = async (bindingId: string): Promise<BindingRecord> => {
    const binding = (await gateway.listBindings()).find((b) => b.id === bindingId && specFromBinding(b));
    if (!binding) throw new Refusal('Block not found', 'This block is no longer recorded in the workbook (it was forgotten). Choose another block.', 'chart_block_gone');
    return binding;
  };

  const textOf = (kind: RefreshKind, p: WorkbookPlan) => (kind === 'changed' ? changedRefreshText(p) : fullRefreshText(p));
  /** What a refresh of `kind` costs at least: a changes refresh asks (1 call) and fetches what the add-in's own pushes changed. */
  const leastOf = (kind: RefreshKind, p: WorkbookPlan) => (kind === 'full' || !p.watermark ? p.fullCalls : 1 + p.knownCalls);

  return {
    statements: own.statements,
    transactions,
    company,
    callsLeft: async (companyId) => {
      const c = await company(companyId);
      return c ? callsLeftOf(c) : null;
    },
    checkAffordable: async (what, calls, instead, companyId) => {
      const c = await company(companyId);
      if (c) refuseOverLeft(null, what, calls, await callsLeftOf(c), instead);
    },
    plan: () => planOf(own),
    askRefresh: async (kind) => {
      await refuseAtCap(own);
      const plan = await planOf(own);
      const name = kind === 'full' || !plan.watermark ? 'A full refresh' : 'Refresh changes';
      refuseOverLeft(null, name, leastOf(kind, plan), await callsLeftOf(own), kind === 'full' ? 'Refresh changes or Refresh this block cost less.' : 'Refresh this block costs less.');
      // The other companies the workbook reads: each one's cost on its own cap, checked and shown before spending.
      const otherPlans: OtherCompanyPlan[] = [];
      const tables = await transactions.tables();
      for (const other of await otherCompaniesRead()) {
        const p = await planOf(other, tables.filter((t) => t.company === other.companyId).length);
        const left = await callsLeftOf(other);
        refuseOverLeft(other.name, name, leastOf(kind, p), left, '');
        otherPlans.push({ company: other, plan: p, left });
      }
      const text = companiesCostText([
        { name: own.name, text: textOf(kind, plan) },
        ...otherPlans.map((o) => ({ name: o.company.name, text: textOf(kind, o.plan), ...(o.left ? { left: o.left } : {}) })),
      ]);
      return { kind, text, plan, others: otherPlans };
    },
    refresh: async (ask, options = {}) => {
      const companies: { workspace: CompanyWorkspace; plan: WorkbookPlan }[] = [{ workspace: own, plan: ask.plan }, ...ask.others.map((o) => ({ workspace: o.company, plan: o.plan }))];
      const results: CompanyRefreshResult[] = [];
      // One company after the other: each waits for the recalculation it started before the next marks its answers due.
      for (const { workspace: c, plan } of companies) {
        const started = await startWorkbookRefresh(refreshDeps(c), { kind: ask.kind, plan: plan.blocks, includeReference: options.includeReference, onPhase: options.onPhase });
        options.onPhase?.('formulas');
        // Only this company's answers are due; the other companies' cells read their cache.
        const formulas = await runtime.refreshAll({ scope: started.formulas, company: c.companyId, ...(env.quietMs !== undefined ? { quietMs: env.quietMs } : {}) });
        results.push({ name: c.name, result: await started.finish(formulas, options.onProgress) });
      }
      // The consolidated statements last, through the caches the companies' refreshes marked.
      const groups = await refreshConsolidatedBlocks(consolidatedDeps, membersOf, ask.kind === 'full' ? 'full' : 'changes');
      const result = combineRefreshes(results, groups);
      // The default company's blocks as the refresh left them: from the plan shown and what it wrote, not read again.
      const blocks = await own.statements.reprice(planAfter(ask.plan.blocks, results[0].result.blocks));
      const after = await planWorkbookRefresh(blocks, ask.plan.tables, refreshDeps(own).feed.store, own.companyId, ask.plan.consolidated);
      return { result, plan: after };
    },
    askBlock: async (block) => {
      await refuseAtCap(own);
      refuseOverLeft(null, 'This block', block.calls, await callsLeftOf(own), 'Choose a block with fewer periods, or wait for the reset.');
      const reopens = block.frozen > 0 ? ' It reopens its closed periods for this refresh.' : '';
      return `${blockCostText(block)}${reopens}`;
    },
    refreshBlock: (block, onProgress) => own.statements.refreshBlock(block, onProgress),
    askScope: async (kind, options = {}) => {
      await refuseAtCap(own);
      const plan = await planScopeRefresh(scopeDeps(), await scopeArea(gateway, kind), options);
      const text = scopeCostText(plan);
      if (plan.calls > 0 || plan.cells.length > 0 || plan.blocks.length > 0) {
        refuseOverLeft(null, kind === 'sheet' ? 'Refreshing this sheet' : 'Refreshing the selection', plan.calls, await callsLeftOf(own), 'Select fewer cells, or wait for the reset.');
      }
      return { plan, text };
    },
    refreshScope: async (plan, options = {}) => {
      const started = await startScopeRefresh(scopeDeps(), plan);
      let formulas: RefreshReport | undefined;
      if (started.cells.length > 0) {
        options.onPhase?.('formulas');
        formulas = await runtime.refreshCells(started.cells, { label: started.label, company: own.companyId });
      }
      return started.finish(formulas, options.onProgress);
    },
    closeBooks: async (through) => {
      const key = closedSettingKey(own.companyId);
      if (through === null) await gateway.removeSetting(key);
      else await gateway.writeSetting(key, through);
      own.reader.setBooksClosedThrough(through);
      return through === null ? 'Books not closed: every figure is refreshed as usual.' : `Books closed through ${through}: figures up to then are kept by every refresh.`;
    },
    forget: (binding) => own.statements.forget(binding),
    membersOf,
    fit: async (spec, left, companyId) => {
      const c = await company(companyId);
      return c ? leadingPeriodsWithin(spec, left, (requests) => c.reader.cost(requests)) : null;
    },
    reporting: {
      period: () => readReportingPeriod(gateway),
      boardPack: () => boardPackIn(gateway),
      packCost: async (month, options) => {
        const choice = { ...options, fiscalYearStartMonth: own.fiscalYearStartMonth };
        await checkPackBudget(gateway, month, choice);
        return packCosts(own.reader, month, choice);
      },
      proposeRoles: (options) => proposeRolesFor(own.reader, own.client, options),
      insertPack: async (month, options, onProgress) => {
        const roles = options.roles ?? (await proposeRolesFor(own.reader, own.client))!.roles;
        return insertBoardPack(gateway, own.statements, month, { ...options, roles, fiscalYearStartMonth: own.fiscalYearStartMonth, onProgress });
      },
      periodFormulas: periodFormulasOf(),
    },
    consolidation: {
      blocks: () => consolidatedBlocks(gateway),
      cost: async (names, spec) => consolidatedCost(await membersNamed(names), spec),
      insert: async (names, spec, spent) => {
        const members = await membersNamed(names);
        const title = members.map((m) => m.name).join(' + ');
        const companyIds = await Promise.all(members.map((m) => m.reader.companyId()));
        const { written } = await spent(companyIds, () => insertConsolidated({ ...consolidatedDeps, title }, members, spec));
        return { written, companies: members.length };
      },
      refresh: async (block) => {
        const found = await membersOf(block);
        if ('missing' in found) {
          const [one, ...more] = found.missing;
          throw new Refusal(
            'A company of this statement is not connected',
            `${more.length ? `${found.missing.join(' and ')} are` : `${one} is`} not connected here: connect ${more.length ? 'them' : 'it'} (Connection tab) to refresh this block.`,
            'consolidation_unconnected',
          );
        }
        return refreshConsolidated({ ...consolidatedDeps, title: block.title }, block, found.members);
      },
      forget: (binding) => forgetBlock(gateway, binding),
    },
    charts: {
      blocks: async () =>
        (await gateway.listBindings()).flatMap((b) => {
          const spec = specFromBinding(b);
          return spec ? [{ bindingId: b.id, description: describeSpec(spec), address: b.address, charts: chartsOf(b) }] : [];
        }),
      lines: async (bindingId) => blockLines(gateway, await statementBinding(bindingId)),
      insert: async (bindingId, choice) => {
        const { chart, sheet, over } = await insertBlockChart(gateway, await statementBinding(bindingId), choice);
        return { chart, sheet, over };
      },
      remove: async (bindingId, name) => {
        await removeBlockChart(gateway, await statementBinding(bindingId), name);
      },
    },
    pushLog: {
      recent: (count) => recentEntries(gateway, count),
      open: () => openLog(gateway),
    },
    budgets: {
      list: () => listBudgets(gateway),
      checkCost: () => checkCost(own.reader),
      check: async (address) => checkBudget(gateway, own.reader, own.client, address ?? (await selectedBudget(gateway))),
      keep: (name, address) => keepBudget(gateway, name, address),
      forget: (name) => forgetBudget(gateway, name),
    },
    share: {
      survey: async (finQuietMs) => {
        const now = env.now();
        const plan = await own.statements.plan();
        const fin = await runtime.getFinService();
        const formulasAsOf = await fin?.dataAsOf().catch(() => undefined);
        const sheets = await surveyWorkbook(gateway, { plan, now, finCompanies: (cells) => runtime.cellCompanies(cells) });
        // The FIN functions still at work (certain: the add-in's own count), and whether Excel says it is done
        // (it may never say it: office-js#3319), told apart: a cell calculating again shows its old figure.
        const finCalculating = fin ? !(await fin.whenIdle(finQuietMs, finQuietMs * 4)) : false;
        const calculating = await gateway.isCalculating();
        const companyNames = Object.fromEntries(connected.connections.map((c) => [c.companyId, c.companyName]));
        return { sheets, facts: { companyNames, formulasAsOf, formulasChanged: plan.changedCalls.formulaCalls, calculating, finCalculating, now, timeZone: env.timeZone } };
      },
      copy: async (names, facts, onProgress, options = {}) => {
        // The sheets are read again: cells may have finished computing (or been edited) since the survey.
        const fresh = await surveyWorkbook(gateway, { plan: await own.statements.plan(), now: env.now(), finCompanies: (cells) => runtime.cellCompanies(cells) });
        const chosen = new Set(names);
        const fin = await runtime.getFinService();
        // Nothing is copied while FIN formulas are still calculating: the copy would keep their previous figures.
        const finSettled = async () => !fin || (await fin.whenIdle(300, 1200));
        return shareAsValues(gateway, fresh.filter((sheet) => chosen.has(sheet.sheet)), { ...facts, now: env.now() }, onProgress, { finSettled, includePushLog: options.includePushLog });
      },
    },
  };
}
