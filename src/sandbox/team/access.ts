import type { Caller } from '../context';
import { isPlainObject } from '../http/body';
import { invalidRequest, parameterMissing, permissionError } from '../http/errors';
import {
  ACCESS_TEMPLATES,
  PERMISSION_AREAS,
  PERMISSION_LEVELS,
  isFullAdmin,
  parsePermissions,
  type Permissions,
} from '../permissions';

// The access an invitation grants: a template (admin, read_only) or a custom permissions object with
// exactly one level for each of the seven areas.

export type Template = keyof typeof ACCESS_TEMPLATES;

export interface Access {
  template: Template | null;
  permissions: Permissions;
}

function parseTemplate(v: unknown): Access {
  if (v !== 'admin' && v !== 'read_only') throw invalidRequest('access_template must be admin or read_only.', 'access_template');
  return { template: v, permissions: ACCESS_TEMPLATES[v] };
}

function parseCustom(v: unknown): Access {
  if (!isPlainObject(v)) throw invalidRequest('permissions must be an object with one level for each permission area.', 'permissions');
  const areas = PERMISSION_AREAS as readonly string[];
  const extra = Object.keys(v).find((k) => !areas.includes(k));
  if (extra !== undefined) throw invalidRequest(`permissions: unknown permission area '${extra}' (areas: ${areas.join(', ')}).`, 'permissions');
  const missing = areas.find((a) => !(a in v));
  if (missing !== undefined) throw invalidRequest(`permissions: the area '${missing}' is missing; give every area a level.`, 'permissions');
  const wrong = areas.find((a) => !(PERMISSION_LEVELS as readonly unknown[]).includes(v[a]));
  if (wrong !== undefined) {
    throw invalidRequest(`permissions.${wrong}: unsupported level; use one of ${PERMISSION_LEVELS.join(', ')}.`, 'permissions');
  }
  return { template: null, permissions: parsePermissions(JSON.stringify(v)) };
}

/** The access chosen by a body: exactly one of access_template and permissions (a null counts as sent). */
export function parseAccess(body: Record<string, unknown>): Access {
  const hasTemplate = 'access_template' in body;
  const hasCustom = 'permissions' in body;
  if (hasTemplate && hasCustom) {
    throw invalidRequest('Send either access_template or permissions, not both (even as null).', 'permissions');
  }
  if (hasTemplate) return parseTemplate(body.access_template);
  if (hasCustom) return parseCustom(body.permissions);
  throw parameterMissing('access_template', 'Choose the access: send access_template (admin or read_only) or a permissions object.');
}

/** The effective permissions of a stored invitation. */
export function storedAccess(row: { access_template: string | null; permissions: string | null }): Access {
  if (row.access_template === 'admin' || row.access_template === 'read_only') {
    return { template: row.access_template, permissions: ACCESS_TEMPLATES[row.access_template] };
  }
  return { template: null, permissions: parsePermissions(row.permissions ?? '{}') };
}

/** Role-based access control on and an active or trialing Growth plan (both needed for custom access). */
export function requireRbacAndGrowth(caller: Caller, param?: string): void {
  if (!caller.rbacEnabled) {
    throw permissionError('feature_disabled', 'Role-based access control is off for this company: only Admin access can be granted and invitation access cannot be edited.', param);
  }
  if (caller.plan !== 'growth' || (caller.planStatus !== 'active' && caller.planStatus !== 'trialing')) {
    throw permissionError('plan_upgrade_required', 'Access other than full Admin needs an active or trialing Growth plan.', param);
  }
}

/** Gates of a new grant: full Admin always passes the plan and feature gates; anything else needs both. */
export function requireGrantAllowedByPlan(caller: Caller, access: Access): void {
  if (!isFullAdmin(access.permissions)) requireRbacAndGrowth(caller, 'permissions');
}
