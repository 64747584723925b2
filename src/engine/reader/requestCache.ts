// Calls are the scarcest resource (a company may have 10 a month), so every read the add-in makes goes
// through this cache: one canonical key per request, one promise per key while it is in flight, and the
// answer kept -- in memory and in a persistent store -- until it is known to be stale. Recalculation,
// reopening the workbook and value preview therefore never spend a call. The persistent store is small and
// shared, so what is kept there has a budget (answerStore.ts): the answers used least recently make room.
//
// Stale is what a refresh asks for: every answer of a company (a full Refresh all), or the answers a known
// change touches (a push, a sync that saw changed transactions: see touched.ts). A stale answer is fetched
// again on its next read; if that fails for a passing reason (an outage, the monthly cap), the old answer is
// served, marked stale, so the cells keep their figures instead of turning into errors.

import type { CacheStore } from '../ports/storage';
import { AnswerStore } from './answerStore';
import { firstReadMaxAge, type Fetching } from './teamFreshness';

// The runtime names the store from here.
export type { CacheStore };

export interface ReadRequest {
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
}

export interface CachedAnswer<T> {
  value: T;
  /**
   * Unix ms when the API gave the answer: when it was fetched, or earlier when the team's gateway served it
   * from its cache (teamFreshness.ts); never at or before a refresh that made its request due.
   */
  fetchedAt: number;
  /** Set when the answer was due for a refresh that failed: these are the figures of `fetchedAt`. */
  stale?: { error: unknown };
}

export interface GetOptions {
  /** A failed refetch of a stale answer that this says yes to serves the old answer (marked stale). */
  keepOnFailure?: (error: unknown) => boolean;
}

const PREFIX = 'fin-cache:';
const STALE_PREFIX = 'fin-stale:';

/**
 * What is stale for a company: every answer fetched at or before `before` (a Refresh all), and each answer
 * fetched at or before the last known change to its request (`changed`: key -> when). The change times stay
 * after the refetch: a statement block written before a change is behind even when a formula has fetched
 * the request again since. `due` (key -> when) marks answers to fetch again without any change known to them
 * (a refresh of the sheet or the selection): nothing else is behind because of it, and it is not kept.
 */
interface StaleState {
  before: number;
  changed: Map<string, number>;
  due: Map<string, number>;
}

/** Change marks kept per company; beyond this the oldest go (their requests were refetched long since). */
const MAX_CHANGE_MARKS = 2_000;

/** The request behind a canonical key (the inverse of canonicalKey): for deciding what a change touches. */
export function requestOfKey(key: string): ReadRequest | null {
  const m = /^fin-cache:[^:]+:([^?]*)(?:\?(.*))?$/.exec(key);
  if (!m) return null;
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(m[2] ?? '')) query[k] = v;
  return { path: m[1], query };
}

/**
 * The one canonical form of a request: company, path, and the query parameters sorted by name with empty
 * ones dropped, so `?b=2&a=1` and `?a=1&b=2` are one request and one call.
 */
export function canonicalKey(companyId: string, req: ReadRequest): string {
  return `${PREFIX}${companyId}:${requestKey(req)}`;
}

/** Characters encodeURIComponent leaves as they are: a text made of them only is its own encoding. */
const URI_SAFE = /^[A-Za-z0-9\-_.!~*'()]*$/;

function encode(text: string): string {
  return URI_SAFE.test(text) ? text : encodeURIComponent(text);
}

/**
 * The request's part of the canonical key: path and sorted, non-empty query. Every read computes it (a
 * recalculation thousands of times), so it is built without intermediate arrays of entries.
 */
export function requestKey(req: ReadRequest): string {
  const query = req.query;
  if (!query) return req.path;
  let qs = '';
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined || value === null || value === '') continue;
    qs += `${qs ? '&' : ''}${encode(name)}=${encode(String(value))}`;
  }
  return qs ? `${req.path}?${qs}` : req.path;
}

function staleKey(companyId: string): string {
  return `${STALE_PREFIX}${companyId}`;
}

/** The last time something made the request due (a Refresh all, a change, a refresh of it); 0: never. */
function lastMark(state: StaleState, key: string): number {
  return Math.max(state.before, state.changed.get(key) ?? 0, state.due.get(key) ?? 0);
}

