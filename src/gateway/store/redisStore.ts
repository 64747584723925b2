import crypto from 'node:crypto';
import Redis from 'ioredis';
import type { Area } from '../areas';
import type { Fingerprint } from '../keys';
import { answerBytes, COMPANY_KEEP_SECONDS, MONTH_KEEP_SECONDS, type CachedAnswer, type GatewayStore, type StoreOptions, type Tally } from './port';

// The team's state on Redis, shared by every gateway instance configured with the same URL (and secret).
// Counts are INCRBY (atomic on the server); the cache's bounds are kept by one Lua script per write, so
// concurrent writers cannot overshoot them. Commands fail at once while Redis is unreachable (no offline
// queue): the gateway must not wait on it to relay.
//
// Keys (under the prefix, "gw:" by default):
//   k:<fingerprint>           company of a key                    (string, 90 days)
//   n:<company>:<month>       calls of a month                    (integer, 40 days)
//   u:<company>:<month>       the month's count may be low        (flag, 40 days)
//   p:<fingerprint>           area -> epoch ms of the last proof  (hash, the access window)
//   c:<company>:<sha256(url)> a kept answer                       (JSON, the cache's time to live)
//   ci / cs / cb              the cache's index by age / sizes / total bytes

const ADD_CALLS = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {n, redis.call('EXISTS', KEYS[2])}
`;

// KEYS: entry, index, sizes, bytes. ARGV: value, ttl ms, stored at, size, max entries, max bytes.
const CACHE_PUT = `
local old = redis.call('HGET', KEYS[3], KEYS[1])
if old then redis.call('DECRBY', KEYS[4], old) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], ARGV[4])
local bytes = redis.call('INCRBY', KEYS[4], ARGV[4])
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[5]) or bytes > tonumber(ARGV[6]) do
  local victim = redis.call('ZPOPMIN', KEYS[2])
  if #victim == 0 then break end
  redis.call('DEL', victim[1])
  local size = redis.call('HGET', KEYS[3], victim[1])
  if size then
    bytes = redis.call('DECRBY', KEYS[4], size)
    redis.call('HDEL', KEYS[3], victim[1])
  end
end
return bytes
`;

export interface RedisStoreOptions extends StoreOptions {
  url: string;
  /** Key prefix, so that tests (or two deployments) can share one Redis. */
  prefix?: string;
  /** How long a command may wait before the store counts as unreachable. */
  commandTimeoutMs?: number;
}

type Scripted = Redis & {
  finAddCalls(count: string, flag: string, n: number, keepSeconds: number): Promise<[number, number]>;
  finCachePut(entry: string, index: string, sizes: string, bytes: string, value: string, ttlMs: number, at: number, size: number, maxEntries: number, maxBytes: number): Promise<number>;
};

export class RedisStore implements GatewayStore {
  readonly kind = 'redis' as const;
  private readonly redis: Scripted;
  private readonly prefix: string;

  private constructor(private readonly options: RedisStoreOptions) {
    this.prefix = options.prefix ?? 'gw:';
    const redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      // Keep trying to come back, at most every 2 s; commands meanwhile fail at once.
      retryStrategy: (times) => Math.min(100 * times, 2_000),
    });
    // Errors are the gateway's to report (per request, without detail of keys); without a listener
    // ioredis would print each reconnection failure itself.
    redis.on('error', () => undefined);
    redis.defineCommand('finAddCalls', { numberOfKeys: 2, lua: ADD_CALLS });
    redis.defineCommand('finCachePut', { numberOfKeys: 4, lua: CACHE_PUT });
    this.redis = redis as Scripted;
  }

  /** Connects (and fails if Redis cannot be reached at start: a misconfigured URL should stop the gateway). */
  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    const store = new RedisStore(options);
    try {
      await store.redis.connect();
    } catch (error) {
      store.redis.disconnect();
      const where = new URL(options.url);
      throw new Error(`Redis at ${where.hostname}:${where.port || 6379} (GATEWAY_REDIS_URL) could not be reached: ${(error as Error).message}`);
    }
    return store;
  }

  private k(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async companyOf(fp: Fingerprint): Promise<string | null> {
    return this.redis.get(this.k('k', fp));
  }

  async rememberCompany(fp: Fingerprint, companyId: string): Promise<void> {
    await this.redis.set(this.k('k', fp), companyId, 'EX', COMPANY_KEEP_SECONDS);
  }

  async forgetKey(fp: Fingerprint): Promise<void> {
    await this.redis.del(this.k('k', fp), this.k('p', fp));
  }

  async addCalls(companyId: string, month: string, n: number): Promise<Tally> {
    const [calls, flag] = await this.redis.finAddCalls(this.k('n', companyId, month), this.k('u', companyId, month), n, MONTH_KEEP_SECONDS);
    return { calls: Number(calls), uncertain: Number(flag) === 1 };
  }

  async markUncertain(companyId: string, month: string): Promise<void> {
    await this.redis.set(this.k('u', companyId, month), '1', 'EX', MONTH_KEEP_SECONDS);
  }

  async prove(fp: Fingerprint, area: Area, atMs: number, windowSeconds: number): Promise<void> {
    const key = this.k('p', fp);
    await this.redis.multi().hset(key, area, String(atMs)).expire(key, Math.max(1, windowSeconds)).exec();
  }

  async proofOf(fp: Fingerprint, area: Area): Promise<number | null> {
    const at = await this.redis.hget(this.k('p', fp), area);
    return at === null ? null : Number(at);
  }

  async dropProofs(fp: Fingerprint): Promise<void> {
    await this.redis.del(this.k('p', fp));
  }

  async dropAllProofs(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}p:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  private entryKey(companyId: string, url: string): string {
    return this.k('c', companyId, crypto.createHash('sha256').update(url).digest('hex'));
  }

  async cacheGet(companyId: string, url: string, nowMs: number): Promise<CachedAnswer | null> {
    const text = await this.redis.get(this.entryKey(companyId, url));
    if (text === null) return null;
    const answer = JSON.parse(text) as CachedAnswer & { url: string };
    // The key is a digest: the URL kept inside tells a (never yet seen) collision from a hit.
    if (answer.url !== url) return null;
    if (nowMs - answer.storedAt >= this.options.bounds.ttlSeconds * 1000) return null;
    return { status: answer.status, headers: answer.headers, body: answer.body, storedAt: answer.storedAt };
  }

  async cachePut(companyId: string, url: string, answer: CachedAnswer): Promise<void> {
    const { maxEntries, maxBytes, maxEntryBytes, ttlSeconds } = this.options.bounds;
    const size = answerBytes(answer);
    const entry = this.entryKey(companyId, url);
    if (size > maxEntryBytes || maxEntries === 0 || ttlSeconds === 0) {
      await this.redis.del(entry);
      return;
    }
    await this.redis.finCachePut(entry, this.k('ci'), this.k('cs'), this.k('cb'), JSON.stringify({ ...answer, url }), ttlSeconds * 1000, answer.storedAt, size, maxEntries, maxBytes);
  }

  async cacheSize(): Promise<{ entries: number; bytes: number }> {
    const [entries, bytes] = await Promise.all([this.redis.zcard(this.k('ci')), this.redis.get(this.k('cb'))]);
    return { entries, bytes: Number(bytes ?? 0) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
