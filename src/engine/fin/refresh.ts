// Refresh all for the FIN cells: mark the company's cached answers due for a refresh, have the host
// recalculate the workbook's FIN cells, wait until the evaluations that starts have settled, and report what
// it spent. Under the monthly cap nothing is marked (the cells keep their values) and nothing is spent; when
// the API fails part way, the cells it could not refresh keep their figures (the report counts them).

import { plural } from '../text/plural';
import type { FinActivity, Recalculation } from './activity';
import type { FinClient } from './client';
import { monthlyLimitError, toFinError } from './errors';
import { formatDataAsOf, type Freshness } from './freshness';
import type { FinInputs } from './inputs';
import type { CachedReader } from '../reader/cachedReader';

export interface RefreshOptions {
  /** Asks the host to recalculate the workbook's FIN cells (Excel: those cells only, see src/excel). */
  recalculate: () => Promise<Recalculation | void>;
  /**
   * When the host reports nothing: how long no FIN evaluation may run before the recalculation is taken as
   * settled (ms). With the host's signals it only bounds a host that never says done (ten times as long).
   */
  quietMs?: number;
  /** Stop waiting for the FIN calls after this long (ms); the report then says `settled: false`. */
  timeoutMs?: number;
  /**
   * 'all' (Refresh all): every cached answer is due again. 'changed': only the answers already known to be
   * stale (what a push changed) are fetched again as the recalculated cells read them; the rest is free.
   */
  scope?: 'all' | 'changed';
  /** What the report calls the refresh ("Refresh of the selection"); by default after its scope. */
  label?: string;
  /**
   * How long to wait, once the FIN cells have settled and their dependents were recalculated, for the host to
   * say it has finished calculating (ms); by default ten quiet periods. It may never say so (#3319).
   */
  doneWaitMs?: number;
}

export interface RefreshReport {
  /** Calls spent by the refresh (the client meter's delta). */
  spent: number;
  /** Cached answers marked due for a refresh before recalculating. */
  due: number;
  /** Reads that kept their earlier figures because the API failed while refreshing them (0: all fresh). */
  kept: number;
  /** True when every FIN evaluation the recalculation started had settled. */
  settled: boolean;
  /** True when the monthly cap blocked the refresh (nothing was marked, nothing spent). */
  limited: boolean;
  /**
   * Whether the host said it had finished calculating, totals on the FIN cells included; false when it did not
   * within the wait (the message says so), undefined for a host that cannot tell.
   */
  calculationConfirmed?: boolean;
  durationMs: number;
  /** "Refresh all spent 13 calls", for the ribbon command and the pane. */
  message: string;
}

export interface RefreshParts {
  client: FinClient;
  reader: CachedReader;
  freshness: Freshness;
  inputs: FinInputs;
  activity: FinActivity;
  /** Opens the window in which an answer due for a refresh is fetched again (FinReads.openRefresh); returns its end. */
  openRefresh?: () => () => void;
}

export async function refreshFinCells(parts: RefreshParts, options: RefreshOptions): Promise<RefreshReport> {
  const { client, reader, freshness, inputs, activity } = parts;
  const started = Date.now();
  const report = (partial: Omit<RefreshReport, 'durationMs'>): RefreshReport => ({ ...partial, durationMs: Date.now() - started });
  let company: string;
  try {
    company = await reader.companyId();
    await reader.assertCanSpend('/');
  } catch (error) {
    const fin = toFinError(error, '/company');
    return report({ spent: 0, due: 0, kept: 0, settled: true, limited: fin.code === 'monthly_limit', message: `Refresh all: nothing refreshed. ${fin.message}` });
  }
  // A run the user started: a breaker opened by an earlier outage gives the API its chance again.
  reader.newRun();
  const before = await client.meter.count();
  const keptBefore = reader.staleServedCount();
  const changedOnly = options.scope === 'changed';
  let due: number;
  if (changedOnly) due = (await reader.staleKeys()).length;
  else {
    due = await reader.markAllStale();
    inputs.forgetDateSystem();
    await freshness.reset(company);
  }
  const quietMs = options.quietMs ?? 300;
  const since = activity.mark();
  // The evaluations this recalculation starts fetch what is due; none after it (reads.ts).
  const closeRefresh = parts.openRefresh?.() ?? (() => {});
  let settled: boolean;
  let signals: Recalculation;
  try {
    signals = (await options.recalculate()) ?? {};
    settled = await activity.whenSettled(since, signals, { quietMs, timeoutMs: options.timeoutMs ?? 300_000 });
  } finally {
    closeRefresh();
  }
  // Only now do the FIN cells show their new figures: what is built on them is recalculated from them.
  let dependentsFailed = false;
  if (signals.dependents) await signals.dependents().catch(() => (dependentsFailed = true));
  const confirmed = signals.calculationDone ? await activity.whenHostDone(signals.calculationDone, { timeoutMs: options.doneWaitMs ?? quietMs * 10 }) : undefined;
  const spent = Math.max(0, (await client.meter.count()) - before);
  const kept = reader.staleServedCount() - keptBefore;
  const calls = plural(spent, 'call');
  const block = await reader.capBlock();
  const what = options.label ?? (changedOnly ? 'Refresh of what changed' : 'Refresh all');
  let message = settled ? `${what} spent ${calls}` : `${what} spent ${calls} so far (some formulas were still calculating)`;
  if (dependentsFailed) message += '; Excel refused to recalculate the formulas built on the FIN cells: recalculate the workbook (Formulas > Calculate Now) before you share its figures';
  else if (confirmed === false) message += `; Excel has not confirmed it finished calculating (it may never do so while the workbook holds charts): look at the totals built on FIN cells before you share them`;
  if (block) message += `; ${monthlyLimitError(block.cap, block.resetDate).message}`;
  else if (kept > 0) {
    const asOf = await freshness.dataAsOf(company);
    const when = asOf === undefined ? 'earlier' : `of ${formatDataAsOf(asOf)}`;
    message += `; the API failed for some formulas, which keep their figures ${when} — refresh again later`;
  }
  return report({ spent, due, kept, settled, limited: block !== null, ...(confirmed === undefined ? {} : { calculationConfirmed: confirmed && !dependentsFailed }), message });
}
