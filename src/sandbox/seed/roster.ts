// The demo companies, their people and the labelled API keys of the roster (what `--list-keys` prints, one
// key per access case the tests need). Identities (company, user ids, keys) come from their own PRNG streams that depend on
// nothing but their labels, so keys stay the same whatever the transaction count or date of a seed.

import type { Db } from '../db/open';
import { newId } from '../ids';
import { ACCESS_TEMPLATES, allAt, PERMISSION_AREAS, type Permissions } from '../permissions';
import { stream, type Rand } from './util';

export type Plan = 'formation' | 'startup' | 'growth';

export type CompanyKey = 'growth' | 'startup' | 'formation' | 'closed' | 'nosub' | 'growth2' | 'growth3';

export interface CompanyProfile {
  key: CompanyKey;
  name: string;
  legalName: string;
  entityType: string;
  einLast4: string;
  /** Years and days before today. */
  incorporatedYearsAgo: number;
  incorporatedExtraDays: number;
  incorporationState: string;
  address: [line1: string, line2: string | null, city: string, state: string, postal: string, country: string];
  plan: Plan;
  planStatus: 'active' | 'trialing' | 'ended';
  rbac: boolean;
  status: 'active' | 'closed';
  /** Days of history and how many days before today it stops (a closed company stopped earlier). */
  historyDays: number;
  endDaysAgo: number;
  /** Transactions to seed (Growth: opts.transactions). */
  transactions: number;
  /**
   * A funded operating company: its history has an equity raise, estimated taxes, an annual insurance
   * premium and quarterly equipment purchases (seed/transactions/schedule.ts).
   */
  venture: boolean;
  domain: string;
}

export const COMPANY_PROFILES: CompanyProfile[] = [
  {
    key: 'growth',
    name: 'Northwind Analytics',
    legalName: 'Northwind Analytics, Inc.',
    entityType: 'c_corporation',
    einLast4: '4821',
    incorporatedYearsAgo: 3,
    incorporatedExtraDays: 41,
    incorporationState: 'DE',
    address: ['500 Howard Street', 'Suite 400', 'San Francisco', 'CA', '94105', 'US'],
    plan: 'growth',
    planStatus: 'active',
    rbac: true,
    status: 'active',
    historyDays: 730,
    endDaysAgo: 0,
    transactions: 20_000,
    venture: true,
    domain: 'northwind.example',
  },
  {
    key: 'startup',
    name: 'Bluebird Robotics',
    legalName: 'Bluebird Robotics, Inc.',
    entityType: 'c_corporation',
    einLast4: '7390',
    incorporatedYearsAgo: 1,
    incorporatedExtraDays: 150,
    incorporationState: 'DE',
    address: ['1100 South Congress Avenue', null, 'Austin', 'TX', '78704', 'US'],
    plan: 'startup',
    planStatus: 'active',
    rbac: false,
    status: 'active',
    historyDays: 365,
    endDaysAgo: 0,
    transactions: 2_000,
    venture: true,
    domain: 'bluebird.example',
  },
  {
    key: 'formation',
    name: 'Juniper & Pine Studio',
    legalName: 'Juniper & Pine Studio LLC',
    entityType: 'llc',
    einLast4: '1157',
    incorporatedYearsAgo: 0,
    incorporatedExtraDays: 240,
    incorporationState: 'CA',
    address: ['2201 Broadway', 'Floor 3', 'Oakland', 'CA', '94612', 'US'],
    plan: 'formation',
    planStatus: 'active',
    rbac: false,
    status: 'active',
    historyDays: 180,
    endDaysAgo: 0,
    transactions: 200,
    venture: false,
    domain: 'juniperpine.example',
  },
  {
    key: 'closed',
    name: 'Driftwood Coffee Labs',
    legalName: 'Driftwood Coffee Labs, Inc.',
    entityType: 'c_corporation',
    einLast4: '6604',
    incorporatedYearsAgo: 2,
    incorporatedExtraDays: 10,
    incorporationState: 'WA',
    address: ['1418 Western Avenue', null, 'Seattle', 'WA', '98101', 'US'],
    plan: 'startup',
    planStatus: 'active',
    rbac: false,
    status: 'closed',
    historyDays: 120,
    endDaysAgo: 60,
    transactions: 50,
    venture: false,
    domain: 'driftwood.example',
  },
  {
    key: 'nosub',
    name: 'Halcyon Health',
    legalName: 'Halcyon Health, Inc.',
    entityType: 's_corporation',
    einLast4: '2248',
    incorporatedYearsAgo: 1,
    incorporatedExtraDays: 30,
    incorporationState: 'NY',
    address: ['85 Broad Street', '17th Floor', 'New York', 'NY', '10004', 'US'],
    plan: 'growth',
    planStatus: 'ended',
    rbac: true,
    status: 'active',
    historyDays: 120,
    endDaysAgo: 0,
    transactions: 50,
    venture: false,
    domain: 'halcyon.example',
  },
  // A second Growth company in the same currency, for consolidation: its chart of accounts and department
  // tree overlap Northwind's but differ in a few places (seed/chart.ts). Seeded last and kept smaller, so
  // the companies above are unchanged and the template database stays quick to seed.
  {
    key: 'growth2',
    name: 'Westbrook Software',
    legalName: 'Westbrook Software, Inc.',
    entityType: 'c_corporation',
    einLast4: '5317',
    incorporatedYearsAgo: 2,
    incorporatedExtraDays: 200,
    incorporationState: 'DE',
    address: ['88 Pearl Street', 'Floor 5', 'Boston', 'MA', '02110', 'US'],
    plan: 'growth',
    planStatus: 'active',
    rbac: true,
    status: 'active',
    historyDays: 730,
    endDaysAgo: 0,
    transactions: 3_000,
    venture: true,
    domain: 'westbrook.example',
  },
  // A third Growth company whose chart of accounts and department tree are its own (seed/chart.ts): the
  // board pack and its charts are tried on it. Seeded after the others, so they are unchanged.
  {
    key: 'growth3',
    name: 'Alderbrook Labs',
    legalName: 'Alderbrook Labs, Inc.',
    entityType: 'c_corporation',
    einLast4: '9034',
    incorporatedYearsAgo: 2,
    incorporatedExtraDays: 90,
    incorporationState: 'DE',
    address: ['400 SW 6th Avenue', 'Suite 1100', 'Portland', 'OR', '97204', 'US'],
    plan: 'growth',
    planStatus: 'active',
    rbac: true,
    status: 'active',
    historyDays: 730,
    endDaysAgo: 0,
    transactions: 3_000,
    venture: true,
    domain: 'alderbrook.example',
  },
];

