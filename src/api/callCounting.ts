// The meter's side of a request: the counting rule of docs/api-decisions.md applied to each attempt, and
// the monthly cap as the answers show it (a counted answer: not in force; monthly_limit_exceeded: in force
// until its reset).

import type { AttemptResult } from './attempt';
import type { MonthlyLimitError } from './errors';
import type { ClientMeter } from './meter';

export interface CallCounting {
  /** Counts one attempt (sent at `sentAt`) when the rule says the server counted it. */
  record(result: AttemptResult, code: string | null, sentAt: number): Promise<void>;
  /** The monthly cap answered: nothing more is sent until it resets. */
  monthlyLimit(error: MonthlyLimitError): void;
}

export function callCounting(meter: ClientMeter): CallCounting {
  /**
   * Set by a 401. A revoked or unknown key never becomes valid again, and the unauthenticated burst
   * limit answers such requests with 429 rate_limit_exceeded, which the server does not count either.
   */
  let keyRejected = false;

  /** The counting rule of docs/api-decisions.md, applied to one attempt. */
  function isCounted(result: AttemptResult, code: string | null): boolean {
    if (result.kind === 'network') return result.reason !== 'not_sent';
    // Answered from the team's cache: the API never saw it.
    if (result.kind === 'response' && result.teamCacheHit) return false;
    if (result.status === 401) {
      keyRejected = true;
      return false;
    }
    if (result.status === 429 && code === 'monthly_limit_exceeded') return false;
    if (result.status === 429 && keyRejected) return false;
    keyRejected = false;
    return true;
  }

  return {
    async record(result, code, sentAt) {
      const counted = isCounted(result, code);
      if (counted) {
        // Any counted answer means the monthly cap is not (or no longer) in force.
        if (result.kind === 'response') meter.clearMonthlyLimit();
        await meter.record(sentAt);
      }
      // The team's count after this request, counted by the gateway (this call included when it counted).
      // A 401 names no company (the contract sends none with it): nothing to attribute.
      if (result.kind === 'response' && result.status !== 401 && result.team) await meter.noteTeam(result.team);
    },
    monthlyLimit: (error) => meter.noteMonthlyLimit(error.resetDate),
  };
}
