// Review: the table's edits, checked, grouped and costed, without a call. The push runs the same checks
// (checkRows) after its upstream check, so what Review shows is what a push sends.

import type { RowUpdate } from '../ports/workbook';
import { COL, cellText, type RowView, type TableView, KEY_COLUMN } from './columns';
import { editContext, openTable, readView, type Deps, type OpenTable } from './context';
import {
  checkEdit,
  describeUpdate,
  detectEdit,
  estimateCost,
  groupEdits,
  type CheckedEdit,
  type CostEstimate,
  type EditContext,
  type UpdateGroup,
} from './edits';
import * as M from './messages';
import { unfinishedMarks, unfinishedPushes, type UnfinishedPush } from './resume';
import type { RowFlags } from './state';

export interface GroupSummary {
  description: string;
  update: UpdateGroup['update'];
  rows: number;
  method: 'patch' | 'bulk';
  jobs: number;
  /** Calls this group costs when it succeeds (PATCH: 1; bulk: a submission and at least one poll per job). */
  calls: number;
  ids: string[];
}

export interface ReviewPlan {
  /** Rows whose editable cells differ from their pulled values. */
  edited: number;
  groups: GroupSummary[];
  /** Marked in the Push status column and left out of the push. */
  invalid: { id: string; message: string }[];
  /** Not sent: deleted upstream, or changed upstream under the edit (held once for review). */
  held: { id: string; message: string }[];
  /** Rows that lost their Pulled id: named by their position in the table (1 = the first data row). */
  lost: { row: number; message: string }[];
  cost: CostEstimate;
  /** Unfinished pushes of this table: shown with what resuming does, resumed only when confirmed. */
  unfinished: UnfinishedPush[];
}

export interface CheckedRows {
  sendable: CheckedEdit[];
  invalid: { id: string; message: string }[];
  held: { id: string; message: string }[];
  lost: { row: number; message: string }[];
  statusWrites: RowUpdate[];
  /** Rows deleted upstream whose edit was undone: nothing of the user's is left on them. */
  deletes: string[];
  flags: RowFlags;
  flagsChanged: boolean;
  edited: number;
}

/**
 * Edits of the table, checked. Writes nothing; returns the Push status changes it implies: invalid rows
 * get their reason, held rows keep their flag's message, and `pendingStatus` rows get "Pending push"
 * (review) or are left for the push's outcome.
 */
export function checkRows(
  view: TableView,
  flagsIn: RowFlags,
  ctx: EditContext,
  holdUpstream: Set<string>,
  pendingStatus: boolean,
  unfinishedMarks: ReadonlyMap<string, string> = new Map(),
): CheckedRows {
  const flags: RowFlags = { ...flagsIn };
  let flagsChanged = false;
  const out: CheckedRows = { sendable: [], invalid: [], held: [], lost: [], statusWrites: [], deletes: [], flags, flagsChanged: false, edited: 0 };
  const setStatus = (row: RowView, status: string) => {
    if (cellText(row.get(COL.pushStatus)) !== status) out.statusWrites.push({ key: row.id, values: { [COL.pushStatus]: status || null } });
  };
  for (const orphan of view.orphans) out.lost.push({ row: orphan.index + 1, message: M.lostIdentity(orphan.index + 1) });
  for (const row of view.rows) {
    const flag = flags[row.id];
    const edit = detectEdit(row, ctx.system);
    if (edit) out.edited++;
    const unfinished = unfinishedMarks.get(cellText(row.get(COL.pushStatus)));
    if (unfinished) {
      // A row of a push cut short: its mark stays (it is how that push is rebuilt) until it is resumed or
      // discarded; nothing new is sent for it meanwhile.
      out.held.push({ id: row.id, message: unfinished });
      continue;
    }
    if (row.problem) {
      // Refused before anything else: which transaction the row is, or what it holds, is in doubt.
      const message = M.rowProblem(row.id, row.problem);
      if (flag?.kind !== 'local' || flag.message !== message) {
        flags[row.id] = { kind: 'local', message };
        flagsChanged = true;
      }
      out.invalid.push({ id: row.id, message });
      setStatus(row, message);
      continue;
    }
    if (!edit) {
      if (flag) {
        delete flags[row.id];
        flagsChanged = true;
      }
      const status = cellText(row.get(COL.pushStatus));
      if (flag?.kind === 'deleted') out.deletes.push(row.id);
      else if (status && !M.isUpdatedStatus(status)) setStatus(row, '');
      continue;
    }
    if (flag?.kind === 'deleted') {
      out.held.push({ id: row.id, message: flag.message });
      setStatus(row, flag.message);
      continue;
    }
    if (holdUpstream.has(row.id) && flag?.kind === 'upstream') {
      out.held.push({ id: row.id, message: flag.message });
      setStatus(row, flag.message);
      continue;
    }
    const checked = checkEdit(edit, ctx);
    if (!checked.ok) {
      if (flag?.kind !== 'local' || flag.message !== checked.message) {
        flags[row.id] = { kind: 'local', message: checked.message };
        flagsChanged = true;
      }
      out.invalid.push({ id: row.id, message: checked.message });
      setStatus(row, checked.message);
      continue;
    }
    if (flag?.kind === 'local') {
      delete flags[row.id];
      flagsChanged = true;
    }
    out.sendable.push(checked.edit);
    if (pendingStatus) setStatus(row, flag && flag.kind !== 'local' ? flag.message : M.MSG.pending);
  }
  out.flagsChanged = flagsChanged;
  return out;
}

export async function writeCheckedRows(deps: Deps, t: OpenTable, built: CheckedRows): Promise<void> {
  if (built.statusWrites.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, built.statusWrites);
  if (built.deletes.length) await deps.gateway.deleteRowsByKey(t.table, KEY_COLUMN, built.deletes);
  if (built.flagsChanged) await t.store.writeFlags(built.flags);
}

export function summarizeGroups(groups: UpdateGroup[], t: OpenTable): GroupSummary[] {
  return groups.map((g) => ({
    description: describeUpdate(g.update, t.dir),
    update: g.update,
    rows: g.ids.length,
    method: g.method,
    jobs: g.jobs.length,
    calls: g.method === 'patch' ? 1 : 2 * g.jobs.length,
    ids: g.ids,
  }));
}

/** "Review changes": what a push would send and what it would cost. No API call; marks invalid rows. */
export async function review(deps: Deps, bindingId: string): Promise<ReviewPlan> {
  const t = await openTable(deps, bindingId);
  const view = await readView(deps, t);
  const built = checkRows(view, await t.store.flags(), editContext(deps, t), new Set(), true, await unfinishedMarks(t));
  await writeCheckedRows(deps, t, built);
  const groups = groupEdits(built.sendable, deps.maxJobIds);
  return {
    edited: built.edited,
    groups: summarizeGroups(groups, t),
    invalid: built.invalid,
    held: built.held,
    lost: built.lost,
    cost: estimateCost(groups, { checkUpstream: deps.checkUpstream }),
    unfinished: await unfinishedPushes(deps, t, view),
  };
}
