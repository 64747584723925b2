import { RequestCache, canonicalKey, requestKey, type ReadRequest } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const req = { path: '/reports/income_statement', query: { start_date: '2025-01-01', end_date: '2025-01-31' } };

describe('RequestCache', () => {
  it('gives one canonical key whatever the parameter order, and drops empty parameters', () => {
    const a = canonicalKey('comp_1', { path: '/x', query: { b: 2, a: 1, c: undefined, d: '' } });
    const b = canonicalKey('comp_1', { path: '/x', query: { a: 1, b: 2 } });
    expect(a).toBe(b);
    expect(canonicalKey('comp_2', { path: '/x', query: { a: 1, b: 2 } })).not.toBe(a);
  });

  it('builds the same request keys as entries filtered, sorted and URI-encoded (keys persist: they must not change)', () => {
    const reference = (r: ReadRequest): string => {
      const params = Object.entries(r.query ?? {})
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => [k, String(v)] as const)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      const qs = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      return `${r.path}${qs ? `?${qs}` : ''}`;
    };
    const requests: ReadRequest[] = [
      { path: '/categories' },
      { path: '/x', query: {} },
      { path: '/x', query: { a: undefined, b: null, c: '' } },
      { path: '/aggregations/total', query: { start_date: '2025-01-01', end_date: '2025-03-31', category_id: 'cat_1', merchant: "Bob's Café & Co. (SF) 100%" } },
      { path: '/transactions', query: { limit: 500, status: 'posted', cursor: 'a+b/c=d', fin_view: 'cells', Z: 1, _: true, 'k y': 'é~*!' } },
      { path: '/x', query: { b: 0, a: false, 'ä': 'x' } },
    ];
    for (const r of requests) expect(requestKey(r)).toBe(reference(r));
  });

  it('shares one call among concurrent callers of the same request', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 10));
      return { net_income_cents: 123 };
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => cache.get('comp_1', req, fetch)));
    expect(calls).toBe(1);
    expect(new Set(answers.map((a) => a.value)).size).toBe(1);
    await cache.get('comp_1', req, fetch);
    expect(calls).toBe(1);
  });

  it('keeps answers across runtimes through the persistent store', async () => {
    const store = new MemoryCacheStore();
    let calls = 0;
    const fetch = async () => ++calls;
    await new RequestCache(store).get('comp_1', req, fetch);
    const reopened = new RequestCache(store);
    expect((await reopened.peek('comp_1', req))?.value).toBe(1);
    expect((await reopened.get('comp_1', req, fetch)).value).toBe(1);
    expect(calls).toBe(1);
  });

  it('does not cache a failure, and every waiter sees the same rejection', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('boom');
    };
    const results = await Promise.allSettled([cache.get('comp_1', req, failing), cache.get('comp_1', req, failing)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
    await expect(cache.get('comp_1', req, async () => 'ok')).resolves.toMatchObject({ value: 'ok' });
  });

  it('forgets one company on clear and calls again', async () => {
    const store = new MemoryCacheStore();
    const cache = new RequestCache(store);
    let calls = 0;
    const fetch = async () => ++calls;
    await cache.get('comp_1', req, fetch);
    await cache.get('comp_2', req, fetch);
    expect(await cache.clear('comp_1')).toBe(1);
    expect((await cache.get('comp_1', req, fetch)).value).toBe(3);
    expect((await cache.get('comp_2', req, fetch)).value).toBe(2);
  });

  it('does not keep an answer that arrives after a clear', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    let release!: () => void;
    const slow = cache.get('comp_1', req, () => new Promise<string>((r) => (release = () => r('old'))));
    await new Promise((r) => setTimeout(r, 0));
    await cache.clear('comp_1');
    release();
    await expect(slow).resolves.toMatchObject({ value: 'old' });
    expect(await cache.peek('comp_1', req)).toBeUndefined();
  });

  it('refresh fetches again and keeps the new answer for every later reader', async () => {
    const store = new MemoryCacheStore();
    const cache = new RequestCache(store);
    let calls = 0;
    const fetch = async () => ++calls;
    await cache.get('comp_1', req, fetch);
    expect((await cache.refresh('comp_1', req, fetch)).value).toBe(2);
    expect((await cache.get('comp_1', req, fetch)).value).toBe(2);
    expect((await new RequestCache(store).peek('comp_1', req))?.value).toBe(2);
    expect(calls).toBe(2);
  });
});

