// The reader's side of derivation (identities in derive.ts): a request an identity decides is answered from
// the statements it is derived from, at no call, whenever those are at hand:
//   - cached and not due, or being fetched by another reader (a batch of cells, a block's columns: a read
//     first lets the reads started beside it begin, then waits for them);
//   - not cached or due, but planned: the run reading it follows the plan its cost was shown from (follow():
//     the months fetched in place of the requests they answer, or among the requests priced), so they are
//     fetched here;
//   - a refresh's blocks' monthly statements are planned so (planSources): it fetches them anyway.
// Otherwise the request is fetched as before. A derived answer is an answer: cached under its own request,
// due by the same rules, and due again when one of its sources is fetched again on purpose.

import type { CallOptions } from '../../api/transport';
import { canonicalKey, requestOfKey, type CachedAnswer, type ReadRequest, type RequestCache } from './requestCache';
import { endOfMonth, isIsoDate } from '../dates';
import { balanceIdentityOf, CATEGORIES, derivationOf, derive, monthlySources, tiling, type Derivation } from './derive';
import { IdentityVerdicts } from './balanceIdentities';
import type { CacheStore } from '../ports/storage';

/** What fetches a derivation's sources: the API client's reports and category list (createClient's satisfies it). */
export interface SourceClient {
  readonly reports?: {
    incomeStatement(params: { start_date: string; end_date: string }, opts?: CallOptions): Promise<unknown>;
    cashFlow(params: { start_date: string; end_date: string }, opts?: CallOptions): Promise<unknown>;
    balanceSheet(params: { date: string }, opts?: CallOptions): Promise<unknown>;
  };
  readonly categories?: { list(opts?: CallOptions): Promise<unknown> };
  readonly aggregations?: { total(params: never, opts?: CallOptions): Promise<unknown> };
}

/** What derivation needs of the reader (the reader itself). */
export interface DerivationHost {
  readonly cache: RequestCache;
  readonly client: SourceClient;
  read<T>(req: ReadRequest, fetch: (opts: CallOptions) => Promise<T>): Promise<CachedAnswer<T>>;
  knownCompanyId(): string | null;
}