export interface PersonSpec {
  /** Stable handle inside the seed. */
  handle: string;
  company: CompanyKey;
  firstName: string;
  lastName: string;
  role: 'admin' | 'read_only' | 'custom';
  permissions: Permissions;
  membershipStatus: 'active' | 'removed';
  active: boolean;
  /** Roster label of the person's key, null for an unlabelled key, undefined for no key. */
  keyLabel?: string | null;
  keyRevoked?: boolean;
}

const admin = ACCESS_TEMPLATES.admin;
const custom = (overrides: Partial<Permissions>, base: Permissions = allAt('none')): Permissions => ({ ...base, ...overrides });

export const PEOPLE: PersonSpec[] = [
  // Growth
  { handle: 'growth_admin', company: 'growth', firstName: 'Avery', lastName: 'Chen', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'growth-admin' },
  {
    handle: 'growth_readonly', company: 'growth', firstName: 'Blake', lastName: 'Morgan', role: 'custom',
    permissions: custom({ api_access: 'manage' }, allAt('view')), membershipStatus: 'active', active: true, keyLabel: 'growth-readonly',
  },
  {
    handle: 'growth_no_api', company: 'growth', firstName: 'Casey', lastName: 'Nguyen', role: 'custom',
    permissions: custom({ api_access: 'none' }, allAt('manage')), membershipStatus: 'active', active: true, keyLabel: 'growth-no-api',
  },
  {
    handle: 'growth_reports', company: 'growth', firstName: 'Devon', lastName: 'Ortiz', role: 'custom',
    permissions: custom({ api_access: 'manage', reports: 'view' }), membershipStatus: 'active', active: true, keyLabel: 'growth-reports',
  },
  { handle: 'removed', company: 'growth', firstName: 'Emerson', lastName: 'Hale', role: 'admin', permissions: admin, membershipStatus: 'removed', active: true, keyLabel: 'removed' },
  { handle: 'deactivated', company: 'growth', firstName: 'Finley', lastName: 'Brooks', role: 'admin', permissions: admin, membershipStatus: 'active', active: false, keyLabel: 'deactivated' },
  { handle: 'revoked', company: 'growth', firstName: 'Harper', lastName: 'Quinn', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'revoked', keyRevoked: true },
  {
    handle: 'growth_controller', company: 'growth', firstName: 'Jordan', lastName: 'Patel', role: 'custom',
    permissions: custom({ api_access: 'manage', transactions: 'manage', reports: 'view', accounting_setup: 'view', company: 'view' }),
    membershipStatus: 'active', active: true, keyLabel: null,
  },
  { handle: 'growth_viewer', company: 'growth', firstName: 'Sam', lastName: 'Rivera', role: 'read_only', permissions: ACCESS_TEMPLATES.read_only, membershipStatus: 'active', active: true },
  { handle: 'growth_cfo', company: 'growth', firstName: 'Taylor', lastName: 'Kim', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: null },
  // Startup (role-based access control off: everyone is an admin)
  { handle: 'startup_admin', company: 'startup', firstName: 'Morgan', lastName: 'Ellis', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'startup-admin' },
  { handle: 'startup_cofounder', company: 'startup', firstName: 'Priya', lastName: 'Shah', role: 'admin', permissions: admin, membershipStatus: 'active', active: true },
  // Formation
  { handle: 'formation_admin', company: 'formation', firstName: 'Riley', lastName: 'Stone', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'formation-admin' },
  // Closed company
  { handle: 'closed_admin', company: 'closed', firstName: 'Jamie', lastName: 'Fox', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'closed' },
  // Subscription ended
  { handle: 'nosub_admin', company: 'nosub', firstName: 'Alex', lastName: 'Rowe', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'no-subscription' },
  // The second Growth company
  { handle: 'growth2_admin', company: 'growth2', firstName: 'Robin', lastName: 'Castillo', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'growth2-admin' },
  { handle: 'growth2_viewer', company: 'growth2', firstName: 'Kai', lastName: 'Lindqvist', role: 'read_only', permissions: ACCESS_TEMPLATES.read_only, membershipStatus: 'active', active: true },
  // The third Growth company
  { handle: 'growth3_admin', company: 'growth3', firstName: 'Noor', lastName: 'Haddad', role: 'admin', permissions: admin, membershipStatus: 'active', active: true, keyLabel: 'growth3-admin' },
];

