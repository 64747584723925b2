import { backoffDelay } from './backoff';
import { ApiError, localError } from './errors';
import { checkJob } from './jobAnswer';
import type { RequestChain } from './limiter';
import { PageBudget, walkCursors } from './paging';
import type { TransactionsApi } from './transactions';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { BulkUpdateJob, BulkUpdateParams, JobError, JobRetrieveParams, ListPage } from './types';
import { pathSegment } from './url';

// Bulk updates end to end. The Idempotency-Key is what makes a bulk update safe to repeat after a crash,
// a timeout or a closed workbook, so it is handed to the caller (and awaited, so it can be stored)
// BEFORE the first POST. Re-posting the same key with the same body returns the original job rather than
// applying the edits again; a failed job stays failed and needs a new key.

export const JOB_ERRORS_PAGE_LIMIT = 500;

/**
 * Calls spent on one job's error pages at most. A job holds at most 5,000 transactions, and so about as
 * many errors: 10 pages of 500. Twice that leaves room for job-level errors; a server whose errors never
 * end stops here with page_limit_exceeded.
 */
export const MAX_JOB_ERROR_PAGES = 20;

const TERMINAL = new Set(['success', 'failed']);

export function isTerminalJob(job: Pick<BulkUpdateJob, 'status'>): boolean {
  return TERMINAL.has(job.status);
}

/** A fresh key: a v4 UUID from the platform's CSPRNG (Office webview and Node 20 both have one). */
export function generateIdempotencyKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  if (c && typeof c.getRandomValues === 'function') {
    const b = c.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  // A guessable key could collide with another submission and replay the wrong job.
  throw new Error('No cryptographic random source is available to generate an Idempotency-Key.');
}

export interface WaitOptions extends CallOptions {
  /** First poll after this delay (default 500 ms); then doubling with jitter. Each poll is a counted call. */
  initialDelayMs?: number;
  /** Longest gap between polls (default 8000 ms). */
  maxDelayMs?: number;
  /** Polls before giving up (default 60); the job keeps running and can be resumed. */
  maxPolls?: number;
  /** Called with every polled job (progress display). */
  onPoll?: (job: BulkUpdateJob) => void;
}

export interface SubmitOptions extends CallOptions {
  /** A stored key to reuse; a new one is generated when absent. */
  idempotencyKey?: string;
  /** Receives the key before the POST is sent; awaited, so the caller can persist it first. */
  onKey?: (idempotencyKey: string) => void | Promise<void>;
  /** Receives the job right after the POST (store its id next to the key). */
  onSubmitted?: (job: BulkUpdateJob) => void | Promise<void>;
}

export type RunOptions = SubmitOptions & WaitOptions;

export interface JobOutcome {
  idempotencyKey: string;
  /** The job in a terminal state (success or failed). */
  job: BulkUpdateJob;
  /** Every error entry of the job, all pages. Empty on success. */
  errors: JobError[];
  succeeded: boolean;
}

