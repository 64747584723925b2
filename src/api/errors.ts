import { nextMonthlyReset, resetDateFromMessage, type MonthlyReset } from './calendar';
import type { Open } from './types';

// Every failure a caller sees is an ApiError (or its MonthlyLimitError subclass): HTTP errors, network
// failures (type 'connection_error') and local argument problems caught before sending. Callers branch on
// `type` and `code`, never on `message`.
//
// Secrecy: an error holds only strings and numbers copied out of the exchange. It never keeps the
// Headers, RequestInit, Request or Response objects, nor the config, nor the raw error a fetch
// implementation threw (whose properties can reach sockets and headers). Every string that came from
// outside passes through redact() with the key before it is stored.

export type ErrorType = Open<
  | 'authentication_error'
  | 'permission_error'
  | 'invalid_request_error'
  | 'rate_limit_error'
  | 'limit_error'
  | 'api_error'
  | 'connection_error'
>;

/** The request an error belongs to: enough to find it in logs, never a header. */
export interface FailedRequest {
  method: string;
  /** Path relative to the base URL, e.g. `/transactions/txn_1`. */
  path: string;
  /** The encoded query string without `?`; '' when none. */
  query: string;
}

export interface ApiErrorInit {
  message: string;
  /** HTTP status; null when no response arrived (network failure, local validation). */
  status: number | null;
  type: ErrorType;
  code: string | null;
  param?: string | null;
  docUrl?: string | null;
  request: FailedRequest;
  /** Milliseconds the server asked to wait (Retry-After), when it said. */
  retryAfterMs?: number | null;
  /** How many attempts were sent before giving up (0 for local validation). */
  attempts?: number;
  cause?: Error;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number | null;
  readonly type: ErrorType;
  readonly code: string | null;
  readonly param: string | null;
  readonly docUrl: string | null;
  readonly request: FailedRequest;
  readonly retryAfterMs: number | null;
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause ? { cause: init.cause } : undefined);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param ?? null;
    this.docUrl = init.docUrl ?? null;
    this.request = { ...init.request };
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.attempts = init.attempts ?? 0;
  }

  /** True for failures where no HTTP response was received. */
  get isConnectionError(): boolean {
    return this.type === 'connection_error';
  }

  /** JSON.stringify drops Error's own message and name otherwise; the stack is left out on purpose. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: this.name,
      message: this.message,
      status: this.status,
      type: this.type,
      code: this.code,
      param: this.param,
      request: this.request,
      attempts: this.attempts,
    };
    if (this.retryAfterMs !== null) out.retryAfterMs = this.retryAfterMs;
    return out;
  }
}

/**
 * 429 monthly_limit_exceeded: the company's monthly cap is spent. Never retried; nothing succeeds
 * until the reset, so the add-in stops calling and shows `resetDate`.
 */
export class MonthlyLimitError extends ApiError {
  override name = 'MonthlyLimitError';
  /** The date the server wrote in its message (`YYYY-MM-DD`), or null when the wording had none. */
  readonly statedResetDate: string | null;
  /** Our own computation: midnight America/Los_Angeles on the 1st of next month. */
  readonly computedReset: MonthlyReset;
  /** What to show: the server's date when it gave one (it knows its clock), else ours. */
  readonly resetDate: string;

  constructor(init: ApiErrorInit, nowMs: number) {
    super(init);
    this.statedResetDate = resetDateFromMessage(init.message);
    this.computedReset = nextMonthlyReset(nowMs);
    this.resetDate = this.statedResetDate ?? this.computedReset.date;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      resetDate: this.resetDate,
      statedResetDate: this.statedResetDate,
      computedReset: this.computedReset,
    };
  }
}

/** The shortest form of the key worth looking for: shorter runs would redact ordinary text. */
const MIN_FORM = 8;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Base64 of the key wherever it sits in what was encoded ("user:key" in a Basic header): the groups of four
 * that hold only the key's bytes, for each of the three offsets the key can start at; standard and URL-safe.
 */
function base64Forms(secret: string): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    let encoded: string;
    try {
      encoded = btoa('\0'.repeat(offset) + secret);
    } catch {
      return []; // not Latin-1: no key the API issues
    }
    const whole = Math.floor((offset + secret.length) / 3) * 4;
    const stable = encoded.slice(offset === 0 ? 0 : 4, whole);
    out.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * Replaces every occurrence of the secret, and of the forms of it a server or a proxy may echo that the
 * client can compute cheaply: any case, reversed, percent-encoded, base64 (standard or URL-safe, anywhere in
 * an encoded string). Used on every outside string an error may keep.
 */
export function redact(text: string, secret: string): string {
  if (!secret || !text) return text;
  const plain = [secret, [...secret].reverse().join(''), encodeURIComponent(secret)].filter((f) => f.length >= MIN_FORM || f === secret);
  const encoded = base64Forms(secret).filter((f) => f.length >= MIN_FORM);
  let out = text;
  for (const form of new Set(plain)) out = out.replace(new RegExp(escapeRegExp(form), 'gi'), '[redacted]');
  for (const form of new Set(encoded)) out = out.split(form).join('[redacted]');
  return out;
}

/**
 * A detached copy of a thrown value for `cause`: name, message and code only (redacted), down a short
 * chain. The original is dropped because undici's errors carry sockets and some fetch errors quote
 * header values.
 */
export function sanitizeCause(value: unknown, secret: string, depth = 0): Error | undefined {
  if (value === undefined || value === null || depth > 3) return undefined;
  const isError = value instanceof Error;
  const name = redact(isError ? value.name : 'Error', secret);
  let message: string;
  try {
    message = redact(isError ? value.message : String(value), secret);
  } catch {
    message = 'unprintable error';
  }
  const inner = isError ? sanitizeCause((value as { cause?: unknown }).cause, secret, depth + 1) : undefined;
  const copy = new Error(message, inner ? { cause: inner } : undefined);
  copy.name = name;
  copy.stack = `${name}: ${message}`;
  const code = isError ? (value as { code?: unknown }).code : undefined;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = redact(code, secret);
  return copy;
}

/** Walks a cause chain for the first string `code` (undici puts ECONNREFUSED etc. one level down). */
export function causeCode(value: unknown): string | undefined {
  let current: unknown = value;
  for (let i = 0; i < 5 && current; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A problem with arguments found before anything is sent (nothing sent, nothing counted). */
export function localError(message: string, param: string, request: FailedRequest): ApiError {
  return new ApiError({ message, status: null, type: 'invalid_request_error', code: 'invalid_request', param, request });
}