/** Roster labels in their listing order. */
export const ROSTER_LABELS = [
  'growth-admin',
  'growth-readonly',
  'growth-no-api',
  'growth-reports',
  'growth2-admin',
  'growth3-admin',
  'startup-admin',
  'formation-admin',
  'removed',
  'deactivated',
  'closed',
  'no-subscription',
  'revoked',
] as const;

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `svc_` + 40 letters/digits, deterministic per name. */
export function apiKeyFor(name: string): string {
  const rand = stream(`api-key:${name}`);
  let s = 'svc_';
  for (let i = 0; i < 40; i++) s += KEY_ALPHABET[Math.floor(rand() * KEY_ALPHABET.length)];
  return s;
}

export interface SeededPerson extends PersonSpec {
  userId: string;
  email: string;
  /** memberships.created */
  memberSince: number;
}

/** Inserts users, memberships and keys of one company. */
export function seedPeople(db: Db, companyId: string, profile: CompanyProfile, rand: Rand, created: number): SeededPerson[] {
  const people = PEOPLE.filter((p) => p.company === profile.key);
  const insertUser = db.prepare('INSERT INTO users (id, email, first_name, last_name, active) VALUES (?, ?, ?, ?, ?)');
  const insertMember = db.prepare(
    'INSERT INTO memberships (company_id, user_id, role, permissions, status, created) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertKey = db.prepare('INSERT INTO api_keys (key, label, user_id, company_id, revoked, created) VALUES (?, ?, ?, ?, ?, ?)');
  return people.map((p, i) => {
    const userId = newId('user', rand);
    const email = `${p.firstName}.${p.lastName}@${profile.domain}`.toLowerCase();
    insertUser.run(userId, email, p.firstName, p.lastName, p.active ? 1 : 0);
    const perms = JSON.stringify(Object.fromEntries(PERMISSION_AREAS.map((a) => [a, p.permissions[a]])));
    const memberSince = created + i * 86_400;
    insertMember.run(companyId, userId, p.role, perms, p.membershipStatus, memberSince);
    if (p.keyLabel !== undefined) {
      insertKey.run(apiKeyFor(p.keyLabel ?? `unlabelled:${p.handle}`), p.keyLabel, userId, companyId, p.keyRevoked ? 1 : 0, created + i * 86_400 + 3_600);
    }
    return { ...p, userId, email, memberSince };
  });
}
