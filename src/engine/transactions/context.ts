// What every transactions operation works with: the client, the connection's cached reader (every call
// goes through it, so the monthly-cap block, time limits and dropped queues hold here as for FIN cells),
// the gateway, the clock, and an opened table (its binding, state, department directory and date system).

import type { TransactionChange } from '../reader/touched';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import type { SecretStore } from '../ports/storage';
import type { Client, Company, Department } from '../../api';
import type { CallOptions } from '../../api/transport';
import type { CachedReader } from '../reader/cachedReader';
import type { CachedAnswer, ReadRequest } from '../reader/requestCache';
import { calendarDateAt, type DateSystem } from '../dates';
import { Refusal } from '../refusal';
import { COL, TableView } from './columns';
import { DepartmentDirectory, departmentRefs } from './departments';
import type { EditContext } from './edits';
import { openJournal, type PushJournal } from './journal';
import { stateOf, TableStore, type Reference, type TableState } from './state';

export interface Progress {
  phase: 'reference' | 'resuming' | 'fetching' | 'writing' | 'checking' | 'sending' | 'waiting' | 'rereading' | 'done';
  message: string;
  /** Rows fetched so far (fetching), or rows concerned. */
  rows?: number;
  pages?: number;
}

export type ProgressFn = (p: Progress) => void;

export interface PollOptions {
  /** First poll after this delay (default 500 ms), then doubling with jitter up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  maxPolls?: number;
}

export interface EngineOptions {
  client: Client;
  /** The connection's one cached reader (createClient's client inside it). */
  reader: CachedReader;
  gateway: WorkbookGateway;
  /** Add-in storage (never the workbook) for the push journal: it must survive a crash without a save. */
  journal: SecretStore;
  /** Who pushes: a fingerprint of the connected key (never the key) and the connection's name. */
  owner: { keyFingerprint: string; label: string };
  /** The connection's name as the push log gives it (default: owner.label). */
  connection?: string;
  /** The user's IANA time zone, for the push log's local times (default UTC). */
  timeZone?: string;
  /** Wall clock, ms (default Date.now): today's date in the company zone, journal timestamps. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  poll?: PollOptions;
  /**
   * Wait before the incremental sync that re-reads pushed rows. The API pins a run's watermark at
   * "now - 1 s" (docs/api-decisions.md), so a change committed in the current second lands in the next
   * run; waiting a little over a second after the last job finished makes this run see it.
   */
  settleMs?: number;
  /** Sync from the watermark before sending, to catch upstream changes and deletions (default true). */
  checkUpstream?: boolean;
  /** At most this many ids per job (default and maximum 5,000; tests may lower it). */
  maxJobIds?: number;
}

export interface Deps {
  client: Client;
  /**
   * Every API call of the engine: through the reader's guard (nothing is sent under the monthly-cap
   * block; a cap refusal drops what is still queued) and its time limit. `run` is for work that spends
   * several calls in a row (a sync, a job and its polls, a paged listing): it gets a longer limit.
   */
  spend: <T>(path: string, work: (opts: CallOptions) => Promise<T>, kind?: 'call' | 'run') => Promise<T>;
  /** A cached read (reader.read): an answer a cell or a block already holds costs nothing. */
  read: <T>(request: ReadRequest, fetch: (opts: CallOptions) => Promise<T>) => Promise<CachedAnswer<T>>;
  /** The cached answer when reading it costs nothing (in memory, not due for a refresh); never calls. */
  cached: <T>(request: ReadRequest) => CachedAnswer<T> | undefined;
  /** The connected key's company (the reader's: no call when the client knows it). */
  companyId: () => Promise<string>;
  /** The user started a run (pull, refresh, push, shift, resume): an earlier outage pause is lifted. */
  newRun: () => void;
  /** Transactions this engine changed from a table: the cached answers they touch are stale (reader/touched.ts). */
  noteChanged: (changes: TransactionChange[], bindingId: string) => Promise<void>;
  gateway: WorkbookGateway;
  journalStore: SecretStore;
  owner: { keyFingerprint: string; label: string };
  connection: string;
  timeZone: string | undefined;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  poll: Required<PollOptions>;
  settleMs: number;
  checkUpstream: boolean;
  maxJobIds: number;
}

/** A run of calls (a 100-page pull, a job polled for minutes) gets this long before it is called off. */
export const RUN_TIME_LIMIT_MS = 20 * 60_000;

