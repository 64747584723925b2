// The connections as the pane shows them: the default one (which company, which plan, which client: what the
// screens work on) and every other company connected under its short name. Connecting validates the key
// with one GET /company (which also tells the company's name), then hands key and company to the shared
// runtime, which stores them in add-in storage and makes the FIN functions reach it. The plan and the
// company name are the pane's own settings, in add-in storage too. The key is never kept here, never in the
// workbook, never in a message.

import { ApiError, currentPageOrigin, isLoopbackHost, validateBaseUrl, type Client, type Plan } from '../api';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { SecretStore } from '../engine/ports/storage';
import { COMPANY_SETTINGS_PREFIX, ConnectionNameTaken, isPlan, type ConnectionSettings, type StoredConnection, type Workspace, type WorkspaceConnections } from '../runtime';
import { PaneError } from './shared/errors';
import { whyNoAnswer } from './reachability';
import type { PaneRuntime } from './paneRuntime';

/** The seeded sandbox key the demo uses (Growth plan, every permission). */
export const DEMO_KEY_LABEL = 'growth-admin';

/** One connection as the pane lists it: its settings (`name` is the short name formulas use to pick it), and whether it is the default. */
export interface ConnectionSummary extends ConnectionSettings {
  isDefault: boolean;
}

/** The default connection, which the screens work on, and every connection. */
export interface ConnectedState {
  status: 'connected';
  /** Every connection, the default one first. */
  connections: ConnectionSummary[];
  client: Client;
  /** The connection's one cached reader: every call the pane spends goes through it. */
  reader: CachedReader;
  /** A fingerprint of the connected key (never the key): binds push journal entries to it. */
  keyFingerprint: string;
  companyId: string;
  companyName: string;
  baseUrl: string;
  plan: Plan;
  fiscalYearStartMonth: number;
  /** The workbook's workspace on these connections (src/runtime/workspace.ts): engines, refreshes, cost rules. */
  workspace: Workspace;
}

export type SessionState = { status: 'loading' } | { status: 'disconnected' } | ConnectedState;

export interface ConnectInput {
  baseUrl: string;
  apiKey: string;
  plan: Plan;
  /** 1-12, default 1. */
  fiscalYearStartMonth?: number;
  /** The connection's short name; default the company's name. */
  name?: string;
  /** Adds a further company, keeping the default (the first connection is the default anyway). */
  keepDefault?: boolean;
}

interface CompanySettings {
  name: string;
  plan: Plan;
}

const COMPANY_PREFIX = COMPANY_SETTINGS_PREFIX;

export interface PaneSessionOptions {
  runtime: PaneRuntime;
  storage: SecretStore;
  fetch: typeof fetch;
  defaultBaseUrl: string;
  /** Told after each successful connect, with the calls validating the key spent (normally 1). */
  onConnected?: (companyId: string, calls: number) => void | Promise<void>;
  /** Told when a disconnect forgot the company: the pane's own records of it go too. */
  onForgotten?: (companyId: string) => void | Promise<void>;
  /** The workspace of a connected state (openWorkspace over the pane's workbook and storage). */
  workspace: (connections: WorkspaceConnections) => Workspace;
}

export class PaneSession {
  private current: SessionState = { status: 'loading' };
  private readonly listeners = new Set<() => void>();
  private restoring: Promise<SessionState> | null = null;
  private unwatch: (() => void) | null = null;

  constructor(private readonly options: PaneSessionOptions) {}

  get state(): SessionState {
    return this.current;
  }

  connected(): ConnectedState | null {
    return this.current.status === 'connected' ? this.current : null;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): SessionState => this.current;

  /** Reads the stored connection (no API call) and follows the runtime's changes from then on. */
  restore(): Promise<SessionState> {
    this.unwatch ??= this.options.runtime.onDataChange(() => void this.sync());
    this.restoring ??= this.sync().finally(() => {
      this.restoring = null;
    });
    return this.restoring;
  }

