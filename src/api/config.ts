import type { LearnedNamesStore } from './parameterNames';
import type { MeterStore, CallMeter } from './meter';
import type { RequestLimiter, Sleep } from './limiter';

// Validation of what the add-in hands the client. The key must only ever travel as a Bearer header to
// the configured base URL, so the base URL is checked (https, or http on loopback for the sandbox) and
// the key is checked to be a header-safe `svc_` credential; messages here never quote the key.
//
// A base URL may also be a path on the page's own address (`/api/v1`): an API that sends no CORS headers
// for the add-in's origin is reached through a relay on that origin (docs/deploying-for-a-team.md). The
// path is resolved against the page's origin once, here, and the same checks apply to the result.

export interface ClientConfig {
  /**
   * Ends in `/api/v1` (a trailing slash is tolerated). https, or http on 127.0.0.0/8, ::1, localhost; or a
   * path such as `/api/v1`, resolved against `pageOrigin`.
   */
  baseUrl: string;
  /** The origin a path as base URL is resolved against; default the page's own (none outside a browser). */
  pageOrigin?: string;
  /** Starts with `svc_`; sent only as `Authorization: Bearer`. */
  apiKey: string;

  /** The company the key belongs to, when the add-in already knows it (else learned from GET /company). */
  companyId?: string;
  /** Persistence of the call meter; defaults to memory. Ignored when `meter` is given. */
  meterStore?: MeterStore;
  /** A meter shared with other clients (one meter per runtime). */
  meter?: CallMeter;
  /** Where the names learned of this API's unshown parameters are kept (parameterNames.ts); memory by default. */
  learnedNames?: LearnedNamesStore;

  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** Backoff base (default 500 ms) and cap (default 8000 ms). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** A Retry-After longer than this is not waited out; the 429 is surfaced (default 60 s). */
  maxRetryAfterMs?: number;
  /** Per-attempt timeout (default 60 s). A timeout is a connection_error. */
  timeoutMs?: number;

  /** Concurrent requests in flight (default 8). Ignored when `limiter` is given. */
  maxConcurrent?: number;
  /** Requests started per rolling window (default 100 per 1000 ms: the API's 100/s per key). */
  maxPerWindow?: number;
  windowMs?: number;
  /** A limiter shared by every client using the same key. */
  limiter?: RequestLimiter;

  /** Injectable for tests: waiting and jitter. */
  sleep?: Sleep;
  random?: () => number;
  /** Wall clock in ms (default Date.now); decides the meter's Pacific month. */
  now?: () => number;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Receives one line per attempt: method, path, status, attempt, duration. Never headers, query or body. */
  debug?: (line: string) => void;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly field: 'baseUrl' | 'apiKey' | 'options',
  ) {
    super(message);
  }
}

export interface ResolvedConfig {
  baseUrl: string;
  maxRetries: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  maxRetryAfterMs: number;
  timeoutMs: number;
  maxConcurrent: number;
  maxPerWindow: number;
  windowMs: number;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  fetch: typeof fetch;
  debug?: (line: string) => void;
}

export const API_VERSION_PATH = '/api/v1';

/** 127.0.0.0/8, ::1 and localhost: where plain http cannot leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost') return true;
  if (host === '[::1]' || host === '::1') return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return !!m && Number(m[1]) === 127 && [m[2], m[3], m[4]].every((o) => Number(o) <= 255);
}

/** The origin of the page this code runs in (the add-in's page, the workbench), or null outside a browser. */
export function currentPageOrigin(): string | null {
  const location = (globalThis as { location?: { protocol?: unknown; origin?: unknown } }).location;
  if (!location || (location.protocol !== 'https:' && location.protocol !== 'http:')) return null;
  return typeof location.origin === 'string' ? location.origin : null;
}

/**
 * Returns the base URL, absolute and without a trailing slash, or throws ConfigError. A path (`/api/v1`)
 * is resolved against `pageOrigin` and must stay on it.
 */
