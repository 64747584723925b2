// FIN evaluations take turns on the main thread. Excel hands a recalculation over as thousands of
// invocations at once, in the runtime the task pane shares; worked through as they came, a big model would
// hold the thread for a second and more with the pane frozen, and a cold one would do the same again each
// time an answer that thousands of cells wait for arrives. So every attempt of an evaluation (pending.ts)
// is queued here and attempts run in slices of main-thread time: when a slice is spent, the rest wait for
// a task of their own (a macrotask), which lets the pane, Excel's messages and the API's answers in
// between. An attempt that has to wait goes back in line when what it waits for is ready -- ahead of the
// evaluations not started yet, so cells settle as their answers arrive.
//
// This is also where an evaluation settles, once: counted by FinActivity while it runs, its failure worded
// as a FinError, and never left pending beyond the time limit. Thousands run at once, so each holds only
// its own small record, and one timer, set for the oldest still running, keeps the limit for all of them
// (they all last the same time, so they expire in the order they started).

import type { FinActivity } from './activity';
import type { FinCall } from './finCall';
import { finErrors, toFinError } from './errors';
import { Pending } from './pending';
import { Evaluation, type EvalContext } from './reads';

/** Main-thread time one slice may take before the waiting attempts yield (ms). */
export const SLICE_MS = 8;

/** Longer than the reader's own time limit for a call (120 s), so that one normally speaks first. */
export const EVALUATION_TIMEOUT_MS = 180_000;

export interface TurnOptions {
  sliceMs?: number;
  /** The longest an evaluation may take before it fails with "No answer within ..." (ms). */
  limitMs?: number;
  /** A monotonic clock in ms (default performance.now). */
  now?: () => number;
  /** Runs `resume` in a later task (default: setImmediate where there is one, else a MessageChannel). */
  yieldToHost?: (resume: () => void) => void;
}

/** A later task, not a microtask: setImmediate in Node; a message in browsers (setTimeout(0) is clamped to 4 ms when nested). */
export function yieldToHost(resume: () => void): void {
  if (typeof setImmediate === 'function') {
    setImmediate(resume);
  } else if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resume();
    };
    channel.port2.postMessage(null);
  } else {
    setTimeout(resume, 0);
  }
}

/** One evaluation in line: its attempt and arguments, how it settles, and the answers it waited for (Evaluation). */
class Job extends Evaluation {
  settled = false;

  constructor(
    ctx: EvalContext,
    call: FinCall | undefined,
    readonly attempt: (parts: never, args: never, ev: Evaluation) => unknown,
    readonly args: unknown,
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: unknown) => void,
    /** Whole ms (a small integer is stored in the object; a fraction would be a number object of its own). */
    readonly deadline: number,
  ) {
    super(ctx, call);
  }
}

/** A first-in, first-out line that lets go of what it has handed out. */
class Line {
  private jobs: (Job | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.jobs.length - this.head;
  }

  push(job: Job): void {
    this.jobs.push(job);
  }

  /** The first job, or undefined when the line is empty. */
  peek(): Job | undefined {
    return this.jobs[this.head];
  }

  shift(): Job | undefined {
    if (this.head >= this.jobs.length) return undefined;
    const job = this.jobs[this.head];
    this.jobs[this.head++] = undefined;
    if (this.head === this.jobs.length) {
      this.jobs = [];
      this.head = 0;
    }
    return job;
  }
}

