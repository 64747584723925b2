import { createAttempt, type AttemptResult } from './attempt';
import { attemptOutcomes, parseErrorBody, type AttemptOutcomes } from './attemptOutcome';
import { callCounting } from './callCounting';
import type { ResolvedConfig } from './config';
import { MonthlyLimitError, type FailedRequest } from './errors';
import type { RequestLimiter } from './limiter';
import type { ClientMeter } from './meter';
import type { ApiResponse, RequestSpec } from './request';
import type { RetryTraits } from './retry';
import { retryPacing } from './retryPacing';
import { answeredAt } from './teamHeaders';
import { encodeQuery } from './url';

export { MAX_RESPONSE_BYTES } from './attempt';
export { callOptions, type ApiResponse, type CallOptions, type HttpMethod, type RequestSpec } from './request';

// The one request sender. Everything the API's limits demand happens here and only here: the Bearer
// header, JSON in and out, the limiter slot, counting every call on the meter, the retry policy and
// turning every failure into an ApiError that holds no secret. createTransport owns a request's life
// (as stripe-node's RequestSender does) and composes its parts: one attempt (attempt.ts), what its result
// means (attemptOutcome.ts), the meter's counting (callCounting.ts), the retry and its wait (retryPacing.ts),
// and the limiter's slot (limiter.ts).
//
// The key lives only in closures (createTransport's parameter, given to createAttempt and attemptOutcomes).
// It is not a property of any object, so inspecting the client, the transport or an error cannot reveal it.

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

const monotonic = (): number =>
  typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : Date.now();

/** A limiter slot for attempt number `attemptNo`; an abort while waiting for it (or on getting it) ends the request. */
async function slotFor(limiter: RequestLimiter, spec: RequestSpec, waiting: AbortSignal | undefined, aborted: () => Error): Promise<() => void> {
  if (waiting?.aborted) throw aborted();
  let release: () => void;
  try {
    release = await limiter.acquire(waiting, { ahead: spec.ahead, chain: spec.chain });
  } catch {
    throw aborted();
  }
  if (waiting?.aborted) {
    release();
    throw aborted();
  }
  return release;
}

/** Tells the caller's observer of an attempt that reached the network; an observer's bug must not turn a spent call into a failed one. */
function tellAttempt(spec: RequestSpec, result: AttemptResult): void {
  // A refused connection reached nothing and cost nothing; an abort was the caller's own.
  if (result.kind === 'response' || (result.reason !== 'aborted' && result.reason !== 'not_sent')) {
    try {
      spec.onAttempt?.({ status: result.kind === 'response' ? result.status : null });
    } catch {
      // An observer's bug must not turn a spent call into a failed one.
    }
  }
}

/** Tells the caller when the API gave this answer (the team's cache may have served it); an observer's bug must not fail the answer. */
function tellAnswered(spec: RequestSpec, result: Extract<AttemptResult, { kind: 'response' }>, nowMs: number): void {
  if (!spec.onAnswered) return;
  const headers: Record<string, string | null> = { age: result.age, date: result.date };
  try {
    spec.onAnswered({ answeredAt: answeredAt((name) => headers[name] ?? null, nowMs) });
  } catch {
    // An observer's bug must not turn an answer into a failure.
  }
}

/** The debug hook's line for an attempt; a failing log hook must not turn a spent call into a failed one. */
function logAttempt(config: ResolvedConfig, spec: RequestSpec, result: AttemptResult, attemptNo: number, started: number): void {
  if (!config.debug) return;
  try {
    config.debug(`${spec.method} ${spec.path} -> ${result.kind === 'response' ? result.status : result.reason} (attempt ${attemptNo}, ${Math.round(monotonic() - started)} ms)`);
  } catch {
    // A failing log hook must not turn a spent call into a failed one.
  }
}

export function createTransport(config: ResolvedConfig, apiKey: string, meter: ClientMeter, limiter: RequestLimiter): Transport {
  const attempt = createAttempt(config, apiKey);
  const outcomes: AttemptOutcomes = attemptOutcomes(apiKey, () => config.now());
  const counting = callCounting(meter);
  const pacing = retryPacing(config, limiter);

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
      const release = await slotFor(limiter, spec, waiting, () => outcomes.aborted(info, attemptNo - 1));
      const sentAt = config.now();
      const started = monotonic();
      let result: AttemptResult;
      try {
        result = await attempt(url, spec);
        // Told before the slot is freed: a caller that stops on an outage stops the next queued request too.
        tellAttempt(spec, result);
      } finally {
        release();
      }

      const errorBody = result.kind === 'response' && (result.status < 200 || result.status > 299) ? parseErrorBody(result.text) : {};
      await counting.record(result, errorBody.code ?? null, sentAt);
      logAttempt(config, spec, result, attemptNo, started);

      const outcome = outcomes.read<T>(result, errorBody, spec, info, attemptNo);
      if (outcome.kind === 'answer') {
        if (result.kind === 'response') tellAnswered(spec, result, config.now());
        return outcome.response;
      }
      if (outcome.error instanceof MonthlyLimitError) {
        counting.monthlyLimit(outcome.error);
        throw outcome.error;
      }
      if (!(await pacing.again(outcome.failure, traits, attemptNo, waiting))) throw outcome.error;
    }
  }

  return { request, meter, limiter, config, backoff: pacing.backoff, wait: pacing.wait };
}