function isDue(state: StaleState, key: string, answer: Pick<CachedAnswer<unknown>, 'fetchedAt'>): boolean {
  return answer.fetchedAt <= state.before || answer.fetchedAt <= Math.max(state.changed.get(key) ?? -Infinity, state.due.get(key) ?? -Infinity);
}

export class RequestCache {
  private readonly memory = new Map<string, CachedAnswer<unknown>>();
  private readonly inFlight = new Map<string, Promise<CachedAnswer<unknown>>>();
  private readonly staleness = new Map<string, StaleState>();
  private readonly staleLoading = new Map<string, Promise<StaleState>>();
  private readonly persisted: AnswerStore;
  /** Requests whose data the user closed (books closed through a month end): never due; see closedBooks.ts. */
  private frozen: ((req: ReadRequest) => boolean) | null = null;
  /** Bumped by clear(): an answer that arrives for an older generation is not kept. */
  private generation = 0;

  constructor(
    private readonly store: CacheStore,
    private readonly now: () => number = Date.now,
    options: { budgetChars?: number } = {},
  ) {
    this.persisted = new AnswerStore(store, PREFIX, now, options.budgetChars);
  }

  /** Answers to requests `frozen` says yes to are kept whatever is marked (null: none are). */
  setFrozen(frozen: ((req: ReadRequest) => boolean) | null): void {
    this.frozen = frozen;
  }

  /** Whether the answer to this key is kept whatever is marked. */
  isFrozen(key: string): boolean {
    const req = this.frozen ? requestOfKey(key) : null;
    return req !== null && this.frozen!(req);
  }

  /** Due for a refresh, and not frozen (checked second: the cached path must stay cheap). */
  private staleNow(state: StaleState, key: string, answer: Pick<CachedAnswer<unknown>, 'fetchedAt'>): boolean {
    return isDue(state, key, answer) && !this.isFrozen(key);
  }

  /** The cached answer, or undefined; never calls the API (value preview uses this). */
  async peek<T>(companyId: string, req: ReadRequest): Promise<CachedAnswer<T> | undefined> {
    const key = canonicalKey(companyId, req);
    const hit = this.fromMemory(key) ?? (await this.loadPersisted(key));
    return hit as CachedAnswer<T> | undefined;
  }

  /**
   * The answer in memory when it is not due for a refresh; undefined otherwise (absent, stale, or the
   * company's staleness not loaded yet: get() does the rest). It waits for nothing, for the cached path
   * of a recalculation, which asks thousands of times in a row.
   */
  fresh<T>(companyId: string, req: ReadRequest): CachedAnswer<T> | undefined {
    const stale = this.staleness.get(companyId);
    if (!stale) return undefined;
    const key = canonicalKey(companyId, req);
    const hit = this.memory.get(key);
    if (!hit || this.staleNow(stale, key, hit)) return undefined;
    this.persisted.touch(key);
    return hit as CachedAnswer<T>;
  }

  /**
   * The answer to `req`: from memory, else from the persistent store, else from `fetch` -- called at most
   * once for any number of concurrent callers of the same request. An answer known to be stale is fetched
   * again; when that fails and `keepOnFailure` agrees, the old answer is served marked stale. Any other
   * failure is not cached, so the next recalculation may try again; every waiting caller gets the same
   * rejection.
   */
  async get<T>(companyId: string, req: ReadRequest, fetch: (fetching: Fetching) => Promise<T>, options: GetOptions = {}): Promise<CachedAnswer<T>> {
    const key = canonicalKey(companyId, req);
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    const hit = this.fromMemory(key);
    if (hit && !this.staleNow(stale, key, hit)) return hit as CachedAnswer<T>;
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<CachedAnswer<T>>;

    const generation = this.generation;
    const promise = (async () => {
      const known = hit ?? (await this.loadPersisted(key));
      if (known && !this.staleNow(stale, key, known)) return known;
      // A first read may take a teammate's answer; an answer due for a refresh asks the API.
      const maxAge = known ? undefined : firstReadMaxAge(this.isFrozen(key), lastMark(stale, key), this.now());
      return this.fetchAndKeep(companyId, key, fetch, generation, known, options, maxAge);
    })();
    this.inFlight.set(key, promise);
    try {
      return (await promise) as CachedAnswer<T>;
    } finally {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    }
  }

