// The push: check upstream (one incremental sync from the watermark, skipped when nothing valid is to be
// sent), check the edits locally, then send each group of identical updates as a PATCH (one row) or bulk
// jobs (journalled before their POST), write every row's outcome, and read the changed rows back when that
// is one page (reread.ts). An
// unfinished earlier push is never resumed here: its rows are held until the user resumes or discards it
// from the review (resume.ts).

import { callsSince, editContext, meterSnapshot, openTable, readView, type Deps, type ProgressFn } from './context';
import { KEY_COLUMN } from './columns';
import { groupEdits, type EditUpdate } from './edits';
import { runJobs, type JobReport, type JobSpec, type RunResult } from './jobs';
import type { PushRecord } from './logEntry';
import * as M from './messages';
import { writeOutcomes } from './outcomes';
import { sendPatches } from './patches';
import { syncTable, type SyncOutcome } from './pull';
import { reconcile } from './reconcile';
import { readBackNow, settleThenReread } from './reread';
import { unfinishedMarks } from './resume';
import { checkRows, summarizeGroups, writeCheckedRows, type GroupSummary } from './review';

export interface PushResult {
  check: SyncOutcome | null;
  invalid: { id: string; message: string }[];
  held: { id: string; message: string }[];
  /** Rows that lost their Pulled id (by table position): never sent. */
  lost: { row: number; message: string }[];
  groups: GroupSummary[];
  /** unknown: the PATCH's answer never came (not known to be refused). */
  patches: { id: string; ok: boolean; status: string; unknown?: true }[];
  jobs: JobReport[];
  /** Rows updated by this push (resumed jobs included). */
  updated: number;
  /** Rows left pending with a reason (failed, not sent, or unknown). */
  pending: number;
  reread: SyncOutcome | null;
  warnings: string[];
  calls: number | null;
}

export interface PushOptions {
  onProgress?: ProgressFn;
  /** Told what is sent and how each ended, for the push log (logEntry.ts). */
  log?: PushRecord;
}

export async function push(deps: Deps, bindingId: string, options: PushOptions = {}): Promise<PushResult> {
  const onProgress = options.onProgress;
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  options.log?.opened(t);
  const warnings: string[] = [];
  const marks = await unfinishedMarks(t);

  // Nothing valid to send (say, only a mistyped department): the answer is local, and costs no call.
  let view = await readView(deps, t);
  let built = checkRows(view, await t.store.flags(), editContext(deps, t), new Set(), false, marks);

  let check: SyncOutcome | null = null;
  if (deps.checkUpstream && built.sendable.length > 0) {
    onProgress?.({ phase: 'checking', message: 'Checking for upstream changes…' });
    check = await syncTable(deps, t, t.state.incremental ? 'incremental' : 'restricted', onProgress, 'Checking');
    const c = check.counts;
    // The table changed under the check: read it again (a quiet check keeps the first reading). The flags
    // are read again either way: the check may have set or cleared some.
    if (c.updated + c.added + c.removed + c.flagged > 0) view = await readView(deps, t);
    built = checkRows(view, await t.store.flags(), editContext(deps, t), check.newlyUpstream, false, marks);
  }
  await writeCheckedRows(deps, t, built);

  const groups = groupEdits(built.sendable, deps.maxJobIds);
  const byId = new Map(built.sendable.map((e) => [e.id, e]));
  const stop: { reason?: string } = {};

  const patchEdits = groups.filter((g) => g.method === 'patch').map((g) => ({ edit: byId.get(g.ids[0])!, update: g.update as EditUpdate }));
  const specs: JobSpec[] = groups.filter((g) => g.method === 'bulk').flatMap((g) => g.jobs.map((ids) => ({ kind: 'edit' as const, ids, update: g.update as EditUpdate })));
  options.log?.sending(t, view, [...patchEdits.map(({ edit, update }) => ({ ids: [edit.id], update, via: 'patch' as const })), ...specs.map((s) => ({ ...s, via: 'job' as const }))]);
  const patched = await sendPatches(deps, patchEdits, stop, onProgress);
  options.log?.patched(patched.outcomes, patched.returned);

  let run: RunResult = { reports: [], outcomes: [], finishedKeys: [] };
  if (stop.reason) for (const s of specs) for (const id of s.ids) run.outcomes.push({ id, ok: false, status: M.notSent(stop.reason) });
  else run = await runJobs(deps, t, specs, view, onProgress);
  options.log?.jobs(run);

  const sent = [...patchEdits.map(({ edit, update }) => ({ ids: [edit.id], update })), ...specs];
  await writeOutcomes(deps, t, view, [...patched.outcomes, ...run.outcomes], { sent, finishedKeys: run.finishedKeys });

  if (patched.returned.length) {
    // The PATCH answers are the server's rows: take their other fields without another call.
    const fresh = await readView(deps, t);
    const out = reconcile({ view: fresh, upserts: patched.returned, tombstones: [], mode: 'restricted', dir: t.dir, system: t.system, flags: await t.store.flags() });
    if (out.updates.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, out.updates);
    if (out.flagsChanged) await t.store.writeFlags(out.flags);
  }

  // The rows of successful jobs hold their new values already; the read-back runs only when it is one page.
  const reread = readBackNow(run.reports) ? await settleThenReread(deps, t, warnings, onProgress) : null;

  const jobsUpdated = run.reports.filter((r) => r.result === 'success').reduce((n, r) => n + r.rows, 0);
  const patchesUpdated = patched.outcomes.filter((o) => o.ok).length;
  const pending = patched.outcomes.filter((o) => !o.ok).length + run.outcomes.filter((o) => !o.ok).length;
  const result: PushResult = {
    check,
    invalid: built.invalid,
    held: built.held,
    lost: built.lost,
    groups: summarizeGroups(groups, t),
    patches: patched.outcomes.map((o) => ({ id: o.id, ok: o.ok, status: o.status, ...(o.unknown ? { unknown: true as const } : {}) })),
    jobs: run.reports,
    updated: jobsUpdated + patchesUpdated,
    pending,
    reread,
    warnings,
    calls: await callsSince(deps.client, snap),
  };
  onProgress?.({ phase: 'done', message: `Push finished: ${result.updated} updated, ${pending} pending, ${built.invalid.length} not sent (see Push status).` });
  return result;
}
