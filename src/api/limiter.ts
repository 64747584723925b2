import type { Sleep } from './config';

// Keeps one key inside the API's burst limit (6,000 per fixed 60 s window, i.e. 100/s) and bounds the
// requests in flight. A rolling window of starts is stricter than the server's fixed window: at most
// N starts in any window means at most 60*N in any minute, whatever the server's boundaries. Every
// burst 429 still counts against the monthly cap, which is why this is worth doing client-side.

export interface LimiterOptions {
  /** Requests in flight at once (default 8). */
  maxConcurrent?: number;
  /** Requests started per rolling window (default 100). */
  maxPerWindow?: number;
  /** Window length in ms (default 1000). */
  windowMs?: number;
  /** Monotonic clock for the window; not the wall clock (tests freeze the wall clock). */
  clock?: () => number;
  /** Used to wait out a pause (Retry-After), so tests with an instant sleep stay instant. */
  sleep?: Sleep;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  ahead?: boolean;
}

const monotonic = (): number =>
  typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : Date.now();

export class RequestLimiter {
  readonly maxConcurrent: number;
  readonly maxPerWindow: number;
  readonly windowMs: number;
  private readonly clock: () => number;
  private readonly sleep: Sleep;
  private inFlight = 0;
  /** Start times inside the current window, oldest first. */
  private starts: number[] = [];
  private queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private paused = false;
  private pauseToken = 0;

  constructor(opts: LimiterOptions = {}) {
    this.maxConcurrent = opts.maxConcurrent ?? 8;
    this.maxPerWindow = opts.maxPerWindow ?? 100;
    this.windowMs = opts.windowMs ?? 1000;
    this.clock = opts.clock ?? monotonic;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get active(): number {
    return this.inFlight;
  }

  get queued(): number {
    return this.queue.length;
  }

  /**
   * Waits for a slot; the returned function gives it back (calling it twice is harmless). `ahead` queues
   * before every waiter that is not ahead (in order among those that are): the next page of a paging chain
   * waits on the one before it, so queued behind the requests started beside it the chain would stretch a
   * refresh to many times its length (issue 14, item 5).
   */
  acquire(signal?: AbortSignal, options: { ahead?: boolean } = {}): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, ahead: options.ahead === true };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortError());
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const behind = waiter.ahead ? this.queue.findIndex((w) => !w.ahead) : -1;
      if (behind >= 0) this.queue.splice(behind, 0, waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Holds every queued request for `ms` (a 429's Retry-After): sending more during the burst window
   * only buys more counted 429s. Requests already in flight are not affected.
   */
  pause(ms: number): void {
    if (ms <= 0) return;
    const token = ++this.pauseToken;
    this.paused = true;
    void this.sleep(ms).then(() => {
      if (token !== this.pauseToken) return;
      this.paused = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.paused) return;
    while (this.queue.length > 0 && this.inFlight < this.maxConcurrent) {
      const now = this.clock();
      while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
      if (this.starts.length >= this.maxPerWindow) {
        this.wakeIn(this.starts[0] + this.windowMs - now);
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.inFlight++;
      this.starts.push(now);
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.pump();
      });
    }
  }

  private wakeIn(ms: number): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(1, Math.ceil(ms)));
  }
}

function abortError(): Error {
  const e = new Error('The request was aborted while waiting for a slot.');
  e.name = 'AbortError';
  return e;
}
