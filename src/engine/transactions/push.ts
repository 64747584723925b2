// Review and push of the table's edits, the accounting-date shift, and resuming interrupted jobs.
//
// Exactly once: every bulk job's Idempotency-Key and exact body are written to the workbook (push
// journal) before its POST goes out (the jobs helper's onKey is awaited first). If the response is lost,
// the pane crashes or the workbook is closed, the next push (or Resume) first finishes those entries:
// with the job id known it polls the job; otherwise it re-POSTs the same key and body, which returns
// the original job instead of creating a second. An entry leaves the journal only after its rows'
// results were written to the table. PATCH (single-row groups) is not journalled: it sets absolute
// values, so sending it again after a lost response cannot apply anything twice.

import { ApiError, MonthlyLimitError, type BulkUpdateJob, type BulkUpdateParams, type JobError, type Transaction } from '../../api';
import type { RowUpdate, WriteValue } from '../ports/workbook';
import { addMonths } from '../dates';
import { COL, cellText, cellToIso, readDateCell, type RowView, type TableView } from './columns';
import {
  callsSince,
  editContext,
  meterSnapshot,
  openTable,
  readView,
  today,
  type Deps,
  type OpenTable,
  type ProgressFn,
} from './context';
import {
  accountingWindow,
  checkEdit,
  describeUpdate,
  detectEdit,
  estimateCost,
  groupEdits,
  inWindow,
  isAccountingDateEdited,
  type CheckedEdit,
  type CostEstimate,
  type EditUpdate,
  type UpdateGroup,
} from './edits';
import * as M from './messages';
import { syncTable, type SyncOutcome } from './pull';
import { reconcile } from './reconcile';
import type { JobKind, JournalEntry, RowFlags } from './state';

/** Journal entries older than this are past the API's 30-day job retention margin. */
const JOB_RETENTION_MARGIN_MS = 29 * 86_400_000;

// ---------------------------------------------------------------------------------------------------
// Review

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
  cost: CostEstimate;
  /** Bulk jobs of an interrupted push waiting in the workbook; they are resumed first. */
  unfinishedJobs: number;
}

