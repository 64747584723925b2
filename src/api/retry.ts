// Which failures are sent again. Every retry is a counted call against a hard monthly cap, so the
// policy retries only what the spec calls transient, and never a write that could be applied twice.

/** 5xx codes the spec lists as transient and safe to send again on their endpoints. */
export const RETRYABLE_SERVER_CODES: ReadonlySet<string> = new Set([
  'rules_not_ready',
  'rule_busy',
  'rule_deletion_failed',
  'connect_link_failed',
  'account_create_failed',
  'invitation_create_failed',
  'permissions_update_failed',
  'invitation_revoke_failed',
]);

/** 5xx codes that must never be sent again automatically: each resend attempt emails the invitee. */
export const NEVER_RETRIED_CODES: ReadonlySet<string> = new Set(['invitation_resend_failed']);

/** What a request allows, decided by the endpoint module that builds it. */
export interface RetryTraits {
  /**
   * Safe to send again after a network failure, when the first attempt may have been applied:
   * GETs, DELETEs, POST /accounts (same body matches the existing account) and the bulk update
   * (same Idempotency-Key returns the original job).
   */
  idempotent: boolean;
  /** false opts out of every 5xx retry (invitation resend). */
  retryServerErrors: boolean;
}

export type AttemptFailure =
  | { kind: 'response'; status: number; type: string; code: string | null; retryAfterMs: number | null }
  | { kind: 'network'; reason: 'aborted' | 'timeout' | 'network_error' | 'not_sent' };

export type RetryDecision =
  | { retry: false; reason: string }
  | { retry: true; reason: string; /** Wait at least this long before the jittered backoff. */ minDelayMs: number };

export function decideRetry(failure: AttemptFailure, traits: RetryTraits, maxRetryAfterMs: number): RetryDecision {
  if (failure.kind === 'network') {
    if (failure.reason === 'aborted') return { retry: false, reason: 'aborted by caller' };
    // Nothing reached the server when the connection was refused, but only idempotent requests are
    // retried anyway: the distinction is not visible in a browser's fetch.
    if (traits.idempotent) return { retry: true, reason: `network failure (${failure.reason})`, minDelayMs: 0 };
    return { retry: false, reason: 'network failure on a non-idempotent write (may have been applied)' };
  }

  const { status, code } = failure;
  if (status === 429) {
    // limit_error is the monthly cap's type; a future code under it is no more retryable.
    if (code === 'monthly_limit_exceeded' || failure.type === 'limit_error') return { retry: false, reason: 'monthly cap reached' };
    // A burst rejection happens before the route runs (docs/api-decisions.md, order of checks), so
    // even a non-idempotent write was not applied and may be sent again.
    const wait = failure.retryAfterMs ?? 0;
    if (wait > maxRetryAfterMs) return { retry: false, reason: 'Retry-After longer than allowed' };
    return { retry: true, reason: 'rate limited', minDelayMs: wait };
  }

  if (status >= 500) {
    if (code !== null && NEVER_RETRIED_CODES.has(code)) return { retry: false, reason: `${code} is never retried` };
    if (!traits.retryServerErrors) return { retry: false, reason: 'endpoint does not allow 5xx retries' };
    // Listed retryable codes, no code, and codes the spec does not list (internal_error, or one this
    // client does not know yet) all back off: "a 5xx without a listed code: retry with backoff".
    const kind = code === null ? 'without a code' : RETRYABLE_SERVER_CODES.has(code) ? 'listed as retryable' : 'not listed';
    const wait = Math.min(failure.retryAfterMs ?? 0, maxRetryAfterMs);
    return { retry: true, reason: `server error ${code ?? status} (${kind})`, minDelayMs: wait };
  }

  return { retry: false, reason: `status ${status} is final` };
}
