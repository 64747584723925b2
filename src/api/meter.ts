import { capMonthOf, nextMonthlyReset, type MonthlyReset } from './calendar';
import type { TeamCount } from './teamHeaders';

// The call meter: how many calls this company has spent this Pacific-time month. The API reports
// remaining quota nowhere, so the add-in keeps its own count, with the server's counting rule
// (docs/api-decisions.md): every request sent with a valid key counts, whatever its status, except a
// 401 and a 429 monthly_limit_exceeded; a request lost at the network level counts too (the server may
// have processed it). An answer the team's gateway served from its cache (Cache-Status: fin-gateway; hit)
// never reached the API and does not count. The transport decides what counts; this module stores and reports it.
//
// The cap is the company's, shared by all its keys: only a server the whole team goes through can count it.
// When the team's gateway sends its count (teamHeaders.ts), that is kept beside the add-in's own, per
// company-month (the latest seen wins), and what the cap rules use is the team's count, never lower than
// this add-in's own for the month. The own count stays what this add-in spent (what an action cost).

/** Where counts persist (the add-in's storage; a memory store in tests). Values are plain integers. */
export interface MeterStore {
  get(key: string): number | null | undefined | Promise<number | null | undefined>;
  set(key: string, value: number): void | Promise<void>;
}

export class MemoryMeterStore implements MeterStore {
  private readonly values = new Map<string, number>();
  get(key: string): number | undefined {
    return this.values.get(key);
  }
  set(key: string, value: number): void {
    this.values.set(key, value);
  }
}

export const PLAN_CAPS = { formation: 10, startup: 300, growth: 30_000 } as const;
export type Plan = keyof typeof PLAN_CAPS;

/** The plan's monthly cap; undefined for a plan this client does not know. */
export function planCap(plan: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(PLAN_CAPS, plan) ? PLAN_CAPS[plan as Plan] : undefined;
}

export interface MeterChange {
  /** null while the client has not learned its company yet (counts wait in memory, then move over). */
  companyId: string | null;
  /** Pacific cap month, `YYYY-MM`. */
  month: string;
  count: number;
}

export type MeterListener = (change: MeterChange) => void;

/** The storage key of one company-month. */
export function meterKey(companyId: string, month: string): string {
  return `api-calls:${companyId}:${month}`;
}

/** The storage keys of the team's count of one company-month (the count, and 1 when it may be low). */
function teamKeys(companyId: string, month: string): { count: string; uncertain: string } {
  return { count: `api-calls-team:${companyId}:${month}`, uncertain: `api-calls-team-uncertain:${companyId}:${month}` };
}

/** The team's count of a company-month as the gateway last said it. */
export interface TeamUsage {
  count: number;
  /** The gateway could not count some calls: the count may be low. */
  uncertain: boolean;
}

/**
 * Counts per company and month. Increments of one bucket are serialized and cached after the first
 * read, so concurrent requests never lose an update through a get/set race on an async store.
 * One instance per runtime: clients sharing it share the count.
 */
export class CallMeter {
  private readonly store: MeterStore;
  /** Stored integers as read or written; null: none is stored (a missing team count is not a count of 0). */
  private readonly cache = new Map<string, number | null>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<MeterListener>();
  private readonly onStoreError?: (error: unknown) => void;

  constructor(opts: { store?: MeterStore; onStoreError?: (error: unknown) => void } = {}) {
    this.store = opts.store ?? new MemoryMeterStore();
    this.onStoreError = opts.onStoreError;
  }

  /** Adds `n` calls to a company-month; resolves with the new count once stored. */
  record(companyId: string, month: string, n = 1): Promise<number> {
    return this.serialize(meterKey(companyId, month), async (key) => {
      const value = (await this.read(key)) + n;
      this.cache.set(key, value);
      try {
        await this.store.set(key, value);
      } catch (error) {
        // A failing store must not fail the API call that was already spent; memory stays exact.
        this.onStoreError?.(error);
      }
      this.emit({ companyId, month, count: value });
      return value;
    });
  }

  /** Calls counted for a company-month (waits for increments already under way). */
  count(companyId: string, month: string): Promise<number> {
    return this.serialize(meterKey(companyId, month), (key) => this.read(key));
  }

  /** The team's count of a company-month as the gateway said it (the latest seen replaces the one before). */
  noteTeam(companyId: string, team: TeamCount): Promise<void> {
    const keys = teamKeys(companyId, team.month);
    return this.serialize(keys.count, async () => {
      this.cache.set(keys.count, team.count);
      this.cache.set(keys.uncertain, team.uncertain ? 1 : 0);
      try {
        await this.store.set(keys.count, team.count);
        await this.store.set(keys.uncertain, team.uncertain ? 1 : 0);
      } catch (error) {
        this.onStoreError?.(error);
      }
      this.emit({ companyId, month: team.month, count: await this.count(companyId, team.month) });
    });
  }

  /** The team's count of a company-month, or null when no gateway has said one. */
  team(companyId: string, month: string): Promise<TeamUsage | null> {
    const keys = teamKeys(companyId, month);
    return this.serialize(keys.count, async () => {
      const count = await this.readKnown(keys.count);
      if (count === null) return null;
      return { count, uncertain: (await this.readKnown(keys.uncertain)) === 1 };
    });
  }

