import type { Db } from '../db/open';
import type { Caller } from '../context';
import { ApiError, insufficientPermission, permissionError } from './errors';
import { has, parsePermissions, type PermissionArea, type PermissionLevel, AREA_LABELS } from '../permissions';

const KEY_FORMAT = /^svc_[A-Za-z0-9_]+$/;

export const invalidApiKey = () =>
  new ApiError(401, 'authentication_error', 'invalid_api_key', 'Invalid API key provided. Send a valid key as Authorization: Bearer svc_...');

/** The key from `Authorization: Bearer <key>`, or undefined when absent or malformed. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  // The auth scheme is case-insensitive (RFC 9110); the key itself is compared exactly.
  const m = /^bearer ([^\s]+)$/i.exec(header.trim());
  if (!m || !KEY_FORMAT.test(m[1])) return undefined;
  return m[1];
}

interface KeyRow {
  key: string;
  user_id: string;
  company_id: string;
  revoked: number;
  user_active: number;
  membership_status: string | null;
  permissions: string | null;
  company_status: string;
  plan: Caller['plan'];
  plan_status: Caller['planStatus'];
  rbac_enabled: number;
  monthly_cap_override: number | null;
}

/** Looks the key up; undefined when unknown or revoked (both are 401). */
export function findKey(db: Db, key: string): KeyRow | undefined {
  const row = db
    .prepare(
      `SELECT k.key, k.user_id, k.company_id, k.revoked, u.active AS user_active,
              m.status AS membership_status, m.permissions,
              c.status AS company_status, c.plan, c.plan_status, c.rbac_enabled, c.monthly_cap_override
         FROM api_keys k
         JOIN users u ON u.id = k.user_id
         JOIN companies c ON c.id = k.company_id
         LEFT JOIN memberships m ON m.company_id = k.company_id AND m.user_id = k.user_id
        WHERE k.key = ?`,
    )
    .get(key) as KeyRow | undefined;
  if (!row || row.revoked) return undefined;
  return row;
}

/**
 * The 403s that do not depend on the endpoint, then API access: Manage. Read live from the row, so a
 * revocation applies on the very next request.
 */
export function callerFromKey(row: KeyRow): Caller {
  if (!row.user_active) throw permissionError('user_inactive', 'The owner of this API key has been deactivated.');
  if (row.membership_status !== 'active' || row.permissions === null) {
    throw permissionError('user_removed_from_company', 'The owner of this API key no longer has access to this company.');
  }
  if (row.company_status !== 'active') throw permissionError('company_closed', 'This company is closed.');
  if (row.plan_status !== 'active' && row.plan_status !== 'trialing') {
    throw permissionError('subscription_required', 'This company has no active subscription.');
  }
  const permissions = parsePermissions(row.permissions);
  if (!has(permissions, 'api_access', 'manage')) {
    throw insufficientPermission('The owner of this API key lacks the API access: Manage permission.');
  }
  return {
    key: row.key,
    userId: row.user_id,
    companyId: row.company_id,
    permissions,
    plan: row.plan,
    planStatus: row.plan_status,
    rbacEnabled: row.rbac_enabled === 1,
  };
}

/** Throws 403 insufficient_permission (no param) unless the caller holds every listed permission. */
export function requirePermissions(caller: Caller, ...needs: [PermissionArea, PermissionLevel][]): void {
  for (const [area, level] of needs) {
    if (!has(caller.permissions, area, level)) {
      const label = level === 'manage' ? 'Manage' : 'View';
      throw insufficientPermission(`This request needs the ${AREA_LABELS[area]}: ${label} permission.`);
    }
  }
}
