// The retry side of a request: whether a failed attempt is sent again (retry.ts's policy, within the
// client's retries), and how long it waits first (a 429 pauses the limiter too).

import { backoffDelay } from './backoff';
import type { ResolvedConfig } from './config';
import type { RequestLimiter } from './limiter';
import { decideRetry, type AttemptFailure, type RetryTraits } from './retry';

export interface RetryPacing {
  /** The jittered backoff delay for retry number `retryIndex` (0-based); jobs polling uses it too. */
  backoff(retryIndex: number): number;
  /** Waits `ms` with the configured sleep, returning early when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** After attempt number `attempts` failed so: false when it is final, else waits (until `waiting` aborts) and says true. */
  again(failure: AttemptFailure, traits: RetryTraits, attempts: number, waiting: AbortSignal | undefined): Promise<boolean>;
}

type PacingConfig = Pick<ResolvedConfig, 'backoffBaseMs' | 'backoffCapMs' | 'random' | 'sleep' | 'maxRetryAfterMs' | 'maxRetries'>;

export function retryPacing(config: PacingConfig, limiter: Pick<RequestLimiter, 'pause'>): RetryPacing {
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

  return {
    backoff,
    wait,
    async again(failure, traits, attempts, waiting) {
      const decision = decideRetry(failure, traits, config.maxRetryAfterMs);
      if (!decision.retry || attempts > config.maxRetries) return false;
      if (failure.kind === 'response' && failure.status === 429) limiter.pause(decision.minDelayMs);
      await wait(decision.minDelayMs + backoff(attempts - 1), waiting);
      return true;
    },
  };
}
