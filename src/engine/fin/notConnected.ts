// FIN cells evaluated before the user connected show "#N/A Not connected", and Excel calculates a custom
// function again only when something makes it: they would keep the error until Refresh all, which spends a
// call for every cached answer. The runtime tells this ledger of each such evaluation (and, while any is
// pending, how later evaluations of the same calls end). On connecting, the FIN cells that show an error are
// recalculated through Refresh's 'changed' path, which marks nothing stale, so answers already cached cost
// nothing: at once when that costs a few calls at most, after the user's go-ahead in the pane otherwise.

import { plural } from '../text/plural';
import type { CachedReader } from '../reader/cachedReader';
import type { Recalculation } from './activity';
import { isFinError, type FinError } from './errors';
import type { FinCall } from './finCall';
import { callKey, callsAtMost, recalculationCost } from './notConnectedCost';
import type { RefreshReport } from './refresh';
import type { FinService } from './service';

/**
 * At most this many calls are spent without asking: one formula costs at most two (the category list and
 * its report), and five is half of the Formation plan's month, more than the user should find gone unseen.
 */
export const AUTOMATIC_RECALCULATION_CALLS = 5;

export type NotConnectedState =
  | { status: 'none' }
  /** More than AUTOMATIC_RECALCULATION_CALLS: the pane asks before spending them. */
  | { status: 'asking'; formulas: number; calls: number }
  | { status: 'recalculating'; formulas: number; calls: number }
  /** `failed`: the API or the cap stopped it for some formulas (the message says which and why). */
  | { status: 'done'; formulas: number; spent: number; failed: boolean; message: string };

export const NOTHING_NOT_CONNECTED: NotConnectedState = Object.freeze({ status: 'none' });

/** The connection the formulas are recalculated on. */
export interface RecalculationTarget {
  service: FinService;
  reader: CachedReader;
  /** The host's recalculation of this workbook's FIN cells that show an error. */
  recalculate: () => Promise<Recalculation | void>;
  /** See RefreshOptions.quietMs. */
  quietMs?: number;
}

/** How a recalculated call ended when it failed for want of a connection again (a disconnect meanwhile). */
const STILL_NOT_CONNECTED = Symbol('still not connected');

function outcomeMessage(formulas: number, report: RefreshReport, failures: FinError[], capMessage: string | null): string {
  const spent = plural(report.spent, 'call');
  if (report.limited && capMessage) {
    return report.spent === 0
      ? `The formulas that showed Not connected were not recalculated: ${capMessage}`
      : `Recalculating the formulas that showed Not connected stopped after ${spent}: ${capMessage}`;
  }
  const head = `Recalculated ${plural(formulas, 'formula')} that showed Not connected, spending ${spent}`;
  if (failures.length > 0) {
    return `${head}; ${plural(failures.length, 'formula')} could not get ${failures.length === 1 ? 'its' : 'their'} figures: ${failures[0].message}`;
  }
  return report.settled ? head : `${head} so far (some formulas were still calculating)`;
}

export class NotConnectedFormulas {
  private readonly pending = new Map<string, FinCall>();
  /** Evaluations that failed for want of a connection since the last recalculation. */
  private evaluations = 0;
  private state: NotConnectedState = NOTHING_NOT_CONNECTED;
  private target: RecalculationTarget | null = null;
  private running: Promise<NotConnectedState> | null = null;
  /** While recalculating: how each pending call's evaluation ended (null: it got its answer). */
  private outcomes: Map<string, unknown> | null = null;
  private readonly listeners = new Set<() => void>();