  /** Validates the key with GET /company, stores the connection, and returns the new state. */
  async connect(input: ConnectInput): Promise<ConnectedState> {
    const { runtime } = this.options;
    const host = runtime.getRuntimeHost();
    if (!host) throw new PaneError('Excel is needed', 'Add-in storage is not available: open the pane inside Excel.', 'no_host');
    const apiKey = input.apiKey.trim();
    if (apiKey === '') throw new PaneError('API key missing', 'Paste your API key (from Settings > API Keys in the web app).', 'missing_key');
    const typedBaseUrl = input.baseUrl.trim() || this.options.defaultBaseUrl;
    let identified: Awaited<ReturnType<PaneRuntime['identify']>>;
    try {
      identified = await runtime.identify({ baseUrl: typedBaseUrl, apiKey });
    } catch (error) {
      throw await this.explainNoAnswer(error, typedBaseUrl);
    }
    const { company, baseUrl, calls } = identified;
    const fiscalYearStartMonth = input.fiscalYearStartMonth ?? 1;
    // Settings first: the runtime announces the new connection, and whoever reads it finds them.
    const settings: CompanySettings = {
      name: typeof company.name === 'string' && company.name ? company.name : company.id,
      plan: input.plan,
    };
    await this.options.storage.set(COMPANY_PREFIX + company.id, JSON.stringify(settings));
    let stored: StoredConnection;
    try {
      stored = await runtime.connect({
        baseUrl,
        apiKey,
        companyId: company.id,
        fiscalYearStartMonth,
        // Connecting a company again keeps the name its formulas use.
        name: input.name?.trim() || this.connected()?.connections.find((c) => c.companyId === company.id)?.name || settings.name,
        makeDefault: input.keepDefault !== true,
      });
    } catch (error) {
      if (error instanceof ConnectionNameTaken) throw new PaneError('Name taken', error.message, 'name_taken');
      throw error;
    }
    if (!stored.keyFingerprint) throw new PaneError('Not connected', 'The connection could not be stored. Try again.', 'not_stored');
    const state = await this.sync();
    if (state.status !== 'connected') throw new PaneError('Not connected', 'The connection could not be stored. Try again.', 'not_stored');
    await this.options.onConnected?.(company.id, calls);
    return state;
  }

