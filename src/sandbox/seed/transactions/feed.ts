// The rows of a demo feed while it is being built, and the company facts every step of the build reads.

import { daysBetween, monthsBetween } from '../../calendar';
import { newId } from '../../ids';
import type { AccountInfo, AccountKey, CardInfo } from '../accounts';
import type { DepartmentSet } from '../chart';
import type { CompanyProfile } from '../roster';
import { weightedPicker, type Rand } from '../util';

export type Kind =
  | 'card_expense'
  | 'card_refund'
  | 'bank_expense'
  | 'income'
  | 'reimb'
  | 'interco'
  | 'split'
  | 'rent'
  | 'payroll'
  | 'transfer'
  | 'interest'
  | 'series_a'
  | 'loan'
  | 'loan_payment'
  | 'tax_fed'
  | 'tax_state'
  | 'insurance_annual'
  | 'software_annual'
  | 'equipment'
  | 'interco_charge';

export interface SplitPartRow {
  categoryId: string | null;
  departmentId: string | null;
  amount: number;
}

export interface Row {
  idx: number;
  id: string;
  kind: Kind;
  date: string;
  override: string | null;
  amount: number;
  merchant: string | null;
  description: string | null;
  categoryId: string | null;
  departmentId: string | null;
  departmentSource: 'rule' | 'manual' | null;
  type: 'standard' | 'transfer' | 'split';
  account: AccountInfo;
  cardId: string | null;
  status: 'approved' | 'pending';
  spread: string | null;
  transferId: string | null;
  hidden: 0 | 1;
  deleted: 0 | 1;
  created: number;
  updated: number;
  updateSeq: number;
  splits: SplitPartRow[] | null;
  /** Random pool rows may be flagged (pending, uncategorized, hidden...); structural rows never are. */
  flaggable: boolean;
  /** Income rows: relative size within the month's revenue. */
  weight: number;
  /** Transfers: the pay-off or sweep this leg belongs to. */
  transfer?: TransferEvent;
  /** Split parts still to size (payroll, loan payment): category keys and shares. */
  shares?: { cat: string; share: number }[];
}

export interface TransferEvent {
  kind: 'payoff' | 'sweep_out' | 'sweep_back';
  from: AccountKey;
  to: AccountKey;
  date: string;
  out: Row;
  in: Row;
}

/** What the build knows of the company and its history; read-only once made. */
export interface Setting {
  profile: CompanyProfile;
  growth: boolean;
  /** First and last day of the history (YYYY-MM-DD), and today. */
  start: string;
  end: string;
  today: string;
  historyDays: number;
  /** First days (YYYY-MM-01) of the months the history touches. */
  months: string[];
  depts: DepartmentSet;
  cardsByAccount: Map<AccountKey, CardInfo[]>;
  /** The company's credit-card accounts, in preference order. */
  creditKeys: AccountKey[];
  /** Draws a credit-card account by its share of card spend. */
  pickCredit: (rand: Rand) => AccountKey;
  /** Category id of a category template key (throws on an unknown key). */
  cat: (key: string) => string;
  has: (key: AccountKey) => boolean;
  /** The company's account of that key (throws when it has none). */
  acct: (key: AccountKey) => AccountInfo;
}

export interface SettingInput {
  profile: CompanyProfile;
  start: string;
  end: string;
  today: string;
  cats: Map<string, string>;
  depts: DepartmentSet;
  accounts: Map<AccountKey, AccountInfo>;
  cards: CardInfo[];
}

const CREDIT_WEIGHTS: Record<string, number> = { amex: 0.6, brex: 0.25, ink: 0.15 };

export function settingOf({ profile, start, end, today, cats, depts, accounts, cards }: SettingInput): Setting {
  const has = (k: AccountKey) => accounts.has(k);
  const creditKeys = (['amex', 'brex', 'ink'] as AccountKey[]).filter(has);
  const cardsByAccount = new Map<AccountKey, CardInfo[]>();
  for (const c of cards) {
    let list = cardsByAccount.get(c.accountKey);
    if (!list) cardsByAccount.set(c.accountKey, (list = []));
    list.push(c);
  }
  return {
    profile,
    growth: profile.key === 'growth',
    start,
    end,
    today,
    historyDays: daysBetween(start, end) + 1,
    months: monthsBetween(start, end),
    depts,
    cardsByAccount,
    creditKeys,
    pickCredit: weightedPicker(creditKeys, (k) => CREDIT_WEIGHTS[k]),
    cat: (key) => {
      const id = cats.get(key);
      if (!id) throw new Error(`seed: unknown category key ${key}`);
      return id;
    },
    has,
    acct: (k) => {
      const a = accounts.get(k);
      if (!a) throw new Error(`seed: company ${profile.key} has no ${k} account`);
      return a;
    },
  };
}

/** The rows in the order they were made (that order is part of the output), and the transfers among them. */
export class Feed {
  readonly rows: Row[] = [];
  readonly transfers: TransferEvent[] = [];

  /** Appends a row; its id is the next draw of `rand` (after whatever `partial` drew). */
  add(rand: Rand, kind: Kind, date: string, account: AccountInfo, partial: Partial<Row> = {}): Row {
    const r: Row = {
      idx: this.rows.length,
      id: newId('txn', rand),
      kind,
      date,
      override: null,
      amount: 0,
      merchant: null,
      description: null,
      categoryId: null,
      departmentId: null,
      departmentSource: null,
      type: 'standard',
      account,
      cardId: null,
      status: 'approved',
      spread: null,
      transferId: null,
      hidden: 0,
      deleted: 0,
      created: 0,
      updated: 0,
      updateSeq: 0,
      splits: null,
      flaggable: false,
      weight: 0,
      ...partial,
    };
    this.rows.push(r);
    return r;
  }
}