  /** The fetch of `req` under way, if any (a derivation waits for its sources rather than paying for itself). */
  pending<T>(companyId: string, req: ReadRequest): Promise<CachedAnswer<T>> | undefined {
    return this.inFlight.get(canonicalKey(companyId, req)) as Promise<CachedAnswer<T>> | undefined;
  }

  /**
   * Fetches `req` again whatever is cached and keeps the new answer in place of the old one ("Refresh this
   * block"), so every later reader of the same request -- FIN cells included -- sees the same figures.
   */
  async refresh<T>(companyId: string, req: ReadRequest, fetch: (fetching: Fetching) => Promise<T>, options: GetOptions = {}): Promise<CachedAnswer<T>> {
    const key = canonicalKey(companyId, req);
    await (this.staleness.get(companyId) ?? this.loadStale(companyId));
    const known = this.memory.get(key) ?? (await this.loadPersisted(key));
    return this.fetchAndKeep(companyId, key, fetch, this.generation, known, options, undefined) as Promise<CachedAnswer<T>>;
  }

  /** Whether the cached answer to `req` is due for a refresh (absent answers are not "stale": just absent). */
  async isStale(companyId: string, req: ReadRequest): Promise<boolean> {
    const key = canonicalKey(companyId, req);
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    const known = this.memory.get(key) ?? (await this.loadPersisted(key));
    return known !== undefined && this.staleNow(stale, key, known);
  }

  /**
   * Every answer of the company is due for a refresh (Refresh all): each is fetched again on its next read,
   * and kept, marked stale, if that fails for a passing reason. Frozen answers (closed books) stay as they
   * are. Returns how many answers it concerns.
   */
  async markAllStale(companyId: string): Promise<number> {
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    // Strictly later than the last epoch, so answers fetched since then count as stale even on a clock that
    // has not moved (fetchAndKeep stamps answers at least one past the epoch).
    stale.before = Math.max(this.now(), stale.before + 1);
    await this.saveStale(companyId, stale);
    return (await this.storedKeys(companyId)).filter((k) => !this.isFrozen(k)).length;
  }

  /**
   * The answers whose request `touched` says a change concerns are due for a refresh (after a push, or a
   * sync that saw changed transactions); the change is remembered with its time. Returns the keys marked.
   */
  async markStale(companyId: string, touched: (req: ReadRequest) => boolean): Promise<string[]> {
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    const prefix = `${PREFIX}${companyId}:`;
    const keys = new Set([...(await this.storedKeys(companyId)), ...[...this.memory.keys()].filter((k) => k.startsWith(prefix))]);
    const at = this.now();
    const marked: string[] = [];
    for (const key of keys) {
      const req = requestOfKey(key);
      if (req && touched(req)) {
        const previous = stale.changed.get(key) ?? 0;
        stale.changed.delete(key); // re-inserted last: the map's order is the marks' age
        stale.changed.set(key, Math.max(at, previous + 1));
        marked.push(key);
      }
    }
    for (const key of stale.changed.keys()) {
      if (stale.changed.size <= MAX_CHANGE_MARKS) break;
      stale.changed.delete(key);
    }
    if (marked.length) await this.saveStale(companyId, stale);
    return marked;
  }

  /**
   * These answers are due for a refresh, with no change known to them (a refresh of the sheet or the
   * selection): each is fetched again on its next read; blocks that show them are not counted as behind.
   */
  async markDue(companyId: string, keys: readonly string[]): Promise<void> {
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    const at = this.now();
    for (const key of keys) stale.due.set(key, Math.max(at, (stale.due.get(key) ?? 0) + 1));
  }

  /** Keys of the company's answers (stored or in memory) fetched strictly after `at` (Unix ms). */
  async keysFetchedAfter(companyId: string, at: number): Promise<string[]> {
    const prefix = `${PREFIX}${companyId}:`;
    const keys = new Set([...(await this.storedKeys(companyId)), ...[...this.memory.keys()].filter((k) => k.startsWith(prefix))]);
    const out: string[] = [];
    for (const key of keys) {
      const known = this.memory.get(key) ?? (await this.inspectPersisted(key));
      if (known && known.fetchedAt > at) out.push(key);
    }
    return out;
  }

