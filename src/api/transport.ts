import { backoffDelay, parseRetryAfter } from './backoff';
import type { ResolvedConfig } from './config';
import { ApiError, MonthlyLimitError, causeCode, redact, sanitizeCause, type ApiErrorInit, type ErrorType, type FailedRequest } from './errors';
import type { RequestChain, RequestLimiter } from './limiter';
import type { ClientMeter } from './meter';
import { decideRetry, type AttemptFailure, type RetryTraits } from './retry';
import { encodeQuery, type QueryParams } from './url';

// The one request sender. Everything the API's limits demand happens here and only here: the Bearer
// header, JSON in and out, the limiter slot, counting every call on the meter, the retry policy and
// turning every failure into an ApiError that holds no secret.
//
// The key lives only in this module's closure (createTransport's parameter). It is not a property of
// any object, so inspecting the client, the transport or an error cannot reveal it.

/**
 * The most of a response body the client reads: 8 MiB. The largest answers the add-in asks for are far
 * smaller: a page of 500 transactions is about 285 KB on the demo company (so this allows about 16 KB of
 * text per row), a job's page of 500 errors about 75 KB, the full chart of accounts 12 KB, a statement
 * under 10 KB. Anything bigger is not an answer the add-in could use, and reading it whole (64 MB and up)
 * would stall the shared runtime and its memory, so it is refused with response_too_large.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Per-call options every endpoint method accepts. */
export interface CallOptions {
  /** Aborts waiting, sending and retrying; an aborted call rejects with connection_error / aborted. */
  signal?: AbortSignal;
  /**
   * Drops the call only while it still waits to be sent (for a limiter slot or a retry's backoff); a
   * request already sent runs to its answer. For "the monthly cap answered: send nothing more", where
   * aborting a sent request would count a call the server did not count.
   */
  dropIfQueued?: AbortSignal;
  /** Per-attempt timeout in ms, overriding the client's. */
  timeoutMs?: number;
  /**
   * Told of every attempt that reached the network, retries included: its HTTP status, or null when no
   * answer came. Lets a caller see an outage as it happens (a circuit breaker) rather than after every
   * retry was spent.
   */
  onAttempt?: (outcome: { status: number | null }) => void;
  /** Queued ahead of other calls for a limiter slot: a call a paging chain waits on (RequestLimiter.acquire). */
  ahead?: boolean;
  /** A page of this paging chain: queued ahead, and the chain keeps a slot while it is open (RequestLimiter.acquire). */
  chain?: RequestChain;
}

/** Copies only the call options, so a stray property can never override a request's method or path. */
export function callOptions(opts?: CallOptions): CallOptions {
  return { signal: opts?.signal, dropIfQueued: opts?.dropIfQueued, timeoutMs: opts?.timeoutMs, onAttempt: opts?.onAttempt, ahead: opts?.ahead, chain: opts?.chain };
}

/**
 * A signal that aborts when either does (AbortSignal.any is missing from older Office webviews), and how to
 * stop listening: a sync run shares one signal across its pages, which must not gather a listener per page.
 */
function eitherSignal(a?: AbortSignal, b?: AbortSignal): { signal: AbortSignal | undefined; dispose: () => void } {
  if (!a || !b) return { signal: a ?? b, dispose: () => undefined };
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (a.aborted || b.aborted) abort();
  a.addEventListener('abort', abort, { once: true });
  b.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      a.removeEventListener('abort', abort);
      b.removeEventListener('abort', abort);
    },
  };
}

export interface RequestSpec extends CallOptions {
  method: HttpMethod;
  /** Relative to the base URL, starting with '/', ids already encoded (see url.ts pathSegment). */
  path: string;
  query?: QueryParams;
  /** JSON body; undefined sends no body and no Content-Type. */
  body?: unknown;
  idempotencyKey?: string;
  /** Overrides the default (GETs and DELETEs are idempotent, other writes are not). */
  idempotent?: boolean;
  /** false: never retry a 5xx (invitation resend). Default true. */
  retryServerErrors?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  /** Parsed JSON; undefined for an empty body (204). */
  body: T;
  /** The Location header (bulk update: the job path). */
  location: string | null;
}

