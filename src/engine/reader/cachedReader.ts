// The one door through which the add-in spends API calls for a company: FIN cells, statement blocks,
// transactions tables and connecting all call through a CachedReader, so each of them gets the same
// guarantees:
//   - a request answered before is answered from the cache (one canonical key per request, one call for
//     any number of concurrent readers, kept until a refresh);
//   - after the API said the monthly cap is spent, nothing is sent until the reset (the block survives a
//     reload), and calls already queued behind the client's limiter are dropped, not sent;
//   - every call is bounded in time, the client's retries included;
//   - an answer a second identical request would get again (a 400, 403, 404...) is remembered until the
//     next refresh, so a cell that recalculates does not pay for the same refusal twice;
//   - an outage costs a handful of calls, not dozens: after a few server failures in a row (retries
//     included) nothing more is sent to that endpoint for a short pause, and nothing at all when the
//     failures span endpoints or nothing answers (breaker.ts).
// It throws the client's own errors (ApiError, MonthlyLimitError), plus a 'timeout' ApiError; the callers
// word them for a cell or for the pane.

import { isClosedRequest } from './closedBooks';
import { touchedBy, type TransactionChange } from './touched';
import { ApiError, MonthlyLimitError } from '../../api/errors';
import { UNREADABLE_ANSWER } from '../../api/answerShape';
import type { CallOptions } from '../../api/transport';
import { OutageBreakers } from './breaker';
import { cashRequestsOf } from './cashFlowCash';
import { outageError } from './outage';
import { blockedError, blockFrom, loadBlock, saveBlock, type CapBlock } from './capBlock';
import type { CacheStore } from '../ports/storage';
import { canonicalKey, requestOfKey, type CachedAnswer, type ReadRequest, type RequestCache } from './requestCache';
import { walkCalls, walkKind, weaker, WalkDensity, type WalkEstimate } from './walks';
import type { Fetching } from './teamFreshness';
import { Derivations, type SourceClient } from './derivations';
import { ownChangeRanges, storedPlacements } from '../sync/placements';
import { isReferenceRead } from './reference';

/** What the reader needs of the API client (createClient's result satisfies it). */
export interface ReaderClient {
  readonly companyId: string | null;
  /** Spends one GET /company only when the company is not known yet. */
  ensureCompanyId(opts?: CallOptions): Promise<string>;
  readonly meter: {
    /** Set by the client when the server refused a call for the monthly cap (cleared at the reset). */
    readonly monthlyLimit?: { resetDate: string; reset: { epochMs: number } } | null;
  };
  /** What a derivation fetches its due sources with (derivations.ts); without them it fetches the request. */
  readonly reports?: SourceClient['reports'];
  readonly categories?: SourceClient['categories'];
}

export interface ReaderOptions {
  client: ReaderClient;
  cache: RequestCache;
  /** Where the cap block persists (the add-in passes the cache's store). */
  stateStore?: CacheStore;
  now?: () => number;
  /** Upper bound for one call including the client's retries (default 120 s). */
  apiTimeoutMs?: number;
  /** Answer from the cached statements what an identity of the spec decides (derivations.ts); on by default. */
  derive?: boolean;
}

export interface CallCost {
  /** Distinct requests. */
  requests: number;
  /** Of those, answered by the cache. */
  cached: number;
  /** What fetching them spends: the requests not cached (a walk over pages counts its pages: walks.ts). */
  calls: number;
  /** Of the requests not cached, those answered from the statements at no call (derivations.ts). */
  derived?: number;
  /**
   * The plan fetches monthly statements in place of requests they answer, being fewer: `fetch` statements
   * (counted in `calls`) for `replace` requests.
   */
  instead?: { fetch: number; replace: number };
  /**
   * Some of `calls` is an estimate: a walk not cached yet, whose pages are known only once walked; "about"
   * from the company's other walks, "at least" (one page) when none is known.
   */
  estimated?: WalkEstimate;
}

export const DEFAULT_API_TIMEOUT_MS = 120_000;

/** Own changes remembered until a sync sees them: a 5,000-row push, with room to spare. */
const MAX_OWN_CHANGES = 20_000;

/** What the add-in itself made of a transaction: its accounting date after, and the table it came from. */
export interface OwnChange {
  accountingAfter: string;
  bindingId: string | null;
}

