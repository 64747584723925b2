// Single-row updates: a one-row group is a PATCH (1 call). PATCH sets absolute values, so sending it
// again after a lost answer is harmless: it is not journalled. Up to four are in flight at once.

import { ApiError, MonthlyLimitError, type Transaction } from '../../api';
import type { Deps, ProgressFn } from './context';
import type { CheckedEdit, EditUpdate } from './edits';
import * as M from './messages';
import { errorReason, type RowOutcome } from './outcomes';

/** A monthly cap met by one PATCH sets `stop`: the PATCHes and bulk jobs after it are "Not sent" with its message. */
export async function sendPatches(deps: Deps, edits: { edit: CheckedEdit; update: EditUpdate }[], stop: { reason?: string }, onProgress?: ProgressFn): Promise<{ outcomes: RowOutcome[]; returned: Transaction[] }> {
  const outcomes: RowOutcome[] = [];
  const returned: Transaction[] = [];
  let next = 0;
  const worker = async () => {
    while (next < edits.length) {
      const { edit, update } = edits[next++];
      if (stop.reason) {
        outcomes.push({ id: edit.id, ok: false, status: M.notSent(stop.reason) });
        continue;
      }
      try {
        const t = await deps.spend('/transactions/{id}', (o) => deps.client.transactions.update(edit.id, update, o));
        returned.push(t);
        outcomes.push({ id: edit.id, ok: true, status: M.MSG.updated, pulledDepartment: edit.pulledDepartment, pulledAccountingSerial: edit.pulledAccountingSerial });
      } catch (e) {
        if (e instanceof MonthlyLimitError) stop.reason = e.message;
        if (e instanceof ApiError && e.isConnectionError) outcomes.push({ id: edit.id, ok: false, unknown: true, status: M.MSG.notConfirmedPatch });
        else outcomes.push({ id: edit.id, ok: false, status: errorReason(e) });
      }
    }
  };
  if (edits.length) onProgress?.({ phase: 'sending', message: `Sending ${edits.length} single-row update${edits.length === 1 ? '' : 's'}…` });
  await Promise.all(Array.from({ length: Math.min(4, edits.length) }, worker));
  return { outcomes, returned };
}