interface Built {
  sendable: CheckedEdit[];
  invalid: { id: string; message: string }[];
  held: { id: string; message: string }[];
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
function buildEdits(view: TableView, flagsIn: RowFlags, ctx: ReturnType<typeof editContext>, holdUpstream: Set<string>, pendingStatus: boolean): Built {
  const flags: RowFlags = { ...flagsIn };
  let flagsChanged = false;
  const out: Built = { sendable: [], invalid: [], held: [], statusWrites: [], deletes: [], flags, flagsChanged: false, edited: 0 };
  const setStatus = (row: RowView, status: string) => {
    if (cellText(row.get(COL.pushStatus)) !== status) out.statusWrites.push({ key: row.id, values: { [COL.pushStatus]: status || null } });
  };
  for (const row of view.rows) {
    const flag = flags[row.id];
    const edit = detectEdit(row, ctx.system);
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
    out.edited++;
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

async function writeBuilt(deps: Deps, t: OpenTable, built: Built): Promise<void> {
  if (built.statusWrites.length) await deps.gateway.updateRowsByKey(t.table, COL.id, built.statusWrites);
  if (built.deletes.length) await deps.gateway.deleteRowsByKey(t.table, COL.id, built.deletes);
  if (built.flagsChanged) await t.store.writeFlags(built.flags);
}

function summarize(groups: UpdateGroup[], t: OpenTable): GroupSummary[] {
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
  const built = buildEdits(view, await t.store.flags(), editContext(deps, t), new Set(), true);
  await writeBuilt(deps, t, built);
  const groups = groupEdits(built.sendable, deps.maxJobIds);
  return {
    edited: built.edited,
    groups: summarize(groups, t),
    invalid: built.invalid,
    held: built.held,
    cost: estimateCost(groups, { checkUpstream: deps.checkUpstream }),
    unfinishedJobs: (await t.store.journalKeys()).length,
  };
}

// ---------------------------------------------------------------------------------------------------
// Outcomes per row

interface RowOutcome {
  id: string;
  ok: boolean;
  status: string;
  /** New pulled values (success of an absolute update). */
  pulledDepartment?: string;
  pulledAccountingSerial?: number;
  /** true: the result is not known yet (the journal keeps the job); the row keeps its edit. */
  unknown?: boolean;
}

/** Turns a terminal job into one outcome per id. A failed job changed nothing: every row stays pending. */
function jobRowOutcomes(ids: string[], job: BulkUpdateJob, errors: JobError[], kind: JobKind, update: BulkUpdateParams['updates'], t: OpenTable, view: TableView): RowOutcome[] {
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
    if (jobLevel) return { id, ok: false, status: M.jobErrorReason(jobLevel) };
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

function errorReason(e: unknown): string {
  if (e instanceof MonthlyLimitError) return e.message;
  if (e instanceof ApiError) {
    if (e.status === 403 && e.code === 'insufficient_permission') return M.MSG.permissionLost;
    if (e.status === 404) return M.MSG.missing;
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/** True when a failed submission certainly created no job (the request was refused before any work). */
function certainlyNotCreated(e: unknown): boolean {
  return e instanceof ApiError && e.status !== null && e.status >= 400 && e.status < 500;
}

/** Writes outcomes (status, and pulled values of successes) in one table write, and the row flags. */
async function applyOutcomes(deps: Deps, t: OpenTable, outcomes: RowOutcome[], view: TableView): Promise<void> {
  if (outcomes.length === 0) return;
  const flags = await t.store.flags();
  let changed = false;
  const updates: RowUpdate[] = [];
  for (const o of outcomes) {
    if (!view.byId.has(o.id)) continue;
    const values: Record<string, WriteValue> = { [COL.pushStatus]: o.status };
    if (o.pulledDepartment !== undefined) values[COL.pulledDepartment] = o.pulledDepartment || null;
    if (o.pulledAccountingSerial !== undefined) values[COL.pulledAccountingDate] = o.pulledAccountingSerial;
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
  if (updates.length) await deps.gateway.updateRowsByKey(t.table, COL.id, updates);
  if (changed) await t.store.writeFlags(flags);
}

// ---------------------------------------------------------------------------------------------------
// Jobs

interface JobSpec {
  kind: JobKind;
  ids: string[];
  update: BulkUpdateParams['updates'];
}

export interface JobReport {
  idempotencyKey: string;
  jobId: string | null;
  kind: JobKind;
  rows: number;
  update: BulkUpdateParams['updates'];
  /** success / failed: terminal; unknown: the journal keeps it for the next push; not_created: refused. */
  result: 'success' | 'failed' | 'unknown' | 'not_created';
  updatedCount: number | null;
  errors: number;
  reason?: string;
  resumed: boolean;
}

async function allErrors(deps: Deps, job: BulkUpdateJob): Promise<JobError[]> {
  const out: JobError[] = [...(job.errors?.data ?? [])];
  let page = job.errors;
  while (page?.has_more === true && typeof page.next_cursor === 'string' && page.next_cursor) {
    const next = await deps.client.jobs.retrieve(job.id, { limit: 500, starting_after: page.next_cursor });
    out.push(...next.errors.data);
    page = next.errors;
  }
  return out;
}

async function waitTerminal(deps: Deps, submitted: BulkUpdateJob, onPoll?: () => void): Promise<BulkUpdateJob> {
  if (submitted.status === 'success' || submitted.status === 'failed') return submitted;
  return deps.client.jobs.wait(submitted.id, { ...deps.poll, onPoll });
}

interface RunResult {
  reports: JobReport[];
  outcomes: RowOutcome[];
  /** Keys whose rows got a terminal result: removed from the journal once written. */
  finishedKeys: string[];
  stopReason?: string;
}

/**
 * Submits jobs one after the other (each key stored before its POST), then waits for all of them.
 * A submission that fails stops the rest: their rows are "Not sent" with the reason.
 */
async function runJobs(deps: Deps, t: OpenTable, specs: JobSpec[], view: TableView, onProgress?: ProgressFn): Promise<RunResult> {
  const res: RunResult = { reports: [], outcomes: [], finishedKeys: [] };
  const submitted: { entry: JournalEntry; job: BulkUpdateJob; spec: JobSpec; report: JobReport }[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (res.stopReason) {
      for (const id of spec.ids) res.outcomes.push({ id, ok: false, status: M.notSent(res.stopReason) });
      continue;
    }
    const body: BulkUpdateParams = { transaction_ids: spec.ids, updates: spec.update };
    // Set by onKey, which the jobs helper awaits before it sends the POST.
    const held: { entry?: JournalEntry } = {};
    onProgress?.({ phase: 'sending', message: `Submitting job ${i + 1} of ${specs.length} (${spec.ids.length.toLocaleString('en-US')} rows)…`, rows: spec.ids.length });
    try {
      const { job } = await deps.client.jobs.submit(body, {
        onKey: async (idempotencyKey) => {
          held.entry = { idempotencyKey, bindingId: t.store.bindingId, kind: spec.kind, body, createdAt: deps.now() };
          await t.store.add(held.entry);
        },
      });
      const entry = held.entry!;
      entry.jobId = job.id;
      await t.store.update(entry);
      const report: JobReport = { idempotencyKey: entry.idempotencyKey, jobId: job.id, kind: spec.kind, rows: spec.ids.length, update: spec.update, result: 'unknown', updatedCount: null, errors: 0, resumed: false };
      res.reports.push(report);
      submitted.push({ entry, job, spec, report });
    } catch (e) {
      const reason = errorReason(e);
      res.stopReason = reason;
      const entry = held.entry;
      if (!entry) {
        // Refused before the key was even stored (local key check): nothing was sent.
        for (const id of spec.ids) res.outcomes.push({ id, ok: false, status: M.notSent(reason) });
        continue;
      }
      const report: JobReport = { idempotencyKey: entry.idempotencyKey, jobId: null, kind: spec.kind, rows: spec.ids.length, update: spec.update, result: 'unknown', updatedCount: null, errors: 0, reason, resumed: false };
      res.reports.push(report);
      if (certainlyNotCreated(e)) {
        report.result = 'not_created';
        res.finishedKeys.push(entry.idempotencyKey);
        for (const id of spec.ids) res.outcomes.push({ id, ok: false, status: reason === M.MSG.permissionLost ? reason : M.notSent(reason) });
      } else {
        // The POST may have created the job: the journal keeps the key, the next push resumes it.
        for (const id of spec.ids) res.outcomes.push({ id, ok: false, unknown: true, status: M.MSG.interrupted });
      }
    }
  }

  onProgress?.({ phase: 'waiting', message: `Waiting for ${submitted.length} job${submitted.length === 1 ? '' : 's'}…` });
  await Promise.all(
    submitted.map(async (s) => {
      try {
        const job = await waitTerminal(deps, s.job);
        const errors = job.status === 'success' ? [] : await allErrors(deps, job);
        s.report.result = job.status === 'success' ? 'success' : 'failed';
        s.report.updatedCount = job.updated_count;
        s.report.errors = errors.length;
        if (errors[0]) s.report.reason = M.jobErrorReason(errors[0]);
        res.outcomes.push(...jobRowOutcomes(s.spec.ids, job, errors, s.spec.kind, s.spec.update, t, view));
        res.finishedKeys.push(s.entry.idempotencyKey);
      } catch (e) {
        const reason = errorReason(e);
        s.report.reason = reason;
        // Not knowing the outcome is not a failure: the job may still succeed. The journal keeps it.
        const status = reason === M.MSG.permissionLost ? `${M.MSG.permissionLost} — the job's result cannot be read; it is resumed on the next push` : M.MSG.interrupted;
        for (const id of s.spec.ids) res.outcomes.push({ id, ok: false, unknown: true, status });
      }
    }),
  );
  return res;
}

export interface ResumeResult {
  entries: number;
  reports: JobReport[];
  updated: number;
  failed: number;
  unknown: number;
}

/** Finishes the table's unfinished journal entries: poll a known job, or re-POST the same key and body. */
export async function resumeJournal(deps: Deps, t: OpenTable, onProgress?: ProgressFn): Promise<ResumeResult> {
  const entries = (await t.store.entries()).filter((e) => e.bindingId === t.store.bindingId);
  const result: ResumeResult = { entries: entries.length, reports: [], updated: 0, failed: 0, unknown: 0 };
  if (entries.length === 0) return result;
  onProgress?.({ phase: 'resuming', message: `Resuming ${entries.length} interrupted job${entries.length === 1 ? '' : 's'}…` });
  const view = await readView(deps, t);
  const outcomes: RowOutcome[] = [];
  const finished: string[] = [];
  for (const entry of entries) {
    const ids = entry.body.transaction_ids ?? [];
    const report: JobReport = { idempotencyKey: entry.idempotencyKey, jobId: entry.jobId ?? null, kind: entry.kind, rows: ids.length, update: entry.body.updates, result: 'unknown', updatedCount: null, errors: 0, resumed: true };
    result.reports.push(report);
    const old = deps.now() - entry.createdAt > JOB_RETENTION_MARGIN_MS;
    try {
      let job: BulkUpdateJob;
      if (entry.jobId) {
        job = await waitTerminal(deps, await deps.client.jobs.retrieve(entry.jobId, { limit: 500 }));
      } else if (old && entry.kind === 'shift') {
        // Past retention an expired job frees its key: a replay could apply a relative shift twice.
        throw new Error('stale');
      } else {
        // Same key, same body: the API returns the original job if the lost POST had created one.
        const { job: replayed } = await deps.client.jobs.submit(entry.body, { idempotencyKey: entry.idempotencyKey });
        entry.jobId = replayed.id;
        report.jobId = replayed.id;
        await t.store.update(entry);
        job = await waitTerminal(deps, replayed);
      }
      const errors = job.status === 'success' ? [] : await allErrors(deps, job);
      report.result = job.status === 'success' ? 'success' : 'failed';
      report.updatedCount = job.updated_count;
      report.errors = errors.length;
      if (errors[0]) report.reason = M.jobErrorReason(errors[0]);
      outcomes.push(...jobRowOutcomes(ids, job, errors, entry.kind, entry.body.updates, t, view));
      finished.push(entry.idempotencyKey);
    } catch (e) {
      const expired = (e instanceof ApiError && e.status === 404 && entry.jobId) || (e instanceof Error && e.message === 'stale');
      if (expired) {
        // The job is gone (retention): its outcome cannot be read. The rows keep their edits; a refresh
        // shows whether the values arrived, and a push sends what is still different.
        report.reason = 'job expired';
        const status = 'Outcome unknown (the job expired) — refresh to see the current values, then push again if needed';
        for (const id of ids) outcomes.push({ id, ok: false, status });
        finished.push(entry.idempotencyKey);
      } else {
        report.reason = errorReason(e);
        for (const id of ids) outcomes.push({ id, ok: false, unknown: true, status: M.MSG.interrupted });
      }
    }
  }
  await applyOutcomes(deps, t, outcomes, view);
  await t.store.remove(finished);
  for (const r of result.reports) {
    if (r.result === 'success') result.updated += r.rows;
    else if (r.result === 'failed') result.failed += r.rows;
    else result.unknown += r.rows;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Push

export interface PushResult {
  resumed: ResumeResult;
  check: SyncOutcome | null;
  invalid: { id: string; message: string }[];
  held: { id: string; message: string }[];
  groups: GroupSummary[];
  patches: { id: string; ok: boolean; status: string }[];
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
}

async function settleThenReread(deps: Deps, t: OpenTable, warnings: string[], onProgress?: ProgressFn): Promise<SyncOutcome | null> {
  await deps.sleep(deps.settleMs);
  onProgress?.({ phase: 'rereading', message: 'Reading back the changed rows…' });
  try {
    return await syncTable(deps, t, t.state.incremental ? 'incremental' : 'restricted', onProgress, 'Reading back');
  } catch (e) {
    warnings.push(`The pushed rows were updated, but reading back their server values failed (${errorReason(e)}); Refresh later.`);
    return null;
  }
}

async function sendPatches(deps: Deps, edits: { edit: CheckedEdit; update: EditUpdate }[], stop: { reason?: string }, onProgress?: ProgressFn): Promise<{ outcomes: RowOutcome[]; returned: Transaction[] }> {
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
        const t = await deps.client.transactions.update(edit.id, update);
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

export async function push(deps: Deps, bindingId: string, options: PushOptions = {}): Promise<PushResult> {
  const onProgress = options.onProgress;
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  const warnings: string[] = [];

  const resumed = await resumeJournal(deps, t, onProgress);

  // Nothing valid to send (say, only a mistyped department): the answer is local, and costs no call.
  let view = await readView(deps, t);
  let built = buildEdits(view, await t.store.flags(), editContext(deps, t), new Set(), false);

  let check: SyncOutcome | null = null;
  if (deps.checkUpstream && built.sendable.length > 0) {
    onProgress?.({ phase: 'checking', message: 'Checking for upstream changes…' });
    check = await syncTable(deps, t, t.state.incremental ? 'incremental' : 'restricted', onProgress, 'Checking');
    const c = check.counts;
    // The table changed under the check: read it again (a quiet check keeps the first reading). The flags
    // are read again either way: the check may have set or cleared some.
    if (c.updated + c.added + c.removed + c.flagged > 0) view = await readView(deps, t);
    built = buildEdits(view, await t.store.flags(), editContext(deps, t), check.newlyUpstream, false);
  }
  await writeBuilt(deps, t, built);

  const groups = groupEdits(built.sendable, deps.maxJobIds);
  const byId = new Map(built.sendable.map((e) => [e.id, e]));
  const stop: { reason?: string } = {};

  const patchEdits = groups.filter((g) => g.method === 'patch').map((g) => ({ edit: byId.get(g.ids[0])!, update: g.update as EditUpdate }));
  const patched = await sendPatches(deps, patchEdits, stop, onProgress);

  const specs: JobSpec[] = groups.filter((g) => g.method === 'bulk').flatMap((g) => g.jobs.map((ids) => ({ kind: 'edit' as const, ids, update: g.update as EditUpdate })));
  let run: RunResult = { reports: [], outcomes: [], finishedKeys: [] };
  if (stop.reason) for (const s of specs) for (const id of s.ids) run.outcomes.push({ id, ok: false, status: M.notSent(stop.reason) });
  else run = await runJobs(deps, t, specs, view, onProgress);

  await applyOutcomes(deps, t, [...patched.outcomes, ...run.outcomes], view);
  await t.store.remove(run.finishedKeys);

  if (patched.returned.length) {
    // The PATCH answers are the server's rows: take their other fields without another call.
    const fresh = await readView(deps, t);
    const out = reconcile({ view: fresh, upserts: patched.returned, tombstones: [], mode: 'restricted', dir: t.dir, system: t.system, flags: await t.store.flags() });
    if (out.updates.length) await deps.gateway.updateRowsByKey(t.table, COL.id, out.updates);
    if (out.flagsChanged) await t.store.writeFlags(out.flags);
  }

  let reread: SyncOutcome | null = null;
  if (run.reports.some((r) => r.result === 'success') || resumed.reports.some((r) => r.result === 'success')) {
    reread = await settleThenReread(deps, t, warnings, onProgress);
  }

  const jobsUpdated = run.reports.filter((r) => r.result === 'success').reduce((n, r) => n + r.rows, 0);
  const patchesUpdated = patched.outcomes.filter((o) => o.ok).length;
  const pending = patched.outcomes.filter((o) => !o.ok).length + run.outcomes.filter((o) => !o.ok).length;
  const result: PushResult = {
    resumed,
    check,
    invalid: built.invalid,
    held: built.held,
    groups: summarize(groups, t),
    patches: patched.outcomes.map((o) => ({ id: o.id, ok: o.ok, status: o.status })),
    jobs: run.reports,
    updated: jobsUpdated + patchesUpdated + resumed.updated,
    pending,
    reread,
    warnings,
    calls: await callsSince(deps.client, snap),
  };
  onProgress?.({ phase: 'done', message: `Push finished: ${result.updated} updated, ${pending} pending, ${built.invalid.length} not sent (see Push status).` });
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Shift accounting dates

export interface ShiftResult extends Omit<PushResult, 'groups' | 'patches'> {
  months: number;
}

/** accounting_shift for the given rows (the pane passes the selected rows' ids): one job per 5,000. */
export async function shiftAccountingDates(deps: Deps, bindingId: string, ids: string[], months: number, options: PushOptions = {}): Promise<ShiftResult> {
  if (!Number.isInteger(months) || months === 0 || Math.abs(months) > 1200) throw new Error('Shift by a whole number of months from -1200 to 1200, not 0.');
  const onProgress = options.onProgress;
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  const warnings: string[] = [];
  const resumed = await resumeJournal(deps, t, onProgress);
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
    if (type === 'transfer' || type === 'split') invalid.push({ id, message: M.notEditable(type) });
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
  const marks: RowUpdate[] = [...invalid, ...held].filter((x) => view.byId.has(x.id)).map((x) => ({ key: x.id, values: { [COL.pushStatus]: x.message } }));
  if (marks.length) await deps.gateway.updateRowsByKey(t.table, COL.id, marks);

  const specs: JobSpec[] = [];
  for (let i = 0; i < ok.length; i += deps.maxJobIds) specs.push({ kind: 'shift', ids: ok.slice(i, i + deps.maxJobIds), update: { accounting_shift: months } });
  const run = await runJobs(deps, t, specs, view, onProgress);
  await applyOutcomes(deps, t, run.outcomes, view);
  await t.store.remove(run.finishedKeys);

  let reread: SyncOutcome | null = null;
  if (run.reports.some((r) => r.result === 'success') || resumed.reports.some((r) => r.result === 'success')) {
    reread = await settleThenReread(deps, t, warnings, onProgress);
  }
  const updated = run.reports.filter((r) => r.result === 'success').reduce((n, r) => n + r.rows, 0);
  return {
    months,
    resumed,
    check,
    invalid,
    held,
    jobs: run.reports,
    updated: updated + resumed.updated,
    pending: run.outcomes.filter((o) => !o.ok).length,
    reread,
    warnings,
    calls: await callsSince(deps.client, snap),
  };
}

/** Jobs waiting in the journal (no call): the pane offers to resume them. */
export async function unfinishedJobs(deps: Deps, bindingId: string): Promise<JournalEntry[]> {
  const t = await openTable(deps, bindingId);
  return t.store.entries();
}

export async function resume(deps: Deps, bindingId: string, onProgress?: ProgressFn): Promise<ResumeResult & { reread: SyncOutcome | null; calls: number | null; warnings: string[] }> {
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  const warnings: string[] = [];
  const r = await resumeJournal(deps, t, onProgress);
  const reread = r.reports.some((x) => x.result === 'success') ? await settleThenReread(deps, t, warnings, onProgress) : null;
  return { ...r, reread, warnings, calls: await callsSince(deps.client, snap) };
}
