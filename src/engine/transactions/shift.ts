// Shifting accounting dates: accounting_shift for chosen rows, always bulk jobs (PATCH has no shift).
// Rows with an edited accounting date, transfers, splits and shifts leaving the accounting window are
// refused locally, before any job.

import type { RowUpdate } from '../ports/workbook';
import { addMonths } from '../dates';
import { COL, cellText, cellToIso, readDateCell, KEY_COLUMN } from './columns';
import { callsSince, meterSnapshot, openTable, readView, today, type Deps } from './context';
import { accountingWindow, inWindow, isAccountingDateEdited } from './edits';
import { runJobs, type JobSpec } from './jobs';
import * as M from './messages';
import { writeOutcomes } from './outcomes';
import { syncTable, type SyncOutcome } from './pull';
import type { PushOptions, PushResult } from './push';
import { readBackNow, settleThenReread } from './reread';
import { unfinishedMarks } from './resume';

export interface ShiftResult extends Omit<PushResult, 'groups' | 'patches'> {
  months: number;
}

/** accounting_shift for the given rows (the pane passes the selected rows' ids): one job per 5,000. */
export async function shiftAccountingDates(deps: Deps, bindingId: string, ids: string[], months: number, options: PushOptions = {}): Promise<ShiftResult> {
  if (!Number.isInteger(months) || months === 0 || Math.abs(months) > 1200) throw new Error('Shift by a whole number of months from -1200 to 1200, not 0.');
  const onProgress = options.onProgress;
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  options.log?.opened(t);
  const warnings: string[] = [];
  const marks = await unfinishedMarks(t);
  let check: SyncOutcome | null = null;
  if (deps.checkUpstream) check = await syncTable(deps, t, t.state.incremental ? 'incremental' : 'restricted', onProgress, 'Checking');

  const view = await readView(deps, t);
  const flags = await t.store.flags();
  const w = accountingWindow(today(deps), t.state.reference.incorporationDate);
  const invalid: { id: string; message: string }[] = [];
  const held: { id: string; message: string }[] = [];
  const ok: string[] = [];
  for (const id of [...new Set(ids)]) {
    const row = view.byId.get(id);
    if (!row) {
      invalid.push({ id, message: 'Not in the table' });
      continue;
    }
    const type = cellText(row.get(COL.type)).toLowerCase();
    const unfinished = marks.get(cellText(row.get(COL.pushStatus)));
    if (unfinished) held.push({ id, message: unfinished });
    else if (row.problem) invalid.push({ id, message: M.rowProblem(id, row.problem) });
    else if (type === 'transfer' || type === 'split') invalid.push({ id, message: M.notEditable(type) });
    else if (flags[id]?.kind === 'deleted') held.push({ id, message: flags[id].message });
    else if (isAccountingDateEdited(row, t.system)) invalid.push({ id, message: 'Its accounting date is edited — push or undo that edit before shifting' });
    else {
      const pulled = readDateCell(row.get(COL.pulledAccountingDate), t.system);
      const iso = pulled.kind === 'date' ? cellToIso(pulled.serial, t.system) : undefined;
      const moved = iso ? addMonths(iso, months) : undefined;
      if (!moved) invalid.push({ id, message: 'Its pulled accounting date is not readable — refresh' });
      else if (!inWindow(moved, w)) invalid.push({ id, message: M.outsideWindow(moved, w.min, w.maxExclusive) });
      else ok.push(id);
    }
  }
  // Held rows of an unfinished push keep its mark: it is how that push is rebuilt.
  const statuses: RowUpdate[] = [...invalid, ...held.filter((x) => !x.message.startsWith('Part of an unfinished push'))]
    .filter((x) => view.byId.has(x.id))
    .map((x) => ({ key: x.id, values: { [COL.pushStatus]: x.message } }));
  if (statuses.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, statuses);

  const specs: JobSpec[] = [];
  for (let i = 0; i < ok.length; i += deps.maxJobIds) specs.push({ kind: 'shift', ids: ok.slice(i, i + deps.maxJobIds), update: { accounting_shift: months } });
  options.log?.sending(t, view, specs.map((s) => ({ ...s, via: 'job' as const })));
  const run = await runJobs(deps, t, specs, view, onProgress);
  options.log?.jobs(run);
  await writeOutcomes(deps, t, view, run.outcomes, { sent: specs, finishedKeys: run.finishedKeys });

  const reread = readBackNow(run.reports) ? await settleThenReread(deps, t, warnings, onProgress) : null;
  const updated = run.reports.filter((r) => r.result === 'success').reduce((n, r) => n + r.rows, 0);
  return {
    months,
    check,
    invalid,
    held,
    lost: [],
    jobs: run.reports,
    updated,
    pending: run.outcomes.filter((o) => !o.ok).length,
    reread,
    warnings,
    calls: await callsSince(deps.client, snap),
  };
}

