// The last actions of the pane and what each cost, per company: "Insert Income statement: 12 calls".
// The cost of an action is the call meter's change while it ran (the meter counts exactly what the server
// counts), so a cached insert shows 0. Kept in add-in storage so it survives closing the pane.

import type { Client } from '../api';
import type { SecretStore } from '../engine/ports/storage';

export interface ActionEntry {
  action: string;
  /** API calls the action spent. */
  calls: number;
  /** Unix ms when it finished. */
  at: number;
  /** True when the action failed (its calls were spent all the same). */
  failed?: boolean;
}

export interface ActionLogOptions {
  storage: SecretStore;
  now: () => number;
  /** The connected client and company, or null. */
  current: () => { client: Client; companyId: string } | null;
  /** Entries kept per company (default 20). */
  max?: number;
}

const KEY_PREFIX = 'actions:';

function parse(text: string | undefined): ActionEntry[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value)) return [];
    return value.filter(
      (e): e is ActionEntry =>
        !!e && typeof e === 'object' && typeof (e as ActionEntry).action === 'string' && Number.isFinite((e as ActionEntry).calls) && Number.isFinite((e as ActionEntry).at),
    );
  } catch {
    return [];
  }
}

export class ActionLog {
  private readonly byCompany = new Map<string, ActionEntry[]>();
  private readonly loading = new Map<string, Promise<ActionEntry[]>>();
  private readonly listeners = new Set<() => void>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ActionLogOptions) {}

  /** Newest first; [] until load() has run for the company. */
  entries(companyId: string): readonly ActionEntry[] {
    return this.byCompany.get(companyId) ?? [];
  }

  load(companyId: string): Promise<ActionEntry[]> {
    const known = this.byCompany.get(companyId);
    if (known) return Promise.resolve(known);
    let pending = this.loading.get(companyId);
    if (!pending) {
      pending = this.options.storage
        .get(KEY_PREFIX + companyId)
        .catch(() => undefined)
        .then((text) => {
          const entries = this.byCompany.get(companyId) ?? parse(text);
          this.byCompany.set(companyId, entries);
          this.emit();
          return entries;
        });
      this.loading.set(companyId, pending);
    }
    return pending;
  }

  async record(companyId: string, entry: ActionEntry): Promise<void> {
    const list = [entry, ...(await this.load(companyId))].slice(0, this.options.max ?? 20);
    this.byCompany.set(companyId, list);
    this.emit();
    const text = JSON.stringify(list);
    this.writes = this.writes.then(() => this.options.storage.set(KEY_PREFIX + companyId, text)).catch(() => undefined);
    await this.writes;
  }

  /** Removes the company's entries, here and in storage. */
  async forget(companyId: string): Promise<void> {
    this.byCompany.set(companyId, []);
    this.emit();
    this.writes = this.writes.then(() => this.options.storage.remove(KEY_PREFIX + companyId)).catch(() => undefined);
    await this.writes;
  }

  /**
   * Runs `work` and records what it spent on the connected company (the meter's change), also when it
   * fails. Without a connection it just runs the work.
   */
  async track<T>(action: string, work: () => Promise<T>): Promise<T> {
    const current = this.options.current();
    if (!current) return work();
    const before = await current.client.meter.count();
    let failed = false;
    try {
      return await work();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      const after = await current.client.meter.count().catch(() => before);
      await this.record(current.companyId, {
        action,
        calls: Math.max(0, after - before),
        at: this.options.now(),
        ...(failed ? { failed: true } : {}),
      });
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}
