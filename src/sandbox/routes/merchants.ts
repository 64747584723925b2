import type { RouteModule } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { signCursor, verifyCursor } from '../http/cursor';
import { invalidRequest } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { queryOf } from '../http/params';
import { merchantNames } from '../ledger/merchants';
import { subtree } from '../ledger/tree';
import { categoryParam } from './aggregations';

/** Merchant cursors are bound to the category they were issued for. */
interface MerchantCursor {
  k: 'merchants';
  c: string;
  after: string;
}

function cursorName(secret: string, cursor: string, categoryId: string): string {
  const payload = verifyCursor<MerchantCursor>(secret, cursor);
  if (!payload || payload.k !== 'merchants' || payload.c !== categoryId || typeof payload.after !== 'string') {
    throw invalidRequest('starting_after is not a cursor this list issued for this category_id.', 'starting_after');
  }
  return payload.after;
}

export const merchantsRoutes: RouteModule = (app, ctx) => {
  app.get('/parties/merchants', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const q = queryOf(req);
    const { limit, startingAfter } = pageParams(q);
    const { node } = categoryParam(ctx.db, caller.companyId, q);
    const after = startingAfter === undefined ? null : cursorName(ctx.secret, startingAfter, node.id);
    const ids = subtree(node).map((n) => n.id);
    const names = merchantNames(ctx.db, caller.companyId, ids, after, limit + 1);
    return pageOf(
      '/parties/merchants',
      names,
      limit,
      (name) => ({ object: 'merchant', name }),
      (name) => signCursor(ctx.secret, { k: 'merchants', c: node.id, after: name } satisfies MerchantCursor),
    );
  });
};
