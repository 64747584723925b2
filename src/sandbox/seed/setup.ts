// Automation rules, integrations and invitations of the demo companies.

import type { Db } from '../db/open';
import { newId } from '../ids';
import { ACCESS_TEMPLATES, PERMISSION_AREAS, type Permissions } from '../permissions';
import type { AccountInfo, AccountKey, CardInfo } from './accounts';
import type { DepartmentSet } from './chart';
import type { CompanyProfile, SeededPerson } from './roster';
import { canonicalJson, type Rand } from './util';

// --- rules -----------------------------------------------------------------------------------------------

type Condition =
  | { field: 'merchant' | 'description'; operator: 'equals' | 'contains' | 'starts_with'; value: string }
  | { field: 'amount_cents'; operator: 'equals' | 'greater_than' | 'less_than'; value: number }
  | { field: 'amount_cents'; operator: 'between'; min: number; max: number }
  | { field: 'account_id' | 'card_id'; operator: 'equals'; value: string };

interface Actions {
  merchant_name?: string;
  category_id?: string;
  department_id?: string;
}

interface RuleSpec {
  owner: 'user' | 'global' | 'category';
  conditions: Condition[];
  actions: Actions;
}

export interface RulesInput {
  db: Db;
  companyId: string;
  growth: boolean;
  cats: Map<string, string>;
  depts: DepartmentSet;
  accounts: Map<AccountKey, AccountInfo>;
  cards: CardInfo[];
  createdBy: string;
  from: number;
  to: number;
  rand: Rand;
}

/**
 * Rules as `{conditions, actions}` per docs/api-decisions.md "Rules", stored as canonical JSON (object
 * keys sorted at every level; conditions in the order given). seq follows created.
 */
export function seedRules(input: RulesInput): number {
  const { db, companyId, cats, depts, accounts, cards, rand } = input;
  const cat = (k: string) => cats.get(k) as string;
  const dept = (k: string): string | undefined => {
    const id = depts.ids.get(k);
    return id && depts.assignable.includes(id) ? id : undefined;
  };
  const withDept = (a: Actions, k: string): Actions => {
    const d = dept(k);
    return d ? { ...a, department_id: d } : a;
  };
  const firstCredit = (['amex', 'brex', 'ink'] as AccountKey[]).map((k) => accounts.get(k)).find((a) => a !== undefined);
  const realCard = firstCredit ? cards.find((c) => c.accountKey === firstCredit.key && c.weight > 0) : undefined;

  const specs: RuleSpec[] = [
    { owner: 'user', conditions: [{ field: 'merchant', operator: 'contains', value: 'AWS' }], actions: withDept({ category_id: cat('cloud_hosting') }, 'infrastructure') },
    { owner: 'user', conditions: [{ field: 'merchant', operator: 'equals', value: 'Gusto' }], actions: { category_id: cat('salaries') } },
    { owner: 'user', conditions: [{ field: 'merchant', operator: 'starts_with', value: 'Uber' }], actions: { category_id: cat('travel') } },
    { owner: 'user', conditions: [{ field: 'description', operator: 'contains', value: 'STRIPE PAYOUT' }], actions: { merchant_name: 'Stripe', category_id: cat('platform_subscriptions') } },
    { owner: 'user', conditions: [{ field: 'merchant', operator: 'starts_with', value: 'AMZN' }], actions: { merchant_name: 'Amazon', category_id: cat('office_supplies') } },
    {
      owner: 'user',
      conditions: [
        { field: 'merchant', operator: 'contains', value: 'Apple' },
        { field: 'amount_cents', operator: 'between', min: -500_000, max: -100_000 },
      ],
      actions: { category_id: cat('computer_equipment') },
    },
  ];
  if (firstCredit) {
    specs.push({
      owner: 'user',
      conditions: [
        { field: 'account_id', operator: 'equals', value: firstCredit.id },
        { field: 'merchant', operator: 'contains', value: 'Google Ads' },
      ],
      actions: withDept({ category_id: cat('advertising') }, 'demand_gen'),
    });
  }
  if (realCard) {
    specs.push({ owner: 'user', conditions: [{ field: 'card_id', operator: 'equals', value: realCard.id }], actions: withDept({}, input.growth ? 'sales_east' : 'platform') });
  }
  specs.push(
    { owner: 'user', conditions: [{ field: 'amount_cents', operator: 'less_than', value: -2_500_000 }, { field: 'merchant', operator: 'equals', value: 'Cooley LLP' }], actions: { category_id: cat('professional_fees') } },
    { owner: 'user', conditions: [{ field: 'amount_cents', operator: 'greater_than', value: 1_000_000 }, { field: 'merchant', operator: 'contains', value: 'Acme' }], actions: withDept({ category_id: cat('enterprise_licenses') }, 'sales_east') },
    { owner: 'user', conditions: [{ field: 'amount_cents', operator: 'equals', value: -1_500 }], actions: { category_id: cat('bank_fees') } },
    // Provider-owned rules: stored, hidden by the API (404 / not listed).
    { owner: 'global', conditions: [{ field: 'merchant', operator: 'contains', value: 'Starbucks' }], actions: { category_id: cat('meals') } },
    { owner: 'category', conditions: [{ field: 'merchant', operator: 'contains', value: 'Delta Air' }], actions: { category_id: cat('travel') } },
  );
  const chosen = input.growth ? specs : specs.filter((_, i) => i % 4 === 0 || i >= specs.length - 2);

  const insert = db.prepare(
    'INSERT INTO rules (id, company_id, owner, definition, created_by, deleted, created, updated) VALUES (?, ?, ?, ?, ?, 0, ?, ?)',
  );
  const step = Math.max(1, Math.floor((input.to - input.from) / (chosen.length + 1)));
  chosen.forEach((s, i) => {
    const created = input.from + step * (i + 1) + Math.floor(rand() * 3600);
    const updated = i % 3 === 1 ? Math.min(input.to, created + 86_400 * (2 + (i % 5))) : created;
    insert.run(
      newId('rule', rand),
      companyId,
      s.owner,
      canonicalJson({ conditions: s.conditions, actions: s.actions }),
      s.owner === 'user' ? input.createdBy : null,
      created,
      updated,
    );
  });
  return chosen.length;
}

