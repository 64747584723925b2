import { fieldsOf, idByPrefix, isRecord, UnreadableAnswer } from './answerShape';
import { invalidResponse } from './paging';
import { checkText, JOB_ERROR_TEXT } from './textFields';
import type { BulkUpdateJob, JobError } from './types';

// A bulk-update job as the API answers it, read the same way wherever one arrives: the POST that queues it
// (transactions.ts) and every poll (jobs.ts).

/**
 * An error entry as the add-in reads it. "Each entry in errors.data has four fields, and their names: not
 * shown", beyond `code` and `message` (text: they reach cells) and `type`. The transaction it is about is the
 * field holding a txn_ id, whatever its name (the id-prefix rule); an entry with none, or with two different
 * ones, is about the whole job.
 */
function readJobError(raw: unknown, method: string, path: string): JobError {
  if (!isRecord(raw) || typeof raw.code !== 'string') {
    throw new UnreadableAnswer({ method, endpoint: path, what: 'job error entry', expected: 'code (text)', found: fieldsOf(raw) });
  }
  const entry = { type: raw.type, code: raw.code, message: raw.message === undefined || raw.message === null ? raw.code : raw.message, transaction_id: idByPrefix(raw, 'transaction_id', 'txn_') ?? null };
  return checkText(entry, JOB_ERROR_TEXT, method, path) as JobError;
}

/** A job as the API returns it: a status, and its error entries read by readJobError. */
export function checkJob(job: BulkUpdateJob, method: string, path: string): BulkUpdateJob {
  if (!job || typeof job !== 'object' || typeof job.status !== 'string') throw invalidResponse(`${method} ${path} did not return a job.`, method, path);
  if (job.errors && Array.isArray(job.errors.data)) return { ...job, errors: { ...job.errors, data: job.errors.data.map((e) => readJobError(e, method, path)) } };
  return job;
}