/**
 * A refresh that fails for a passing reason (the API failing or unreachable, the monthly cap) keeps the
 * figures already fetched rather than turning cells into errors; a refusal about the request itself does not.
 */
function keepsFiguresOnFailure(error: unknown): boolean {
  if (error instanceof MonthlyLimitError) return true;
  return error instanceof ApiError && (error.type === 'connection_error' || error.code === 'outage' || (error.status !== null && error.status >= 500) || error.code === 'rate_limit_exceeded');
}

/** Answers a second identical request would get again (and pay for again), an answer the client cannot read among them. */
function isDeterministicFailure(error: unknown): boolean {
  if (error instanceof ApiError && error.code === UNREADABLE_ANSWER) return true;
  return error instanceof ApiError && error.status !== null && [400, 401, 403, 404, 409, 422].includes(error.status);
}

export function timeoutError(path: string, ms: number): ApiError {
  return new ApiError({
    message: `The API did not answer within ${Math.max(1, Math.round(ms / 1000))} s`,
    status: null,
    type: 'connection_error',
    code: 'timeout',
    request: { method: 'GET', path, query: '' },
  });
}

export class CachedReader {
  readonly client: ReaderClient;
  readonly cache: RequestCache;
  /** Where the reader's small state lives (the cap block; the change feed keeps its watermark there too). */
  readonly stateStore?: CacheStore;
  private readonly now: () => number;
  readonly apiTimeoutMs: number;

  private readonly failures = new Map<string, unknown>();
  /** Drops the calls of the reader still waiting to be sent (see CallOptions.dropIfQueued), with their endpoint. */
  private readonly queued = new Map<AbortController, string>();
  private readonly listeners = new Set<() => void>();
  private block: CapBlock | null = null;
  private staleServed = 0;
  private closedThrough: string | null = null;
  /** The add-in's own changes not yet seen by a sync, by transaction id (in memory: see noteOwnChanges). */
  private readonly own = new Map<string, OwnChange>();
  private readonly breakers: OutageBreakers;
  private blockLoaded?: Promise<void>;
  private blockLoadedFor?: string;
  private companyPromise?: Promise<string>;
  private cashFlowsLackCash = false;
  /** Items per day of the walks known (walks.ts): what a walk not cached yet is priced at. */
  private readonly walkDensity = new WalkDensity();
  private walksLearned?: Promise<void>;
  /** Answers the cached statements determine (derivations.ts). */
  readonly derivations: Derivations;

  constructor(options: ReaderOptions) {
    this.client = options.client;
    this.cache = options.cache;
    this.stateStore = options.stateStore;
    this.now = options.now ?? Date.now;
    this.apiTimeoutMs = options.apiTimeoutMs ?? DEFAULT_API_TIMEOUT_MS;
    // Opened: what is queued or waiting for a retry (for that endpoint, or for any) is dropped; what is
    // being sent gets its answer.
    this.breakers = new OutageBreakers(this.now, (endpoint) => this.dropQueued(endpoint));
    this.derivations = new Derivations(this, options.derive ?? true, this.now, options.stateStore);
  }

  /** The company of the key; one GET /company (through the guard) only when the client was not told. */
  companyId(): Promise<string> {
    const known = this.client.companyId;
    if (known) return Promise.resolve(known);
    this.companyPromise ??= this.call('/company', (o) => this.client.ensureCompanyId(o)).catch((error: unknown) => {
      this.companyPromise = undefined;
      throw error;
    });
    return this.companyPromise;
  }

  /** The company when it is known without a call (value preview must not spend one). */
  knownCompanyId(): string | null {
    return this.client.companyId;
  }

  /** The cached answer, or undefined; never calls the API. */
  async peek<T>(req: ReadRequest): Promise<CachedAnswer<T> | undefined> {
    const company = this.knownCompanyId();
    return company ? this.cache.peek<T>(company, req) : undefined;
  }

  /**
   * peek(), or else the answer the cached statements decide (derivations.ts) without fetching anything: what
   * Excel's value preview may show, since it must never spend a call.
   */
  async peekOrDerive<T>(req: ReadRequest): Promise<CachedAnswer<T> | undefined> {
    const company = this.knownCompanyId();
    if (!company) return undefined;
    return (await this.cache.peek<T>(company, req)) ?? (await this.derivations.answer<T>(company, req, { fetchSources: false }));
  }

