// The connection as the pane shows it: which company, which plan, which client. Connecting validates the
// key with one GET /company (which also tells the company's name), then hands key and company to the
// shared runtime, which stores them in add-in storage and switches the FIN functions over. The plan and
// the company name are the pane's own settings, in add-in storage too. The key is never kept here, never
// in the workbook, never in a message.

import { isLoopbackHost, planCap, validateBaseUrl, type Client, type Plan } from '../api';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { SecretStore } from '../engine/ports/storage';
import { PaneError } from './errors';
import type { PaneRuntime } from './services';

export const PLANS: readonly { key: Plan; label: string }[] = [
  { key: 'formation', label: 'Formation' },
  { key: 'startup', label: 'Startup' },
  { key: 'growth', label: 'Growth' },
];

export function planLabel(plan: Plan): string {
  return PLANS.find((p) => p.key === plan)?.label ?? plan;
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && planCap(value) !== undefined;
}

/** The seeded sandbox key the demo uses (Growth plan, every permission). */
export const DEMO_KEY_LABEL = 'growth-admin';

export interface ConnectedState {
  status: 'connected';
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
}

export type SessionState = { status: 'loading' } | { status: 'disconnected' } | ConnectedState;

export interface ConnectInput {
  baseUrl: string;
  apiKey: string;
  plan: Plan;
  /** 1-12, default 1. */
  fiscalYearStartMonth?: number;
}

interface CompanySettings {
  name: string;
  plan: Plan;
}

const COMPANY_PREFIX = 'company:';

export interface PaneSessionOptions {
  runtime: PaneRuntime;
  storage: SecretStore;
  fetch: typeof fetch;
  defaultBaseUrl: string;
  /** Told after each successful connect, with the calls validating the key spent (normally 1). */
  onConnected?: (companyId: string, calls: number) => void | Promise<void>;
  /** Told when a disconnect forgot the company: the pane's own records of it go too. */
  onForgotten?: (companyId: string) => void | Promise<void>;
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
    const { company, baseUrl, calls } = await runtime.identify({ baseUrl: input.baseUrl.trim() || this.options.defaultBaseUrl, apiKey });
    const fiscalYearStartMonth = input.fiscalYearStartMonth ?? 1;
    // Settings first: the runtime announces the new connection, and whoever reads it finds them.
    const settings: CompanySettings = { name: typeof company.name === 'string' && company.name ? company.name : company.id, plan: input.plan };
    await this.options.storage.set(COMPANY_PREFIX + company.id, JSON.stringify(settings));
    const stored = await runtime.connect({ baseUrl, apiKey, companyId: company.id, fiscalYearStartMonth });
    const [client, reader] = await Promise.all([runtime.getClient(), runtime.getReader()]);
    if (!client || !reader || !stored.keyFingerprint) throw new PaneError('Not connected', 'The connection could not be stored. Try again.', 'not_stored');
    const state: ConnectedState = {
      status: 'connected',
      client,
      reader,
      keyFingerprint: stored.keyFingerprint,
      companyId: company.id,
      companyName: settings.name,
      baseUrl,
      plan: input.plan,
      fiscalYearStartMonth,
    };
    this.set(state);
    await this.options.onConnected?.(company.id, calls);
    return state;
  }

  /**
   * The demo company: the Growth key of the local sandbox, read from its loopback-only key list. The base
   * URL typed under Advanced is used when it is a loopback address, else the default sandbox address.
   */
  async connectDemo(typedBaseUrl?: string): Promise<ConnectedState> {
    let baseUrl = this.options.defaultBaseUrl;
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
   * Forgets the key and the connection (figures in the workbook stay). With `forgetCompany`, also what this
   * computer keeps about the company: its cached answers and the pane's log of actions.
   */
  async disconnect(options: { forgetCompany?: boolean } = {}): Promise<void> {
    const companyId = this.connected()?.companyId;
    await this.options.runtime.disconnect({ forgetCachedAnswers: options.forgetCompany === true });
    if (options.forgetCompany && companyId) await this.options.onForgotten?.(companyId);
    this.set({ status: 'disconnected' });
  }

  /** The plan is the user's statement (the API does not report it); it sets the cap the pane shows. */
  async setPlan(plan: Plan): Promise<void> {
    const c = this.connected();
    if (!c) return;
    await this.options.storage.set(COMPANY_PREFIX + c.companyId, JSON.stringify({ name: c.companyName, plan } satisfies CompanySettings));
    this.set({ ...c, plan });
  }

  private async sync(): Promise<SessionState> {
    const { runtime } = this.options;
    const [connection, client, reader] = await Promise.all([runtime.getConnection(), runtime.getClient(), runtime.getReader()]);
    if (!connection?.keyFingerprint || !client || !reader) {
      if (this.current.status !== 'disconnected') this.set({ status: 'disconnected' });
      return this.current;
    }
    const c = this.connected();
    if (c && c.client === client) return c;
    const settings = await this.readSettings(connection.companyId);
    const state: ConnectedState = {
      status: 'connected',
      client,
      reader,
      keyFingerprint: connection.keyFingerprint,
      companyId: connection.companyId,
      companyName: settings?.name ?? connection.companyId,
      baseUrl: connection.baseUrl,
      plan: settings?.plan ?? 'growth',
      fiscalYearStartMonth: connection.fiscalYearStartMonth ?? 1,
    };
    this.set(state);
    return state;
  }

  private async readSettings(companyId: string): Promise<CompanySettings | null> {
    try {
      const text = await this.options.storage.get(COMPANY_PREFIX + companyId);
      if (!text) return null;
      const value = JSON.parse(text) as Partial<CompanySettings>;
      return { name: typeof value.name === 'string' ? value.name : companyId, plan: isPlan(value.plan) ? value.plan : 'growth' };
    } catch {
      return null;
    }
  }

  private set(state: SessionState): void {
    this.current = state;
    for (const l of [...this.listeners]) l();
  }
}
