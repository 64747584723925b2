// Permission areas and levels of a team member. The spec names the areas in prose ("API access: Manage",
// "Reports: View"); these are their wire names, used in memberships and in custom invitation grants.

export const PERMISSION_AREAS = [
  'api_access',
  'company',
  'team_access',
  'accounting_setup',
  'integrations',
  'reports',
  'transactions',
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

export const PERMISSION_LEVELS = ['none', 'view', 'manage'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export type Permissions = Record<PermissionArea, PermissionLevel>;

const RANK: Record<PermissionLevel, number> = { none: 0, view: 1, manage: 2 };

export function allAt(level: PermissionLevel): Permissions {
  return Object.fromEntries(PERMISSION_AREAS.map((a) => [a, level])) as Permissions;
}

/** The access templates of invitations. read_only views everything and manages nothing. */
export const ACCESS_TEMPLATES: Record<'admin' | 'read_only', Permissions> = {
  admin: allAt('manage'),
  read_only: allAt('view'),
};

export function has(perms: Permissions, area: PermissionArea, level: PermissionLevel): boolean {
  return RANK[perms[area] ?? 'none'] >= RANK[level];
}

/** True when every area of `grant` is at or below the same area of `holder`. */
export function covers(holder: Permissions, grant: Permissions): boolean {
  return PERMISSION_AREAS.every((a) => RANK[holder[a] ?? 'none'] >= RANK[grant[a] ?? 'none']);
}

export function isFullAdmin(perms: Permissions): boolean {
  return PERMISSION_AREAS.every((a) => perms[a] === 'manage');
}

export function parsePermissions(json: string): Permissions {
  const raw = JSON.parse(json) as Partial<Permissions>;
  return Object.fromEntries(PERMISSION_AREAS.map((a) => [a, raw[a] ?? 'none'])) as Permissions;
}

export const AREA_LABELS: Record<PermissionArea, string> = {
  api_access: 'API access',
  company: 'Company',
  team_access: 'Team & access',
  accounting_setup: 'Accounting setup',
  integrations: 'Integrations',
  reports: 'Reports',
  transactions: 'Transactions',
};
