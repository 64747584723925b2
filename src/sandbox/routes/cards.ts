import type { RouteModule } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { signCursor, verifyCursor } from '../http/cursor';
import { invalidRequest, resourceMissing } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { optString, queryOf } from '../http/params';
import { quote } from '../transactions/edits';

const PATH = '/cards';

interface CardRow {
  seq: number;
  id: string;
  name: string | null;
  last_four: string | null;
  account_id: string | null;
  type: string | null;
  status: string | null;
  created: number;
}

/** Position after a card, bound to the company and to the account_id filter it was issued under. */
interface CardsCursor {
  k: 'cards';
  c: string;
  a: string | null;
  s: number;
}

const toCard = (r: CardRow) => ({
  id: r.id,
  object: 'card' as const,
  name: r.name,
  last_four: r.last_four,
  account_id: r.account_id,
  type: r.type,
  status: r.status,
  created: r.created,
});

export const cardsRoutes: RouteModule = (app, ctx) => {
  app.get(PATH, async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'view']);
    const q = queryOf(req);
    const { limit, startingAfter } = pageParams(q);
    const accountId = optString(q, 'account_id') ?? null;
    if (accountId !== null && !ctx.db.prepare('SELECT 1 FROM accounts WHERE id = ? AND company_id = ?').get(accountId, caller.companyId)) {
      throw resourceMissing(`No such account: '${quote(accountId)}'.`, 'account_id');
    }
    let afterSeq = 0;
    if (startingAfter !== undefined) {
      const cur = verifyCursor<CardsCursor>(ctx.secret, startingAfter);
      if (!cur || cur.k !== 'cards' || cur.c !== caller.companyId || cur.a !== accountId || !Number.isInteger(cur.s)) {
        throw invalidRequest('starting_after is not a cursor of this list with this account_id; pass next_cursor back with the same filter.', 'starting_after');
      }
      afterSeq = cur.s;
    }
    const rows = ctx.db
      .prepare(`SELECT * FROM cards WHERE company_id = ? AND seq > ? ${accountId ? 'AND account_id = ?' : ''} ORDER BY seq LIMIT ?`)
      .all(...[caller.companyId, afterSeq, ...(accountId ? [accountId] : []), limit + 1]) as CardRow[];
    return pageOf(PATH, rows, limit, toCard, (r) =>
      signCursor(ctx.secret, { k: 'cards', c: caller.companyId, a: accountId, s: r.seq } satisfies CardsCursor),
    );
  });
};