export interface Transport {
  request<T>(spec: RequestSpec): Promise<ApiResponse<T>>;
  readonly meter: ClientMeter;
  readonly limiter: RequestLimiter;
  readonly config: ResolvedConfig;
  /** The jittered backoff delay for retry number `retryIndex` (0-based); jobs polling uses it too. */
  backoff(retryIndex: number): number;
  /** Waits `ms` with the configured sleep, returning early when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

type AttemptResult =
  | { kind: 'response'; status: number; text: string; retryAfter: string | null; location: string | null }
  /** An answer the client refuses to read: a redirect (status null when the browser hides it), or a body over the cap. */
  | { kind: 'refused'; reason: 'redirect' | 'too_large'; status: number | null }
  | { kind: 'network'; reason: 'aborted' | 'timeout' | 'network_error' | 'not_sent'; cause: unknown };

/** The body as text, or null once it passes `max` bytes (the rest is never read). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const reader = response.body?.getReader();
  if (!reader) {
    // A host without response streams: the length can only be checked after reading.
    const text = await response.text();
    return text.length > max ? null : text;
  }
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a browser's fetch gives for a redirect under redirect: 'manual' (Node's gives the 3xx itself). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status <= 399);
}

/** Failures that prove nothing reached the server (so nothing was counted there). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

const monotonic = (): number =>
  typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : Date.now();

interface ErrorBody {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  doc_url?: string;
}

function parseErrorBody(text: string): ErrorBody {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = (parsed as { error?: unknown } | null)?.error;
    if (!error || typeof error !== 'object') return {};
    const out: ErrorBody = {};
    for (const field of ['type', 'code', 'message', 'param', 'doc_url'] as const) {
      const value = (error as Record<string, unknown>)[field];
      if (typeof value === 'string') out[field] = value;
    }
    return out;
  } catch {
    return {};
  }
}

function fallbackType(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function createTransport(config: ResolvedConfig, apiKey: string, meter: ClientMeter, limiter: RequestLimiter): Transport {
  /**
   * Set by a 401. A revoked or unknown key never becomes valid again, and the unauthenticated burst
   * limit answers such requests with 429 rate_limit_exceeded, which the server does not count either.
   */
  let keyRejected = false;

  const backoff = (retryIndex: number): number =>
    backoffDelay(retryIndex, { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs, random: config.random });