  subscribe(listener: MeterListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** @internal also used by ClientMeter for counts waiting for a company id. */
  emit(change: MeterChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A UI listener's bug must not break the request that triggered it.
      }
    }
  }

  private async read(key: string): Promise<number> {
    return (await this.readKnown(key)) ?? 0;
  }

  /** The stored integer, or null when none is. */
  private async readKnown(key: string): Promise<number | null> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let stored: number | null | undefined;
    try {
      stored = await this.store.get(key);
    } catch (error) {
      this.onStoreError?.(error);
    }
    const value = typeof stored === 'number' && Number.isFinite(stored) && stored >= 0 ? Math.floor(stored) : null;
    this.cache.set(key, value);
    return value;
  }

  private serialize<T>(key: string, task: (key: string) => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => task(key));
    this.chains.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }
}

export interface MonthlyLimitState {
  /** Date to show: the server's when it gave one, else computed. */
  resetDate: string;
  /** The computed reset instant (midnight Pacific on the 1st). */
  reset: MonthlyReset;
}

/**
 * One client's view of the meter: the company its key belongs to (learned from GET /company or set by
 * the caller), counts sent before that is known, the plan caps and the next reset.
 */
export class ClientMeter {
  private company: string | null;
  /** Calls counted before the company was known, per cap month. */
  private readonly pending = new Map<string, number>();
  /** The team's count said before the company was known (the latest). */
  private pendingTeam: TeamCount | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private limit: MonthlyLimitState | null = null;

  constructor(
    readonly meter: CallMeter,
    private readonly now: () => number,
    companyId?: string,
  ) {
    this.company = companyId ?? null;
  }

  get companyId(): string | null {
    return this.company;
  }

  /** Attributes counts from now on (and any waiting ones) to this company. */
  setCompanyId(companyId: string): Promise<void> {
    if (this.company === companyId) return this.flushing;
    this.company = companyId;
    const waiting = [...this.pending.entries()];
    this.pending.clear();
    const team = this.pendingTeam;
    this.pendingTeam = null;
    this.flushing = this.flushing.then(async () => {
      for (const [month, n] of waiting) await this.meter.record(companyId, month, n);
      if (team) await this.meter.noteTeam(companyId, team);
    });
    return this.flushing;
  }

  /** Counts one call sent at `sentAtMs` (the server counts on arrival, so the send time picks the month). */
  async record(sentAtMs: number): Promise<void> {
    const month = capMonthOf(sentAtMs);
    if (this.company === null) {
      const count = (this.pending.get(month) ?? 0) + 1;
      this.pending.set(month, count);
      this.meter.emit({ companyId: null, month, count });
      return;
    }
    await this.flushing;
    await this.meter.record(this.company, month, 1);
  }

  /** Calls this add-in counted this Pacific month (or in `month`, `YYYY-MM`): what its own actions spent. */
  async count(month: string = capMonthOf(this.now())): Promise<number> {
    if (this.company === null) return this.pending.get(month) ?? 0;
    await this.flushing;
    return this.meter.count(this.company, month);
  }

  /** @internal called by the transport with the count an answer of the team's gateway carried. */
  async noteTeam(team: TeamCount): Promise<void> {
    if (this.company === null) {
      this.pendingTeam = team;
      this.meter.emit({ companyId: null, month: team.month, count: this.pending.get(team.month) ?? 0 });
      return;
    }
    await this.flushing;
    await this.meter.noteTeam(this.company, team);
  }

  /**
   * The team's count through the gateway this Pacific month (or in `month`), never lower than this add-in's
   * own; null when no gateway has said one for the month.
   */
  async team(month: string = capMonthOf(this.now())): Promise<TeamUsage | null> {
    let said: TeamUsage | null;
    if (this.company === null) said = this.pendingTeam?.month === month ? { count: this.pendingTeam.count, uncertain: this.pendingTeam.uncertain } : null;
    else {
      await this.flushing;
      said = await this.meter.team(this.company, month);
    }
    if (said === null) return null;
    return { count: Math.max(said.count, await this.count(month)), uncertain: said.uncertain };
  }

  /** Calls spent from the company's cap this month as far as this add-in knows: the team's count where one came, else its own. */
  async used(): Promise<number> {
    const month = capMonthOf(this.now());
    return (await this.team(month))?.count ?? (await this.count(month));
  }

  cap(plan: string): number | undefined {
    return planCap(plan);
  }

  /** Calls left this month on a plan (never below 0), from the team's count where one came; undefined for an unknown plan. */
  async remaining(plan: string): Promise<number | undefined> {
    const cap = planCap(plan);
    if (cap === undefined) return undefined;
    return Math.max(0, cap - (await this.used()));
  }

  nextReset(): MonthlyReset {
    return nextMonthlyReset(this.now());
  }

  /** Changes of this client's company (and of its not-yet-attributed counts). */
  subscribe(listener: MeterListener): () => void {
    return this.meter.subscribe((change) => {
      if (change.companyId === null || change.companyId === this.company) listener(change);
    });
  }

  /** Set when the server refused a call for the monthly cap; cleared at the computed reset. */
  get monthlyLimit(): MonthlyLimitState | null {
    if (this.limit && this.now() >= this.limit.reset.epochMs) this.limit = null;
    return this.limit;
  }

  /** @internal called by the transport. */
  noteMonthlyLimit(resetDate: string): void {
    this.limit = { resetDate, reset: nextMonthlyReset(this.now()) };
  }

  /** @internal a counted answer other than the cap means the cap is not (or no longer) in force. */
  clearMonthlyLimit(): void {
    this.limit = null;
  }
}
