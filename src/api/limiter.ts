// Keeps one key inside the API's burst limit (6,000 per fixed 60 s window, i.e. 100/s) and bounds the
// requests in flight. A rolling window of starts is stricter than the server's fixed window: at most
// N starts in any window means at most 60*N in any minute, whatever the server's boundaries. Every
// burst 429 still counts against the monthly cap, which is why this is worth doing client-side.

/** Waits `ms`; injected so tests with an instant sleep stay instant. */
export type Sleep = (ms: number) => Promise<void>;

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
  chain?: RequestChain;
}

/**
 * A paging chain: requests made one after another, each waiting on the answer to the one before. While it
 * is open, the limiter keeps a slot free for its next request (RequestLimiter.acquire). Whoever opens one
 * closes it when the chain ends, however it ends.
 */
export class RequestChain {
  private closed = false;
  private readonly onClose: (() => void)[] = [];

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.onClose.splice(0)) fn();
  }

  /** Runs `fn` once the chain is closed (at once when it already is). */
  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }
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
  /** Open chains the limiter has seen, with their requests in flight. */
  private readonly chains = new Map<RequestChain, number>();
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
   *
   * A request of a `chain` is queued ahead, and from its first request until the chain is closed the chain
   * keeps a slot: while it has no request in flight (it is reading the page it has and will ask for the next
   * one), the other requests leave one slot free for it. Without that, the slot a page frees is taken at once
   * by a request queued beside the chain, and the next page waits for some request to finish: a whole
   * round trip per page. At most maxConcurrent - 1 slots are kept, so other requests always move.
   */
  acquire(signal?: AbortSignal, options: { ahead?: boolean; chain?: RequestChain } = {}): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError());
    const chain = options.chain && !options.chain.isClosed ? options.chain : undefined;
    if (chain) this.keepSlot(chain);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, ahead: options.ahead === true || chain !== undefined, chain };
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

  /**
   * The chain keeps a slot from now on, before its first request (acquire does it at the first request).
   * For the chain that must start first: the pages of a pull are the longest run of calls in a refresh, and
   * once the calls started beside it hold every slot its first page would wait a round trip for one.
   */
  keepSlot(chain: RequestChain): void {
    if (chain.isClosed || this.chains.has(chain)) return;
    this.chains.set(chain, 0);
    chain.whenClosed(() => {
      this.chains.delete(chain);
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

  /** Slots kept for open chains that have no request in flight. */
  private kept(): number {
    let idle = 0;
    for (const inFlight of this.chains.values()) if (inFlight === 0) idle++;
    return Math.min(idle, this.maxConcurrent - 1);
  }

  /** The first queued waiter that may start now, or -1. */
  private nextStartable(): number {
    if (this.inFlight >= this.maxConcurrent) return -1;
    const othersMayStart = this.inFlight + this.kept() < this.maxConcurrent;
    return this.queue.findIndex((w) => othersMayStart || (w.chain !== undefined && this.chains.has(w.chain)));
  }

  private pump(): void {
    if (this.paused) return;
    for (let i = this.nextStartable(); i >= 0; i = this.nextStartable()) {
      const now = this.clock();
      while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
      if (this.starts.length >= this.maxPerWindow) {
        this.wakeIn(this.starts[0] + this.windowMs - now);
        return;
      }
      const [waiter] = this.queue.splice(i, 1);
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.inFlight++;
      this.starts.push(now);
      const chain = waiter.chain && this.chains.has(waiter.chain) ? waiter.chain : undefined;
      if (chain) this.chains.set(chain, this.chains.get(chain)! + 1);
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.inFlight--;
        if (chain && this.chains.has(chain)) this.chains.set(chain, this.chains.get(chain)! - 1);
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
