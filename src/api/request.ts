// What a request of the API is, as the endpoint modules and the engine give it to the transport: the
// per-call options every endpoint method accepts, the request itself, and the answer.

import type { RequestChain } from './limiter';
import type { QueryParams } from './url';

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
  /**
   * A GET that accepts an answer of the team's gateway up to this many seconds old (Cache-Control: max-age);
   * undefined (the default, and always for a write) asks the API (no-cache). The reader decides it by the
   * add-in's freshness rules (engine/reader/teamFreshness.ts).
   */
  maxAgeSeconds?: number;
  /**
   * Told of every answer (2xx) with when the API gave it: a time earlier than now when the team's gateway
   * served it from its cache (Date minus Age), null when it came from the API just now.
   */
  onAnswered?: (answer: { answeredAt: number | null }) => void;
}

/** Copies only the call options, so a stray property can never override a request's method or path. */
export function callOptions(opts?: CallOptions): CallOptions {
  return {
    signal: opts?.signal,
    dropIfQueued: opts?.dropIfQueued,
    timeoutMs: opts?.timeoutMs,
    onAttempt: opts?.onAttempt,
    ahead: opts?.ahead,
    chain: opts?.chain,
    maxAgeSeconds: opts?.maxAgeSeconds,
    onAnswered: opts?.onAnswered,
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