export function resolveDeps(o: EngineOptions): Deps {
  return {
    client: o.client,
    spend: (path, work, kind = 'call') => o.reader.call(path, work, kind === 'run' ? { timeoutMs: RUN_TIME_LIMIT_MS } : {}),
    read: (request, fetch) => o.reader.read(request, fetch),
    cached: (request) => o.reader.fresh(request),
    companyId: () => o.reader.companyId(),
    newRun: () => o.reader.newRun(),
    noteChanged: async (changes, bindingId) => {
      await o.reader.noteOwnChanges(changes, bindingId);
    },
    gateway: o.gateway,
    journalStore: o.journal,
    owner: o.owner,
    connection: o.connection ?? o.owner.label,
    timeZone: o.timeZone,
    now: o.now ?? Date.now,
    sleep: o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    poll: { initialDelayMs: o.poll?.initialDelayMs ?? 500, maxDelayMs: o.poll?.maxDelayMs ?? 8000, maxPolls: o.poll?.maxPolls ?? 60 },
    settleMs: o.settleMs ?? 1100,
    checkUpstream: o.checkUpstream ?? true,
    maxJobIds: Math.max(1, Math.min(5000, o.maxJobIds ?? 5000)),
  };
}

export interface OpenTable {
  store: TableStore;
  journal: PushJournal;
  binding: BindingRecord;
  state: TableState;
  dir: DepartmentDirectory;
  system: DateSystem;
  /** The Excel table's name. */
  table: string;
}

/**
 * The table, ready to refresh, review, push or shift: only under the company it was pulled from, whose
 * key is the one connected (a table of company A must never take company B's rows or send A's edits with
 * B's key).
 */
export async function openTable(deps: Deps, bindingId: string): Promise<OpenTable> {
  const store = new TableStore(deps.gateway, bindingId);
  const binding = await store.binding();
  const state = stateOf(binding);
  const connected = await deps.companyId();
  if (binding.company !== connected) {
    const name = state.reference.companyName ? `${state.reference.companyName} (${binding.company})` : binding.company;
    throw new Refusal(
      'This table belongs to another company',
      `This table was pulled from ${name}, and you are connected to ${connected}. Connect that company's key to refresh or push it; nothing was sent.`,
      'other_company',
    );
  }
  const system = await deps.gateway.getDateSystem();
  if (!binding.table) throw new Error(`The binding ${bindingId} names no table.`);
  const journal = openJournal({
    store: deps.journalStore,
    gateway: deps.gateway,
    bindingId,
    owner: { company: connected, keyFingerprint: deps.owner.keyFingerprint, startedBy: deps.owner.label },
    now: deps.now,
  });
  return { store, journal, binding, state, dir: new DepartmentDirectory(state.reference.departments), system, table: binding.table };
}

export async function readView(deps: Deps, t: OpenTable): Promise<TableView> {
  return new TableView(await deps.gateway.readTable(t.table));
}

export function today(deps: Deps): string {
  return calendarDateAt(deps.now());
}

export function editContext(deps: Deps, t: OpenTable): EditContext {
  return { dir: t.dir, system: t.system, today: today(deps), incorporationDate: t.state.reference.incorporationDate };
}

/** GET /departments and GET /company: 2 calls. */
export async function fetchReference(deps: Deps): Promise<Reference> {
  // The table's pages wait on these two: ahead of the calls queued beside them (RequestLimiter.acquire).
  const [departments, company] = await Promise.all([
    deps.spend('/departments', (o) => deps.client.departments.list({ ...o, ahead: true })),
    deps.spend('/company', (o) => deps.client.company.retrieve({ ...o, ahead: true })),
  ]);
  return referenceFrom(departments.data, company, deps.now());
}

export function referenceFrom(departments: Department[], company: Pick<Company, 'incorporation' | 'name'> | null, nowMs: number): Reference {
  return {
    ...(company?.name ? { companyName: company.name } : {}),
    departments: departmentRefs(departments),
    incorporationDate: company?.incorporation?.date ?? null,
    fetchedAt: new Date(nowMs).toISOString(),
  };
}

/** GET /departments only (1 call), when a sync meets a department the stored list does not know. */
export async function refreshDepartments(deps: Deps, t: OpenTable): Promise<void> {
  const { data } = await deps.spend('/departments', (o) => deps.client.departments.list(o));
  t.state.reference = { ...t.state.reference, departments: departmentRefs(data), fetchedAt: new Date(deps.now()).toISOString() };
  t.dir = new DepartmentDirectory(t.state.reference.departments);
  await deps.gateway.setListValidation(t.table, COL.department, t.dir.assignablePaths());
}

// Calls ---------------------------------------------------------------------------------------------

export interface MeterSnapshot {
  company: string | null;
  count: number;
}

export async function meterSnapshot(client: Client): Promise<MeterSnapshot> {
  return { company: client.companyId, count: await client.meter.count() };
}

/**
 * Calls counted on the client's meter since the snapshot. The meter is shared by the runtime, so a
 * formula recalculating at the same time is included. null when the company became known meanwhile.
 */
export async function callsSince(client: Client, snap: MeterSnapshot): Promise<number | null> {
  if (client.companyId !== snap.company) return null;
  return (await client.meter.count()) - snap.count;
}
