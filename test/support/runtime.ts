// The add-in's wiring outside the page, for the test harnesses and the bench: createRuntime
// (src/runtime/runtime.ts) over memory stores, connected to one roster key of a sandbox the way the pane
// connects it (the company id is known, so connecting spends no GET /company). What a test or the bench
// measures is then the wiring that ships: one meter, one request cache, the client, CachedReader and
// FinService exactly as the add-in builds them.
import { MemoryMeterStore, type Client, type MeterStore } from '../../src/api';
import type { FinService } from '../../src/engine/fin';
import type { CachedReader } from '../../src/engine/reader/cachedReader';
import type { RequestCache } from '../../src/engine/reader/requestCache';
import { MemoryCacheStore } from './memoryCacheStore';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { readConnectionsWithKeys } from '../../src/runtime/connection';
import type { RuntimeHost } from '../../src/runtime/host';
import { createRuntime, type Runtime } from '../../src/runtime/runtime';
import { openWorkspace, type Workspace, type WorkspaceRuntime } from '../../src/runtime/workspace';
import type { WorkbookGateway } from '../../src/engine/ports/workbook';
import type { PollOptions } from '../../src/engine/transactions';
import type { SecretStore } from '../../src/engine/ports/storage';
import type { Plan } from '../../src/api';
import { configureRuntime, connect, getFinService } from '../../src/runtime/shared';
import type { TestSandbox } from './sandbox';

/** What connecting needs of a sandbox (the bench's sandbox in a worker thread has only this). */
export type SandboxAddress = Pick<TestSandbox, 'baseUrl' | 'keys' | 'companies'>;

/** The add-in's storage: answers and small state, call counts, the key and connection. */
export interface RuntimeStores {
  cacheStore: MemoryCacheStore;
  meterStore: MeterStore;
  secrets: MemorySecretStore;
}

export interface TestRuntimeOptions {
  /** Roster label of the key to connect (default growth-admin). */
  label?: string;
  /**
   * The stores of an earlier runtime: the workbook reopened on the same add-in storage (its stored
   * connection is used as it is when it is this key's). Fresh ones otherwise.
   */
  stores?: RuntimeStores;
  now?: () => number;
  clientOptions?: RuntimeHost['clientOptions'];
  apiTimeoutMs?: number;
  dateSystem?: 1900 | 1904;
  /** What Refresh all's recalculation does (default nothing). */
  recalculate?: () => Promise<void>;
  /** The workbook whose settings the runtime reads (books closed through); none by default. */
  workbook?: { readSetting(key: string): Promise<unknown> };
  /** The network under the runtime's counting fetch (default the real one): a test may alter requests. */
  fetch?: typeof fetch;
  fiscalYearStartMonth?: number;
}

export interface TestRuntime {
  runtime: Runtime;
  /** The connection's client, reader and FIN service, as runtime.getClient() etc. answer. */
  client: Client;
  reader: CachedReader;
  service: FinService;
  cache: RequestCache;
  stores: RuntimeStores;
  /** HTTP requests this runtime sent (its fetch counts them). */
  sent(): number;
}

/** Whether the stores hold this key's connection (a reopened workbook finds it there). */
async function isStored(stores: RuntimeStores, apiKey: string): Promise<boolean> {
  return (await readConnectionsWithKeys(stores.secrets)).list.some((c) => c.apiKey === apiKey);
}

export async function testRuntime(sb: SandboxAddress, options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const label = options.label ?? 'growth-admin';
  const apiKey = sb.keys[label];
  const companyId = sb.companies[label];
  if (!apiKey || !companyId) throw new Error(`no roster entry ${label}`);
  const stores = options.stores ?? { cacheStore: new MemoryCacheStore(), meterStore: new MemoryMeterStore(), secrets: new MemorySecretStore() };
  let sent = 0;
  const runtime = createRuntime({
    ...stores,
    dateSystem: async () => options.dateSystem ?? 1900,
    recalculate: options.recalculate ?? (async () => undefined),
    ...(options.workbook ? { readWorkbookSetting: (key: string) => options.workbook!.readSetting(key) } : {}),
    fetch: (input, init) => {
      sent += 1;
      return (options.fetch ?? fetch)(input, init);
    },
    now: options.now,
    clientOptions: options.clientOptions,
    apiTimeoutMs: options.apiTimeoutMs,
  });
  // A reopened workbook finds its key's connection in storage, as the add-in does; anything else connects.
  if (!(await isStored(stores, apiKey))) {
    await runtime.connect({ baseUrl: sb.baseUrl, apiKey, companyId, fiscalYearStartMonth: options.fiscalYearStartMonth });
  }
  const [client, reader, service] = await Promise.all([runtime.getClient(companyId), runtime.getReader(companyId), runtime.getFinService(companyId)]);
  if (!client || !reader || !service) throw new Error('the runtime did not connect');
  return { runtime, client, reader, service, cache: runtime.cache, stores, sent: () => sent };
}

