// What a call a breaker stopped (breaker.ts) fails with, worded for the user: the whole API failing or not
// answering, or one endpoint failing on its own, named (the statements by their name, every other endpoint
// by its path, which is what the API's documentation and support go by) with what it answered.

import { ApiError, type ApiErrorInit } from '../../api/errors';
import { plural } from '../text/plural';
import type { Outage } from './breaker';

const NAMED: Readonly<Record<string, string>> = {
  '/reports/income_statement': 'income statement endpoint',
  '/reports/balance_sheet': 'balance sheet endpoint',
  '/reports/cash_flow': 'cash flow endpoint',
};

/** "income statement endpoint", "/aggregations/total endpoint": for "The API's ... answered 500". */
export function endpointName(path: string): string {
  return NAMED[path] ?? `${path} endpoint`;
}

/**
 * What a call a breaker stopped fails with (code 'outage'): no status, nothing sent (or no more retries).
 * `endpoint` names the endpoint whose own breaker stopped it; null when it was the whole API's.
 */
export class OutageError extends ApiError {
  override name = 'OutageError';
  constructor(
    init: ApiErrorInit,
    readonly endpoint: { path: string; name: string } | null,
  ) {
    super(init);
  }
}

/** "once", "twice", "three times", ... */
function times(n: number): string {
  const words = ['once', 'twice', 'three times', 'four times', 'five times', 'six times', 'seven times', 'eight times', 'nine times', 'ten times'];
  return words[n - 1] ?? `${n} times`;
}

/** "500 three times", "503 twice and 500 once": each status with how often, in the order first answered. */
function answered(statuses: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  const parts = [...counts].map(([status, n]) => `${status} ${times(n)}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
}

export function outageError(path: string, outage: Outage, now: number): OutageError {
  // How long, not until when: the engine does not know the user's time zone, and the pause is short.
  const pause = `for the next ${plural(Math.max(1, Math.ceil((outage.until - now) / 1000)), 'second')}`;
  const request = { method: 'GET', path, query: '' };
  if (outage.scope === 'endpoint') {
    const name = endpointName(outage.endpoint);
    return new OutageError(
      {
        message: `The API's ${name} answered ${answered(outage.statuses)} in a row (each a counted call); nothing more is asked of it ${pause}`,
        status: null,
        type: 'api_error',
        code: 'outage',
        request,
      },
      { path: outage.endpoint, name },
    );
  }
  const { failedAttempts, noAnswer } = outage;
  return new OutageError(
    {
      message: noAnswer
        ? `No answer from the API (${failedAttempts} attempts in a row); nothing more is asked ${pause}`
        : `The API is failing (${failedAttempts} failed attempts in a row, each a counted call); nothing more is asked ${pause}`,
      status: null,
      // No answer at all is a connection problem (the base URL, the network, a sandbox not running).
      type: noAnswer ? 'connection_error' : 'api_error',
      code: 'outage',
      request,
    },
    null,
  );
}