  /**
   * The cached answer to `req` whether or not it is due for a refresh; undefined when none is kept, or when a
   * refusal is remembered for it (read() answers that). Never calls the API.
   */
  async kept<T>(req: ReadRequest): Promise<CachedAnswer<T> | undefined> {
    const company = this.knownCompanyId();
    if (!company || this.failures.has(canonicalKey(company, req))) return undefined;
    return this.cache.peek<T>(company, req);
  }

  /**
   * The cached answer to `req` when reading it costs no call and no wait (in memory and not due for a
   * refresh); undefined otherwise, and read() then does what it takes. Never calls the API.
   */
  fresh<T>(req: ReadRequest): CachedAnswer<T> | undefined {
    const company = this.client.companyId;
    if (!company) return undefined;
    // A refusal remembered for the request is what read() answers, whatever is cached.
    if (this.failures.size > 0 && this.failures.has(canonicalKey(company, req))) return undefined;
    const hit = this.cache.fresh<T>(company, req);
    // An answer served stale (its refresh failed) is for read() to count.
    return hit?.stale ? undefined : hit;
  }

  /**
   * The answer to `req`: from the cache, else from `fetch` through the guard (once for every concurrent
   * reader). `fresh` fetches again whatever is cached and keeps the new answer for every later reader.
   */
  async read<T>(req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>, options: { fresh?: boolean } = {}): Promise<CachedAnswer<T>> {
    const company = await this.companyId();
    const key = canonicalKey(company, req);
    if (!options.fresh) {
      const failed = this.failures.get(key);
      if (failed) throw failed;
    }
    const remembering = async (fetching: Fetching): Promise<T> => {
      try {
        // How old an answer the team's gateway may serve, and when the API gave the one that came (teamFreshness.ts).
        const value = await this.call(req.path, (o) => fetch({ ...o, maxAgeSeconds: fetching.maxAgeSeconds, onAnswered: (a) => fetching.answered(a.answeredAt) }));
        this.failures.delete(key);
        return value;
      } catch (error) {
        if (isDeterministicFailure(error)) this.failures.set(key, error);
        throw error;
      }
    };
    if (!options.fresh) {
      const derived = await this.derivations.answer<T>(company, req);
      if (derived) return derived;
    }
    const keep = { keepOnFailure: keepsFiguresOnFailure };
    const answer = options.fresh ? await this.cache.refresh<T>(company, req, remembering, keep) : await this.cache.get<T>(company, req, remembering, keep);
    // Fetched again on purpose (Refresh this block): what was derived from it follows on its next read.
    if (options.fresh) await this.derivations.sourceChanged(company, [key]);
    await this.derivations.answered(company, req, answer.value);
    if (answer.stale) this.staleServed += 1;
    if (walkKind(req)) this.walkDensity.note(req, answer.value);
    return answer;
  }

  /**
   * One uncached call (a page of a sync run, a job poll, a write) or a run of them sharing one signal:
   * refused before sending under the cap block, bounded by the timeout, and a cap refusal blocks the rest.
   * `path` is the endpoint without query (a template for one with ids, `/jobs/{id}`): its breaker is
   * keyed on it.
   */
  async call<T>(path: string, work: (opts: CallOptions) => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
    await this.assertCanSpend(path);
    const endpoint = path.split('?')[0];
    this.assertNoOutage(endpoint, path);
    const admitted = await this.breakers.admit(endpoint);
    try {
      this.assertNoOutage(endpoint, path);
    } catch (error) {
      admitted();
      throw error;
    }
    const controller = new AbortController();
    const queued = new AbortController();
    const limitMs = options.timeoutMs ?? this.apiTimeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    this.queued.set(queued, endpoint);
    const onAttempt = (o: { status: number | null }) => {
      this.breakers.attempt(endpoint, o.status);
      admitted();
    };
    try {
      return await work({ signal: controller.signal, dropIfQueued: queued.signal, onAttempt });
    } catch (error) {
      if (error instanceof MonthlyLimitError && error.status !== null) await this.blockUntilReset(error);
      if (error instanceof ApiError && error.code === 'aborted') {
        if (this.block) throw blockedError(this.block, path, this.now());
        if (timedOut) throw timeoutError(path, limitMs);
        const outage = this.breakers.stopping(endpoint);
        if (outage) throw outageError(path, outage, this.now());
      }
      throw error;
    } finally {
      admitted();
      clearTimeout(timer);
      this.queued.delete(queued);
    }
  }