export interface DerivationPlan {
  /** The requests to fetch: those no identity answers, and the sources the derived ones need fetched. */
  fetch: ReadRequest[];
  /** Requests answered from the statements, at no call. */
  derived: number;
  /** Monthly statements fetched in place of the requests they answer, being fewer. */
  instead?: { fetch: number; replace: number };
  /** The sources each derived answer (key) counts on that are not cached: what following the plan fetches. */
  sources: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A refresh's sources are planned for this long at most (it unplans them when done). */
const PLANNED_FOR_MS = 15 * 60 * 1000;

/** Lets the reads started beside this one begin (a batch of cells, a block's columns) before looking. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const needsCategories = (d: Derivation) => d.kind !== 'statement';

/** The money of an answer, path by path (lines by category): what a check compares. */
function figuresOf(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${path}[${(item as { category_id?: unknown })?.category_id ?? i}]`));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.endsWith('_cents') && typeof x === 'number') out.push(`${path}.${k}=${x}`);
        else walk(x, `${path}.${k}`);
      }
    }
  };
  walk(value, '');
  return out.sort().join(',');
}

/** A total's amount (a dialect's answer may carry it under a second name too; the client reads total_cents). */
function totalOf(value: unknown): unknown {
  return (value as { total_cents?: unknown } | null)?.total_cents;
}

/** A statement of one month, a balance sheet at a month end, or the category list: what derivations start from. */
function isMonthlySource(r: ReadRequest): boolean {
  if (r.path === CATEGORIES.path) return true;
  const q = r.query ?? {};
  const start = typeof q.start_date === 'string' ? q.start_date : '';
  const end = typeof q.end_date === 'string' ? q.end_date : '';
  const date = typeof q.date === 'string' ? q.date : '';
  if (r.path === '/reports/balance_sheet') return isIsoDate(date) && endOfMonth(date) === date && Object.keys(q).length === 1;
  if (r.path !== '/reports/income_statement' && r.path !== '/reports/cash_flow') return false;
  return isIsoDate(start) && isIsoDate(end) && start.endsWith('-01') && endOfMonth(start) === end && Object.keys(q).length === 2;
}

export class Derivations {
  private readonly running = new Map<string, Promise<CachedAnswer<unknown> | undefined>>();
  /** A refresh's blocks' monthly statements (key -> until when): it fetches them anyway, for whichever answer reads first. */
  private readonly planned = new Map<string, number>();
  /**
   * The plans being followed (follow()): for each, the sources it counted on by the derived answer it counted
   * them for. Only that answer fetches them, and only while the run that priced them (an insert, a roll) is on:
   * a cost shown is no promise to act on it, and another read meanwhile (the block the user inserted instead)
   * must spend what its own cost said, not the months of a preview left aside.
   */
  private readonly following = new Set<ReadonlyMap<string, ReadonlySet<string>>>();
  /** How many answers were derived (the pane and the tests read it). */
  count = 0;
  /** Keys of the answers derived here (in memory): a check compares only answers the API gave. */
  private readonly derivedKeys = new Set<string>();
  /**
   * Answers the user asked to fetch again (a refresh of the selection or the sheet: key -> when): derived again
   * only from sources fetched since, else fetched themselves. Sources kept from before would give the figures
   * of before, which is not what a refresh is for.
   */
  private readonly asked = new Map<string, number>();

  /** The balance identities verified (or found not to hold) per company: balanceIdentities.ts. */
  readonly identities: IdentityVerdicts;

  constructor(
    private readonly host: DerivationHost,
    private on: boolean,
    private readonly now: () => number = Date.now,
    store?: CacheStore,
  ) {
    this.identities = new IdentityVerdicts(store);
  }

  get enabled(): boolean {
    return this.on;
  }

  /** The connection's setting (and the verdict of a full refresh that found a derived figure wrong). */
  setEnabled(on: boolean): void {
    this.on = on;
  }

  /**
   * The answer to `req` derived from its sources, kept in the cache; undefined when no identity answers it,
   * the cache holds an answer not due, or its sources are not at hand (the caller then fetches it). With
   * `fetchSources` false (a value preview, which must never spend) no source is fetched, planned or not.
   */
  async answer<T>(company: string, req: ReadRequest, { fetchSources = true }: { fetchSources?: boolean } = {}): Promise<CachedAnswer<T> | undefined> {
    if (!this.on) return undefined;
    const d = derivationOf(req);
    if (!d) return undefined;
    const { cache } = this.host;
    const kept = await cache.peek(company, req);
    if (kept && !(await cache.isStale(company, req))) return undefined;
    // A derivation that may not fetch is no answer for one that may: they are run apart.
    const key = `${canonicalKey(company, req)}${fetchSources ? '' : ' (from the cache)'}`;
    let running = this.running.get(key);
    if (!running) {
      running = this.deriveNow(company, req, d, fetchSources).finally(() => this.running.delete(key));
      this.running.set(key, running);
    }
    return (await running) as CachedAnswer<T> | undefined;
  }

  private async deriveNow(company: string, req: ReadRequest, d: Derivation, fetchSources: boolean): Promise<CachedAnswer<unknown> | undefined> {
    await nextTask();
    const { cache } = this.host;
    const candidates = monthlySources(d);
    // Kept answers into memory, where fresh() looks.
    await Promise.all([...candidates, CATEGORIES].map((r) => cache.peek(company, r)));
    const reqKey = canonicalKey(company, req);
    const planned = (r: ReadRequest) => {
      const k = canonicalKey(company, r);
      return (this.planned.get(k) ?? -Infinity) >= this.now() || [...this.following].some((plan) => plan.get(reqKey)?.has(k) === true);
    };
    const asked = this.asked.get(canonicalKey(company, req));
    // Only a source a plan counted is fetched here: one merely kept from before (a block since deleted) would
    // cost more than the request itself.
    const fetchable = (r: ReadRequest) => fetchSources && this.fetcher(r) !== undefined && planned(r);
    // The category list is no figure: any not due serves.
    const atHand = (r: ReadRequest) => {
      const fresh = cache.fresh(company, r);
      const recent = asked === undefined || r.path === CATEGORIES.path || (fresh !== undefined && fresh.fetchedAt > asked);
      return (fresh !== undefined && recent) || cache.pending(company, r) !== undefined;
    };
    // A monthly source not cached, or due, may be fetched if planned; a covering statement only if at hand.
    // (One cached but older than the request's refresh is neither: it would give the figures of before.)
    const monthly = new Set(candidates.map((r) => canonicalKey(company, r)));
    const available = (r: ReadRequest) => atHand(r) || (monthly.has(canonicalKey(company, r)) && fetchable(r) && cache.fresh(company, r) === undefined);
    if (needsCategories(d) && !(atHand(CATEGORIES) || (fetchable(CATEGORIES) && cache.fresh(company, CATEGORIES) === undefined))) return undefined;
    const pieces = tiling(d, available);
    if (!pieces) return undefined;
    try {
      const values = await Promise.all(pieces.map((r) => this.source(company, r)));
      const categories = needsCategories(d) ? await this.source(company, CATEGORIES) : undefined;
      if (values.some((v) => v === undefined) || (needsCategories(d) && categories === undefined)) return undefined;
      const value = derive(d, values, categories) ?? (d.kind === 'periodTotal' ? derive(d, values, categories, await this.otherStatements(company)) : null);
      if (!value) return undefined;
      if (d.kind === 'balanceTotal') {
        // Resting on an identity not verified for the company: the API answers, and so verifies it.
        const identity = balanceIdentityOf(d.category, values[0], categories);
        if (!(await this.identities.trusted(company, identity))) {
          await this.identities.expect(company, reqKey, identity!, value.total_cents as number);
          return undefined;
        }
      }
      const answer = await cache.refresh(company, req, async () => value);
      this.count += 1;
      this.derivedKeys.add(canonicalKey(company, req));
      this.asked.delete(canonicalKey(company, req));
      return answer;
    } catch {
      // A source that failed: the request is fetched itself (and meets the same failure, worded for it).
      return undefined;
    }
  }

  /** The company's income statements in memory and not due: where a category's section may be learnt. */
  private async otherStatements(company: string): Promise<unknown[]> {
    const keys = await this.host.cache.storedKeys(company).catch(() => [] as string[]);
    const out: unknown[] = [];
    for (const k of keys) {
      const req = requestOfKey(k);
      if (req?.path !== '/reports/income_statement') continue;
      const hit = this.host.cache.fresh(company, req);
      if (hit) out.push(hit.value);
    }
    return out;
  }

  /** A source's value, not due: in memory, being fetched, or fetched now; undefined when only an old one is at hand. */
  private async source(company: string, r: ReadRequest): Promise<unknown> {
    const { cache } = this.host;
    const fresh = cache.fresh(company, r);
    if (fresh) return fresh.value;
    const pending = cache.pending(company, r);
    const answer = pending ? await pending : await this.host.read(r, this.fetcher(r)!);
    return answer.stale ? undefined : answer.value;
  }

  /** How a source is fetched through the reader, or undefined when the client cannot. */
  private fetcher(r: ReadRequest): ((o: CallOptions) => Promise<unknown>) | undefined {
    const { reports, categories } = this.host.client;
    const q = r.query ?? {};
    const period = { start_date: String(q.start_date), end_date: String(q.end_date) };
    switch (r.path) {
      case '/reports/income_statement':
        return reports && ((o) => reports.incomeStatement(period, o));
      case '/reports/cash_flow':
        return reports && ((o) => reports.cashFlow(period, o));
      case '/reports/balance_sheet':
        return reports && ((o) => reports.balanceSheet({ date: String(q.date) }, o));
      case '/categories':
        return categories && ((o) => categories.list(o));
      default:
        return undefined;
    }
  }

  /**
   * What reading `missing` (requests not cached, or due) takes once derivation has its say: the requests no
   * identity answers are fetched, and their answers (with what is cached) serve as sources; where the months
   * not cached (or due) are fewer than the requests they would answer, they are fetched instead. The reader
   * remembers the sources each derived answer counts on, and fetches them itself if it is read first.
   */
  async plan(company: string, missing: readonly ReadRequest[]): Promise<DerivationPlan> {
    const derivable = this.on ? missing.map((r) => ({ r, d: derivationOf(r) })).filter((x): x is { r: ReadRequest; d: Derivation } => x.d !== null) : [];
    if (derivable.length === 0) return { fetch: [...missing], derived: 0, sources: new Map() };
    const { cache } = this.host;
    const key = (r: ReadRequest) => canonicalKey(company, r);
    const sources = new Map<string, ReadRequest>();
    for (const { d } of derivable) for (const r of [...monthlySources(d), ...(needsCategories(d) ? [CATEGORIES] : [])]) sources.set(key(r), r);
    // Statements of several months cached: a tiling may use them whole (the year to March for the year to April).
    for (const k of await cache.storedKeys(company).catch(() => [] as string[])) {
      const r = requestOfKey(k);
      const inner = r && derivationOf(r);
      if (r && inner?.kind === 'statement' && derivable.some(({ d }) => d.kind !== 'balanceTotal' && (d.kind === 'statement' ? d.path : '/reports/income_statement') === inner.path && inner.from >= d.from && inner.to <= d.to)) sources.set(k, r);
    }
    // Sources cached and not due; one due counts as not cached (fetching it again is a call like any other).
    const fresh = new Set<string>();
    await Promise.all(
      [...sources].map(async ([k, r]) => {
        if ((await cache.peek(company, r)) !== undefined && !(await cache.isStale(company, r))) fresh.add(k);
      }),
    );
    const derivableKeys = new Set(derivable.map(({ r }) => key(r)));
    const monthly = new Set(derivable.flatMap(({ d }) => [...monthlySources(d), ...(needsCategories(d) ? [CATEGORIES] : [])].map(key)));
    const fetch = new Map<string, ReadRequest>(missing.filter((r) => !derivableKeys.has(key(r))).map((r) => [key(r), r]));
    const chosen = new Set<string>();
    const derived = new Set<string>();
    /** Sources to fetch for the derived answers: the reader fetches them itself if they are not read first. */
    const used = new Map<string, Set<string>>();
    const trusted = await this.balanceTrust(company, derivable);
    const tryDerive = (r: ReadRequest, d: Derivation, extra: (k: string) => boolean): boolean => {
      if (!trusted.has(key(r)) && d.kind === 'balanceTotal') return false;
      // Only the monthly statements (and the category list), which a derivation knows how to fetch.
      const ok = (s: ReadRequest) => sources.has(key(s)) && (fresh.has(key(s)) || (monthly.has(key(s)) && (fetch.has(key(s)) || extra(key(s)))));
      if (needsCategories(d) && !ok(CATEGORIES)) return false;
      const pieces = tiling(d, ok);
      if (!pieces) return false;
      const needed = new Set<string>();
      for (const s of [...pieces, ...(needsCategories(d) ? [CATEGORIES] : [])]) {
        if (fresh.has(key(s))) continue;
        fetch.set(key(s), s);
        needed.add(key(s));
      }
      used.set(key(r), needed);
      derived.add(key(r));
      return true;
    };
    // Statements first: one fetched as itself can be a source of a total.
    const ordered = [...derivable].sort((a, b) => Number(a.d.kind !== 'statement') - Number(b.d.kind !== 'statement'));
    const undecided: { r: ReadRequest; d: Derivation }[] = [];
    for (const x of ordered) {
      if (tryDerive(x.r, x.d, () => false)) continue;
      if (x.d.kind === 'statement') fetch.set(key(x.r), x.r);
      undecided.push(x);
    }
    // The months (and category list) the undecided ones lack: fetched instead when fewer than they answer.
    const lacking = new Map<string, ReadRequest>();
    for (const { d } of undecided) {
      for (const s of [...monthlySources(d), ...(needsCategories(d) ? [CATEGORIES] : [])]) {
        if (!fresh.has(key(s)) && !fetch.has(key(s)) && this.fetcher(s)) lacking.set(key(s), s);
      }
    }
    let instead: DerivationPlan['instead'];
    const replaceable = undecided.filter(({ d }) => [...monthlySources(d)].every((s) => this.fetcher(s)));
    if (lacking.size > 0 && lacking.size < replaceable.length) {
      const before = new Map(fetch);
      for (const k of lacking.keys()) chosen.add(k);
      let replaced = 0;
      for (const x of undecided) if (tryDerive(x.r, x.d, (k) => chosen.has(k))) replaced += 1;
      if (replaced > lacking.size) {
        instead = { fetch: lacking.size, replace: replaced };
      } else {
        for (const x of undecided) derived.delete(key(x.r));
        fetch.clear();
        for (const [k, r] of before) fetch.set(k, r);
      }
    }
    for (const x of undecided) if (!derived.has(key(x.r))) fetch.set(key(x.r), x.r);
    const followed = new Map([...derived].map((k) => [k, used.get(k) ?? new Set<string>()]));
    return { fetch: [...fetch.values()], derived: derived.size, sources: followed, ...(instead ? { instead } : {}) };
  }

  /**
   * The balance totals among `derivable` a plan may count as derived: those whose identity is known from the
   * cached sheet and category list and trusted, or, where they are not cached, any when every identity is
   * verified for the company. The others are priced as fetched (at worst the cost shown is above what is spent).
   */
  private async balanceTrust(company: string, derivable: ReadonlyArray<{ r: ReadRequest; d: Derivation }>): Promise<Set<string>> {
    const out = new Set<string>();
    const all = await this.identities.allTrusted(company);
    const categories = this.host.cache.fresh(company, CATEGORIES)?.value;
    for (const { r, d } of derivable) {
      if (d.kind !== 'balanceTotal') continue;
      const sheet = this.host.cache.fresh(company, monthlySources(d)[0])?.value;
      if (all || (sheet !== undefined && categories !== undefined && (await this.identities.trusted(company, balanceIdentityOf(d.category, sheet, categories))))) out.add(canonicalKey(company, r));
    }
    return out;
  }

  /** The API's own answer to `req` (fetched, not derived): it may verify a balance identity. */
  async answered(company: string, req: ReadRequest, value: unknown): Promise<void> {
    if (req.path !== '/aggregations/total') return;
    const q = req.query ?? {};
    const list = (this.host.cache.fresh(company, CATEGORIES)?.value as { data?: Array<{ id?: unknown; name?: unknown }> } | undefined)?.data;
    const name = list?.find((c) => c.id === q.category_id)?.name;
    const label = `${typeof name === 'string' ? `"${name}"` : String(q.category_id)} at ${String(q.date ?? q.end_month)}`;
    await this.identities.answered(company, canonicalKey(company, req), label, totalOf(value));
  }

  /**
   * Follows the plan of these requests (those missing from the cache) until the returned function is called:
   * the run that reads them (an insert, a roll) fetches the sources its cost counted on, once, for the answers
   * derived from them, whatever the order of its reads.
   */
  async follow(company: string, missing: readonly ReadRequest[]): Promise<() => void> {
    const plan = (await this.plan(company, missing)).sources;
    this.following.add(plan);
    return () => {
      this.following.delete(plan);
    };
  }

  /**
   * A refresh's blocks' monthly statements and category list (canonical keys), which it fetches anyway: an
   * answer derived from them fetches them itself when it is read first (a FIN cell before the blocks), so it
   * costs nothing whatever the order.
   */
  planSources(keys: readonly string[]): () => void {
    if (!this.on) return () => {};
    const until = this.now() + PLANNED_FOR_MS;
    const mine: string[] = [];
    for (const k of keys) {
      const r = requestOfKey(k);
      if (r && isMonthlySource(r) && this.fetcher(r)) {
        this.planned.set(k, until);
        mine.push(k);
      }
    }
    // Once the refresh is done, a later read must not fetch them for a derivation it did not plan.
    return () => {
      for (const k of mine) if (this.planned.get(k) === until) this.planned.delete(k);
    };
  }

  /**
   * Of these answers (canonical keys) fetched again in one run, those derived from others among them: they
   * cost nothing. A balance total needs its balance sheet; a period total or statement its months (or a
   * statement covering them); totals the category list too.
   */
  derivedAmong(keys: readonly string[]): Set<string> {
    const out = new Set<string>();
    if (!this.on) return out;
    const company = this.host.knownCompanyId();
    if (!company) return out;
    const set = new Set(keys);
    const has = (r: ReadRequest) => set.has(canonicalKey(company, r));
    for (const k of keys) {
      const req = requestOfKey(k);
      const d = req && derivationOf(req);
      // The category list is no figure: one cached serves whatever the run fetches.
      if (!d || (needsCategories(d) && !has(CATEGORIES) && !this.host.cache.fresh(company, CATEGORIES))) continue;
      if (tiling(d, has)) out.add(k);
    }
    return out;
  }

  /** The company's cached answers an identity could derive from any of these (canonical keys). */
  async dependentsOf(company: string, keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const sources = new Set(keys);
    const stored = await this.host.cache.storedKeys(company).catch(() => [] as string[]);
    return stored.filter((k) => {
      if (sources.has(k)) return false;
      const req = requestOfKey(k);
      const d = req && derivationOf(req);
      if (!d) return false;
      return [...monthlySources(d), ...(needsCategories(d) ? [CATEGORIES] : [])].some((s) => sources.has(canonicalKey(company, s))) || this.covers(d, sources);
    });
  }

  /** Whether a statement among `keys` lies within the derivation's months (a covering source). */
  private covers(d: Derivation, keys: ReadonlySet<string>): boolean {
    if (d.kind === 'balanceTotal') return false;
    const path = d.kind === 'statement' ? d.path : '/reports/income_statement';
    return [...keys].some((k) => {
      const req = requestOfKey(k);
      if (!req || req.path !== path) return false;
      const inner = derivationOf(req);
      return inner?.kind === 'statement' && inner.from >= d.from && inner.to <= d.to;
    });
  }

  /**
   * Every answer the API gave (cached, not due) that an identity also decides from the cached statements,
   * derived and compared figure by figure: a full refresh runs it, and a difference means this API breaks an
   * identity (derivation is then turned off for the company). Calls nothing.
   */
  async check(company: string, skip: ReadonlySet<string> = new Set()): Promise<{ checked: number; differed: string[] }> {
    const { cache } = this.host;
    const keys = await cache.storedKeys(company).catch(() => [] as string[]);
    let checked = 0;
    const differed: string[] = [];
    for (const key of keys) {
      if (this.derivedKeys.has(key) || skip.has(key)) continue;
      const req = requestOfKey(key);
      const d = req && derivationOf(req);
      if (!req || !d) continue;
      await cache.peek(company, req);
      const given = cache.fresh(company, req);
      if (!given) continue;
      await Promise.all([...monthlySources(d), CATEGORIES].map((r) => cache.peek(company, r)));
      const pieces = tiling(d, (r) => cache.fresh(company, r) !== undefined);
      const categories = cache.fresh(company, CATEGORIES)?.value;
      if (!pieces || (needsCategories(d) && categories === undefined)) continue;
      const values = pieces.map((r) => cache.fresh(company, r)!.value);
      const derived = derive(d, values, categories) ?? (d.kind === 'periodTotal' ? derive(d, values, categories, await this.otherStatements(company)) : null);
      if (!derived) continue;
      // A total resting on an identity found not to hold is never derived: its difference is accounted for.
      if (d.kind === 'balanceTotal' && !(await this.identities.trusted(company, balanceIdentityOf(d.category, values[0], categories)))) continue;
      checked += 1;
      // A total is its total_cents (a dialect's answer may carry the amount under a second name too).
      const same = d.kind === 'statement' ? figuresOf(derived) === figuresOf(given.value) : derived.total_cents === (given.value as { total_cents?: unknown }).total_cents;
      if (!same) differed.push(key.slice(key.indexOf(':', key.indexOf(':') + 1) + 1));
    }
    return { checked, differed };
  }

  /**
   * The full refresh's check with derivation on (issue 34, item 4): a derived answer is never compared by
   * check(), so one derived answer of each kind (a statement, a period total, a balance total) is fetched
   * from the API -- at most 3 calls, priced in the refresh's cost -- and compared with what was derived. The
   * API's answer takes the derived one's place either way.
   */
  async verifySample(company: string): Promise<{ checked: number; differed: string[]; keys: Set<string> }> {
    const picked = new Map<string, { key: string; req: ReadRequest }>();
    for (const key of this.derivedKeys) {
      const req = requestOfKey(key);
      const d = req && derivationOf(req);
      if (!req || !d || picked.has(d.kind) || canonicalKey(company, req) !== key) continue;
      if (!this.host.cache.fresh(company, req) || !this.apiFetcher(req)) continue;
      picked.set(d.kind, { key, req });
    }
    let checked = 0;
    const differed: string[] = [];
    for (const { key, req } of picked.values()) {
      const derived = this.host.cache.fresh(company, req)!.value;
      const given = await this.host.cache.refresh(company, req, () => this.apiFetcher(req)!({})).catch(() => undefined);
      this.derivedKeys.delete(key);
      if (!given) continue;
      checked += 1;
      const same = req.path === '/aggregations/total' ? totalOf(derived) === totalOf(given.value) : figuresOf(derived) === figuresOf(given.value);
      if (!same) differed.push(key.slice(key.indexOf(':', key.indexOf(':') + 1) + 1));
    }
    return { checked, differed, keys: new Set([...picked.values()].map((p) => p.key)) };
  }

  /** How the API answers a request itself (not derived): the statements, and totals by the client's names. */
  private apiFetcher(r: ReadRequest): ((o: CallOptions) => Promise<unknown>) | undefined {
    const { aggregations } = this.host.client;
    if (r.path === '/aggregations/total') return aggregations && ((o) => aggregations.total({ ...(r.query ?? {}) } as never, o));
    return this.fetcher(r);
  }

  /** These answers (canonical keys) are to be fetched again on purpose: derived again only from sources fetched since. */
  noteAsked(keys: readonly string[]): void {
    const at = this.now();
    for (const k of keys) {
      const req = requestOfKey(k);
      if (req && derivationOf(req)) this.asked.set(k, at);
    }
  }

  /** Sources fetched again on purpose (Refresh this block, a refresh of the selection): what was derived from them is due. */
  async sourceChanged(company: string, keys: readonly string[]): Promise<void> {
    const dependents = await this.dependentsOf(company, keys);
    if (dependents.length > 0) await this.host.cache.markDue(company, dependents);
  }
}
