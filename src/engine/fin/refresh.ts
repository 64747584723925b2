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
  const since = activity.mark();
  const signals = (await options.recalculate()) ?? {};
  const settled = await activity.whenSettled(since, signals, { quietMs: options.quietMs ?? 300, timeoutMs: options.timeoutMs ?? 300_000 });
  const spent = Math.max(0, (await client.meter.count()) - before);
  const kept = reader.staleServedCount() - keptBefore;
  const calls = plural(spent, 'call');
  const block = await reader.capBlock();
  const what = options.label ?? (changedOnly ? 'Refresh of what changed' : 'Refresh all');
  let message = settled ? `${what} spent ${calls}` : `${what} spent ${calls} so far (some formulas were still calculating)`;
  if (block) message += `; ${monthlyLimitError(block.cap, block.resetDate).message}`;
  else if (kept > 0) {
    const asOf = await freshness.dataAsOf(company);
    const when = asOf === undefined ? 'earlier' : `of ${formatDataAsOf(asOf)}`;
    message += `; the API failed for some formulas, which keep their figures ${when} — refresh again later`;
  }
  return report({ spent, due, kept, settled, limited: block !== null, message });
}
