// A circuit breaker for an outage. Every authenticated request counts against the monthly cap, whatever
// its status, and the client retries a 5xx up to four times: with the reports endpoint down, one Refresh
// all of a board pack spent dozens of calls and refreshed nothing. The breaker watches every attempt (the
// client tells it, retries included): after a few server failures or lost connections in a row it opens,
// the reader drops what is queued or waiting to retry, and nothing more is asked for a short pause. A
// success closes it; a new Refresh all starts with it closed.

export const OUTAGE_THRESHOLD = 3;
export const OUTAGE_PAUSE_MS = 60_000;

export interface BreakerState {
  /** Consecutive failed attempts (5xx or no answer), reset by any answer below 500. */
  failures: number;
  /** While set and in the future, nothing is sent. */
  openUntil: number | null;
  /** Attempts the failures spent since the breaker last closed (each was a counted call, or a refused connection). */
  spentOnFailures: number;
  /** True while every failure since the breaker last closed had no answer at all (nothing reached, or no reply). */
  noAnswer: boolean;
}

export class OutageBreaker {
  private state: BreakerState = { failures: 0, openUntil: null, spentOnFailures: 0, noAnswer: true };

  constructor(
    private readonly now: () => number,
    private readonly onOpen: () => void,
    private readonly threshold = OUTAGE_THRESHOLD,
    private readonly pauseMs = OUTAGE_PAUSE_MS,
  ) {}

  /** Told of each attempt: its HTTP status, or null when no answer came. */
  attempt(status: number | null): void {
    if (status !== null && status < 500) {
      this.state = { failures: 0, openUntil: null, spentOnFailures: 0, noAnswer: true };
      return;
    }
    this.state.failures += 1;
    this.state.spentOnFailures += 1;
    if (status !== null) this.state.noAnswer = false;
    if (this.state.failures >= this.threshold && !this.isOpen()) {
      this.state.openUntil = this.now() + this.pauseMs;
      this.onOpen();
    }
  }

  isOpen(): boolean {
    return this.state.openUntil !== null && this.now() < this.state.openUntil;
  }

  /** When the pause ends (ms), while open. */
  openUntil(): number | null {
    return this.isOpen() ? this.state.openUntil : null;
  }

  /** Failed attempts since the breaker last closed. */
  failedAttempts(): number {
    return this.state.spentOnFailures;
  }

  /** The failures were all without an answer (the API unreachable), rather than server errors. */
  noAnswer(): boolean {
    return this.state.noAnswer;
  }

  /** A new run (Refresh all, a push the user started): the API gets its chance again. */
  reset(): void {
    this.state = { failures: 0, openUntil: null, spentOnFailures: 0, noAnswer: true };
  }
}