export class Turns<P> {
  private readonly sliceMs: number;
  private readonly limitMs: number;
  private readonly now: () => number;
  private readonly yieldTo: (resume: () => void) => void;
  /** Evaluations whose awaited answer arrived: attempted before those not started yet. */
  private readonly resumed = new Line();
  private readonly fresh = new Line();
  /** Every evaluation not settled yet (and some settled ones, passed over lazily), oldest first. */
  private readonly running = new Line();
  private sliceEnd = -Infinity;
  /** A slice is under way or queued (a microtask or a task). */
  private scheduled = false;
  private slices = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly activity: FinActivity,
    /** What every attempt works with (the service's reads and inputs). */
    private readonly parts: P,
    options: TurnOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.limitMs = options.limitMs ?? EVALUATION_TIMEOUT_MS;
    this.now = options.now ?? (() => performance.now());
    this.yieldTo = options.yieldToHost ?? yieldToHost;
  }

  /**
   * Attempts `attempt(parts, args, ev)` in turns until it no longer throws a Pending, and settles as it does:
   * its value (a promise is followed), or its failure as a FinError (or what ctx.failure makes of it), or
   * "No answer within ..." after the time limit. `call` is the cell's, when a cell made it (its reads are
   * kept for the cell). Thousands wait at once, so each holds only its Job (no closure of its own).
   */
  run<A, T>(ctx: EvalContext, attempt: (parts: P, args: A, ev: Evaluation) => T | Promise<T>, args: A, call?: FinCall): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = new Job(ctx, call, attempt as Job['attempt'], args, resolve as (value: unknown) => void, reject, Math.ceil(this.now() + this.limitMs));
      this.activity.started();
      this.running.push(job);
      if (this.timer === undefined) this.armFor(job);
      this.fresh.push(job);
      this.schedule();
    });
  }

  /** Slices started so far (a burst's first, then one after each yield): for tests. */
  get sliceCount(): number {
    return this.slices;
  }

  /** Attempts waiting for their turn. */
  get waiting(): number {
    return this.resumed.size + this.fresh.size;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Nothing was waiting: the slice starts now (what this task did before is not ours to count).
    this.startSlice();
    queueMicrotask(this.work);
  }

  private startSlice(): void {
    this.sliceEnd = this.now() + this.sliceMs;
    this.slices += 1;
  }

  private readonly work = (): void => {
    this.runSlice(false);
  };

  private readonly nextSlice = (): void => {
    this.startSlice();
    this.runSlice(true);
  };

  /**
   * Attempts until nothing waits or the slice is spent. The time is looked at before each attempt: a burst
   * whose slice went on Excel's own calls (all of a recalculation's, in one go) yields before its first
   * attempt. A slice that starts after a yield makes one attempt whatever the clock says, so the line moves.
   */
  private runSlice(afterYield: boolean): void {
    for (let first = afterYield; ; first = false) {
      if (this.waiting === 0) {
        this.scheduled = false;
        return;
      }
      if (!first && this.now() >= this.sliceEnd) {
        this.yieldTo(this.nextSlice);
        return;
      }
      const job = (this.resumed.shift() ?? this.fresh.shift())!;
      if (!job.settled) this.attempt(job);
    }
  }

  private attempt(job: Job): void {
    let value: unknown;
    try {
      value = (job.attempt as (parts: P, args: unknown, ev: Evaluation) => unknown)(this.parts, job.args, job);
    } catch (error) {
      if (!(error instanceof Pending)) {
        this.fail(job, error);
        return;
      }
      error.ready.then(
        () => {
          if (job.settled) return;
          this.resumed.push(job);
          this.schedule();
        },
        (failure: unknown) => this.fail(job, failure),
      );
      return;
    }
    if (value instanceof Promise) {
      value.then(
        (result: unknown) => this.succeed(job, result),
        (failure: unknown) => this.fail(job, failure),
      );
    } else {
      this.succeed(job, value);
    }
  }

  private succeed(job: Job, value: unknown): void {
    if (!this.settle(job)) return;
    job.ctx.cellReads?.answered(job);
    job.resolve(value);
  }

  private fail(job: Job, error: unknown): void {
    if (!this.settle(job)) return;
    job.ctx.cellReads?.answered(job);
    const fin = toFinError(error, '');
    const failure = job.ctx.failure;
    job.reject(failure ? failure(fin) : fin);
  }

  /**
   * Marks the job settled (false when it was already). The timer stays as it is, set for an evaluation
   * that may have settled since: when it fires, it moves on to the oldest one left (setting a timer per
   * evaluation settled would cost more than the evaluation). Nothing left running: no timer either.
   */
  private settle(job: Job): boolean {
    if (job.settled) return false;
    job.settled = true;
    this.activity.settled();
    while (this.running.peek()?.settled) this.running.shift();
    if (this.running.size === 0) this.disarm();
    return true;
  }

  private armFor(job: Job): void {
    this.timer = setTimeout(this.expire, Math.max(0, job.deadline - this.now()));
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Every evaluation past its deadline fails; the timer moves on to the oldest one left. */
  private readonly expire = (): void => {
    this.timer = undefined;
    const now = this.now();
    for (let job = this.running.peek(); job && (job.settled || job.deadline <= now); job = this.running.peek()) {
      this.running.shift();
      if (!job.settled) this.fail(job, finErrors.noAnswer(this.limitMs));
    }
    const oldest = this.running.peek();
    if (oldest && this.timer === undefined) this.armFor(oldest);
  };
}
