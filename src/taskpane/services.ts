// What the task pane's screens get from outside: the workbook, the shared runtime (client, cache, meter,
// FIN service), add-in storage and a clock. The entry file (index.tsx) builds the Office versions; tests
// build the same shape over a MemoryGateway, memory stores and a real sandbox. Screens never touch Office.js:
// every workbook operation goes through `gateway`, every API call through the runtime's client and cache.

import type { SecretStore } from '../engine/ports/storage';
import type { WorkbookGateway } from '../engine/ports/workbook';
import { openWorkspace } from '../runtime';
import { ActionLog } from './actionLog';
import type { PaneRuntime } from './paneRuntime';
import { PaneSession, type ConnectedState } from './session';

export interface PaneServices {
  /** The only door to the workbook (OfficeGateway in Excel, MemoryGateway in tests). */
  readonly gateway: WorkbookGateway;
  /** The shared runtime: client of the stored key, request cache, call meter, FIN service. */
  readonly runtime: PaneRuntime;
  /** Add-in storage for the pane's own settings (plan, company name, action log). Never the workbook. */
  readonly storage: SecretStore;
  /** The connection as the screens see it (company, plan, client), with connect / demo / disconnect. */
  readonly session: PaneSession;
  /** The last actions and what each cost in API calls. */
  readonly actions: ActionLog;
  /** Wall clock in ms. */
  readonly now: () => number;
  /** The user's IANA time zone (the browser's), for the times written on sheets: the engine never reads it. */
  readonly timeZone: string;
  /** For the demo company's key list on the local sandbox (GET {origin}/__sandbox/keys). */
  readonly fetch: typeof fetch;
  /** Base URL offered when connecting: the build's API (a full URL or a relay path), else the local sandbox. */
  readonly defaultBaseUrl: string;
}

/** What each tab's screen is given: the services, and the connection it works on. */
export interface ScreenProps {
  services: PaneServices;
  connection: ConnectedState;
}

export interface PaneServicesOptions {
  gateway: WorkbookGateway;
  runtime: PaneRuntime;
  /** Default: the runtime host's add-in storage. */
  storage?: SecretStore;
  now?: () => number;
  /** Default: the browser's zone. */
  timeZone?: string;
  fetch?: typeof fetch;
  defaultBaseUrl?: string;
}

/** Set by the build (--env sandbox=...): npm start points the Mac's webview at the https sandbox. */
declare const __SANDBOX_BASE_URL__: string | undefined;

/** The local sandbox: the address the build was given, else its http address. */
export const SANDBOX_BASE_URL = typeof __SANDBOX_BASE_URL__ === 'string' ? __SANDBOX_BASE_URL__ : 'http://127.0.0.1:4010/api/v1';

/** Set by the build (--env api=...): the API a team's build calls, a full URL or a relay path such as /api/v1. */
declare const __API_BASE_URL__: string | undefined;

/** The base URL the Connect screen offers: the build's API when it names one, else the local sandbox. */
export const DEFAULT_BASE_URL = typeof __API_BASE_URL__ === 'string' ? __API_BASE_URL__ : SANDBOX_BASE_URL;

/** Builds the services object once per page (index.tsx) or per test. */
export function createPaneServices(options: PaneServicesOptions): PaneServices {
  const storage = options.storage ?? options.runtime.getRuntimeHost()?.secrets;
  if (!storage) throw new Error('No add-in storage: open the pane inside Excel (or give createPaneServices a storage).');
  const now = options.now ?? options.runtime.getRuntimeHost()?.now ?? Date.now;
  const fetchImpl = options.fetch ?? options.runtime.getRuntimeHost()?.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultBaseUrl = options.defaultBaseUrl ?? DEFAULT_BASE_URL;
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const session: PaneSession = new PaneSession({
    runtime: options.runtime,
    storage,
    fetch: fetchImpl,
    defaultBaseUrl,
    onConnected: (companyId, calls) => actions.record(companyId, { action: 'Connect', calls, at: now() }),
    onForgotten: (companyId) => actions.forget(companyId),
    workspace: (connections) => openWorkspace({ runtime: options.runtime, gateway: options.gateway, journal: storage, now, timeZone }, connections),
  });
  const actions: ActionLog = new ActionLog({
    storage,
    now,
    current: () => session.connected(),
    clientOf: (companyId) => options.runtime.getClient(companyId),
    companies: () => session.connected()?.connections.map((c) => c.companyId) ?? [],
  });
  // For the life of the page, whichever tab is open: what the FIN functions spend is on the log too.
  options.runtime.onFinBatch((batch) => void actions.recordFormulas(batch).catch(() => undefined));
  return { gateway: options.gateway, runtime: options.runtime, storage, session, actions, now, timeZone, fetch: fetchImpl, defaultBaseUrl };
}
