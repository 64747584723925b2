// Circuit breakers for an outage. Every authenticated request counts against the monthly cap, whatever
// its status, and the client retries a 5xx up to four times: with the reports endpoint down, one Refresh
// all of a board pack spent dozens of calls and refreshed nothing. The breakers watch every attempt (the
// client tells them, retries included), each told which endpoint it was for:
//   - an endpoint that fails a few times in a row (5xx) opens its own breaker: what is queued or waiting
//     to retry for it is dropped, and nothing more is asked of it for a short pause, while the other
//     endpoints go on (a real API fails by endpoint as often as whole: a failing income statement must not
//     stop the balance sheet);
//   - the API as a whole opens when the failures in a row (no answer below 500 anywhere between) span two
//     endpoints or include one without any answer (a lost connection, a timeout: the network, the host or
//     the base URL, which every endpoint shares, so it is never put on one endpoint), or when, right after
//     an endpoint opened, the first request to another one fails too. Until something answers after an
//     endpoint opened, the other endpoints are asked one request at a time (admit), so that learning the
//     whole API is down costs one call more, not a round of every queued request;
//   - any answer below 500 closes the whole-API breaker and ends its doubt; an endpoint's own success
//     closes its breaker; a new Refresh all starts with every breaker closed.

export const OUTAGE_THRESHOLD = 3;
export const OUTAGE_PAUSE_MS = 60_000;

/** What stops a call: the whole API, or one endpoint of it. */
export type Outage =
  | {
      scope: 'api';
      /** When the pause ends (ms). */
      until: number;
      /** Failed attempts in a row (each a counted call, or a connection that got no answer). */
      failedAttempts: number;
      /** Every one of them had no answer at all (nothing reached, or no reply), rather than a server error. */
      noAnswer: boolean;
    }
  | {
      scope: 'endpoint';
      /** The endpoint's path without query, as the reader was given it (`/reports/income_statement`). */
      endpoint: string;
      until: number;
      /** What it answered, in order: the statuses of its failures in a row. */
      statuses: number[];
    };

interface EndpointRun {
  statuses: number[];
  openUntil: number | null;
}

interface ApiRun {
  failures: number;
  /** The endpoints that failed in the run while their own breaker was closed. */
  endpoints: Set<string>;
  noAnswer: boolean;
  someNoAnswer: boolean;
  openUntil: number | null;
}

const closedRun = (): ApiRun => ({ failures: 0, endpoints: new Set(), noAnswer: true, someNoAnswer: false, openUntil: null });

export class OutageBreakers {
  private api = closedRun();
  private readonly endpoints = new Map<string, EndpointRun>();
  /** An endpoint opened and nothing has answered since: the API as a whole may be down. */
  private doubt = false;
  /** The one request asking another endpoint while in doubt; the others wait for its first answer. */
  private probe: { done: Promise<void>; release: () => void } | null = null;

  constructor(
    private readonly now: () => number,
    /** Told when a breaker opens: the endpoint's, or null for the whole API. */
    private readonly onOpen: (endpoint: string | null) => void,
    private readonly threshold = OUTAGE_THRESHOLD,
    private readonly pauseMs = OUTAGE_PAUSE_MS,
  ) {}

  /** Told of each attempt: the endpoint it was for, and its HTTP status or null when no answer came. */
  attempt(endpoint: string, status: number | null): void {
    if (status !== null && status < 500) {
      this.api = closedRun();
      this.doubt = false;
      this.endpoints.delete(endpoint);
      this.endProbe();
      return;
    }
    const wasOpen = this.endpointOpen(endpoint);
    const run = this.api;
    run.failures += 1;
    if (status === null) run.someNoAnswer = true;
    else run.noAnswer = false;
    if (!wasOpen) run.endpoints.add(endpoint);

    if (status !== null) {
      const own = this.endpoints.get(endpoint) ?? { statuses: [], openUntil: null };
      own.statuses.push(status);
      this.endpoints.set(endpoint, own);
      if (own.statuses.length >= this.threshold && !wasOpen) {
        own.openUntil = this.now() + this.pauseMs;
        this.doubt = true;
        this.onOpen(endpoint);
      }
    }

    const wholeApi =
      (this.doubt && !wasOpen && !this.endpointOpen(endpoint)) ||
      (run.failures >= this.threshold && (run.endpoints.size >= 2 || run.someNoAnswer));
    if (wholeApi && !this.apiOpen()) {
      run.openUntil = this.now() + this.pauseMs;
      this.onOpen(null);
    }
    if (this.apiOpen()) this.endProbe();
  }

  /** The outage that stops a call to `endpoint` now (the whole API's first), or null. */
  stopping(endpoint: string): Outage | null {
    if (this.apiOpen()) return { scope: 'api', until: this.api.openUntil!, failedAttempts: this.api.failures, noAnswer: this.api.noAnswer };
    const own = this.endpoints.get(endpoint);
    if (own && this.endpointOpen(endpoint)) return { scope: 'endpoint', endpoint, until: own.openUntil!, statuses: [...own.statuses] };
    return null;
  }

  /**
   * Waits while the API as a whole is in doubt and another request is finding out; returns what to call
   * once this call's first attempt is answered (or it ends without one). Check stopping() after it.
   */
  async admit(endpoint: string): Promise<() => void> {
    while (this.doubt && !this.apiOpen() && !this.endpointOpen(endpoint)) {
      if (!this.probe) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => (resolve = r));
        const probe = {
          done,
          release: () => {
            if (this.probe === probe) this.probe = null;
            resolve();
          },
        };
        this.probe = probe;
        return probe.release;
      }
      await this.probe.done;
    }
    return () => undefined;
  }

  /** A new run (Refresh all, a push the user started): the API and each endpoint get their chance again. */
  reset(): void {
    this.api = closedRun();
    this.endpoints.clear();
    this.doubt = false;
    this.endProbe();
  }

  private apiOpen(): boolean {
    return this.api.openUntil !== null && this.now() < this.api.openUntil;
  }

  private endpointOpen(endpoint: string): boolean {
    const until = this.endpoints.get(endpoint)?.openUntil ?? null;
    return until !== null && this.now() < until;
  }

  private endProbe(): void {
    this.probe?.release();
  }
}
