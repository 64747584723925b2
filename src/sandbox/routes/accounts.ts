import type { RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import type { Caller } from '../context';
import { requirePermissions } from '../http/auth';
import { jsonObjectBody, rejectUnknownKeys } from '../http/body';
import { ApiError, invalidRequest, parameterMissing, serverError } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { queryOf } from '../http/params';
import { newId } from '../ids';

const PATH = '/accounts';
const FIELDS = ['account_name', 'vendor', 'type'] as const;
const TYPES = ['bank', 'credit'] as const;
const MAX_LENGTH = 200;

interface AccountRow {
  seq: number;
  id: string;
  vendor: string;
  type: string | null;
  account_name: string | null;
  manual: number;
  created: number;
}

const toAccount = (r: AccountRow) => ({
  id: r.id,
  object: 'account' as const,
  vendor: r.vendor,
  type: r.type,
  account_name: r.account_name,
  manual: r.manual === 1,
  created: r.created,
});

/** Case-insensitive, whitespace-insensitive form used to match an existing account. */
const loose = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The stored vendor: lowercase, punctuation as spaces, whitespace collapsed, and a trailing word holding
 * a digit (an account or customer id) dropped when a name remains without it.
 */
export function normalizeVendor(vendor: string): string {
  const words = loose(vendor.replace(/[^\p{L}\p{N}\s]/gu, ' ')).split(' ').filter(Boolean);
  if (words.length > 1 && /\d/.test(words[words.length - 1])) words.pop();
  return words.join(' ');
}

export const accountsRoutes: RouteModule = (app, ctx) => {
  app.get(PATH, async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'view']);
    const { limit, startingAfter } = pageParams(queryOf(req));
    let afterSeq = 0;
    if (startingAfter !== undefined) {
      const anchor = ctx.db.prepare('SELECT seq FROM accounts WHERE id = ? AND company_id = ?').get(startingAfter, caller.companyId) as
        | { seq: number }
        | undefined;
      if (!anchor) throw invalidRequest('starting_after is not a cursor of this list; pass next_cursor back unchanged.', 'starting_after');
      afterSeq = anchor.seq;
    }
    const rows = ctx.db
      .prepare('SELECT * FROM accounts WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(caller.companyId, afterSeq, limit + 1) as AccountRow[];
    return pageOf(PATH, rows, limit, toAccount, (r) => r.id);
  });

  app.post(PATH, async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['transactions', 'manage']);
    const body = jsonObjectBody(req);
    rejectUnknownKeys(body, FIELDS);
    const [accountName, vendor, type] = FIELDS.map((f) => requiredString(body, f));
    if (!(TYPES as readonly string[]).includes(type)) throw invalidRequest(`type must be one of: ${TYPES.join(', ')}.`, 'type');
    const normalized = normalizeVendor(vendor);
    if (normalized === '') throw invalidRequest('vendor must contain letters or digits.', 'vendor');

    const { account, created } = findOrCreate(ctx, caller, { accountName: accountName.trim(), vendor, normalized, type });
    reply.code(created ? 201 : 200);
    return toAccount(account);
  });
};

function requiredString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw parameterMissing(field);
  if (typeof v !== 'string') throw invalidRequest(`${field} must be a string.`, field);
  if (v.length > MAX_LENGTH) throw invalidRequest(`${field} must be at most ${MAX_LENGTH} characters.`, field);
  return v;
}

interface NewAccount {
  accountName: string;
  vendor: string;
  normalized: string;
  type: string;
}

/** An existing manual account that matches (same type, vendor as sent or normalized, same name), or a new one. */
function findOrCreate(ctx: SandboxContext, caller: Caller, a: NewAccount): { account: AccountRow; created: boolean } {
  const { db } = ctx;
  try {
    return db.transaction(() => {
      const candidates = db
        .prepare('SELECT * FROM accounts WHERE company_id = ? AND manual = 1 AND type = ? ORDER BY seq')
        .all(caller.companyId, a.type) as AccountRow[];
      const match = candidates.find(
        (c) =>
          loose(c.account_name ?? '') === loose(a.accountName) &&
          (loose(c.vendor) === loose(a.vendor) || c.vendor === a.normalized),
      );
      if (match) return { account: match, created: false };
      const role = a.type === 'bank' ? 'cash' : 'card_liability';
      const category = db.prepare('SELECT id FROM categories WHERE company_id = ? AND role = ?').get(caller.companyId, role) as
        | { id: string }
        | undefined;
      const id = newId('acct');
      db.prepare(
        'INSERT INTO accounts (id, company_id, vendor, type, account_name, manual, category_id, created) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
      ).run(id, caller.companyId, a.normalized, a.type, a.accountName, category?.id ?? null, ctx.clock.now());
      return { account: db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow, created: true };
    })();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    console.error('sandbox: account creation failed:', err);
    throw serverError(500, 'account_create_failed', 'The account could not be created. Retry with the same body.');
  }
}