  async function wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (!signal) return config.sleep(ms);
    if (signal.aborted) return;
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([config.sleep(ms), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async function attempt(url: string, spec: RequestSpec): Promise<AttemptResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs ?? config.timeoutMs);
    const onAbort = (): void => controller.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const networkFailure = (cause: unknown): AttemptResult => {
      const reason = spec.signal?.aborted
        ? 'aborted'
        : timedOut
          ? 'timeout'
          : NOT_SENT_CODES.has(causeCode(cause) ?? '')
            ? 'not_sent'
            : 'network_error';
      return { kind: 'network', reason, cause };
    };
    try {
      // Built fresh per attempt and dropped afterwards: nothing that holds the header outlives this call.
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${apiKey}` };
      let body: string | undefined;
      if (spec.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(spec.body);
      }
      if (spec.idempotencyKey !== undefined) headers['Idempotency-Key'] = spec.idempotencyKey;
      let response: Response;
      try {
        response = await config.fetch(url, {
          method: spec.method,
          headers,
          body,
          signal: controller.signal,
          // A redirect could carry the key to another origin; the API never redirects. 'manual' hands the
          // redirect back unfollowed, so it can be told apart from a network failure (and not retried).
          redirect: 'manual',
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch (error) {
        return networkFailure(error);
      }
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'refused', reason: 'redirect', status: response.status === 0 ? null : response.status };
      }
      let text: string | null;
      try {
        text = await readCapped(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        // Headers arrived, so the server handled the request; only the body was lost.
        const failure = networkFailure(error);
        return failure.kind === 'network' && failure.reason === 'not_sent' ? { ...failure, reason: 'network_error' } : failure;
      }
      if (text === null) return { kind: 'refused', reason: 'too_large', status: response.status };
      return {
        kind: 'response',
        status: response.status,
        text,
        retryAfter: response.headers.get('retry-after'),
        location: response.headers.get('location'),
      };
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The counting rule of docs/api-decisions.md, applied to one attempt. */
  function isCounted(result: AttemptResult, code: string | null): boolean {
    if (result.kind === 'network') return result.reason !== 'not_sent';
    if (result.status === 401) {
      keyRejected = true;
      return false;
    }
    if (result.status === 429 && code === 'monthly_limit_exceeded') return false;
    if (result.status === 429 && keyRejected) return false;
    keyRejected = false;
    return true;
  }

  function connectionError(result: Extract<AttemptResult, { kind: 'network' }>, info: FailedRequest, attempts: number): ApiError {
    const code = result.reason === 'not_sent' ? 'connection_refused' : result.reason;
    const detail = causeCode(result.cause);
    const what =
      result.reason === 'aborted'
        ? 'was aborted'
        : result.reason === 'timeout'
          ? 'timed out'
          : result.reason === 'not_sent'
            ? 'could not connect'
            : 'failed at the network level';
    return new ApiError({
      message: redact(`${info.method} ${info.path} ${what}${detail ? ` (${detail})` : ''}.`, apiKey),
      status: null,
      type: 'connection_error',
      code,
      request: info,
      attempts,
      cause: result.reason === 'aborted' ? undefined : sanitizeCause(result.cause, apiKey),
    });
  }

  function invalidBody(message: string, status: number, info: FailedRequest, attempts: number): ApiError {
    return new ApiError({ message, status, type: 'api_error', code: 'invalid_response', request: info, attempts });
  }

  function refusedError(result: Extract<AttemptResult, { kind: 'refused' }>, info: FailedRequest, attempts: number): ApiError {
    const message =
      result.reason === 'redirect'
        ? `${info.method} ${info.path} was answered with a redirect, which the client never follows (it would carry the key elsewhere; the API itself never redirects). Check the base URL: it must be the API's own address, ending in /api/v1.`
        : `${info.method} ${info.path} returned a body over ${MAX_RESPONSE_BYTES / 1024 / 1024} MB, far more than any answer of the API; it was not read.`;
    return new ApiError({
      message,
      status: result.status,
      type: 'api_error',
      code: result.reason === 'redirect' ? 'redirect_refused' : 'response_too_large',
      request: info,
      attempts,
    });
  }

  function abortedError(info: FailedRequest, attempts: number): ApiError {
    return new ApiError({
      message: `${info.method} ${info.path} was aborted.`,
      status: null,
      type: 'connection_error',
      code: 'aborted',
      request: info,
      attempts,
    });
  }

  async function request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const either = eitherSignal(spec.signal, spec.dropIfQueued);
    try {
      return await requestUntil<T>(spec, either.signal);
    } finally {
      either.dispose();
    }
  }