export function jobsApi(transport: Transport, transactions: TransactionsApi) {
  const jobPath = (id: string, method = 'GET'): string => `/jobs/${pathSegment(id, 'id', method, '/jobs/{id}')}`;

  /** GET /jobs/{id}: the whole job with one page of its errors. */
  const retrieve = async (id: string, params: JobRetrieveParams = {}, opts?: CallOptions): Promise<BulkUpdateJob> => {
    const job = (await transport.request<BulkUpdateJob>({ method: 'GET', path: jobPath(id), query: { ...params }, ...callOptions(opts) })).body;
    return checkJob(job, 'GET', '/jobs/{id}');
  };

  /**
   * Error pages of a job, starting after `first` when it is given (a job already fetched holds the
   * first page, so it costs no call), else from the beginning. Through the guarded pager, at most
   * MAX_JOB_ERROR_PAGES calls.
   */
  function errorPages(id: string, first?: ListPage<JobError>, opts?: CallOptions): AsyncGenerator<ListPage<JobError>, void, undefined> {
    const fetchPage = async (cursor: string | undefined, chain: RequestChain): Promise<ListPage<JobError>> =>
      (await retrieve(id, cursor === undefined ? { limit: JOB_ERRORS_PAGE_LIMIT } : { limit: JOB_ERRORS_PAGE_LIMIT, starting_after: cursor }, { ...opts, chain })).errors;
    return walkCursors<JobError>(fetchPage, '/jobs/{id}', { first, budget: new PageBudget(MAX_JOB_ERROR_PAGES, '/jobs/{id}') });
  }

  async function* iterateErrors(id: string, opts?: CallOptions): AsyncGenerator<JobError, void, undefined> {
    for await (const page of errorPages(id, undefined, opts)) yield* page.data;
  }

  async function allErrors(job: BulkUpdateJob, opts?: CallOptions): Promise<JobError[]> {
    const out: JobError[] = [];
    for await (const page of errorPages(job.id, job.errors, opts)) out.push(...page.data);
    return out;
  }

  /** Polls GET /jobs/{id} (with the largest errors page) until success or failed. */
  async function wait(id: string, opts: WaitOptions = {}): Promise<BulkUpdateJob> {
    const initial = opts.initialDelayMs ?? 500;
    const cap = opts.maxDelayMs ?? 8000;
    const maxPolls = opts.maxPolls ?? 60;
    let job: BulkUpdateJob | undefined;
    for (let poll = 0; poll < maxPolls; poll++) {
      await transport.wait(backoffDelay(poll, { baseMs: initial, capMs: cap, random: transport.config.random }), opts.signal);
      job = await retrieve(id, { limit: JOB_ERRORS_PAGE_LIMIT }, opts);
      opts.onPoll?.(job);
      // Unknown statuses are treated as still running: the spec says the enum may grow.
      if (isTerminalJob(job)) return job;
    }
    throw new ApiError({
      message: `Job ${id} is still ${job?.status ?? 'unknown'} after ${maxPolls} polls; resume it later with the same Idempotency-Key.`,
      status: null,
      type: 'api_error',
      code: 'job_poll_limit',
      param: 'id',
      request: { method: 'GET', path: '/jobs/{id}', query: '' },
    });
  }

  async function finish(idempotencyKey: string, submitted: BulkUpdateJob, opts: RunOptions): Promise<JobOutcome> {
    await opts.onSubmitted?.(submitted);
    // A replay may already be terminal; its embedded errors page is then reused rather than re-fetched.
    const job = isTerminalJob(submitted) ? submitted : await wait(submitted.id, opts);
    const errors = await allErrors(job, opts);
    return { idempotencyKey, job, errors, succeeded: job.status === 'success' };
  }

  function checkKey(key: string): void {
    if (typeof key !== 'string' || key.length < 1 || key.length > 255 || key.trim() === '') {
      throw localError('Idempotency-Key must be 1-255 characters and not blank.', 'Idempotency-Key', {
        method: 'POST',
        path: '/transactions/bulk/update',
        query: '',
      });
    }
  }

  /** Hands out (and awaits storing) the key, then POSTs. Returns the queued job. */
  async function submit(body: BulkUpdateParams, opts: SubmitOptions = {}): Promise<{ idempotencyKey: string; job: BulkUpdateJob }> {
    const idempotencyKey = opts.idempotencyKey ?? generateIdempotencyKey();
    checkKey(idempotencyKey);
    await opts.onKey?.(idempotencyKey);
    const job = await transactions.bulkUpdate(body, { idempotencyKey, ...callOptions(opts) });
    return { idempotencyKey, job };
  }

  return {
    retrieve,
    wait,
    iterateErrors,
    errorPages: (id: string, opts?: CallOptions) => errorPages(id, undefined, opts),
    /** Every error of a terminal job: the page it holds, then the rest (guarded against repeated cursors). */
    allErrors,
    submit,

    /** Submit, poll to success or failed, and gather every error. */
    run: async (body: BulkUpdateParams, opts: RunOptions = {}): Promise<JobOutcome> => {
      const { idempotencyKey, job } = await submit(body, opts);
      return finish(idempotencyKey, job, opts);
    },

    /**
     * After a crash or a lost response: re-POST the stored key with the same body (an identical replay
     * returns the original job, never a second one) and carry on polling.
     */
    resume: async (idempotencyKey: string, body: BulkUpdateParams, opts: WaitOptions & { onSubmitted?: SubmitOptions['onSubmitted'] } = {}): Promise<JobOutcome> => {
      checkKey(idempotencyKey);
      const job = await transactions.bulkUpdate(body, { idempotencyKey, ...callOptions(opts) });
      return finish(idempotencyKey, job, opts);
    },
  };
}