// --- integrations ------------------------------------------------------------------------------------------

interface IntegrationSpec {
  key: string;
  name: string;
  type: string;
  status: 'connected' | 'not_connected';
  connectable: boolean;
  available: boolean;
}

const INTEGRATIONS: IntegrationSpec[] = [
  { key: 'plaid', name: 'Plaid', type: 'banking', status: 'connected', connectable: true, available: true },
  { key: 'mercury', name: 'Mercury', type: 'banking', status: 'connected', connectable: true, available: true },
  { key: 'carta', name: 'Carta', type: 'cap_table', status: 'not_connected', connectable: true, available: true },
  { key: 'gusto', name: 'Gusto', type: 'payroll', status: 'connected', connectable: false, available: true },
  { key: 'quickbooks', name: 'QuickBooks Online', type: 'accounting', status: 'not_connected', connectable: false, available: true },
  { key: 'stripe', name: 'Stripe', type: 'payments', status: 'not_connected', connectable: true, available: true },
  { key: 'rippling', name: 'Rippling', type: 'payroll', status: 'not_connected', connectable: true, available: false },
];

export function seedIntegrations(db: Db, companyId: string, growth: boolean): void {
  const insert = db.prepare(
    'INSERT INTO integrations (company_id, key, name, type, status, api_connectable, available, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  INTEGRATIONS.forEach((it, i) => {
    // Smaller companies connected less: only their bank feed.
    const status = growth || it.type === 'banking' ? it.status : 'not_connected';
    insert.run(companyId, it.key, it.name, it.type, status, it.connectable ? 1 : 0, it.available ? 1 : 0, i + 1);
  });
}

// --- invitations --------------------------------------------------------------------------------------------

const perms = (p: Permissions) => JSON.stringify(Object.fromEntries(PERMISSION_AREAS.map((a) => [a, p[a]])));

export interface InvitationsInput {
  db: Db;
  companyId: string;
  profile: CompanyProfile;
  people: SeededPerson[];
  todayStart: number;
  now: number;
  rand: Rand;
}

export function seedInvitations(input: InvitationsInput): void {
  const { db, companyId, profile, people, todayStart, now, rand } = input;
  const insert = db.prepare(
    `INSERT INTO invitations (id, company_id, email, first_name, last_name, access_template, permissions, status, invited_by,
       accepted_user_id, expires_at, sent_count, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const adminUser = people.find((p) => p.role === 'admin' && p.active && p.membershipStatus === 'active');
  const invitedBy = adminUser?.userId ?? null;
  const day = 86_400;
  const ttl = 14 * day;
  const at = (daysAgo: number) => Math.min(now - 1, todayStart - daysAgo * day + 10 * 3600);
  const add = (
    first: string,
    last: string,
    access: { template: 'admin' | 'read_only' } | { permissions: Permissions },
    status: 'pending' | 'accepted',
    createdDaysAgo: number,
    accepted: SeededPerson | null = null,
    sent = 1,
  ) => {
    // an accepted invitation predates the membership it produced
    const created = accepted ? Math.min(at(createdDaysAgo), accepted.memberSince - 2 * day) : at(createdDaysAgo);
    const email = accepted?.email ?? `${first}.${last}@${profile.domain}`.toLowerCase();
    insert.run(
      newId('invite', rand),
      companyId,
      email,
      first,
      last,
      'template' in access ? access.template : null,
      'template' in access ? null : perms(access.permissions),
      status,
      invitedBy,
      accepted?.userId ?? null,
      created + ttl,
      sent,
      created,
    );
  };
  if (profile.key === 'growth') {
    const controller = people.find((p) => p.handle === 'growth_controller') ?? null;
    const viewer = people.find((p) => p.handle === 'growth_viewer') ?? null;
    add('Dana', 'Wright', { template: 'admin' }, 'pending', 2);
    add('Eli', 'Summers', { template: 'read_only' }, 'pending', 40, null, 2);
    add('Fran', 'Lopez', {
      permissions: { ...ACCESS_TEMPLATES.read_only, api_access: 'none', team_access: 'none', integrations: 'none', transactions: 'manage' },
    }, 'pending', 5);
    add('Gale', 'Ito', { permissions: { ...ACCESS_TEMPLATES.read_only, api_access: 'manage', reports: 'view', team_access: 'none' } }, 'pending', 30);
    if (controller) add(controller.firstName, controller.lastName, { permissions: controller.permissions }, 'accepted', 300, controller);
    if (viewer) add(viewer.firstName, viewer.lastName, { template: 'read_only' }, 'accepted', 200, viewer);
  } else if (profile.key === 'startup') {
    add('Noor', 'Haddad', { template: 'admin' }, 'pending', 3);
    add('Omar', 'Reyes', { template: 'admin' }, 'pending', 45);
    const cofounder = people.find((p) => p.handle === 'startup_cofounder') ?? null;
    if (cofounder) add(cofounder.firstName, cofounder.lastName, { template: 'admin' }, 'accepted', 120, cofounder);
  }
}