export interface PageRuntime {
  /** The shared runtime's FIN service (what the custom functions reach through getFinService). */
  service: FinService;
  stores: RuntimeStores;
  /** HTTP requests the page's runtime sent. */
  sent(): number;
}

/**
 * The page's one shared runtime (src/runtime/shared.ts, the one src/functions/functions.ts calls) installed
 * over memory stores and connected to a roster key, as the pane connects it. What a test or the bench
 * evaluates through the FIN functions then runs the wiring that ships, from the cell wrapper down.
 * configureRuntime(null) undoes it.
 */
export async function pageRuntime(sb: SandboxAddress, options: Pick<TestRuntimeOptions, 'label' | 'stores' | 'clientOptions' | 'dateSystem'> = {}): Promise<PageRuntime> {
  const label = options.label ?? 'growth-admin';
  const apiKey = sb.keys[label];
  const companyId = sb.companies[label];
  if (!apiKey || !companyId) throw new Error(`no roster entry ${label}`);
  const stores = options.stores ?? { cacheStore: new MemoryCacheStore(), meterStore: new MemoryMeterStore(), secrets: new MemorySecretStore() };
  let sent = 0;
  configureRuntime({
    ...stores,
    dateSystem: async () => options.dateSystem ?? 1900,
    recalculate: async () => undefined,
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
    clientOptions: options.clientOptions,
  });
  if (!(await isStored(stores, apiKey))) await connect({ baseUrl: sb.baseUrl, apiKey, companyId });
  const service = await getFinService(companyId);
  if (!service) throw new Error('the page runtime did not connect');
  return { service, stores, sent: () => sent };
}

export interface TestWorkspaceOptions {
  /** Add-in storage for push journals (a test "reopens" by passing the same one). */
  journal?: SecretStore;
  /** The plan of every connection (default growth). */
  plan?: Plan;
  /** Company names by connection name (default: the connection's name). */
  companyNames?: Record<string, string>;
  /** How long the FIN cells' recalculation is given to settle. */
  quietMs?: number;
  /** How a push polls its jobs. */
  poll?: PollOptions;
  now?: () => number;
}

/**
 * The workbook's workspace (src/runtime/workspace.ts) over a runtime's connections, as the pane opens
 * it: the engines, the refresh wiring and the cost rules that ship, on `gateway`.
 */
export async function testWorkspace(
  runtime: WorkspaceRuntime & Pick<Runtime, 'listConnections'>,
  gateway: WorkbookGateway,
  options: TestWorkspaceOptions = {},
): Promise<Workspace> {
  const { list, defaultName } = await runtime.listConnections();
  const first = list.find((c) => c.name === defaultName) ?? list[0];
  const ordered = [first, ...list.filter((c) => c !== first)];
  const plan = options.plan ?? 'growth';
  const companyName = (name: string) => options.companyNames?.[name] ?? name;
  const connections = ordered.map((c) => ({
    name: c.name,
    companyId: c.companyId,
    companyName: companyName(c.name),
    baseUrl: c.baseUrl,
    plan,
    fiscalYearStartMonth: c.fiscalYearStartMonth ?? 1,
  }));
  const [client, reader] = await Promise.all([runtime.getClient(first.companyId), runtime.getReader(first.companyId)]);
  if (!client || !reader || !first.keyFingerprint) throw new Error('the runtime has no default connection');
  return openWorkspace(
    { runtime, gateway, journal: options.journal ?? new MemorySecretStore(), now: options.now ?? Date.now, quietMs: options.quietMs, poll: options.poll },
    { connections, client, reader, keyFingerprint: first.keyFingerprint, companyId: first.companyId, companyName: companyName(first.name), plan },
  );
}