describe('RequestCache staleness (what a refresh asks for)', () => {
  const other = { path: '/reports/balance_sheet', query: { as_of_date: '2025-01-31' } };
  const transient = new Error('outage');
  const keepTransient = { keepOnFailure: (e: unknown) => e === transient };

  it('after markAllStale each request is fetched once more, then served from the cache again', async () => {
    const cache = new RequestCache(new MemoryCacheStore(), () => 1_000); // a clock that does not move
    let calls = 0;
    const fetch = async () => ++calls;
    await cache.get('comp_1', req, fetch);
    await cache.get('comp_1', other, fetch);
    expect(await cache.markAllStale('comp_1')).toBe(2);
    expect(await cache.isStale('comp_1', req)).toBe(true);
    expect((await cache.get('comp_1', req, fetch)).value).toBe(3);
    expect((await cache.get('comp_1', req, fetch)).value).toBe(3);
    expect(await cache.isStale('comp_1', req)).toBe(false);
    expect(await cache.isStale('comp_1', other)).toBe(true);
    // A second Refresh all on the same unmoving clock still marks the answer just fetched.
    await cache.markAllStale('comp_1');
    expect((await cache.get('comp_1', req, fetch)).value).toBe(4);
    expect(calls).toBe(4);
  });

  it('keeps serving the old figures, marked stale, when the refetch fails for a passing reason', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    await cache.get('comp_1', req, async () => 'figures');
    await cache.markAllStale('comp_1');
    const failing = async (): Promise<string> => {
      throw transient;
    };
    const kept = await cache.get('comp_1', req, failing, keepTransient);
    expect(kept).toMatchObject({ value: 'figures', stale: { error: transient } });
    // Still due: the next read tries again, and a success ends the staleness.
    expect(await cache.isStale('comp_1', req)).toBe(true);
    await expect(cache.get('comp_1', req, async () => 'new', keepTransient)).resolves.toEqual({ value: 'new', fetchedAt: expect.any(Number) });
    // A refusal about the request itself is not kept over.
    await cache.markAllStale('comp_1');
    await expect(
      cache.get('comp_1', req, async () => {
        throw new Error('bad request');
      }, keepTransient),
    ).rejects.toThrow('bad request');
    // A failure with nothing cached before is a failure.
    await expect(cache.get('comp_1', other, failing, keepTransient)).rejects.toBe(transient);
  });

  it('refresh (Refresh this block) also keeps the old answer when it fails for a passing reason', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    await cache.get('comp_1', req, async () => 'figures');
    const answer = await cache.refresh('comp_1', req, async () => Promise.reject(transient), keepTransient);
    expect(answer).toMatchObject({ value: 'figures', stale: { error: transient } });
  });

  it('markStale marks only the requests a change touches, and the marks survive a reopen', async () => {
    const store = new MemoryCacheStore();
    const cache = new RequestCache(store);
    let calls = 0;
    const fetch = async () => ++calls;
    await cache.get('comp_1', req, fetch);
    await cache.get('comp_1', other, fetch);
    await cache.get('comp_2', other, fetch);
    const marked = await cache.markStale('comp_1', (r) => r.path === '/reports/balance_sheet' && r.query?.as_of_date === '2025-01-31');
    expect(marked).toEqual([canonicalKey('comp_1', other)]);
    const reopened = new RequestCache(store);
    expect(await reopened.isStale('comp_1', other)).toBe(true);
    expect(await reopened.isStale('comp_1', req)).toBe(false);
    expect(await reopened.isStale('comp_2', other)).toBe(false);
    expect((await reopened.get('comp_1', other, fetch)).value).toBe(4);
    expect(await new RequestCache(store).isStale('comp_1', other)).toBe(false);
  });

  it('clear forgets the staleness with the answers', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    await cache.get('comp_1', req, async () => 1);
    await cache.markAllStale('comp_1');
    await cache.clear('comp_1');
    await cache.get('comp_1', req, async () => 2);
    expect(await cache.isStale('comp_1', req)).toBe(false);
  });
});

