import type { FastifyRequest } from 'fastify';
import type { RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { jsonObjectBody, rejectUnknownKeys } from '../http/body';
import { verifyCursor, signCursor } from '../http/cursor';
import { ApiError, resourceMissing, unprocessable } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { queryOf } from '../http/params';
import { listFilters, optUpdatedAfter, type Where } from '../transactions/filters';
import { EDIT_FIELDS, accountingWindow, applyEdit, firstViolation, quote, readEdit, resolveReferences } from '../transactions/edits';
import { TXN_SELECT, findVisibleTransaction, toTransaction, type TxnRow } from '../transactions/wire';

const PATH = '/transactions';

/** Position of an incremental sync, signed so a client can neither forge nor edit it. */
interface SyncCursor {
  k: 'sync';
  /** company */
  c: string;
  /** updated_after of the run */
  a: number;
  /** watermark pinned at the first page */
  w: number;
  /** last row: updated, update_seq, id */
  u: number;
  s: number;
  i: string;
}

const transactionMissing = (id: string) => resourceMissing(`No such transaction: '${quote(id)}'.`, 'id');

export const transactionsRoutes: RouteModule = (app, ctx) => {
  app.get(PATH, async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'view']);
    const q = queryOf(req);
    const { limit, startingAfter } = pageParams(q);
    const updatedAfter = optUpdatedAfter(q);
    const where = listFilters(ctx.db, caller.companyId, q);
    where.sql.unshift('t.company_id = ?', 't.hidden = 0');
    where.args.unshift(caller.companyId);
    if (updatedAfter === undefined) return classicPage(ctx, caller.companyId, where, limit, startingAfter);
    return syncPage(ctx, caller.companyId, where, limit, updatedAfter, startingAfter);
  });

  app.get(`${PATH}/:id`, async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'view']);
    const { id } = req.params as { id: string };
    const row = findVisibleTransaction(ctx.db, caller.companyId, id);
    if (!row) throw transactionMissing(id);
    return toTransaction(row);
  });

  app.patch(`${PATH}/:id`, async (req) => patchTransaction(ctx, req));
};

/** Classic mode: live rows newest first (date desc, id desc); the cursor is the id of the last row. */
function classicPage(ctx: SandboxContext, companyId: string, where: Where, limit: number, startingAfter?: string) {
  where.sql.push('t.deleted = 0');
  if (startingAfter !== undefined) {
    const anchor = ctx.db
      .prepare('SELECT date, id FROM transactions WHERE id = ? AND company_id = ? AND hidden = 0')
      .get(startingAfter, companyId) as { date: string; id: string } | undefined;
    if (!anchor) throw resourceMissing(`No such transaction: '${quote(startingAfter)}'.`, 'starting_after');
    where.sql.push('(t.date < ? OR (t.date = ? AND t.id < ?))');
    where.args.push(anchor.date, anchor.date, anchor.id);
  }
  const rows = ctx.db
    .prepare(`${TXN_SELECT} WHERE ${where.sql.join(' AND ')} ORDER BY t.date DESC, t.id DESC LIMIT ?`)
    .all(...where.args, limit + 1) as TxnRow[];
  return pageOf(PATH, rows, limit, toTransaction, (r) => r.id);
}

/**
 * Incremental mode: rows with updated_after < updated <= watermark, oldest change first, tombstones
 * included. The watermark is pinned at the first page (the previous second, so a change in the current
 * second always lands in the next run) and travels in the cursor.
 */
function syncPage(ctx: SandboxContext, companyId: string, where: Where, limit: number, updatedAfter: number, startingAfter?: string) {
  let watermark = ctx.clock.now() - 1;
  if (startingAfter !== undefined) {
    const cur = verifyCursor<SyncCursor>(ctx.secret, startingAfter);
    if (!cur || cur.k !== 'sync' || cur.c !== companyId || cur.a !== updatedAfter) {
      throw resourceMissing('This sync cursor cannot be used: restart the sync from the stored watermark.', 'starting_after');
    }
    watermark = cur.w;
    // A row value, so SQLite seeks in the (company_id, updated, update_seq) index instead of scanning from
    // the start for every page.
    where.sql.push('(t.updated, t.update_seq, t.id) > (?, ?, ?)');
    where.args.push(cur.u, cur.s, cur.i);
  }
  where.sql.push('t.updated > ?', 't.updated <= ?');
  where.args.push(updatedAfter, watermark);
  const rows = ctx.db
    .prepare(`${TXN_SELECT} WHERE ${where.sql.join(' AND ')} ORDER BY t.updated, t.update_seq, t.id LIMIT ?`)
    .all(...where.args, limit + 1) as TxnRow[];
  const page = pageOf(PATH, rows, limit, toTransaction, (r) =>
    signCursor(ctx.secret, { k: 'sync', c: companyId, a: updatedAfter, w: watermark, u: r.updated, s: r.update_seq, i: r.id } satisfies SyncCursor),
  );
  return { ...page, watermark };
}

/**
 * PATCH /transactions/{id}: checks run body shape (400) -> transaction (404) -> named ids (404) ->
 * bookkeeping rules in server order (422, param = the first field that breaks one), then everything
 * applies in one SQLite transaction.
 */
async function patchTransaction(ctx: SandboxContext, req: FastifyRequest) {
  const caller = callerOf(req);
  requirePermissions(caller, ['transactions', 'manage']);
  const { id } = req.params as { id: string };
  const body = jsonObjectBody(req);
  // A body with no editable field at all is "missing" the parameter, whatever else it holds; a body that
  // has one is then rejected for any field it may not carry.
  if (!EDIT_FIELDS.some((f) => Object.hasOwn(body, f))) {
    throw new ApiError(400, 'invalid_request_error', 'parameter_missing', `The body must hold at least one editable field: ${EDIT_FIELDS.join(', ')}.`);
  }
  rejectUnknownKeys(body, EDIT_FIELDS);
  const edit = readEdit(body);

  const { db, clock } = ctx;
  return db.transaction(() => {
    const row = findVisibleTransaction(db, caller.companyId, id);
    if (!row) throw transactionMissing(id);
    resolveReferences(db, caller.companyId, edit);
    const violation = firstViolation(db, row, edit, accountingWindow(db, caller.companyId, clock.today()));
    if (violation) throw unprocessable('transaction_update_failed', violation.message, violation.field);
    applyEdit(db, row, edit, clock.now());
    return toTransaction(findVisibleTransaction(db, caller.companyId, id)!);
  })();
}
