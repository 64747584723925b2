// Reading pushed rows back. A successful job of edits leaves its rows with exactly the values it sent, and
// the outcomes have written them as pulled already (outcomes.ts); what the add-in cannot know is what others
// changed meanwhile. An incremental sync from the table's watermark brings both: when the pushed rows fit in
// one page it costs one call and moves the watermark past them, so it runs (after deps.settleMs, because a
// run's watermark is pinned at "now - 1 s"). Beyond that it would spend a call per 500 rows the table
// already holds, and is left to the next sync: the watermark stays where the push's upstream check left it,
// pinned before any job ran, so the next refresh or check reads every row changed since -- by anyone --
// and a row someone else changed during the push is seen there, as any upstream change is. A shift's new
// dates are the server's to work out (clamped to month ends): a successful shift is always read back.

import type { OpenTable, Deps, ProgressFn } from './context';
import type { JobReport } from './jobs';
import { errorReason } from './outcomes';
import { PAGE_SIZE } from './edits';
import { syncTable, type SyncOutcome } from './pull';

/** Whether the push's successful jobs leave anything to read back now (see above). */
export function readBackNow(reports: readonly JobReport[]): boolean {
  const succeeded = reports.filter((r) => r.result === 'success');
  if (succeeded.length === 0) return false;
  if (succeeded.some((r) => r.kind !== 'edit')) return true;
  return succeeded.reduce((n, r) => n + r.rows, 0) < PAGE_SIZE;
}

/** A failed read-back is a warning, not a failure: the rows were updated; Refresh catches up later. */
export async function settleThenReread(deps: Deps, t: OpenTable, warnings: string[], onProgress?: ProgressFn): Promise<SyncOutcome | null> {
  await deps.sleep(deps.settleMs);
  onProgress?.({ phase: 'rereading', message: 'Reading back the changed rows…' });
  try {
    return await syncTable(deps, t, t.state.incremental ? 'incremental' : 'restricted', onProgress, 'Reading back');
  } catch (e) {
    warnings.push(`The pushed rows were updated, but reading back their server values failed (${errorReason(e)}); Refresh later.`);
    return null;
  }
}
