import { RequestChain, RequestLimiter } from '../../src/api';
import { startFakeApi, testClient, type FakeApi } from './helpers/fakeApi';

/** Largest number of timestamps inside any half-open window [t, t + windowMs). */
function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

describe('RequestLimiter', () => {
  // Issue 14, item 5: the next page of a paging chain waited behind every call queued beside it.
  it('a call queued ahead goes before the calls queued normally, in order among those ahead', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 1 });
    const order: string[] = [];
    const hold = await limiter.acquire();
    const queued = [
      limiter.acquire().then((release) => (order.push('a'), release())),
      limiter.acquire().then((release) => (order.push('b'), release())),
      limiter.acquire(undefined, { ahead: true }).then((release) => (order.push('page 2'), release())),
      limiter.acquire(undefined, { ahead: true }).then((release) => (order.push('page 3'), release())),
      limiter.acquire().then((release) => (order.push('c'), release())),
    ];
    hold();
    await Promise.all(queued);
    expect(order).toEqual(['page 2', 'page 3', 'a', 'b', 'c']);
  });

  it('an open chain keeps a slot between its pages: the calls beside it use the others, and get it back when the chain closes', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 3 });
    const chain = new RequestChain();
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const take = (name: string, options?: { chain?: RequestChain }) =>
      limiter.acquire(undefined, options).then((release) => {
        started.push(name);
        releases.set(name, release);
      });
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await take('page 1', { chain });
    void ['a', 'b', 'c', 'd'].map((name) => take(name));
    await settle();
    // Page 1 in flight: the other two slots go to the calls beside it.
    expect(started).toEqual(['page 1', 'a', 'b']);
    releases.get('page 1')!();
    await settle();
    // Page 1 answered, page 2 not asked for yet: its slot stays free.
    expect(started).toEqual(['page 1', 'a', 'b']);
    await take('page 2', { chain });
    expect(started).toEqual(['page 1', 'a', 'b', 'page 2']);
    releases.get('page 2')!();
    await settle();
    expect(started).toEqual(['page 1', 'a', 'b', 'page 2']);
    // The chain ends: its slot goes back to the calls queued beside it.
    chain.close();
    await settle();
    expect(started).toEqual(['page 1', 'a', 'b', 'page 2', 'c']);
    releases.get('a')!();
    await settle();
    expect(started).toEqual(['page 1', 'a', 'b', 'page 2', 'c', 'd']);
  });

  it('a chain kept before its first request finds its slot even when the calls started beside it came first', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 3 });
    const chain = new RequestChain();
    limiter.keepSlot(chain);
    const started: string[] = [];
    const take = (name: string, options?: { chain?: RequestChain }) => limiter.acquire(undefined, options).then(() => started.push(name));
    void ['a', 'b', 'c'].map((name) => take(name));
    await new Promise((r) => setTimeout(r, 0));
    // A pull's pages are the longest run of calls: its first page does not wait for a/b to answer.
    expect(started).toEqual(['a', 'b']);
    await take('page 1', { chain });
    expect(started).toEqual(['a', 'b', 'page 1']);
    chain.close();
  });

  it('a chain never keeps every slot: the calls beside it still move', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 2 });
    const chains = [new RequestChain(), new RequestChain()];
    for (const chain of chains) (await limiter.acquire(undefined, { chain }))();
    const release = await limiter.acquire();
    release();
    chains.forEach((c) => c.close());
  });

  it('keeps at most 100 starts in any rolling second and at most 8 in flight', async () => {
    // Fake timers: the recorded time is exactly the grant time, whatever the machine's load.
    jest.useFakeTimers();
    try {
      const grants: number[] = [];
      const limiter = new RequestLimiter({ maxConcurrent: 8, maxPerWindow: 100, windowMs: 1000, clock: () => Date.now() });
      let active = 0;
      let maxActive = 0;
      const started = Date.now();
      const all = Promise.all(
        Array.from({ length: 250 }, () =>
          limiter.run(async () => {
            grants.push(Date.now());
            active++;
            maxActive = Math.max(maxActive, active);
            await new Promise((r) => setTimeout(r, 2));
            active--;
          }),
        ),
      );
      await jest.advanceTimersByTimeAsync(5000);
      await all;
      expect(grants).toHaveLength(250);
      expect(maxActive).toBe(8);
      expect(maxInAnyWindow(grants, 1000)).toBe(100);
      // 250 starts at 100 per second: the 201st cannot start before two full windows have passed.
      expect(grants[200] - started).toBeGreaterThanOrEqual(2000);
      expect(limiter.active).toBe(0);
      expect(limiter.queued).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('releases a slot once even if release is called twice, and drops aborted waiters', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 1 });
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(limiter.queued).toBe(0);
    release();
    release();
    expect(limiter.active).toBe(0);
    const r1 = await limiter.acquire();
    expect(limiter.active).toBe(1);
    r1();
  });

  it('holds queued requests during a pause', async () => {
    let open!: () => void;
    const limiter = new RequestLimiter({ maxConcurrent: 4, sleep: () => new Promise<void>((r) => (open = r)) });
    limiter.pause(1000);
    let granted = false;
    const p = limiter.acquire().then((release) => {
      granted = true;
      release();
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBe(false);
    open();
    await p;
    expect(granted).toBe(true);
  });
});

describe('the client honours its limiter', () => {
  let api: FakeApi;
  beforeEach(async () => {
    api = await startFakeApi(() => ({ delayMs: 30, status: 200, body: { object: 'list', url: '/api/v1/categories', data: [] } }));
  });
  afterEach(async () => {
    await api.close();
  });

  it('never has more requests in flight at the server than maxConcurrent', async () => {
    const { client } = testClient(api, { maxConcurrent: 4 });
    await Promise.all(Array.from({ length: 40 }, () => client.categories.list()));
    expect(api.requests).toHaveLength(40);
    expect(api.maxInFlight).toBeLessThanOrEqual(4);
    expect(api.maxInFlight).toBeGreaterThan(1);
  });

  it('spreads starts over the window', async () => {
    const { client } = testClient(api, { maxConcurrent: 50, maxPerWindow: 10, windowMs: 200 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 30 }, () => client.categories.list()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(395);
    // Arrivals trail starts by an unknown delay (a loaded machine can stall for many ms), so only bounds
    // that hold whatever the delay are checked: request 11 cannot start, hence arrive, before one window.
    const arrivals = api.requests.map((r) => r.at - started);
    expect(arrivals.filter((t) => t < 200).length).toBeLessThanOrEqual(10);
    expect(arrivals.filter((t) => t < 400).length).toBeLessThanOrEqual(20);
  });

  it('defaults to 8 in flight', async () => {
    const { client } = testClient(api);
    await Promise.all(Array.from({ length: 30 }, () => client.categories.list()));
    expect(api.maxInFlight).toBeLessThanOrEqual(8);
    expect(api.maxInFlight).toBeGreaterThan(4);
    expect(client.limiter.maxPerWindow).toBe(100);
    expect(client.limiter.windowMs).toBe(1000);
  });
});