  /** One request, its attempts and retries; `waiting` aborts it (the caller's signal, or dropping it while queued). */
  async function requestUntil<T>(spec: RequestSpec, waiting: AbortSignal | undefined): Promise<ApiResponse<T>> {
    const query = encodeQuery(spec.query);
    const url = `${config.baseUrl}${spec.path}${query ? `?${query}` : ''}`;
    const info: FailedRequest = { method: spec.method, path: spec.path, query };
    const traits: RetryTraits = {
      idempotent: spec.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE'),
      retryServerErrors: spec.retryServerErrors ?? true,
    };

    for (let attemptNo = 1; ; attemptNo++) {
      if (waiting?.aborted) throw abortedError(info, attemptNo - 1);
      let release: () => void;
      try {
        release = await limiter.acquire(waiting, { ahead: spec.ahead, chain: spec.chain });
      } catch {
        throw abortedError(info, attemptNo - 1);
      }
      if (waiting?.aborted) {
        release();
        throw abortedError(info, attemptNo - 1);
      }
      const sentAt = config.now();
      const started = monotonic();
      let result: AttemptResult;
      try {
        result = await attempt(url, spec);
        // Told before the slot is freed: a caller that stops on an outage stops the next queued request too.
        // A refused connection reached nothing and cost nothing; an abort was the caller's own.
        if (result.kind === 'response' || (result.reason !== 'aborted' && result.reason !== 'not_sent')) {
          try {
            spec.onAttempt?.({ status: result.kind === 'response' ? result.status : null });
          } catch {
            // An observer's bug must not turn a spent call into a failed one.
          }
        }
      } finally {
        release();
      }

      const errorBody = result.kind === 'response' && (result.status < 200 || result.status > 299) ? parseErrorBody(result.text) : {};
      const code = errorBody.code ?? null;
      if (isCounted(result, code)) {
        // Any counted answer means the monthly cap is not (or no longer) in force.
        if (result.kind === 'response') meter.clearMonthlyLimit();
        await meter.record(sentAt);
      }

      if (config.debug) {
        try {
          config.debug(
            `${spec.method} ${spec.path} -> ${result.kind === 'response' ? result.status : result.reason} (attempt ${attemptNo}, ${Math.round(monotonic() - started)} ms)`,
          );
        } catch {
          // A failing log hook must not turn a spent call into a failed one.
        }
      }

      let error: ApiError;
      let failure: AttemptFailure;
      if (result.kind === 'network') {
        error = connectionError(result, info, attemptNo);
        failure = { kind: 'network', reason: result.reason };
      } else if (result.kind === 'refused') {
        // Final: sending again would be redirected again, or bring the same oversized body.
        throw refusedError(result, info, attemptNo);
      } else if (result.status >= 200 && result.status <= 299) {
        if (result.text.trim() === '') return { status: result.status, body: undefined as T, location: result.location };
        let body: unknown;
        try {
          body = JSON.parse(result.text);
        } catch {
          // The request was processed; sending it again would not make the body readable.
          throw invalidBody(`${spec.method} ${spec.path} returned a body that is not JSON.`, result.status, info, attemptNo);
        }
        // Every answer of the API is a JSON object (lists come in an envelope): null, a bare value or an
        // array would otherwise travel on as if it were the resource, and end up in a cell.
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw invalidBody(`${spec.method} ${spec.path} returned ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}, not a JSON object.`, result.status, info, attemptNo);
        }
        return { status: result.status, body: body as T, location: result.location };
      } else {
        const retryAfterMs = parseRetryAfter(result.retryAfter, Date.now());
        const type = errorBody.type ?? fallbackType(result.status);
        const init: ApiErrorInit = {
          message: redact(errorBody.message ?? `${spec.method} ${spec.path} failed with HTTP ${result.status}.`, apiKey),
          status: result.status,
          type: redact(type, apiKey),
          code: code === null ? null : redact(code, apiKey),
          param: errorBody.param === undefined ? null : redact(errorBody.param, apiKey),
          docUrl: errorBody.doc_url === undefined ? null : redact(errorBody.doc_url, apiKey),
          request: info,
          retryAfterMs,
          attempts: attemptNo,
        };
        if (code === 'monthly_limit_exceeded') {
          const monthly = new MonthlyLimitError(init, config.now());
          meter.noteMonthlyLimit(monthly.resetDate);
          throw monthly;
        }
        error = new ApiError(init);
        failure = { kind: 'response', status: result.status, type, code, retryAfterMs };
      }

      const decision = decideRetry(failure, traits, config.maxRetryAfterMs);
      if (!decision.retry || attemptNo > config.maxRetries) throw error;
      if (failure.kind === 'response' && failure.status === 429) limiter.pause(decision.minDelayMs);
      await wait(decision.minDelayMs + backoff(attemptNo - 1), waiting);
    }
  }

  return { request, meter, limiter, config, backoff, wait };
}
