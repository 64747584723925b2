// How busy the FIN functions are: evaluations running now and started so far, so Refresh all can tell
// when the cells a recalculation started have all settled; and the batches they come in, so what a
// recalculation spent can be told apart from what the pane's own actions spent (the pane's usage log).

import type { FinCell } from './cellReads';

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
  /**
   * Called once the FIN evaluations have settled: recalculates every cell that depends on the recalculated
   * FIN cells, at any depth. Excel recalculates a range and its direct dependents only (RangeAreas.calculate:
   * OfficeDev/office-js#5063), so a total of subtotals of FIN cells would keep its old figure; a host whose
   * own calculation reaches every dependent leaves it out.
   */
  dependents?: () => Promise<void>;
}

/** Which FIN cells a host recalculates. */
export interface RecalculateOptions {
  /**
   * Only the FIN cells that show an error (the formulas that showed "Not connected" among them). A cell
   * that shows a figure may have no answer in this computer's cache (a workbook from a colleague): left
   * alone, it spends nothing.
   */
  errorsOnly?: boolean;
  /** Only these FIN cells (a refresh of the selection or the sheet); the host recalculates nothing else. */
  cells?: readonly FinCell[];
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

/**
 * A batch ends when no evaluation has run for this long: Excel hands a recalculation's cells over in
 * bursts a few milliseconds apart, and a user typing the next formula takes longer than this.
 */
export const BATCH_QUIET_MS = 300;

/** One batch of evaluations (a recalculation, a formula entered): how many there were. */
export interface FinBatch {
  evaluations: number;
}

export class FinActivity {
  private active = 0;
  private operations = 0;
  /** Evaluations of the batch under way (0: none). */
  private batch = 0;
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly batchListeners = new Set<(batch: FinBatch) => void>();

  constructor(private readonly batchQuietMs = BATCH_QUIET_MS) {}

  /** An evaluation starts (turns.ts calls this and settled(), once each per evaluation). */
  started(): void {
    this.active += 1;
    this.operations += 1;
    this.batch += 1;
    // Thousands start in one go: only the first has a timer to stop.
    if (this.batchTimer !== undefined) {
      clearTimeout(this.batchTimer);
      this.batchTimer = undefined;
    }
  }

  /** An evaluation settled: a value or an error. */
  settled(): void {
    this.active -= 1;
    if (this.active === 0) this.endBatchWhenQuiet();
  }

  /** Told when a batch of evaluations has settled and none has run since for the batch quiet period. */
  onBatch(listener: (batch: FinBatch) => void): () => void {
    this.batchListeners.add(listener);
    return () => {
      this.batchListeners.delete(listener);
    };
  }

  private endBatchWhenQuiet(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      const batch = { evaluations: this.batch };
      this.batch = 0;
      for (const listener of [...this.batchListeners]) {
        try {
          listener(batch);
        } catch {
          // A listener's bug must not break the evaluations.
        }
      }
    }, this.batchQuietMs);
    // Nothing to wait for at exit (Node): a batch nobody will hear of is no loss.
    (this.batchTimer as { unref?: () => void }).unref?.();
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

  /**
   * Resolves true once the host says it has finished calculating twice in a row (`pollMs` apart) with no FIN
   * evaluation running or starting in between; false when it has not within `timeoutMs`. Excel may never
   * say so: Application.calculationState stays Pending for good on the web while the workbook holds a chart
   * (OfficeDev/office-js#4760), and on every host while a chart reads TODAY or NOW
   * (OfficeDev/office-js#3319), so the wait is bounded and the answer says only what was confirmed.
   */
  async whenHostDone(calculationDone: () => Promise<boolean>, options: { timeoutMs: number; pollMs?: number }): Promise<boolean> {
    const deadline = Date.now() + options.timeoutMs;
    const pollMs = Math.max(5, options.pollMs ?? 100);
    let doneAt: number | null = null;
    for (;;) {
      const done = this.active === 0 && (await calculationDone().catch(() => false)) && this.active === 0;
      if (done && doneAt === this.operations) return true;
      doneAt = done ? this.operations : null;
      if (Date.now() > deadline) return false;
      await sleep(pollMs);
    }
  }

  /** Resolves true once no evaluation has run for `quietMs`; false if that did not happen within `timeoutMs`. */
  whenIdle(quietMs = 300, timeoutMs = 300_000): Promise<boolean> {
    return this.whenSettled(this.operations, {}, { quietMs, timeoutMs, pollMs: Math.min(50, quietMs) });
  }
}
