// Bulk-update jobs: submitting them (each Idempotency-Key journalled before its POST, the job id right
// after), polling them to a terminal state, paging a failed job's errors, and the rows' outcomes.

import { ApiError, type BulkUpdateJob, type BulkUpdateParams, type JobError } from '../../api';
import { COL, KEY_COLUMN, type TableView } from './columns';
import type { Deps, OpenTable, ProgressFn } from './context';
import { canonicalBody, type JobKind, type JournalEntry } from './journal';
import * as M from './messages';
import { errorReason, jobRowOutcomes, type RowOutcome } from './outcomes';

export interface JobSpec {
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

/** Every error of a failed job, through the client's pager (a repeated cursor stops it, not the cap). */
function allErrors(deps: Deps, job: BulkUpdateJob): Promise<JobError[]> {
  return deps.spend('/jobs/{id}', (o) => deps.client.jobs.allErrors(job, o), 'run');
}

/** The job as submitted or retrieved, polled with backoff until it is terminal. */
export async function waitTerminal(deps: Deps, submitted: BulkUpdateJob): Promise<BulkUpdateJob> {
  if (submitted.status === 'success' || submitted.status === 'failed') return submitted;
  return deps.spend('/jobs/{id}', (o) => deps.client.jobs.wait(submitted.id, { ...deps.poll, ...o }), 'run');
}

/**
 * Completes the report of a terminal job (reading every page of a failed job's errors) and returns its
 * rows' outcomes.
 */
export async function terminalJobOutcomes(deps: Deps, t: OpenTable, view: TableView, job: BulkUpdateJob, report: JobReport, ids: string[], update: BulkUpdateParams['updates']): Promise<RowOutcome[]> {
  const errors = job.status === 'success' ? [] : await allErrors(deps, job);
  report.result = job.status === 'success' ? 'success' : 'failed';
  report.updatedCount = job.updated_count;
  report.errors = errors.length;
  if (errors[0]) report.reason = M.jobErrorReason(errors[0]);
  return jobRowOutcomes(ids, job, errors, report.kind, update, t, view);
}

export interface RunResult {
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
export async function runJobs(deps: Deps, t: OpenTable, specs: JobSpec[], view: TableView, onProgress?: ProgressFn): Promise<RunResult> {
  const res: RunResult = { reports: [], outcomes: [], finishedKeys: [] };
  const submitted: { entry: JournalEntry; job: BulkUpdateJob; spec: JobSpec; report: JobReport }[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (res.stopReason) {
      for (const id of spec.ids) res.outcomes.push({ id, ok: false, status: M.notSent(res.stopReason) });
      continue;
    }
    // The body as posted is the canonical one the journal's digest is taken of: a replay rebuilt from the
    // table must match it byte for byte.
    const body: BulkUpdateParams = canonicalBody({ transaction_ids: spec.ids, updates: spec.update });
    // Set by onKey, which the jobs helper awaits before it sends the POST.
    const held: { entry?: JournalEntry } = {};
    onProgress?.({ phase: 'sending', message: `Submitting job ${i + 1} of ${specs.length} (${spec.ids.length.toLocaleString('en-US')} rows)…`, rows: spec.ids.length });
    try {
      const { job } = await deps.spend('/transactions/bulk/update', (o) =>
        deps.client.jobs.submit(body, {
          ...o,
          onKey: async (idempotencyKey) => {
            const entry = await t.journal.add({ idempotencyKey, kind: spec.kind, body });
            // The rows carry the job's mark before the POST: after a crash, they are how its body is rebuilt.
            try {
              await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, spec.ids.map((id) => ({ key: id, values: { [COL.pushStatus]: M.sending(idempotencyKey) } })));
            } catch (e) {
              await t.journal.remove([idempotencyKey]);
              throw e;
            }
            held.entry = entry;
          },
        }),
      );
      const entry = held.entry!;
      await t.journal.recordJobId(entry, job.id);
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
        // The POST may have created the job: the journal keeps the key, the rows keep its mark, and Review
        // offers to resume it.
        for (const id of spec.ids) res.outcomes.push({ id, ok: false, unknown: true, status: M.sending(entry.idempotencyKey) });
      }
    }
  }

  onProgress?.({ phase: 'waiting', message: `Waiting for ${submitted.length} job${submitted.length === 1 ? '' : 's'}…` });
  await Promise.all(
    submitted.map(async (s) => {
      try {
        const job = await waitTerminal(deps, s.job);
        res.outcomes.push(...(await terminalJobOutcomes(deps, t, view, job, s.report, s.spec.ids, s.spec.update)));
        res.finishedKeys.push(s.entry.idempotencyKey);
      } catch (e) {
        const reason = errorReason(e);
        s.report.reason = reason;
        // Not knowing the outcome is not a failure: the job may still succeed. The journal keeps it, and the
        // rows keep its mark (Review offers to resume it).
        const status = reason === M.MSG.permissionLost ? `${M.MSG.permissionLost} — the job's result cannot be read; Review offers to resume it` : M.sending(s.entry.idempotencyKey);
        for (const id of s.spec.ids) res.outcomes.push({ id, ok: false, unknown: true, status });
      }
    }),
  );
  return res;
}

/** True when a failed submission certainly created no job (the request was refused before any work). */
function certainlyNotCreated(e: unknown): boolean {
  return e instanceof ApiError && e.status !== null && e.status >= 400 && e.status < 500;
}