  /**
   * The demo company: the Growth key of the local sandbox, read from its loopback-only key list. The base
   * URL typed under Advanced is used when it is a loopback address, else the default sandbox address.
   */
  async connectDemo(typedBaseUrl?: string): Promise<ConnectedState> {
    // The build's default may be a path on the page's own address (a relay): resolved, like any base URL.
    let baseUrl = validateBaseUrl(this.options.defaultBaseUrl);
    try {
      const typed = typedBaseUrl?.trim() ? validateBaseUrl(typedBaseUrl.trim()) : null;
      if (typed && isLoopbackHost(new URL(typed).hostname)) baseUrl = typed;
    } catch {
      // A malformed typed URL: the demo still goes to the default sandbox.
    }
    const origin = new URL(baseUrl).origin;
    let keys: unknown;
    try {
      const response = await this.options.fetch(`${origin}/__sandbox/keys`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      keys = await response.json();
    } catch {
      throw new PaneError(
        'The sandbox is not running',
        `No demo company answers at ${origin}. Start the sandbox with npm start (or npm run sandbox), then try again.`,
        'sandbox_unreachable',
      );
    }
    const demo = Array.isArray(keys) ? keys.find((k) => k && typeof k === 'object' && k.label === DEMO_KEY_LABEL) : undefined;
    if (!demo || typeof demo.key !== 'string') {
      throw new PaneError('No demo key', `The sandbox at ${origin} has no ${DEMO_KEY_LABEL} key. Re-seed it with npm run sandbox -- --reset.`, 'no_demo_key');
    }
    return this.connect({ baseUrl, apiKey: demo.key, plan: 'growth' });
  }

  /**
   * A connect that got no answer at all: when the browser blocked the API's answer (no CORS headers for
   * this page's origin, see reachability.ts), says so and how to fix it; otherwise the error as it was.
   */
  private async explainNoAnswer(error: unknown, typedBaseUrl: string): Promise<unknown> {
    // No answer at all: a failed fetch, or the reader's breaker after several of them (code outage). A
    // timeout or an abort is not what a browser's block looks like.
    if (!(error instanceof ApiError) || error.type !== 'connection_error' || !['network_error', 'connection_refused', 'outage'].includes(error.code ?? '')) {
      return error;
    }
    const pageOrigin = currentPageOrigin();
    const baseUrl = validateBaseUrl(typedBaseUrl, pageOrigin);
    if ((await whyNoAnswer(baseUrl, { fetch: this.options.fetch, pageOrigin })) !== 'blocked_by_cors') return error;
    return new PaneError(
      "The browser blocked the API's answer",
      `The API at ${baseUrl} answered, but it sends no CORS headers for this page's address (${pageOrigin}), so the browser does not ` +
        'let the add-in read its answers. Whoever deploys the add-in can fix this: serve the add-in with a relay that passes /api/v1 on ' +
        'to the API from its own address, and connect to /api/v1 (the deployment guide: docs/deploying-for-a-team.md); or have the API ' +
        `allow ${pageOrigin}.`,
      'blocked_by_cors',
    );
  }

  /**
   * Forgets one connection's key (the default one unless a company is given); the others stay, and figures
   * in the workbook stay. With `forgetCompany`, also what this computer keeps about that company: its cached
   * answers and the pane's log of actions.
   */
  async disconnect(options: { forgetCompany?: boolean; companyId?: string } = {}): Promise<void> {
    const companyId = options.companyId ?? this.connected()?.companyId;
    await this.options.runtime.disconnect({
      company: companyId,
      forgetCachedAnswers: options.forgetCompany === true,
    });
    if (options.forgetCompany && companyId) await this.options.onForgotten?.(companyId);
    await this.sync();
  }

  /** Formulas without a company argument read this company from now on; the screens work on it. */
  async setDefault(companyId: string): Promise<void> {
    await this.options.runtime.setDefault(companyId);
    await this.sync();
  }

  /** The plan is the user's statement (the API does not report it); it sets the cap the pane shows. */
  async setPlan(plan: Plan, companyId?: string): Promise<void> {
    const c = this.connected();
    const target = c?.connections.find((x) => x.companyId === (companyId ?? c.companyId));
    if (!c || !target) return;
    await this.options.storage.set(
      COMPANY_PREFIX + target.companyId,
      JSON.stringify({
        name: target.companyName,
        plan,
      } satisfies CompanySettings),
    );
    const connections = c.connections.map((x) => (x === target ? { ...x, plan } : x));
    this.set({
      ...c,
      connections,
      plan: target.companyId === c.companyId ? plan : c.plan,
    });
  }

  private async sync(): Promise<SessionState> {
    const { runtime } = this.options;
    const [list, connection, client, reader] = await Promise.all([
      runtime.listConnections(),
      runtime.getConnection(),
      runtime.getClient(),
      runtime.getReader(),
    ]);
    if (!connection?.keyFingerprint || !client || !reader) {
      if (this.current.status !== 'disconnected') this.set({ status: 'disconnected' });
      return this.current;
    }
    const connections = await this.summaries(list.list, connection.companyId);
    const c = this.connected();
    if (c && c.client === client && sameSummaries(c.connections, connections)) return c;
    const own = connections[0];
    const base = {
      connections,
      client,
      reader,
      keyFingerprint: connection.keyFingerprint,
      companyId: connection.companyId,
      companyName: own.companyName,
      baseUrl: connection.baseUrl,
      plan: own.plan,
      fiscalYearStartMonth: connection.fiscalYearStartMonth ?? 1,
    };
    const state: ConnectedState = { status: 'connected', ...base, workspace: this.options.workspace(base) };
    this.set(state);
    return state;
  }

  /** Every connection with the pane's settings of its company, the default one first. */
  private async summaries(list: StoredConnection[], defaultCompanyId: string): Promise<ConnectionSummary[]> {
    const ordered = [...list.filter((c) => c.companyId === defaultCompanyId), ...list.filter((c) => c.companyId !== defaultCompanyId)];
    return Promise.all(
      ordered.map(async (c) => {
        const settings = await this.readSettings(c.companyId);
        return {
          name: c.name,
          companyId: c.companyId,
          companyName: settings?.name ?? c.companyId,
          baseUrl: c.baseUrl,
          plan: settings?.plan ?? 'growth',
          fiscalYearStartMonth: c.fiscalYearStartMonth ?? 1,
          isDefault: c.companyId === defaultCompanyId,
        };
      }),
    );
  }

  private async readSettings(companyId: string): Promise<CompanySettings | null> {
    try {
      const text = await this.options.storage.get(COMPANY_PREFIX + companyId);
      if (!text) return null;
      const value = JSON.parse(text) as Partial<CompanySettings>;
      return {
        name: typeof value.name === 'string' ? value.name : companyId,
        plan: isPlan(value.plan) ? value.plan : 'growth',
      };
    } catch {
      return null;
    }
  }

  private set(state: SessionState): void {
    this.current = state;
    for (const l of [...this.listeners]) l();
  }
}

function sameSummaries(a: ConnectionSummary[], b: ConnectionSummary[]): boolean {
  return a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));
}
