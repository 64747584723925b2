// Reading pushed rows back: after a successful job, one incremental sync re-reads the server's values
// of every changed row. A run's watermark is pinned at "now - 1 s", so the sync waits deps.settleMs
// first to see changes committed in the last second.

import type { OpenTable, Deps, ProgressFn } from './context';
import { errorReason } from './outcomes';
import { syncTable, type SyncOutcome } from './pull';

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
