// Outcomes per row of a push: what a terminal job, a PATCH or an error means for each row, and writing
// them (Push status, pulled values of successes, row flags) to the table.

import { ApiError, MonthlyLimitError, type BulkUpdateJob, type BulkUpdateParams, type JobError } from '../../api';
import type { RowUpdate, WriteValue } from '../ports/workbook';
import { COL, readDateCell, type TableView, KEY_COLUMN } from './columns';
import { changesOf, type SentGroup } from './changes';
import type { Deps, OpenTable } from './context';
import type { EditUpdate } from './edits';
import type { JobKind } from './journal';
import * as M from './messages';
import { rowCheck } from './rowCheck';

export interface RowOutcome {
  id: string;
  ok: boolean;
  status: string;
  /** New pulled values (success of an absolute update). */
  pulledDepartment?: string;
  pulledAccountingSerial?: number;
  /** true: the result is not known yet (the journal keeps the job); the row keeps its edit. */
  unknown?: boolean;
}

/**
 * Turns a terminal job into one outcome per id. A failed job changed nothing: every row stays pending. Its
 * errors are matched to rows by the transaction id they carry (src/api/jobAnswer.ts reads it by its txn_ prefix,
 * whatever the field's name); a row no error names is told why the others failed, or that the job failed
 * as a whole -- never another row's reason as its own.
 */
export function jobRowOutcomes(ids: string[], job: BulkUpdateJob, errors: JobError[], kind: JobKind, update: BulkUpdateParams['updates'], t: OpenTable, view: TableView): RowOutcome[] {
  if (job.status === 'success') {
    return ids.map((id) => {
      const o: RowOutcome = { id, ok: true, status: kind === 'shift' ? M.updatedShift(update.accounting_shift ?? 0) : M.MSG.updated };
      if (kind === 'edit') Object.assign(o, pulledAfter(update as EditUpdate, id, t, view));
      return o;
    });
  }
  const byId = new Map<string, JobError>();
  let jobLevel: JobError | undefined;
  for (const e of errors) {
    if (e.transaction_id) {
      if (!byId.has(e.transaction_id)) byId.set(e.transaction_id, e);
    } else jobLevel ??= e;
  }
  const first = jobLevel ?? errors[0];
  const firstReason = first ? M.jobErrorReason(first) : 'the job failed';
  return ids.map((id) => {
    const own = byId.get(id);
    if (own) return { id, ok: false, status: M.jobErrorReason(own) };
    if (jobLevel) return { id, ok: false, status: M.jobFailedAsWhole(M.jobErrorReason(jobLevel)) };
    return { id, ok: false, status: M.notAppliedBecauseOthers(firstReason, byId.size) };
  });
}

function pulledAfter(update: EditUpdate, id: string, t: OpenTable, view: TableView): Pick<RowOutcome, 'pulledDepartment' | 'pulledAccountingSerial'> {
  const o: Pick<RowOutcome, 'pulledDepartment' | 'pulledAccountingSerial'> = {};
  if (update.department_id !== undefined) o.pulledDepartment = update.department_id === null ? '' : (t.dir.pathOf(update.department_id) ?? update.department_id);
  if (update.accounting_date !== undefined) {
    if (update.accounting_date === null) {
      const row = view.byId.get(id);
      const d = row ? readDateCell(row.get(COL.date), t.system) : undefined;
      if (d?.kind === 'date') o.pulledAccountingSerial = d.serial;
    } else {
      const serial = isoSerial(update.accounting_date, t);
      if (serial !== undefined) o.pulledAccountingSerial = serial;
    }
  }
  return o;
}

function isoSerial(iso: string, t: OpenTable): number | undefined {
  const cell = readDateCell(iso, t.system);
  return cell.kind === 'date' ? cell.serial : undefined;
}

/** What a row shows for an error of a call made for it. */
export function errorReason(e: unknown): string {
  if (e instanceof MonthlyLimitError) return e.message;
  if (e instanceof ApiError) {
    if (e.status === 403 && e.code === 'insufficient_permission') return M.MSG.permissionLost;
    if (e.status === 404) return M.MSG.missing;
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}


/**
 * Writes outcomes (status, and pulled values of successes) in one table write, and the row flags; marks
 * the cached answers the changes touch as stale (the figures they gave are no longer the company's); then
 * the jobs whose rows got a terminal result leave the journal. Never the other way round: a crash in
 * between must find the job still journalled, not rows without their result.
 */
export async function writeOutcomes(
  deps: Deps,
  t: OpenTable,
  view: TableView,
  outcomes: RowOutcome[],
  done: { sent: readonly SentGroup[]; finishedKeys?: readonly string[] },
): Promise<void> {
  await applyOutcomes(deps, t, outcomes, view);
  const changes = changesOf(view, t.system, done.sent, outcomes);
  if (changes.length) await deps.noteChanged(changes, t.binding.id);
  await t.journal.remove(done.finishedKeys ?? []);
}

async function applyOutcomes(deps: Deps, t: OpenTable, outcomes: RowOutcome[], view: TableView): Promise<void> {
  if (outcomes.length === 0) return;
  const flags = await t.store.flags();
  let changed = false;
  const updates: RowUpdate[] = [];
  for (const o of outcomes) {
    const row = view.byId.get(o.id);
    if (!row) continue;
    const values: Record<string, WriteValue> = { [COL.pushStatus]: o.status };
    if (o.pulledDepartment !== undefined) values[COL.pulledDepartment] = o.pulledDepartment || null;
    if (o.pulledAccountingSerial !== undefined) values[COL.pulledAccountingDate] = o.pulledAccountingSerial;
    // The values as pulled moved to what was sent: the row's check follows them.
    if (o.pulledDepartment !== undefined || o.pulledAccountingSerial !== undefined) {
      values[COL.rowCheck] = rowCheck((c) => (c in values ? values[c] : row.get(c)));
    }
    updates.push({ key: o.id, values });
    if (o.ok) {
      if (flags[o.id]) {
        delete flags[o.id];
        changed = true;
      }
    } else {
      // Failed, not sent, or not known yet: the row keeps its edit and the reason, until it goes through.
      flags[o.id] = { kind: 'failed', message: o.status };
      changed = true;
    }
  }
  if (updates.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, updates);
  if (changed) await t.store.writeFlags(flags);
}
