// Calls are the scarcest resource (a company may have 10 a month), so every read the add-in makes goes
// through this cache: one canonical key per request, one promise per key while it is in flight, and the
// answer kept -- in memory and in a persistent store -- until an explicit refresh. Recalculation, reopening
// the workbook and value preview therefore never spend a call. The persistent store is small and shared,
// so what is kept there has a budget (answerStore.ts): the answers used least recently make room.

import { AnswerStore } from './answerStore';

/** Where cached answers outlive the runtime (OfficeRuntime.storage in the add-in, memory in tests). */
export interface CacheStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(keys: string[]): Promise<void>;
  keys(): Promise<string[]>;
}

export interface ReadRequest {
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
}

export interface CachedAnswer<T> {
  value: T;
  /** Unix ms when the answer was fetched from the API. */
  fetchedAt: number;
}

const PREFIX = 'fin-cache:';

/**
 * The one canonical form of a request: company, path, and the query parameters sorted by name with empty
 * ones dropped, so `?b=2&a=1` and `?a=1&b=2` are one request and one call.
 */
export function canonicalKey(companyId: string, req: ReadRequest): string {
  return `${PREFIX}${companyId}:${requestKey(req)}`;
}

/** The request's part of the canonical key: path and sorted, non-empty query. */
export function requestKey(req: ReadRequest): string {
  const params = Object.entries(req.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => [k, String(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const qs = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${req.path}${qs ? `?${qs}` : ''}`;
}

export class MemoryCacheStore implements CacheStore {
  readonly data = new Map<string, string>();
  async get(key: string) {
    return this.data.get(key);
  }
  async set(key: string, value: string) {
    this.data.set(key, value);
  }
  async remove(keys: string[]) {
    for (const k of keys) this.data.delete(k);
  }
  async keys() {
    return [...this.data.keys()];
  }
}

export class RequestCache {
  private readonly memory = new Map<string, CachedAnswer<unknown>>();
  private readonly inFlight = new Map<string, Promise<CachedAnswer<unknown>>>();
  private readonly persisted: AnswerStore;
  /** Bumped by clear(): an answer that arrives for an older generation is not kept. */
  private generation = 0;

  constructor(
    store: CacheStore,
    private readonly now: () => number = Date.now,
    options: { budgetChars?: number } = {},
  ) {
    this.persisted = new AnswerStore(store, PREFIX, now, options.budgetChars);
  }

  /** The cached answer, or undefined; never calls the API (value preview uses this). */
  async peek<T>(companyId: string, req: ReadRequest): Promise<CachedAnswer<T> | undefined> {
    const key = canonicalKey(companyId, req);
    const hit = this.fromMemory(key) ?? (await this.loadPersisted(key));
    return hit as CachedAnswer<T> | undefined;
  }

  /**
   * The answer to `req`: from memory, else from the persistent store, else from `fetch` -- called at most
   * once for any number of concurrent callers of the same request. A failed fetch is not cached, so the
   * next recalculation may try again; every waiting caller gets the same rejection.
   */
  async get<T>(companyId: string, req: ReadRequest, fetch: () => Promise<T>): Promise<CachedAnswer<T>> {
    const key = canonicalKey(companyId, req);
    const hit = this.fromMemory(key);
    if (hit) return hit as CachedAnswer<T>;
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<CachedAnswer<T>>;

    const generation = this.generation;
    const promise = (async () => {
      const persisted = await this.loadPersisted(key);
      if (persisted) return persisted;
      const value = await fetch();
      const answer: CachedAnswer<unknown> = { value, fetchedAt: this.now() };
      if (generation === this.generation) await this.keep(key, answer);
      return answer;
    })();
    this.inFlight.set(key, promise);
    try {
      return (await promise) as CachedAnswer<T>;
    } finally {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    }
  }

  /**
   * Fetches `req` again whatever is cached and keeps the new answer in place of the old one ("Refresh this
   * block"), so every later reader of the same request -- FIN cells included -- sees the same figures.
   */
  async refresh<T>(companyId: string, req: ReadRequest, fetch: () => Promise<T>): Promise<CachedAnswer<T>> {
    const key = canonicalKey(companyId, req);
    const generation = this.generation;
    const answer: CachedAnswer<T> = { value: await fetch(), fetchedAt: this.now() };
    if (generation === this.generation) await this.keep(key, answer);
    return answer;
  }

  /** Forgets every answer of the company (Refresh all): the next get of each request calls the API again. */
  async clear(companyId: string): Promise<number> {
    this.generation += 1;
    const prefix = `${PREFIX}${companyId}:`;
    for (const k of [...this.memory.keys()]) if (k.startsWith(prefix)) this.memory.delete(k);
    this.inFlight.clear();
    const stored = await this.persisted.keys(prefix);
    await this.persisted.remove(stored);
    return stored.length;
  }

  /** The persisted keys of the company's answers (what a Refresh all would fetch again, at most). */
  storedKeys(companyId: string): Promise<string[]> {
    return this.persisted.keys(`${PREFIX}${companyId}:`);
  }

  /**
   * Makes room in the shared storage for a write that must not fail (the API key, the connection, the call
   * meter): evicts the least recently used answer, from the store and from memory. Resolves with how many
   * were evicted; 0 when there is nothing left to evict.
   */
  async makeRoom(): Promise<number> {
    const evicted = await this.persisted.evict();
    for (const key of evicted) this.memory.delete(key);
    return evicted.length;
  }

  /** The oldest fetch time among the company's cached answers (for "refreshed at" and staleness). */
  oldestFetch(companyId: string): number | undefined {
    const prefix = `${PREFIX}${companyId}:`;
    let oldest: number | undefined;
    for (const [k, v] of this.memory) if (k.startsWith(prefix) && (oldest === undefined || v.fetchedAt < oldest)) oldest = v.fetchedAt;
    return oldest;
  }

  /** An answer in memory, which counts as a use of it. */
  private fromMemory(key: string): CachedAnswer<unknown> | undefined {
    const hit = this.memory.get(key);
    if (hit) this.persisted.touch(key);
    return hit;
  }

  /** Keeps an answer in memory and, within the budget, in the store (else in memory only). */
  private async keep(key: string, answer: CachedAnswer<unknown>): Promise<void> {
    this.memory.set(key, answer);
    const { evicted } = await this.persisted.write(key, JSON.stringify(answer)).catch(() => ({ evicted: [] as string[] }));
    for (const k of evicted) this.memory.delete(k);
  }

  private async loadPersisted(key: string): Promise<CachedAnswer<unknown> | undefined> {
    const text = await this.persisted.read(key);
    if (text === undefined) return undefined;
    try {
      const answer = JSON.parse(text) as CachedAnswer<unknown>;
      if (typeof answer?.fetchedAt !== 'number' || !('value' in answer)) return undefined;
      this.memory.set(key, answer);
      return answer;
    } catch {
      return undefined;
    }
  }
}