export function validateBaseUrl(raw: unknown, pageOrigin: string | null = currentPageOrigin()): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ConfigError('baseUrl is required.', 'baseUrl');
  let url: URL;
  if (raw.startsWith('/')) {
    if (!pageOrigin) {
      throw new ConfigError('baseUrl is a path (such as /api/v1), and there is no page address to read it on: give the full URL.', 'baseUrl');
    }
    try {
      url = new URL(raw, pageOrigin);
    } catch {
      throw new ConfigError('baseUrl is not a valid path.', 'baseUrl');
    }
    // "//host/..." and "/\host/..." parse as another host: a path must keep the key on the page's own origin.
    if (url.origin !== new URL(pageOrigin).origin) {
      throw new ConfigError('baseUrl must be a path on this page\'s own address (such as /api/v1) or a full URL.', 'baseUrl');
    }
  } else {
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError('baseUrl is neither a full URL (https://…/api/v1) nor a path on this page\'s address (/api/v1).', 'baseUrl');
    }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError('baseUrl must use https.', 'baseUrl');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError('baseUrl must use https (plain http is allowed only on loopback: 127.0.0.0/8, ::1, localhost).', 'baseUrl');
  }
  // Credentials in the URL would be sent alongside the key; a query or fragment would be glued onto
  // every path.
  if (url.username || url.password) throw new ConfigError('baseUrl must not contain credentials.', 'baseUrl');
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    throw new ConfigError('baseUrl must not contain a query string or fragment.', 'baseUrl');
  }
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  if (!path.endsWith(API_VERSION_PATH)) {
    throw new ConfigError(`baseUrl must end in ${API_VERSION_PATH}.`, 'baseUrl');
  }
  return `${url.origin}${path}`;
}

/**
 * The key must start with `svc_` (kept as is: never stripped or altered) and be usable as a header
 * value. Printable ASCII without spaces; a key with a newline would otherwise make fetch throw an
 * error that quotes the header value.
 */
export function validateApiKey(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw new ConfigError('apiKey is required.', 'apiKey');
  if (!raw.startsWith('svc_') || raw.length <= 4) {
    throw new ConfigError('apiKey must be a secret key starting with svc_.', 'apiKey');
  }
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('apiKey contains whitespace or characters that cannot be sent in a header.', 'apiKey');
  }
  return raw;
}

function positiveInt(value: number | undefined, fallback: number, name: string, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}.`, 'options');
  }
  return value;
}

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export function resolveConfig(config: ClientConfig): { resolved: ResolvedConfig; apiKey: string } {
  if (!config || typeof config !== 'object') throw new ConfigError('config is required.', 'options');
  const baseUrl = validateBaseUrl(config.baseUrl, config.pageOrigin ?? currentPageOrigin());
  const apiKey = validateApiKey(config.apiKey);
  const fetchImpl = config.fetch ?? (globalThis.fetch ? globalThis.fetch.bind(globalThis) : undefined);
  if (!fetchImpl) throw new ConfigError('No fetch implementation is available.', 'options');
  const resolved: ResolvedConfig = {
    baseUrl,
    maxRetries: positiveInt(config.maxRetries, 4, 'maxRetries', 0),
    backoffBaseMs: positiveInt(config.backoffBaseMs, 500, 'backoffBaseMs', 0),
    backoffCapMs: positiveInt(config.backoffCapMs, 8000, 'backoffCapMs', 0),
    maxRetryAfterMs: positiveInt(config.maxRetryAfterMs, 60_000, 'maxRetryAfterMs', 0),
    timeoutMs: positiveInt(config.timeoutMs, 60_000, 'timeoutMs'),
    maxConcurrent: positiveInt(config.maxConcurrent, 8, 'maxConcurrent'),
    maxPerWindow: positiveInt(config.maxPerWindow, 100, 'maxPerWindow'),
    windowMs: positiveInt(config.windowMs, 1000, 'windowMs'),
    sleep: config.sleep ?? realSleep,
    random: config.random ?? Math.random,
    now: config.now ?? Date.now,
    fetch: fetchImpl,
    debug: config.debug,
  };
  return { resolved, apiKey };
}
