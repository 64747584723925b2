// What spent this month's calls, per company: "Insert Income statement: 12 calls", "FIN formulas
// (40 evaluations): 13 calls". The cost of a pane action is the call meter's change while it ran (the
// meter counts exactly what the server counts), so a cached insert shows 0. The FIN functions spend
// outside any pane action: after each batch of their evaluations settles, the calls the meter counted that
// no line and no running action accounts for go on one line of their own. So the month's lines add up to
// the month's count (issue 13: 49 counted, 43 listed). Kept in add-in storage so it survives closing the
// pane.

import { capMonthOf, type Client } from '../api';
import type { FinBatch } from '../engine/fin';
import type { SecretStore } from '../engine/ports/storage';
import { plural } from '../runtime/screenKit';

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
  /** The default connection's client and company, or null. */
  current: () => { client: Client; companyId: string } | null;
  /** The client of another connected company (an action on its table or block spends on its meter). */
  clientOf?: (companyId: string) => Promise<Client | null>;
  /** Every connected company, the default one first (FIN formulas may name any of them). */
  companies?: () => readonly string[];
  /** Lines kept per company (default 50); older ones of the month are folded into one, never dropped. */
  max?: number;
}

/** The line the oldest lines of a month are folded into when there are more than the log keeps. */
export const EARLIER_THIS_MONTH = 'Earlier this month';

/** The Pacific-time month the call meter counts a line's calls in. */
export function monthOf(entry: Pick<ActionEntry, 'at'>): string {
  return capMonthOf(entry.at);
}

/** The lines of one month, newest first. */
export function linesOfMonth(entries: readonly ActionEntry[], month: string): ActionEntry[] {
  return entries.filter((e) => monthOf(e) === month);
}

/** The calls of some lines. */
export function callsOf(entries: readonly ActionEntry[]): number {
  return entries.reduce((n, e) => n + e.calls, 0);
}

/** At most `max` lines: the oldest folded into one, so their calls still count. */
function fold(list: ActionEntry[], max: number): ActionEntry[] {
  if (list.length <= max) return list;
  const kept = list.slice(0, Math.max(1, max) - 1);
  const folded = list.slice(kept.length);
  return [...kept, { action: EARLIER_THIS_MONTH, calls: callsOf(folded), at: Math.max(...folded.map((e) => e.at)) }];
}

/** A pane action under way: the meter's count when it started, so its calls are not taken for a formula's. */
interface Claim {
  companyId: string;
  before: number;
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
  private readonly claims = new Set<Claim>();
  private formulaLines: Promise<unknown> = Promise.resolve();

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

  /** Adds a line; lines of earlier months go (the month's count starts again at 0). */
  async record(companyId: string, entry: ActionEntry): Promise<void> {
    const list = fold(linesOfMonth([entry, ...(await this.load(companyId))], monthOf(entry)), this.options.max ?? 50);
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
   * Runs `work` and records what it spent (the meter's change), also when it fails: on the default company,
   * or on `companyIds` (a table or block of another company, a consolidation of several, a refresh of the
   * workbook): a line on the first, the company the action is about, and on each other one it spent on.
   * Without a connection it just runs the work.
   */
  async track<T>(action: string, work: () => Promise<T>, companyIds?: readonly string[]): Promise<T> {
    const current = this.options.current();
    if (!current) return work();
    const spenders = await this.spenders(current, companyIds);
    const claims: Claim[] = [];
    for (const { client, companyId } of spenders) claims.push({ companyId, before: await client.meter.count() });
    for (const claim of claims) this.claims.add(claim);
    let failed = false;
    try {
      return await work();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      for (const [i, { client, companyId }] of spenders.entries()) {
        const { before } = claims[i];
        const after = await client.meter.count().catch(() => before);
        const calls = Math.max(0, after - before);
        if (i === 0 || calls > 0) await this.record(companyId, { action, calls, at: this.options.now(), ...(failed ? { failed: true } : {}) });
        // Only now: until its line is in, the running claim accounts for its calls.
        this.claims.delete(claims[i]);
      }
    }
  }

  /** The companies an action spends on, with their clients (one no longer connected is left out). */
  private async spenders(current: { client: Client; companyId: string }, companyIds?: readonly string[]): Promise<{ client: Client; companyId: string }[]> {
    if (!companyIds) return [current];
    const out: { client: Client; companyId: string }[] = [];
    for (const companyId of new Set(companyIds)) {
      const client = companyId === current.companyId ? current.client : await this.options.clientOf?.(companyId).catch(() => null);
      if (client) out.push({ client, companyId });
    }
    return out;
  }

  /**
   * After a batch of FIN evaluations: the calls the meter counted this month that neither a line nor a
   * running action accounts for go on one "FIN formulas" line (none when the batch came from the cache).
   * A pane action running meanwhile keeps what it spent, formulas it set off included (a workbook refresh).
   */
  recordFormulas(batch: FinBatch): Promise<void> {
    const next = this.formulaLines.then(() => this.recordUnclaimed(batch));
    this.formulaLines = next.catch(() => undefined);
    return next;
  }

  private async recordUnclaimed(batch: FinBatch): Promise<void> {
    const current = this.options.current();
    if (!current) return;
    // A formula may name any connected company: each one's unclaimed calls go on its own log.
    for (const spender of await this.spenders(current, this.options.companies?.())) await this.recordUnclaimedOf(spender, batch);
  }

  private async recordUnclaimedOf({ client, companyId }: { client: Client; companyId: string }, batch: FinBatch): Promise<void> {
    const count = await client.meter.count();
    const at = this.options.now();
    const listed = callsOf(linesOfMonth(await this.load(companyId), capMonthOf(at)));
    const running = [...this.claims].filter((c) => c.companyId === companyId).reduce((n, c) => n + Math.max(0, count - c.before), 0);
    const calls = count - listed - running;
    if (calls > 0) await this.record(companyId, { action: `FIN formulas (${plural(batch.evaluations, 'evaluation')})`, calls, at });
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
