import type { FastifyRequest } from 'fastify';
import type { Caller, RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { hasBody, jsonObjectBody, rejectUnknownKeys } from '../http/body';
import { insufficientPermission, invalidRequest, parameterMissing, resourceMissing, unprocessable } from '../http/errors';
import { newId } from '../ids';
import { PERMISSION_AREAS, covers, parsePermissions, type Permissions } from '../permissions';
import { parseAccess, requireGrantAllowedByPlan, requireRbacAndGrowth, storedAccess, type Access } from '../team/access';

/** How long a new (or resent) invitation stays acceptable. */
export const INVITATION_TTL_SECONDS = 14 * 24 * 3600;
const INVITE_ID = /^invite_[A-Za-z0-9]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL = 254;
const MAX_NAME = 100;
const FIXED_FIELDS = ['first_name', 'last_name', 'email', 'version'];

interface MemberRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  permissions: string;
  active: number;
}

interface InvitationRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  access_template: string | null;
  permissions: string | null;
  status: string;
  expires_at: number;
  sent_count: number;
  created: number;
}

const toMember = (r: MemberRow) => ({
  object: 'team_member',
  user_id: r.user_id,
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
  access_template: r.role === 'admin' || r.role === 'read_only' ? r.role : null,
  permissions: parsePermissions(r.permissions),
  status: r.active === 1 ? 'active' : 'inactive',
});

function toInvitation(r: InvitationRow, now: number) {
  const access = storedAccess(r);
  return {
    id: r.id,
    object: 'invitation',
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    access_template: access.template,
    permissions: access.permissions,
    status: 'pending',
    expired: r.expires_at <= now,
    expires_at: r.expires_at,
    sent_count: r.sent_count,
    created: r.created,
  };
}

function optName(body: Record<string, unknown>, field: string): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > MAX_NAME) throw invalidRequest(`${field} must be a string of at most ${MAX_NAME} characters.`, field);
  return v;
}

function requiredEmail(body: Record<string, unknown>): string {
  const v = body.email;
  if (v === undefined || v === null) throw parameterMissing('email');
  if (typeof v !== 'string') throw invalidRequest('email must be a string.', 'email');
  return v;
}

function checkInviteId(id: string): void {
  if (!INVITE_ID.test(id)) throw invalidRequest(`Invalid invitation id '${id}': expected invite_ followed by letters and digits.`, 'id');
}

/** Resend and revoke take nothing at all: any body bytes or query string is 400. */
function rejectAnyInput(req: FastifyRequest, what: string): void {
  const query = req.url.indexOf('?');
  if (hasBody(req)) throw invalidRequest(`${what} takes no request body.`);
  if (query >= 0 && query < req.url.length - 1) throw invalidRequest(`${what} takes no query parameters.`);
}

function findInvitation(ctx: SandboxContext, caller: Caller, id: string): InvitationRow | undefined {
  return ctx.db.prepare('SELECT * FROM invitations WHERE id = ? AND company_id = ?').get(id, caller.companyId) as InvitationRow | undefined;
}

/** A pending invitation of the caller's company; accepted, foreign and unknown ones are the same 404. */
function findPending(ctx: SandboxContext, caller: Caller, id: string): InvitationRow {
  const row = findInvitation(ctx, caller, id);
  if (!row || row.status !== 'pending') throw resourceMissing('Invitation not found.', 'invitation_id');
  return row;
}

/** The key owner may only manage invitations whose access is within their own. */
function requireAuthorityOver(caller: Caller, row: InvitationRow): void {
  if (!covers(caller.permissions, storedAccess(row).permissions)) {
    throw insufficientPermission('This invitation grants access beyond your own, so you cannot manage it.', 'invitation_id');
  }
}

function requireGrantWithinOwn(caller: Caller, access: Access): void {
  if (!covers(caller.permissions, access.permissions)) {
    throw insufficientPermission('You cannot grant access beyond your own.', 'permissions');
  }
}

const samePermissions = (a: Permissions, b: Permissions) => PERMISSION_AREAS.every((area) => a[area] === b[area]);

function accessColumns(access: Access): [string | null, string | null] {
  return [access.template, access.template === null ? JSON.stringify(access.permissions) : null];
}