  /** Nothing is sent to an endpoint, or at all, while its outage pause lasts. */
  private assertNoOutage(endpoint: string, path: string): void {
    const outage = this.breakers.stopping(endpoint);
    if (outage) throw outageError(path, outage, this.now());
  }

  /** A run the user started (Refresh all, a push): the API and each endpoint get their chance again, with a fresh count. */
  newRun(): void {
    this.breakers.reset();
  }

  /**
   * Told when a cash flow of this API came without beginning and ending cash (cashFlowCash.ts): from then on
   * a cash flow is priced with the two balance sheets its cash is taken from.
   */
  noteCashFlowsLackCash(): void {
    this.cashFlowsLackCash = true;
  }

  /** The requests reading these takes: with the balance sheets of each cash flow where this API's lack cash. */
  withDependents(requests: readonly ReadRequest[]): ReadRequest[] {
    return this.cashFlowsLackCash ? requests.flatMap((r) => [r, ...cashRequestsOf(r)]) : [...requests];
  }

  /** These requests once each, and those of them not cached (or due: an answer due for a refresh costs its call again). */
  private async missingOf(company: string | null, requests: readonly ReadRequest[]): Promise<{ distinct: number; missing: ReadRequest[] }> {
    const distinct = new Map<string, ReadRequest>();
    for (const r of this.withDependents(requests)) distinct.set(company ? canonicalKey(company, r) : JSON.stringify(r), r);
    const hits = company ? await Promise.all([...distinct.values()].map(async (r) => (await this.cache.peek(company, r)) !== undefined && !(await this.cache.isStale(company, r)))) : [];
    return { distinct: distinct.size, missing: [...distinct.values()].filter((_, i) => !hits[i]) };
  }

  /**
   * The run about to read these requests (an insert, a roll) follows the plan their cost was shown from, until
   * the returned function is called: derived answers fetch the sources it counted on (derivations.ts).
   */
  async follow(requests: readonly ReadRequest[]): Promise<() => void> {
    const company = this.knownCompanyId();
    if (!company) return () => {};
    return this.derivations.follow(company, (await this.missingOf(company, requests)).missing);
  }

  /** What fetching these requests through the cache spends; never calls the API. */
  async cost(requests: readonly ReadRequest[]): Promise<CallCost> {
    const company = this.knownCompanyId();
    const { distinct: size, missing } = await this.missingOf(company, requests);
    const cached = size - missing.length;
    if (!company) {
      const priced = await this.priced(missing);
      return { requests: size, cached, calls: priced.calls, ...(priced.estimated ? { estimated: priced.estimated } : {}) };
    }
    const plan = await this.derivations.plan(company, missing);
    const priced = await this.priced(plan.fetch);
    return {
      requests: size,
      cached,
      calls: priced.calls,
      ...(plan.derived > 0 ? { derived: plan.derived } : {}),
      ...(plan.instead ? { instead: plan.instead } : {}),
      ...(priced.estimated ? { estimated: priced.estimated } : {}),
    };
  }

  /**
   * What fetching each of these answers (canonical keys) again spends: one call, or a walk's pages (walks.ts).
   * Never calls the API.
   */
  async callsOf(keys: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const walks: ReadRequest[] = [];
    const walkKeys: string[] = [];
    // An answer derived from statements fetched in the same run costs nothing.
    const derived = this.derivations.derivedAmong(keys);
    for (const key of keys) {
      const req = requestOfKey(key);
      if (derived.has(key)) out.set(key, 0);
      else if (req && walkKind(req)) {
        walks.push(req);
        walkKeys.push(key);
      } else out.set(key, 1);
    }
    if (walks.length > 0) {
      const each = await Promise.all(walks.map((req) => this.walkCost(req)));
      walkKeys.forEach((key, i) => out.set(key, each[i].calls));
    }
    return out;
  }

