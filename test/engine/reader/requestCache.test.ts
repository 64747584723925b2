import { MemoryCacheStore, RequestCache, canonicalKey } from '../../../src/engine/reader/requestCache';

const req = { path: '/reports/income_statement', query: { start_date: '2025-01-01', end_date: '2025-01-31' } };

describe('RequestCache', () => {
  it('gives one canonical key whatever the parameter order, and drops empty parameters', () => {
    const a = canonicalKey('comp_1', { path: '/x', query: { b: 2, a: 1, c: undefined, d: '' } });
    const b = canonicalKey('comp_1', { path: '/x', query: { a: 1, b: 2 } });
    expect(a).toBe(b);
    expect(canonicalKey('comp_2', { path: '/x', query: { a: 1, b: 2 } })).not.toBe(a);
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
