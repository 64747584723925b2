import { capMonthOf, nextMonthlyReset, type MonthlyReset } from './calendar';

// The call meter: how many calls this company has spent this Pacific-time month. The API reports
// remaining quota nowhere, so the add-in keeps its own count, with the server's counting rule
// (docs/api-decisions.md): every request sent with a valid key counts, whatever its status, except a
// 401 and a 429 monthly_limit_exceeded; a request lost at the network level counts too (the server may
// have processed it). The transport decides what counts; this module stores and reports it.

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

/**
 * Counts per company and month. Increments of one bucket are serialized and cached after the first
 * read, so concurrent requests never lose an update through a get/set race on an async store.
 * One instance per runtime: clients sharing it share the count.
 */
export class CallMeter {
  private readonly store: MeterStore;
  private readonly cache = new Map<string, number>();
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
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let stored: number | null | undefined;
    try {
      stored = await this.store.get(key);
    } catch (error) {
      this.onStoreError?.(error);
    }
    const value = typeof stored === 'number' && Number.isFinite(stored) && stored >= 0 ? Math.floor(stored) : 0;
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
    this.flushing = this.flushing.then(async () => {
      for (const [month, n] of waiting) await this.meter.record(companyId, month, n);
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

  /** Calls counted this Pacific month (or in `month`, `YYYY-MM`). */
  async count(month: string = capMonthOf(this.now())): Promise<number> {
    if (this.company === null) return this.pending.get(month) ?? 0;
    await this.flushing;
    return this.meter.count(this.company, month);
  }

  cap(plan: string): number | undefined {
    return planCap(plan);
  }

  /** Calls left this month on a plan (never below 0); undefined for an unknown plan. */
  async remaining(plan: string): Promise<number | undefined> {
    const cap = planCap(plan);
    if (cap === undefined) return undefined;
    return Math.max(0, cap - (await this.count()));
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