export const teamRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  app.get('/team', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['team_access', 'view']);
    const members = db
      .prepare(
        `SELECT m.user_id, u.email, u.first_name, u.last_name, m.role, m.permissions, u.active
           FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.company_id = ? AND m.status = 'active' ORDER BY m.created, u.email`,
      )
      .all(caller.companyId) as MemberRow[];
    const invitations = db
      .prepare("SELECT * FROM invitations WHERE company_id = ? AND status = 'pending' ORDER BY created, id")
      .all(caller.companyId) as InvitationRow[];
    const now = ctx.clock.now();
    return { object: 'team', members: members.map(toMember), invitations: invitations.map((r) => toInvitation(r, now)) };
  });

  app.post('/team/invitations', async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['team_access', 'manage']);
    const body = jsonObjectBody(req);
    rejectUnknownKeys(body, ['email', 'first_name', 'last_name', 'access_template', 'permissions']);
    const email = requiredEmail(body);
    const firstName = optName(body, 'first_name');
    const lastName = optName(body, 'last_name');
    const access = parseAccess(body);
    requireGrantAllowedByPlan(caller, access);
    requireGrantWithinOwn(caller, access);
    if (email.length > MAX_EMAIL || !EMAIL.test(email)) throw unprocessable('invalid_email', `'${email}' is not a valid email address.`, 'email');
    const row = db.transaction(() => {
      const member = db
        .prepare(
          `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE m.company_id = ? AND m.status = 'active' AND lower(u.email) = lower(?)`,
        )
        .get(caller.companyId, email);
      if (member) throw unprocessable('already_member', `${email} is already a member of this team.`, 'email');
      const pending = db
        .prepare("SELECT id FROM invitations WHERE company_id = ? AND status = 'pending' AND lower(email) = lower(?)")
        .get(caller.companyId, email) as { id: string } | undefined;
      if (pending) throw unprocessable('invitation_exists', `${email} already has a pending invitation (${pending.id}).`, 'email');
      const id = newId('invite');
      const now = ctx.clock.now();
      db.prepare(
        `INSERT INTO invitations (id, company_id, email, first_name, last_name, access_template, permissions, status,
                                  invited_by, expires_at, sent_count, created)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, 1, ?)`,
      ).run(id, caller.companyId, email, firstName, lastName, ...accessColumns(access), caller.userId, now + INVITATION_TTL_SECONDS, now);
      return findPending(ctx, caller, id);
    })();
    return reply.code(201).send({ ...toInvitation(row, ctx.clock.now()), changed: false });
  });

  app.patch('/team/invitations/:id', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['team_access', 'manage']);
    const { id } = req.params as { id: string };
    checkInviteId(id);
    const body = jsonObjectBody(req);
    const fixed = FIXED_FIELDS.find((f) => f in body);
    if (fixed) throw invalidRequest(`${fixed} cannot be changed: PATCH changes an invitation's access only.`, fixed);
    rejectUnknownKeys(body, ['access_template', 'permissions']);
    const access = parseAccess(body);
    requireRbacAndGrowth(caller);
    return db.transaction(() => {
      const row = findPending(ctx, caller, id);
      requireAuthorityOver(caller, row);
      requireGrantWithinOwn(caller, access);
      const before = storedAccess(row);
      const changed = before.template !== access.template || !samePermissions(before.permissions, access.permissions);
      if (changed) db.prepare('UPDATE invitations SET access_template = ?, permissions = ? WHERE id = ?').run(...accessColumns(access), id);
      return { ...toInvitation(findPending(ctx, caller, id), ctx.clock.now()), changed };
    })();
  });

  // Each resend mails a fresh link, so an expired invitation becomes acceptable again.
  app.post('/team/invitations/:id/resend', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['team_access', 'manage']);
    const { id } = req.params as { id: string };
    checkInviteId(id);
    rejectAnyInput(req, 'Resending an invitation');
    return db.transaction(() => {
      requireAuthorityOver(caller, findPending(ctx, caller, id));
      const now = ctx.clock.now();
      db.prepare('UPDATE invitations SET sent_count = sent_count + 1, expires_at = ? WHERE id = ?').run(now + INVITATION_TTL_SECONDS, id);
      return toInvitation(findPending(ctx, caller, id), now);
    })();
  });

  // 204 also for unknown ids and other companies' invitations, so existence is never confirmed.
  app.delete('/team/invitations/:id', async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['team_access', 'manage']);
    rejectAnyInput(req, 'Revoking an invitation');
    const { id } = req.params as { id: string };
    db.transaction(() => {
      const row = findInvitation(ctx, caller, id);
      if (!row) return;
      if (row.status !== 'pending') throw resourceMissing('Invitation not found: it was already accepted.', 'invitation_id');
      requireAuthorityOver(caller, row);
      db.prepare('DELETE FROM invitations WHERE id = ? AND company_id = ?').run(id, caller.companyId);
    })();
    return reply.code(204).send();
  });
};
