// How busy the FIN functions are: evaluations running now and started so far, so Refresh all can tell
// when the cells a recalculation started have all settled.

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * What a host reports of the recalculation it started (RefreshOptions.recalculate), so Refresh all knows
 * when Excel has handed every FIN cell over. A host that can tell neither reports nothing, and a quiet
 * period decides.
 */
export interface Recalculation {
  /**
   * FIN evaluations the recalculated cells hold. An upper bound: Excel never calls a function whose
   * arguments are errors, nor one in a branch IF does not take.
   */
  evaluations?: number;
  /** True once the host has finished calculating (Excel: Application.calculationState is Done). */
  calculationDone?: () => Promise<boolean>;
}

export interface SettleOptions {
  /** Without any signal from the host: settled after this long with no evaluation (ms). */
  quietMs: number;
  /** Give up after this long (ms): the answer is then false. */
  timeoutMs: number;
  /** How often the host's calculation state is read while nothing runs (ms). */
  pollMs?: number;
}

/** With signals, the quiet period only guards against a host that never says it is done. */
const QUIET_GUARD_FACTOR = 10;

export class FinActivity {
  private active = 0;
  private operations = 0;

  /** An evaluation starts (turns.ts calls this and settled(), once each per evaluation). */
  started(): void {
    this.active += 1;
    this.operations += 1;
  }

  /** An evaluation settled: a value or an error. */
  settled(): void {
    this.active -= 1;
  }

  /** The number of evaluations started so far: what whenSettled counts from. */
  mark(): number {
    return this.operations;
  }

  /**
   * Resolves true once the evaluations a recalculation started (after `since`, a mark()) have settled,
   * false if that did not happen within `timeoutMs`. Nothing may be running, and one of these holds:
   * - every evaluation the host expects has started (the firm case: Excel counted the FIN calls it sent);
   * - the host says its calculation is done, twice in a row with no evaluation starting in between (cells
   *   Excel never calls, such as those with error arguments, leave the count short);
   * - no evaluation has started or run for the quiet period: only the measure without signals, and with
   *   them a guard ten times as long against a host that never says done.
   */
  async whenSettled(since: number, signals: Recalculation, options: SettleOptions): Promise<boolean> {
    // Real time, not an injected clock: this waits on real evaluations.
    const deadline = Date.now() + options.timeoutMs;
    const hasSignals = signals.evaluations !== undefined || signals.calculationDone !== undefined;
    const quietMs = hasSignals ? options.quietMs * QUIET_GUARD_FACTOR : options.quietMs;
    const pollMs = Math.max(5, Math.min(options.pollMs ?? 100, options.quietMs));
    let quietSince = Date.now();
    let lastSeen = this.operations;
    let doneAt: number | null = null; // operations when the host last said done
    for (;;) {
      if (this.active > 0 || this.operations !== lastSeen) {
        lastSeen = this.operations;
        quietSince = Date.now();
        doneAt = null;
      } else {
        if (signals.evaluations !== undefined && this.operations - since >= signals.evaluations) return true;
        if (signals.calculationDone) {
          const done = await signals.calculationDone().catch(() => false);
          if (done && doneAt === this.operations && this.active === 0) return true;
          doneAt = done && this.active === 0 ? this.operations : null;
        }
        if (this.active === 0 && this.operations === lastSeen && Date.now() - quietSince >= quietMs) return true;
      }
      if (Date.now() > deadline) return false;
      await sleep(pollMs);
    }
  }

  /** Resolves true once no evaluation has run for `quietMs`; false if that did not happen within `timeoutMs`. */
  whenIdle(quietMs = 300, timeoutMs = 300_000): Promise<boolean> {
    return this.whenSettled(this.operations, {}, { quietMs, timeoutMs, pollMs: Math.min(50, quietMs) });
  }
}
