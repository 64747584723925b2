// The workspace's types: what it needs of the runtime and where it works, the companies it works on, and
// the Workspace the pane holds (connection.workspace), grouped as the pane uses it. Its parts are in this
// folder; workspace.ts composes them.

import type { Client, Plan } from '../../api';
import type { CallsLeft } from '../../engine/budget/callsLeft';
import type { BudgetCheck, KeptBudget } from '../../engine/budgets';
import type { BlockChart, ChartableBlock, ChartChoice } from '../../engine/charts/blockCharts';
import type { ConsolidatedBlock, ConsolidatedSpec, Member } from '../../engine/consolidation/insert';
import type { YearMonth } from '../../engine/dates';
import type { FinCell, FinService, RefreshReport } from '../../engine/fin';
import type { SecretStore } from '../../engine/ports/storage';
import type { BindingRecord, WorkbookGateway, WrittenRange } from '../../engine/ports/workbook';
import type { LogSummary } from '../../engine/pushLog/log';
import type { CachedReader, CallCost } from '../../engine/reader/cachedReader';
import type { ReadRequest } from '../../engine/reader/requestCache';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { ScopeKind, ScopePlan, ScopeRefreshResult } from '../../engine/refresh/scopeRefresh';
import type { RefreshKind, WorkbookRefreshResult } from '../../engine/refresh/workbookRefresh';
import type { BoardPack, PackCosts, PackOutcome, PackParts } from '../../engine/reporting/boardPack';
import type { PackRoles, RoleProposal } from '../../engine/reporting/packRoles';
import type { ReportingPeriod } from '../../engine/reporting/period';
import type { PeriodFormulas } from '../../engine/reporting/periodFormulas';
import type { ShareFacts, ShareResult, SheetSurvey } from '../../engine/share';
import type { RefreshBlock, StatementSpec, StatementsEngine } from '../../engine/statements';
import type { FittingBlock } from '../../engine/statements/fit';
import type { PollOptions, TransactionsEngine } from '../../engine/transactions';
import type { StoredConnection } from '../connection';
import type { RefreshAllOptions } from '../finRefresh';
import type { RuntimeHost } from '../host';

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
    /** The pack's roles changed after inserting: its KPI and chart formulas rewritten, the new roles kept (no call). */
    changePackRoles(roles: PackRoles): Promise<BoardPack>;
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

