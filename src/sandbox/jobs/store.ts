import type { Db } from '../db/open';
import { API_PREFIX } from '../http/paging';
import type { ErrorType } from '../http/errors';

// Bulk-update jobs as stored and as sent. Finished jobs are kept 30 days; past that they are gone as far as
// the API can tell (GET 404, and their Idempotency-Key may be used again).

export const JOB_RETENTION_SECONDS = 30 * 86400;

export type JobStatus = 'queued' | 'processing' | 'success' | 'failed';

export interface JobRow {
  seq: number;
  id: string;
  company_id: string;
  user_id: string;
  idempotency_key: string;
  body_hash: string;
  body: string;
  status: JobStatus;
  matched_count: number | null;
  updated_count: number;
  targets: string | null;
  created: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface JobErrorEntry {
  type: ErrorType;
  code: string;
  message: string;
  transaction_id: string | null;
}

export interface JobErrorRow extends JobErrorEntry {
  seq: number;
}

export const jobPath = (id: string) => `${API_PREFIX}/jobs/${id}`;

export function isExpired(job: JobRow, now: number): boolean {
  return job.finished_at !== null && now - job.finished_at > JOB_RETENTION_SECONDS;
}

/** A job of the company that has not expired. */
export function findJob(db: Db, companyId: string, id: string, now: number): JobRow | undefined {
  const job = db.prepare('SELECT * FROM jobs WHERE id = ? AND company_id = ?').get(id, companyId) as JobRow | undefined;
  return job && !isExpired(job, now) ? job : undefined;
}

/** The job holding an Idempotency-Key for this company and user; an expired one is purged so the key is free. */
export function findJobByKey(db: Db, companyId: string, userId: string, key: string, now: number): JobRow | undefined {
  const job = db
    .prepare('SELECT * FROM jobs WHERE company_id = ? AND user_id = ? AND idempotency_key = ?')
    .get(companyId, userId, key) as JobRow | undefined;
  if (job && isExpired(job, now)) {
    db.prepare('DELETE FROM job_errors WHERE job_id = ?').run(job.id);
    db.prepare('DELETE FROM jobs WHERE id = ?').run(job.id);
    return undefined;
  }
  return job;
}

export interface ErrorsSlice {
  has_more: boolean;
  next_cursor: string | null;
  data: JobErrorEntry[];
}

export function jobObject(job: JobRow, errors: ErrorsSlice) {
  return {
    id: job.id,
    object: 'bulk_update_job' as const,
    status: job.status,
    matched_count: job.matched_count,
    updated_count: job.updated_count,
    created: job.created,
    errors: { object: 'list' as const, url: jobPath(job.id), ...errors },
  };
}

/** What a submission (and its replays) answers: the job as it was queued. */
export function queuedSnapshot(job: JobRow) {
  return jobObject(
    { ...job, status: 'queued', matched_count: null, updated_count: 0 },
    { has_more: false, next_cursor: null, data: [] },
  );
}

/** Errors of a job after position `afterSeq`, limit + 1 rows (the extra one tells whether more remain). */
export function jobErrorRows(db: Db, jobId: string, afterSeq: number, limit: number): JobErrorRow[] {
  return db
    .prepare('SELECT seq, type, code, message, transaction_id FROM job_errors WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?')
    .all(jobId, afterSeq, limit + 1) as JobErrorRow[];
}

/** Ends a job as failed: nothing was committed, so updated_count is 0. */
export function failJob(db: Db, jobId: string, errors: JobErrorEntry[], now: number): void {
  const insert = db.prepare('INSERT INTO job_errors (job_id, seq, type, code, message, transaction_id) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    db.prepare('DELETE FROM job_errors WHERE job_id = ?').run(jobId);
    errors.forEach((e, i) => insert.run(jobId, i + 1, e.type, e.code, e.message, e.transaction_id));
    db.prepare("UPDATE jobs SET status = 'failed', updated_count = 0, finished_at = ? WHERE id = ?").run(now, jobId);
  })();
}
