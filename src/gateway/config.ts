import crypto from 'node:crypto';

// Everything the gateway reads from its environment, read once at start and checked, so a typo in a
// deployment stops it with a message instead of serving with a default nobody chose.

export interface CacheBounds {
  /** Entries kept (the oldest go first). */
  maxEntries: number;
  /** Bytes of answer bodies kept in all. */
  maxBytes: number;
  /** A larger answer is relayed but not kept. */
  maxEntryBytes: number;
  /** No entry is served or kept longer than this, whatever a request allows. */
  ttlSeconds: number;
}

export interface GatewayConfig {
  /** The API's base URL including /api/v1 (the sandbox's baseUrl, or the real API's). */
  upstream: URL;
  host: string;
  port: number;
  /** redis://... when several instances share the meter and the cache; absent: in-process state. */
  redisUrl?: string;
  /** How long a key's own successful call to a permission area lets it read that area from the team cache. */
  accessWindowSeconds: number;
  /** HMAC-SHA256 secret of key fingerprints; instances on one Redis must share it. */
  secret: Buffer;
  /** True when no GATEWAY_SECRET was given and one was made at start (fine for one instance only). */
  secretGenerated: boolean;
  cache: CacheBounds;
  /** How long a call to the API may take before it is abandoned (it still counts: it was sent). */
  upstreamTimeoutMs: number;
}

export const DEFAULT_ACCESS_WINDOW_SECONDS = 300;
export const DEFAULT_PORT = 4020;
export const DEFAULT_CACHE: CacheBounds = {
  maxEntries: 5_000,
  maxBytes: 256 * 1024 * 1024,
  maxEntryBytes: 8 * 1024 * 1024,
  // The add-in's closed-month answers ask for max-age=31536000: kept as long as that, unless evicted.
  ttlSeconds: 31_536_000,
};

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}".`);
  return n;
}

function upstreamUrl(raw: string | undefined): URL {
  if (!raw) throw new Error('GATEWAY_UPSTREAM is required: the API\'s base URL including /api/v1 (e.g. http://127.0.0.1:4010/api/v1).');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`GATEWAY_UPSTREAM is not a URL: "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('GATEWAY_UPSTREAM must be an http or https URL.');
  if (url.search || url.hash) throw new Error('GATEWAY_UPSTREAM takes no query or fragment.');
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const secretText = env.GATEWAY_SECRET;
  if (secretText !== undefined && secretText.length < 32) throw new Error('GATEWAY_SECRET must be at least 32 characters (e.g. openssl rand -hex 32).');
  return {
    upstream: upstreamUrl(env.GATEWAY_UPSTREAM),
    host: env.GATEWAY_HOST || '127.0.0.1',
    port: integer(env, 'GATEWAY_PORT', DEFAULT_PORT, 0, 65535),
    redisUrl: env.GATEWAY_REDIS_URL || undefined,
    accessWindowSeconds: integer(env, 'GATEWAY_ACCESS_WINDOW_SECONDS', DEFAULT_ACCESS_WINDOW_SECONDS, 0, 86_400),
    secret: secretText ? Buffer.from(secretText, 'utf8') : crypto.randomBytes(32),
    secretGenerated: !secretText,
    cache: {
      maxEntries: integer(env, 'GATEWAY_CACHE_MAX_ENTRIES', DEFAULT_CACHE.maxEntries, 0, 10_000_000),
      maxBytes: integer(env, 'GATEWAY_CACHE_MAX_BYTES', DEFAULT_CACHE.maxBytes, 0, 64 * 1024 ** 3),
      maxEntryBytes: integer(env, 'GATEWAY_CACHE_MAX_ENTRY_BYTES', DEFAULT_CACHE.maxEntryBytes, 0, 1024 ** 3),
      ttlSeconds: integer(env, 'GATEWAY_CACHE_TTL_SECONDS', DEFAULT_CACHE.ttlSeconds, 0, 10 * 31_536_000),
    },
    upstreamTimeoutMs: integer(env, 'GATEWAY_UPSTREAM_TIMEOUT_MS', 90_000, 1_000, 600_000),
  };
}
