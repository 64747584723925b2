// Source accounts and cards of the demo companies.

import type { Db } from '../db/open';
import { newId } from '../ids';
import type { CompanyKey } from './roster';
import type { Rand } from './util';

export type AccountKey = 'checking' | 'savings' | 'legacy' | 'amex' | 'brex' | 'ink' | 'reimb' | 'interco' | 'manual';

export interface AccountInfo {
  key: AccountKey;
  id: string;
  vendor: string;
  type: 'bank' | 'credit' | 'reimbursement' | 'intercompany_expense';
  name: string;
  manual: boolean;
  categoryId: string;
}

interface AccountTemplate {
  key: AccountKey;
  vendor: string;
  type: AccountInfo['type'];
  name: string;
  manual?: boolean;
  /** Category template key of the balance-sheet category it posts to. */
  category: string;
}

const GROWTH_ACCOUNTS: AccountTemplate[] = [
  { key: 'legacy', vendor: 'svb', type: 'bank', name: 'Operating Checking', category: 'cash' },
  { key: 'checking', vendor: 'chase', type: 'bank', name: 'Operating Checking', category: 'cash' },
  { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Corporate Platinum', category: 'card_liability' },
  { key: 'savings', vendor: 'mercury', type: 'bank', name: 'Mercury Treasury', category: 'cash' },
  { key: 'brex', vendor: 'brex', type: 'credit', name: 'Brex Card', category: 'card_liability' },
  { key: 'ink', vendor: 'chase', type: 'credit', name: 'Chase Ink Business', category: 'card_liability' },
  { key: 'reimb', vendor: 'expensify', type: 'reimbursement', name: 'Employee Reimbursements', category: 'accrued' },
  { key: 'interco', vendor: 'northwind uk', type: 'intercompany_expense', name: 'Northwind Analytics Ltd (UK)', category: 'intercompany' },
  { key: 'manual', vendor: 'wells fargo', type: 'bank', name: 'Escrow Account', manual: true, category: 'cash' },
];

const ACCOUNTS_BY_COMPANY: Record<CompanyKey, AccountTemplate[]> = {
  growth: GROWTH_ACCOUNTS,
  startup: [
    { key: 'checking', vendor: 'mercury', type: 'bank', name: 'Mercury Checking', category: 'cash' },
    { key: 'brex', vendor: 'brex', type: 'credit', name: 'Brex Card', category: 'card_liability' },
    { key: 'reimb', vendor: 'expensify', type: 'reimbursement', name: 'Employee Reimbursements', category: 'accrued' },
  ],
  formation: [
    { key: 'checking', vendor: 'chase', type: 'bank', name: 'Business Checking', category: 'cash' },
    { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Business Gold', category: 'card_liability' },
  ],
  closed: [
    { key: 'checking', vendor: 'chase', type: 'bank', name: 'Business Checking', category: 'cash' },
    { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Business Gold', category: 'card_liability' },
  ],
  nosub: [
    { key: 'checking', vendor: 'first republic', type: 'bank', name: 'Business Checking', category: 'cash' },
    { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Business Platinum', category: 'card_liability' },
  ],
  growth2: [
    { key: 'checking', vendor: 'bank of america', type: 'bank', name: 'Operating Checking', category: 'cash' },
    { key: 'savings', vendor: 'mercury', type: 'bank', name: 'Mercury Treasury', category: 'cash' },
    { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Business Platinum', category: 'card_liability' },
    { key: 'brex', vendor: 'brex', type: 'credit', name: 'Brex Card', category: 'card_liability' },
    { key: 'reimb', vendor: 'expensify', type: 'reimbursement', name: 'Employee Reimbursements', category: 'accrued' },
  ],
  growth3: [
    { key: 'checking', vendor: 'umpqua', type: 'bank', name: 'Main Checking', category: 'cash' },
    { key: 'savings', vendor: 'mercury', type: 'bank', name: 'Reserve', category: 'cash' },
    { key: 'amex', vendor: 'amex', type: 'credit', name: 'Amex Business Gold', category: 'card_liability' },
    { key: 'reimb', vendor: 'expensify', type: 'reimbursement', name: 'Staff Expenses', category: 'accrued' },
  ],
};

export function seedAccounts(db: Db, companyId: string, company: CompanyKey, cats: Map<string, string>, rand: Rand, created: number): Map<AccountKey, AccountInfo> {
  const insert = db.prepare(
    'INSERT INTO accounts (id, company_id, vendor, type, account_name, manual, category_id, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const out = new Map<AccountKey, AccountInfo>();
  ACCOUNTS_BY_COMPANY[company].forEach((t, i) => {
    const info: AccountInfo = {
      key: t.key,
      id: newId('acct', rand),
      vendor: t.vendor,
      type: t.type,
      name: t.name,
      manual: t.manual ?? false,
      categoryId: cats.get(t.category) as string,
    };
    insert.run(info.id, companyId, info.vendor, info.type, info.name, info.manual ? 1 : 0, info.categoryId, created + i * 3_600);
    out.set(t.key, info);
  });
  return out;
}

export interface CardInfo {
  id: string;
  /** Account the card's transactions are on (also for stubs and metadata cards, whose account_id is NULL). */
  accountKey: AccountKey;
  weight: number;
  /** Share of the history (0-1) during which the card is used. */
  usedFrom: number;
  usedTo: number;
}

interface CardTemplate {
  account: AccountKey;
  name: string;
  lastFour: string | null;
  type: 'physical' | 'virtual' | null;
  status: 'active' | 'inactive' | null;
  /** 'stub': deleted at the provider (account_id, last_four, type, status NULL); 'metadata': known from transaction metadata only. */
  kind?: 'stub' | 'metadata';
  weight: number;
  usedFrom?: number;
  usedTo?: number;
}

const GROWTH_CARDS: CardTemplate[] = [
  { account: 'amex', name: 'Avery Chen', lastFour: '1004', type: 'physical', status: 'active', weight: 3 },
  { account: 'amex', name: 'Old Travel Card', lastFour: null, type: null, status: null, kind: 'stub', weight: 2, usedTo: 0.4 },
  { account: 'amex', name: 'Taylor Kim', lastFour: '2231', type: 'physical', status: 'active', weight: 2 },
  { account: 'amex', name: 'Marketing Ads', lastFour: '8812', type: 'virtual', status: 'active', weight: 3 },
  { account: 'amex', name: 'AWS Billing', lastFour: '5520', type: 'virtual', status: 'active', weight: 2 },
  { account: 'amex', name: 'Travel', lastFour: '3017', type: 'physical', status: 'inactive', weight: 2, usedTo: 0.6 },
  { account: 'amex', name: 'Jordan Patel', lastFour: '6634', type: 'physical', status: 'active', weight: 2, usedFrom: 0.3 },
  { account: 'brex', name: 'Engineering Tools', lastFour: '4410', type: 'virtual', status: 'active', weight: 3 },
  { account: 'brex', name: 'Travel', lastFour: '3017', type: 'virtual', status: 'active', weight: 2 },
  { account: 'brex', name: 'Recruiting Events', lastFour: '9081', type: 'physical', status: 'inactive', weight: 1, usedTo: 0.7 },
  { account: 'brex', name: 'Design Team (Brex)', lastFour: null, type: null, status: null, kind: 'metadata', weight: 1 },
  { account: 'brex', name: 'Offsite Card (Brex)', lastFour: null, type: null, status: null, kind: 'metadata', weight: 1, usedFrom: 0.5 },
  { account: 'ink', name: 'Office Purchases', lastFour: '7745', type: 'physical', status: 'active', weight: 2 },
  { account: 'ink', name: 'Blake Morgan', lastFour: '1004', type: 'physical', status: 'active', weight: 1 },
  { account: 'ink', name: 'Spare Card', lastFour: '0192', type: 'physical', status: 'inactive', weight: 0 },
];

const CARDS_BY_COMPANY: Record<CompanyKey, CardTemplate[]> = {
  growth: GROWTH_CARDS,
  startup: [
    { account: 'brex', name: 'Morgan Ellis', lastFour: '3321', type: 'physical', status: 'active', weight: 3 },
    { account: 'brex', name: 'Cloud Services', lastFour: '7781', type: 'virtual', status: 'active', weight: 2 },
    { account: 'brex', name: 'Lost Card', lastFour: null, type: null, status: null, kind: 'stub', weight: 1, usedTo: 0.3 },
  ],
  formation: [{ account: 'amex', name: 'Riley Stone', lastFour: '5008', type: 'physical', status: 'active', weight: 1 }],
  closed: [{ account: 'amex', name: 'Jamie Fox', lastFour: '4417', type: 'physical', status: 'inactive', weight: 1 }],
  nosub: [{ account: 'amex', name: 'Alex Rowe', lastFour: '9920', type: 'physical', status: 'active', weight: 1 }],
  growth2: [
    { account: 'amex', name: 'Robin Castillo', lastFour: '6120', type: 'physical', status: 'active', weight: 3 },
    { account: 'amex', name: 'Old Company Card', lastFour: null, type: null, status: null, kind: 'stub', weight: 1, usedTo: 0.5 },
    { account: 'amex', name: 'Marketing Ads', lastFour: '4471', type: 'virtual', status: 'active', weight: 2 },
    { account: 'brex', name: 'Engineering Tools', lastFour: '8830', type: 'virtual', status: 'active', weight: 2 },
    { account: 'brex', name: 'Travel', lastFour: '2954', type: 'physical', status: 'inactive', weight: 1, usedTo: 0.7 },
    { account: 'brex', name: 'Offsite Card (Brex)', lastFour: null, type: null, status: null, kind: 'metadata', weight: 1, usedFrom: 0.5 },
  ],
  growth3: [
    { account: 'amex', name: 'Noor Haddad', lastFour: '3380', type: 'physical', status: 'active', weight: 3 },
    { account: 'amex', name: 'Cloud & Tools', lastFour: '7102', type: 'virtual', status: 'active', weight: 2 },
  ],
};

export function seedCards(
  db: Db,
  companyId: string,
  company: CompanyKey,
  accounts: Map<AccountKey, AccountInfo>,
  rand: Rand,
  created: number,
): CardInfo[] {
  const insert = db.prepare(
    'INSERT INTO cards (id, company_id, name, last_four, account_id, type, status, provider, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  return CARDS_BY_COMPANY[company]
    .filter((t) => accounts.has(t.account))
    .map((t, i) => {
      const account = accounts.get(t.account) as AccountInfo;
      const id = newId('card', rand);
      const real = t.kind === undefined;
      insert.run(
        id,
        companyId,
        t.name,
        real ? t.lastFour : null,
        real ? account.id : null,
        real ? t.type : null,
        real ? t.status : null,
        account.vendor,
        created + i * 600,
      );
      return { id, accountKey: t.account, weight: t.weight, usedFrom: t.usedFrom ?? 0, usedTo: t.usedTo ?? 1 };
    });
}