describe('RequestCache within its storage budget', () => {
  const month = (m: number) => ({ path: '/reports/income_statement', query: { start_date: `2025-${String(m).padStart(2, '0')}-01` } });
  /** An answer of about `chars` characters once stored. */
  const answer = (chars: number, tag = 'x') => async () => ({ tag, filler: 'f'.repeat(chars) });
  const storedChars = (store: MemoryCacheStore) => [...store.data].filter(([k]) => k.startsWith('fin-cache:')).reduce((n, [k, v]) => n + k.length + v.length, 0);
  const storedMonths = (store: MemoryCacheStore) =>
    [...store.data.keys()]
      .filter((k) => k.startsWith('fin-cache:'))
      .map((k) => Number(/start_date=2025-(\d\d)/.exec(k)?.[1]))
      .sort((a, b) => a - b);

  it('never keeps more than the budget in the store, and the newest answers stay', async () => {
    const store = new MemoryCacheStore();
    let t = 1_000;
    const cache = new RequestCache(store, () => ++t, { budgetChars: 10_000 });
    for (let m = 1; m <= 12; m++) await cache.get('comp_1', month(m), answer(2_000));
    expect(storedChars(store)).toBeLessThanOrEqual(10_000);
    expect(storedMonths(store)).toEqual([9, 10, 11, 12]);
    // What was evicted is gone from memory too: the cache is one cache.
    expect(await cache.peek('comp_1', month(1))).toBeUndefined();
    expect(await cache.peek('comp_1', month(12))).toBeDefined();
  });

  it('evicts the answers used least recently: what cells read now stays', async () => {
    const store = new MemoryCacheStore();
    let t = 1_000;
    const cache = new RequestCache(store, () => ++t, { budgetChars: 10_000 });
    for (let m = 1; m <= 4; m++) await cache.get('comp_1', month(m), answer(2_000));
    // A cell reads January (memory), a preview peeks at February: both are recent now.
    await cache.get('comp_1', month(1), answer(2_000, 'never fetched'));
    await cache.peek('comp_1', month(2));
    await cache.get('comp_1', month(5), answer(2_000));
    await cache.get('comp_1', month(6), answer(2_000));
    expect(storedMonths(store)).toEqual([1, 2, 5, 6]);
  });

  it('after a reopen, the answers fetched longest ago go first until cells use them again', async () => {
    const store = new MemoryCacheStore();
    let t = 1_000;
    const first = new RequestCache(store, () => ++t, { budgetChars: 10_000 });
    for (let m = 1; m <= 4; m++) await first.get('comp_1', month(m), answer(2_000));
    const reopened = new RequestCache(store, () => ++t, { budgetChars: 10_000 });
    await reopened.get('comp_1', month(1), answer(2_000, 'never fetched')); // read from the store: used now
    await reopened.get('comp_1', month(7), answer(2_000));
    await reopened.get('comp_1', month(8), answer(2_000));
    expect(storedMonths(store)).toEqual([1, 4, 7, 8]);
  });

  it('keeps an answer larger than the whole budget in memory only', async () => {
    const store = new MemoryCacheStore();
    const cache = new RequestCache(store, Date.now, { budgetChars: 1_000 });
    await cache.get('comp_1', month(1), answer(200));
    await cache.get('comp_1', month(2), answer(5_000));
    expect(storedMonths(store)).toEqual([1]);
    expect((await cache.peek<{ filler: string }>('comp_1', month(2)))?.value.filler).toHaveLength(5_000);
  });

  it('a store that refuses a write when full: older answers make room and the write is tried again', async () => {
    // Room for about three answers, whatever the budget says.
    const store = new (class extends MemoryCacheStore {
      override async set(key: string, value: string) {
        const used = [...this.data].filter(([k]) => k !== key).reduce((n, [k, v]) => n + k.length + v.length, 0);
        if (used + key.length + value.length > 7_000) throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
        await super.set(key, value);
      }
    })();
    let t = 1_000;
    const cache = new RequestCache(store, () => ++t, { budgetChars: 100_000 });
    for (let m = 1; m <= 6; m++) await cache.get('comp_1', month(m), answer(2_000));
    expect(storedMonths(store)).toContain(6);
    expect(storedChars(store)).toBeLessThanOrEqual(7_000);
    // makeRoom, for the key and the meter: the least recently used answer.
    const before = storedMonths(store);
    expect(await cache.makeRoom()).toBe(1);
    expect(storedMonths(store)).toEqual(before.slice(1));
    while ((await cache.makeRoom()) > 0);
    expect(storedMonths(store)).toEqual([]);
  });
});