  private async priced(requests: readonly ReadRequest[]): Promise<{ calls: number; estimated?: WalkEstimate }> {
    let calls = 0;
    let estimated: WalkEstimate | undefined;
    for (const req of requests) {
      if (!walkKind(req)) {
        calls += 1;
        continue;
      }
      const cost = await this.walkCost(req);
      calls += cost.calls;
      estimated = weaker(estimated, cost.estimated);
    }
    return { calls, estimated };
  }

  private async walkCost(req: ReadRequest): Promise<{ calls: number; estimated?: WalkEstimate }> {
    await this.learnWalks();
    const kept = await this.peek(req).catch(() => undefined);
    return walkCalls(req, kept?.value, this.walkDensity);
  }

  /** The walks kept from before (a reopened workbook): what a walk not cached yet is priced from. Once. */
  private learnWalks(): Promise<void> {
    const company = this.knownCompanyId();
    if (!company) return Promise.resolve();
    this.walksLearned ??= (async () => {
      const keys = await this.cache.storedKeys(company).catch(() => [] as string[]);
      for (const key of keys) {
        const req = requestOfKey(key);
        if (!req || !walkKind(req)) continue;
        const kept = await this.cache.peek(company, req).catch(() => undefined);
        if (kept) this.walkDensity.note(req, kept.value);
      }
    })();
    return this.walksLearned;
  }

  /** The cap block in force, or null (loads the persisted one once). */
  async capBlock(): Promise<CapBlock | null> {
    await this.loadBlock();
    if (this.block && this.now() >= this.block.resetEpochMs) await this.setBlock(null);
    const known = this.client.meter.monthlyLimit;
    if (!this.block && known && this.now() < known.reset.epochMs) {
      // Another client of the same meter met the cap (connecting, for example).
      await this.setBlock({ cap: null, resetDate: known.resetDate, resetEpochMs: known.reset.epochMs });
    }
    return this.block;
  }

  /** Throws the blocked MonthlyLimitError when the cap is known to be spent; sends nothing. */
  async assertCanSpend(path = '/'): Promise<void> {
    const block = await this.capBlock();
    if (block) throw blockedError(block, path, this.now());
  }

  /**
   * Every cached answer of the company is due for a refresh, and refusals are forgotten (a full Refresh
   * all): each request is fetched again on its next read, and an answer whose refetch fails for a passing
   * reason keeps serving its figures. Returns how many stored answers it concerns.
   */
  async markAllStale(): Promise<number> {
    this.failures.clear();
    return this.cache.markAllStale(await this.companyId());
  }

  /**
   * The add-in's own changes to transactions (a push, a shift, a resume) -- the answers they touch are due
   * for a refresh -- remembered so that the sync that later sees them does not mark them a second time.
   */
  async noteOwnChanges(changes: readonly TransactionChange[], bindingId: string | null): Promise<string[]> {
    for (const c of changes) {
      if (!c.id) continue;
      this.own.delete(c.id);
      this.own.set(c.id, { accountingAfter: c.accountingAfter, bindingId });
    }
    // Oldest first out: a change no sync ever saw (its push failed after all) must not pile up.
    for (const id of this.own.keys()) {
      if (this.own.size <= MAX_OWN_CHANGES) break;
      this.own.delete(id);
    }
    return this.markStale(touchedBy(await this.withSpreads(changes)));
  }

  /** A department change reaches the months a spread recognises the transaction in (sync/placements.ts). */
  private async withSpreads(changes: readonly TransactionChange[]): Promise<TransactionChange[]> {
    if (!changes.some((c) => c.department && c.id) || !this.stateStore) return [...changes];
    const memory = await storedPlacements(this.stateStore, await this.companyId());
    return changes.map((c) => (c.department && c.id ? { ...c, ranges: [...(c.ranges ?? []), ...ownChangeRanges(memory, c.id)] } : c));
  }

  /** The own change of this transaction a sync now sees, if any (it is forgotten: each is seen once). */
  takeOwnChange(id: string): OwnChange | undefined {
    const own = this.own.get(id);
    this.own.delete(id);
    return own;
  }

