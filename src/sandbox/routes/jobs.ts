import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { jsonObjectBody } from '../http/body';
import { signCursor, verifyCursor } from '../http/cursor';
import { conflict, invalidRequest, resourceMissing } from '../http/errors';
import { pageParams } from '../http/paging';
import { queryOf } from '../http/params';
import { newId } from '../ids';
import { canonicalJson, checkReferences, parseBulkBody } from '../jobs/request';
import { findJob, findJobByKey, jobErrorRows, jobObject, jobPath, queuedSnapshot, type JobRow } from '../jobs/store';
import { quote } from '../transactions/edits';

const MAX_KEY_LENGTH = 255;

/** Position in a job's errors, signed and bound to that job. */
interface ErrorsCursor {
  k: 'job_errors';
  j: string;
  s: number;
}

function idempotencyKey(req: FastifyRequest): string {
  const v = req.headers['idempotency-key'];
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_KEY_LENGTH) {
    throw invalidRequest(`The Idempotency-Key header is required: 1-${MAX_KEY_LENGTH} characters, not blank.`, 'Idempotency-Key');
  }
  return v;
}

export const jobsRoutes: RouteModule = (app, ctx) => {
  app.post('/transactions/bulk/update', async (req, reply) => submitBulkUpdate(ctx, req, reply));

  app.get('/jobs/:id', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'manage']);
    const { limit, startingAfter } = pageParams(queryOf(req));
    const { id } = req.params as { id: string };
    const job = findJob(ctx.db, caller.companyId, id, ctx.clock.now());
    if (!job) throw resourceMissing(`No such job: '${quote(id)}'.`, 'id');
    return jobWithErrors(ctx, job, limit, startingAfter);
  });
};

function jobWithErrors(ctx: SandboxContext, job: JobRow, limit: number, startingAfter?: string) {
  let after = 0;
  if (startingAfter !== undefined) {
    const cur = verifyCursor<ErrorsCursor>(ctx.secret, startingAfter);
    if (!cur || cur.k !== 'job_errors' || cur.j !== job.id || !Number.isInteger(cur.s)) {
      throw invalidRequest('starting_after is not a cursor of this job\'s errors.', 'starting_after');
    }
    after = cur.s;
  }
  const rows = jobErrorRows(ctx.db, job.id, after, limit);
  const hasMore = rows.length > limit;
  const slice = rows.slice(0, limit);
  const last = slice[slice.length - 1];
  return jobObject(job, {
    has_more: hasMore,
    next_cursor: hasMore ? signCursor(ctx.secret, { k: 'job_errors', j: job.id, s: last.seq } satisfies ErrorsCursor) : null,
    data: slice.map(({ type, code, message, transaction_id }) => ({ type, code, message, transaction_id })),
  });
}

/**
 * POST /transactions/bulk/update. Order: permission -> Idempotency-Key -> JSON body -> replay of a known
 * key (same JSON value: the original job; another body: 409) -> validation (400) -> lookups (404) -> a
 * new queued job. Every 202, replays included, answers the job as queued, as the first response did.
 */
async function submitBulkUpdate(ctx: SandboxContext, req: FastifyRequest, reply: FastifyReply) {
  const caller = callerOf(req);
  requirePermissions(caller, ['transactions', 'manage']);
  const key = idempotencyKey(req);
  const body = jsonObjectBody(req);
  const canonical = canonicalJson(body);
  const hash = crypto.createHash('sha256').update(canonical).digest('hex');
  const { db, clock } = ctx;

  const job = db.transaction(() => {
    const known = findJobByKey(db, caller.companyId, caller.userId, key, clock.now());
    if (known) {
      if (known.body_hash !== hash) {
        throw conflict('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.', 'Idempotency-Key');
      }
      return known;
    }
    const request = parseBulkBody(body);
    checkReferences(db, caller.companyId, request);
    const id = newId('job');
    db.prepare(
      `INSERT INTO jobs (id, company_id, user_id, idempotency_key, body_hash, body, status, updated_count, created)
       VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?)`,
    ).run(id, caller.companyId, caller.userId, key, hash, canonical, clock.now());
    return db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow;
  })();

  ctx.kickWorker();
  reply.code(202).header('Location', jobPath(job.id));
  return queuedSnapshot(job);
}
