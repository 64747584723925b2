// The Redis store passes the same contract as the in-process one, on a redis-server of its own.
import { RedisStore } from '../../src/gateway/store/redisStore';
import { describeWithRedis, startRedis, type TestRedis } from './redisServer';
import { storeContract } from './storeContract';

describeWithRedis('Redis store', () => {
  let redis: TestRedis;
  let n = 0;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.close();
  });
  // A prefix per test: the same server, nothing shared between tests.
  storeContract((bounds) => RedisStore.open({ url: redis.url, bounds, prefix: `t${++n}:` }));

  test('an unreachable Redis fails at once (the gateway then relays without it)', async () => {
    const store = await RedisStore.open({ url: redis.url, bounds: { maxEntries: 5, maxBytes: 1e6, maxEntryBytes: 1e5, ttlSeconds: 60 }, prefix: 'down:' });
    try {
      await redis.stop();
      const t0 = Date.now();
      await expect(store.addCalls('comp_a', '2026-11', 1)).rejects.toThrow();
      expect(Date.now() - t0).toBeLessThan(2_000);
    } finally {
      await redis.start();
      await store.close();
    }
  });
});
