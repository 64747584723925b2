// Deterministic demo data for the sandbox: the companies, keys and books that `--list-keys` and the README
// describe.
//
// seedDatabase(db, {transactions?, today, now}) writes every company of the roster: company record,
// people and keys, chart of accounts, departments, accounts and cards, the transaction feed, the posted
// ledger (rebuildCompanyLedger) plus opening / depreciation / accrual entries, rules, integrations and
// invitations. The same (transactions, today) always give the same database (given the same `now`,
// which only caps timestamps of the last day and never moves anything else): every random choice
// comes from seededRandom streams named by purpose, never from Math.random or crypto.

import { addDays, addYears, dayStart, isIsoDate } from '../calendar';
import type { Db } from '../db/open';
import { setMeta } from '../db/open';
import { rebuildCompanyLedger } from '../ledger/posting';
import { newId } from '../ids';
import { seedAccounts, seedCards } from './accounts';
import { seedCategories, seedDepartments } from './chart';
import { seedJournalEntries } from './journal';
import { COMPANY_PROFILES, ROSTER_LABELS, seedPeople, type CompanyProfile, type Plan } from './roster';
import { seedIntegrations, seedInvitations, seedRules } from './setup';
import { generateTransactions } from './transactions/generate';
import { stream } from './util';

export const DEFAULT_GROWTH_TRANSACTIONS = 20_000;

export const SEED_VERSION = '3';

export interface SeedOptions {
  /** Transactions of the first Growth company, Northwind (default 20,000); the second, Westbrook, has a fixed 3,000. */
  transactions?: number;
  /** Today's date in the company zone (YYYY-MM-DD): the history ends here. */
  today: string;
  /** Unix seconds: no timestamp is written at or after it. */
  now: number;
}

export interface RosterEntry {
  label: string;
  key: string;
  company_id: string;
  plan: Plan;
}

export interface SeedSummary {
  companies: { key: string; company_id: string; transactions: number; opening_cents: number }[];
  millis: number;
}

function seedCompany(db: Db, profile: CompanyProfile, count: number, today: string, now: number) {
  const identity = stream(`identity:${profile.key}`);
  const setup = stream(`setup:${profile.key}`);
  const txnRand = stream(`transactions:${profile.key}`);
  const ledgerRand = stream(`ledger:${profile.key}`);
  const cap = (t: number) => Math.min(now - 1, t);

  const end = addDays(today, -profile.endDaysAgo);
  const start = addDays(end, -(profile.historyDays - 1));
  const incorporation = addDays(addYears(today, -profile.incorporatedYearsAgo), -profile.incorporatedExtraDays);
  const companyCreated = cap(dayStart(addDays(start, -20)) + 10 * 3600);
  const companyId = newId('comp', identity);
  const [line1, line2, city, state, postal, country] = profile.address;
  db.prepare(
    `INSERT INTO companies (id, name, legal_name, entity_type, federal_ein_last4, incorporation_date, incorporation_state,
       address_line_1, address_line_2, address_city, address_state, address_postal_code, address_country,
       plan, plan_status, rbac_enabled, status, monthly_cap_override, currency, fiscal_year_start_month, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'USD', 1, ?)`,
  ).run(
    companyId,
    profile.name,
    profile.legalName,
    profile.entityType,
    profile.einLast4,
    incorporation,
    profile.incorporationState,
    line1,
    line2,
    city,
    state,
    postal,
    country,
    profile.plan,
    profile.planStatus,
    profile.rbac ? 1 : 0,
    profile.status,
    companyCreated,
  );

  const people = seedPeople(db, companyId, profile, identity, companyCreated);
  const setupCreated = cap(companyCreated + 3600);
  const cats = seedCategories(db, companyId, profile.key, setup, setupCreated);
  const depts = seedDepartments(db, companyId, profile.key, profile.name, setup, setupCreated);
  const accounts = seedAccounts(db, companyId, profile.key, cats, setup, cap(companyCreated + 2 * 3600));
  const cards = seedCards(db, companyId, profile.key, accounts, setup, cap(companyCreated + 3 * 3600));

  const gen = generateTransactions({
    db,
    companyId,
    profile,
    count,
    start,
    end,
    today,
    now,
    cats,
    depts,
    accounts,
    cards,
    rand: txnRand,
  });
  rebuildCompanyLedger(db, companyId, now, { random: ledgerRand });
  const journal = seedJournalEntries({
    db,
    companyId,
    start,
    end,
    now,
    cats,
    avgMonthlyExpense: gen.avgMonthlyExpense,
    monthlySpend: gen.monthlySpend,
    rand: ledgerRand,
  });

  const admin = people.find((p) => p.role === 'admin' && p.active && p.membershipStatus === 'active') ?? people[0];
  seedRules({
    db,
    companyId,
    growth: profile.key === 'growth',
    cats,
    depts,
    accounts,
    cards,
    createdBy: admin.userId,
    from: cap(companyCreated + 86_400),
    to: cap(dayStart(end) + 12 * 3600),
    rand: setup,
  });
  seedIntegrations(db, companyId, profile.key === 'growth');
  seedInvitations({ db, companyId, profile, people, todayStart: dayStart(today), now, rand: setup });
  return { key: profile.key, company_id: companyId, transactions: gen.count, opening_cents: journal.openingCents };
}

/**
 * Seeds every company of the roster into an empty database. Throws when the database already holds
 * companies (the CLI decides whether to reuse or recreate a file).
 */
export function seedDatabase(db: Db, opts: SeedOptions): SeedSummary {
  const t0 = Date.now();
  if (!isIsoDate(opts.today)) throw new Error(`seedDatabase: today must be a YYYY-MM-DD date, got ${opts.today}`);
  if (!Number.isSafeInteger(opts.now) || opts.now <= 0) throw new Error('seedDatabase: now must be Unix seconds');
  const growthCount = opts.transactions ?? DEFAULT_GROWTH_TRANSACTIONS;
  if (!Number.isSafeInteger(growthCount) || growthCount < 50 || growthCount > 5_000_000) {
    throw new Error(`seedDatabase: transactions must be an integer from 50 to 5,000,000, got ${growthCount}`);
  }
  const existing = db.prepare('SELECT COUNT(*) AS n FROM companies').get() as { n: number };
  if (existing.n > 0) throw new Error('seedDatabase: the database already holds companies; seed a new database');

  const companies: SeedSummary['companies'] = [];
  for (const profile of COMPANY_PROFILES) {
    const count = profile.key === 'growth' ? growthCount : profile.transactions;
    db.transaction(() => {
      companies.push(seedCompany(db, profile, count, opts.today, opts.now));
    })();
  }
  setMeta(db, 'seed_version', SEED_VERSION);
  setMeta(db, 'seed_today', opts.today);
  setMeta(db, 'seed_transactions', String(growthCount));
  setMeta(db, 'seeded_at', String(opts.now));
  return { companies, millis: Date.now() - t0 };
}

/** The labelled keys of the roster, in roster order (then any other label alphabetically). */
export function listRoster(db: Db): RosterEntry[] {
  const rows = db
    .prepare(
      `SELECT k.label, k.key, k.company_id, c.plan FROM api_keys k JOIN companies c ON c.id = k.company_id
        WHERE k.label IS NOT NULL`,
    )
    .all() as RosterEntry[];
  const rank = (label: string) => {
    const i = (ROSTER_LABELS as readonly string[]).indexOf(label);
    return i === -1 ? ROSTER_LABELS.length : i;
  };
  return rows.sort((a, b) => rank(a.label) - rank(b.label) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

export { ROSTER_LABELS } from './roster';