  /** Keys of the company's stored answers that are due for a refresh. */
  async staleKeys(companyId: string): Promise<string[]> {
    const stale = this.staleness.get(companyId) ?? (await this.loadStale(companyId));
    const out: string[] = [];
    for (const key of await this.storedKeys(companyId)) {
      const known = this.memory.get(key) ?? (await this.inspectPersisted(key));
      if (known && this.staleNow(stale, key, known)) out.push(key);
    }
    return out;
  }

  /** When each request of the company was last known to change (a push, a sync): key -> Unix ms. */
  async changes(companyId: string): Promise<ReadonlyMap<string, number>> {
    return new Map((this.staleness.get(companyId) ?? (await this.loadStale(companyId))).changed);
  }

  /** Forgets every answer of the company (a different key, a disconnect): the next get calls the API again. */
  async clear(companyId: string): Promise<number> {
    this.generation += 1;
    const prefix = `${PREFIX}${companyId}:`;
    for (const k of [...this.memory.keys()]) if (k.startsWith(prefix)) this.memory.delete(k);
    this.inFlight.clear();
    this.staleness.delete(companyId);
    this.staleLoading.delete(companyId);
    await this.store.remove([staleKey(companyId)]).catch(() => undefined);
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

  private async fetchAndKeep<T>(
    companyId: string,
    key: string,
    fetch: (fetching: Fetching) => Promise<T>,
    generation: number,
    known: CachedAnswer<unknown> | undefined,
    options: GetOptions,
    maxAgeSeconds: number | undefined,
  ): Promise<CachedAnswer<unknown>> {
    let value: T;
    /** The oldest time the API gave a part of the answer (a walk's pages may come from the team's cache). */
    let answeredAt = Infinity;
    const answered = (at: number | null): void => {
      answeredAt = Math.min(answeredAt, at ?? this.now());
    };
    try {
      value = await fetch({ maxAgeSeconds, answered });
    } catch (error) {
      if (known && options.keepOnFailure?.(error)) return { value: known.value, fetchedAt: known.fetchedAt, stale: { error } };
      throw error;
    }
    const stale = this.staleness.get(companyId);
    // An answer fetched in the same millisecond as a Refresh all or a change must still count as after it.
    const after = Math.max(stale?.before ?? 0, stale?.changed.get(key) ?? 0, stale?.due.get(key) ?? 0);
    const answer: CachedAnswer<unknown> = { value, fetchedAt: Math.max(Math.min(this.now(), answeredAt), after + 1) };
    if (generation === this.generation) await this.keep(key, answer);
    return answer;
  }

  private loadStale(companyId: string): Promise<StaleState> {
    let loading = this.staleLoading.get(companyId);
    if (!loading) {
      loading = (async () => {
        const state: StaleState = { before: 0, changed: new Map(), due: new Map() };
        try {
          const text = await this.store.get(staleKey(companyId));
          const parsed = text ? (JSON.parse(text) as { before?: unknown; changed?: unknown }) : {};
          if (typeof parsed.before === 'number') state.before = parsed.before;
          if (Array.isArray(parsed.changed)) {
            for (const entry of parsed.changed) {
              if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') state.changed.set(entry[0], entry[1]);
            }
          }
        } catch {
          // Unreadable: nothing is known to be stale (the worst case is an old figure until the next refresh).
        }
        this.staleness.set(companyId, state);
        return state;
      })();
      this.staleLoading.set(companyId, loading);
    }
    return loading;
  }

  private async saveStale(companyId: string, state: StaleState): Promise<void> {
    await this.store.set(staleKey(companyId), JSON.stringify({ before: state.before, changed: [...state.changed] })).catch(() => undefined);
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

  /** A stored answer looked at for planning: not a use of it (the budget's order stays), not kept in memory. */
  private async inspectPersisted(key: string): Promise<Pick<CachedAnswer<unknown>, 'fetchedAt'> | undefined> {
    const text = await this.store.get(key).catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const answer = JSON.parse(text) as CachedAnswer<unknown>;
      return typeof answer?.fetchedAt === 'number' ? { fetchedAt: answer.fetchedAt } : undefined;
    } catch {
      return undefined;
    }
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
