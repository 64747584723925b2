// Resuming interrupted bulk jobs. A push cut short (lost answer, crashed pane, closed workbook) leaves its
// jobs in the journal; every push, shift and Resume first finishes them: an entry with a job id is polled
// (GET only); without one the same key and body are re-POSTed, which returns the original job instead of
// creating a second.

import { ApiError, type BulkUpdateJob } from '../../api';
import { callsSince, meterSnapshot, openTable, readView, type Deps, type OpenTable, type ProgressFn } from './context';
import { terminalJobOutcomes, waitTerminal, type JobReport } from './jobs';
import type { JournalEntry } from './journal';
import * as M from './messages';
import { errorReason, writeOutcomes, type RowOutcome } from './outcomes';
import type { SyncOutcome } from './pull';
import { settleThenReread } from './reread';

/** Journal entries older than this are past the API's 30-day job retention margin. */
const JOB_RETENTION_MARGIN_MS = 29 * 86_400_000;

const EXPIRED_STATUS = 'Outcome unknown (the job expired) — refresh to see the current values, then push again if needed';

export interface ResumeResult {
  entries: number;
  reports: JobReport[];
  updated: number;
  failed: number;
  unknown: number;
}

/** Finishes the table's unfinished journal entries: poll a known job, or re-POST the same key and body. */
export async function resumeJournal(deps: Deps, t: OpenTable, onProgress?: ProgressFn): Promise<ResumeResult> {
  const entries = await t.journal.entries();
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
    const expired = () => {
      // The job is gone (retention): its outcome cannot be read. The rows keep their edits; a refresh
      // shows whether the values arrived, and a push sends what is still different.
      report.reason = 'job expired';
      for (const id of ids) outcomes.push({ id, ok: false, status: EXPIRED_STATUS });
      finished.push(entry.idempotencyKey);
    };
    if (!entry.jobId && entry.kind === 'shift' && deps.now() - entry.createdAt > JOB_RETENTION_MARGIN_MS) {
      // Past retention an expired job frees its key: a replay could apply a relative shift twice.
      expired();
      continue;
    }
    try {
      const job = await terminalJob(deps, t, entry, report);
      outcomes.push(...(await terminalJobOutcomes(deps, t, view, job, report, ids, entry.body.updates)));
      finished.push(entry.idempotencyKey);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && report.jobId) expired();
      else {
        report.reason = errorReason(e);
        for (const id of ids) outcomes.push({ id, ok: false, unknown: true, status: M.MSG.interrupted });
      }
    }
  }
  await writeOutcomes(deps, t, view, outcomes, finished);
  for (const r of result.reports) {
    if (r.result === 'success') result.updated += r.rows;
    else if (r.result === 'failed') result.failed += r.rows;
    else result.unknown += r.rows;
  }
  return result;
}

/** The entry's job, terminal: polled when its id is known, else replayed with the same key and body. */
async function terminalJob(deps: Deps, t: OpenTable, entry: JournalEntry, report: JobReport): Promise<BulkUpdateJob> {
  if (entry.jobId) {
    const jobId = entry.jobId;
    return waitTerminal(deps, await deps.spend('/jobs/{id}', (o) => deps.client.jobs.retrieve(jobId, { limit: 500 }, o)));
  }
  // Same key, same body: the API returns the original job if the lost POST had created one.
  const { job } = await deps.spend('/transactions/bulk/update', (o) => deps.client.jobs.submit(entry.body, { ...o, idempotencyKey: entry.idempotencyKey }));
  report.jobId = job.id;
  await t.journal.recordJobId(entry, job.id);
  return waitTerminal(deps, job);
}

/** Jobs waiting in the journal (no call): the pane offers to resume them. */
export async function unfinishedJobs(deps: Deps, bindingId: string): Promise<JournalEntry[]> {
  const t = await openTable(deps, bindingId);
  return t.journal.entries();
}

export async function resume(deps: Deps, bindingId: string, onProgress?: ProgressFn): Promise<ResumeResult & { reread: SyncOutcome | null; calls: number | null; warnings: string[] }> {
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  const warnings: string[] = [];
  const r = await resumeJournal(deps, t, onProgress);
  const reread = r.reports.some((x) => x.result === 'success') ? await settleThenReread(deps, t, warnings, onProgress) : null;
  return { ...r, reread, warnings, calls: await callsSince(deps.client, snap) };
}
