// How busy the FIN functions are: evaluations running now and started so far, so Refresh all can tell
// when the cells a recalculation started have all settled.

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class FinActivity {
  private active = 0;
  private operations = 0;

  /** Runs one evaluation, counted while it runs. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active += 1;
    this.operations += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
    }
  }

  /** Resolves true once no evaluation has run for `quietMs`; false if that did not happen within `timeoutMs`. */
  async whenIdle(quietMs = 300, timeoutMs = 300_000): Promise<boolean> {
    // Real time, not an injected clock: this waits on real evaluations.
    const deadline = Date.now() + timeoutMs;
    const step = Math.max(5, Math.min(50, quietMs));
    for (;;) {
      if (this.active === 0) {
        const mark = this.operations;
        await sleep(quietMs);
        if (this.active === 0 && this.operations === mark) return true;
      } else {
        await sleep(step);
      }
      if (Date.now() > deadline) return false;
    }
  }
}