  /** The cached answers a known change touches are due for a refresh (a push; a sync that saw changes). */
  async markStale(touched: (req: ReadRequest) => boolean): Promise<string[]> {
    const company = await this.companyId();
    const marked = await this.cache.markStale(company, touched);
    // What was derived from a touched answer is touched with it (the rules place both alike; this makes sure).
    const dependents = new Set(await this.derivations.dependentsOf(company, marked));
    const also = dependents.size ? await this.cache.markStale(company, (req) => !touched(req) && dependents.has(canonicalKey(company, req))) : [];
    if (marked.length) this.emit();
    return [...marked, ...also];
  }

  /**
   * The answers fetched after `at` (this reader's clock) are due, as changed: an answer fetched between two
   * sync runs may hold a transaction where it was only in between (moved twice), a place no run reports.
   * The lists of categories and departments are not: no transaction change reaches them.
   */
  async markFetchedAfter(at: number): Promise<string[]> {
    const company = await this.companyId();
    const keys = new Set(await this.cache.keysFetchedAfter(company, at));
    return keys.size ? this.markStale((req) => keys.has(canonicalKey(company, req)) && !isReferenceRead(req)) : [];
  }

  /** This reader's clock (Unix ms), the one answers are stamped with. */
  clock(): number {
    return this.now();
  }

  /** These answers (canonical keys) are fetched again on their next read; no change is recorded for them. */
  async markDue(keys: readonly string[]): Promise<void> {
    const company = await this.companyId();
    await this.cache.markDue(company, keys);
    this.derivations.noteAsked(keys);
    await this.derivations.sourceChanged(company, keys);
  }

  /** Keys of the company's cached answers due for a refresh; never calls the API. */
  async staleKeys(): Promise<string[]> {
    const company = this.knownCompanyId();
    return company ? this.cache.staleKeys(company) : [];
  }

  /**
   * Books closed through a month end (null: not closed): answers wholly within the closed months are kept
   * across refreshes; only a fresh read (Refresh this block) fetches them again.
   */
  setBooksClosedThrough(through: string | null): void {
    this.closedThrough = through;
    this.cache.setFrozen(through === null ? null : (req) => isClosedRequest(req, through));
  }

  booksClosedThrough(): string | null {
    return this.closedThrough;
  }

  /** When each of the company's requests was last known to change (key -> Unix ms); never calls the API. */
  async changes(): Promise<ReadonlyMap<string, number>> {
    const company = this.knownCompanyId();
    return company ? this.cache.changes(company) : new Map();
  }

  /** Whether the cached answer to `req` is due for a refresh. */
  async isStale(req: ReadRequest): Promise<boolean> {
    const company = this.knownCompanyId();
    return company ? this.cache.isStale(company, req) : false;
  }

  /** How many reads were served an old answer because its refresh failed (a run compares before and after). */
  staleServedCount(): number {
    return this.staleServed;
  }

  /** Called when the cap block starts or ends, and when a known change makes cached answers stale. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private async blockUntilReset(error: MonthlyLimitError): Promise<void> {
    await this.setBlock(blockFrom(error));
    // Requests still queued behind the client's concurrency limit are dropped, not sent; those already
    // sent get their own answer (a refusal the server does not count).
    this.dropQueued(null);
  }

  /** Drops what is queued for `endpoint`, or for every endpoint (null). */
  private dropQueued(endpoint: string | null): void {
    for (const [controller, queuedFor] of [...this.queued]) {
      if (endpoint !== null && queuedFor !== endpoint) continue;
      this.queued.delete(controller);
      controller.abort();
    }
  }

  /** Once the company is known (a client not told its company learns it from its first call). */
  private loadBlock(): Promise<void> {
    const company = this.client.companyId;
    if (!company || !this.stateStore) return Promise.resolve();
    if (this.blockLoadedFor !== company) {
      this.blockLoadedFor = company;
      const store = this.stateStore;
      this.blockLoaded = (async () => {
        const stored = await loadBlock(store, company);
        if (stored && !this.block) this.block = stored;
      })();
    }
    return this.blockLoaded ?? Promise.resolve();
  }

  private async setBlock(block: CapBlock | null): Promise<void> {
    const changed = (this.block === null) !== (block === null);
    this.block = block;
    const company = this.client.companyId;
    if (company && this.stateStore) await saveBlock(this.stateStore, company, block);
    if (changed) this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's bug must not break a read.
      }
    }
  }
}