  /** What the pane shows; the same object until it changes. */
  current(): NotConnectedState {
    return this.state;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** An evaluation failed for want of a connection (value preview is no cell: the runtime does not tell it). */
  failed(call: FinCall): void {
    const key = callKey(call);
    if (!this.pending.has(key)) this.pending.set(key, call);
    this.evaluations += 1;
    this.outcomes?.set(key, STILL_NOT_CONNECTED);
  }

  /** An evaluation on a connection ended, with its error if it failed. A call typed again and answered needs nothing more. */
  /** Whether how evaluations end is wanted (some formula still shows "Not connected"). */
  following(): boolean {
    return this.pending.size > 0;
  }

  ended(call: FinCall, error?: unknown): void {
    if (this.pending.size === 0) return;
    const key = callKey(call);
    if (!this.pending.has(key)) return;
    if (this.outcomes) this.outcomes.set(key, error ?? null);
    else if (error === undefined) this.pending.delete(key);
  }

  /** Connected: recalculate at once when that costs a few calls at most, else ask first. Never throws. */
  async connected(target: RecalculationTarget): Promise<void> {
    this.target = target;
    if (this.pending.size === 0 || this.running) return;
    const formulas = [...this.pending.values()];
    let calls: number;
    try {
      calls = await recalculationCost(formulas, target.service, target.reader);
    } catch {
      // The cache could not be read: every request counted.
      calls = callsAtMost(formulas);
    }
    if (this.target !== target || this.running) return; // disconnected, or connected again, meanwhile
    if (calls <= AUTOMATIC_RECALCULATION_CALLS) void this.recalculate(calls);
    else this.set({ status: 'asking', formulas: this.evaluations, calls });
  }

  /** Not connected any more: a question still open is asked again at the next connect. */
  disconnected(): void {
    this.target = null;
    if (this.state.status === 'asking') this.set(NOTHING_NOT_CONNECTED);
  }

  /**
   * The user's go-ahead (also the automatic start): recalculates the FIN cells that show an error and says
   * what it spent and which formulas still have no figures. A call while one runs joins it.
   */
  recalculate(estimate?: number): Promise<NotConnectedState> {
    this.running ??= this.run(estimate).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Not now (the cells keep "Not connected" until Refresh all), or the result read. */
  dismiss(): void {
    if (this.running) return;
    if (this.state.status === 'asking') {
      this.pending.clear();
      this.evaluations = 0;
    }
    this.set(NOTHING_NOT_CONNECTED);
  }

  private async run(estimate?: number): Promise<NotConnectedState> {
    const target = this.target;
    if (!target || this.pending.size === 0) {
      // Each was typed again and answered since the question was asked: nothing left to recalculate.
      if (this.state.status === 'asking') this.set(NOTHING_NOT_CONNECTED);
      return this.state;
    }
    const keys = [...this.pending.keys()];
    const formulas = this.evaluations;
    const calls = estimate ?? (this.state.status === 'asking' ? this.state.calls : callsAtMost([...this.pending.values()]));
    const outcomes = new Map<string, unknown>();
    this.outcomes = outcomes;
    this.set({ status: 'recalculating', formulas, calls });
    let report: RefreshReport;
    try {
      report = await target.service.refreshAll({ recalculate: target.recalculate, scope: 'changed', quietMs: target.quietMs });
    } catch (error) {
      // The host could not recalculate (Excel busy or closing): nothing was spent on these formulas.
      this.outcomes = null;
      const why = error instanceof Error ? error.message : String(error);
      this.set({
        status: 'done',
        formulas,
        spent: 0,
        failed: true,
        message: `The formulas that showed Not connected could not be recalculated: ${why}`,
      });
      return this.state;
    }
    this.outcomes = null;
    // Done with, answered or not: a call that failed for want of a connection again (a disconnect
    // meanwhile) stays for the next connect.
    for (const key of keys) if (outcomes.get(key) !== STILL_NOT_CONNECTED) this.pending.delete(key);
    this.evaluations = Math.max(0, this.evaluations - formulas);
    // Only what the data's availability caused: a #VALUE! is the formula's own, and its cell says so.
    const failures = [...outcomes.values()].filter((e): e is FinError => isFinError(e) && e.kind === 'na');
    const capMessage = report.limited ? ((await target.service.monthlyLimit())?.message ?? null) : null;
    const failed = report.limited || failures.length > 0;
    this.set({ status: 'done', formulas, spent: report.spent, failed, message: outcomeMessage(formulas, report, failures, capMessage) });
    return this.state;
  }

  private set(state: NotConnectedState): void {
    this.state = state;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's bug must not stop the others.
      }
    }
  }
}
