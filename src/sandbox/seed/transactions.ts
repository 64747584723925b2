// The demo transaction feed of one company: a deterministic simulation of a business over its history.
//
// How it is built (everything from one PRNG stream, so the same inputs give the same rows):
// 1. Structural events are scheduled on the calendar: rent, payroll (a split), card / reimbursement /
//    intercompany pay-offs (transfers), savings sweeps (transfers), interest, an equity raise, a loan and
//    its repayments (a split), estimated taxes, annual prepaid contracts (spread), equipment purchases.
// 2. The remaining rows are spread over the days with a weight that grows over time (a growing company,
//    quieter weekends) and drawn from the merchant pools (card spend, ACH payments, customer payments,
//    refunds, reimbursements, intercompany charges, split purchases).
// 3. Amounts: pool rows draw their own; structural expenses are sized from the month's card and ACH
//    spend (payroll ~1.6x, rent ~0.12x...); revenue of a month is sized as a ratio of that month's
//    expenses that rises from ~0.6 to ~1.25 over the history (burning early, profitable later); pay-offs
//    equal the statement balance at the previous month end. Opening capital (seed/journal.ts) is then set
//    so that Cash never drops below a cushion.
// 4. Flags: recent rows are often pending, ~5% uncategorized, a few hidden, deleted (tombstones),
//    re-dated (accounting_date_override) or spread.
// 5. Timestamps: created during the row's day (company zone), updated sometimes later; both capped just
//    before `now`. update_seq follows `updated`.

import type { Db } from '../db/open';
import { newId } from '../ids';
import type { AccountInfo, AccountKey, CardInfo } from './accounts';
import type { DepartmentSet } from './chart';
import {
  BANK_EXPENSES,
  CARD_EXPENSES,
  CARD_REFUNDS,
  CUSTOMERS,
  FORMULA_LIKE,
  INTERCOMPANY,
  REIMBURSEMENTS,
  SPLITS,
  type PoolEntry,
  type SplitTemplate,
} from './pools';
import type { CompanyProfile } from './roster';
import {
  addDays,
  addMonths,
  apportion,
  chance,
  dayOfMonth,
  dayStart,
  daysBetween,
  daysInMonth,
  dollarsToCents,
  monthEnd,
  monthKey,
  monthStart,
  monthsBetween,
  pick,
  randInt,
  weekday,
  weightedPicker,
  type Rand,
} from './util';

type Kind =
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

interface SplitPartRow {
  categoryId: string | null;
  departmentId: string | null;
  amount: number;
}

interface Row {
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

interface TransferEvent {
  kind: 'payoff' | 'sweep_out' | 'sweep_back';
  from: AccountKey;
  to: AccountKey;
  date: string;
  out: Row;
  in: Row;
}

export interface GenerateInput {
  db: Db;
  companyId: string;
  profile: CompanyProfile;
  count: number;
  start: string;
  end: string;
  today: string;
  now: number;
  cats: Map<string, string>;
  depts: DepartmentSet;
  accounts: Map<AccountKey, AccountInfo>;
  cards: CardInfo[];
  rand: Rand;
}

export interface GenerateResult {
  count: number;
  /** Average monthly operating expense (cents, positive) of the history: sizes opening capital and accruals. */
  avgMonthlyExpense: number;
  /** Card and ACH spend of each month normalised to a full month (cents, positive), by 'YYYY-MM'. */
  monthlySpend: Map<string, number>;
  maxUpdateSeq: number;
}

type StructuralKind = Exclude<Kind, 'card_expense' | 'card_refund' | 'bank_expense' | 'income' | 'reimb' | 'interco' | 'split'> | 'payoff' | 'sweep_out' | 'sweep_back';

interface Scheduled {
  date: string;
  kind: StructuralKind;
  /** Pay-offs: the account paid. */
  account?: AccountKey;
  rows: number;
}

// Lowest priority first: dropped when the schedule would take more than half of a small feed.
const DROP_ORDER: StructuralKind[] = [
  'sweep_back',
  'sweep_out',
  'interest',
  'interco_charge',
  'software_annual',
  'tax_state',
  'tax_fed',
  'equipment',
  'loan_payment',
  'loan',
  'insurance_annual',
  'series_a',
];

export function generateTransactions(input: GenerateInput): GenerateResult {
  const { db, companyId, profile, count, start, end, today, now, cats, depts, accounts, cards, rand } = input;
  const cat = (key: string): string => {
    const id = cats.get(key);
    if (!id) throw new Error(`seed: unknown category key ${key}`);
    return id;
  };
  const has = (k: AccountKey) => accounts.has(k);
  const acct = (k: AccountKey): AccountInfo => {
    const a = accounts.get(k);
    if (!a) throw new Error(`seed: company ${profile.key} has no ${k} account`);
    return a;
  };
  const growth = profile.key === 'growth';
  const historyDays = daysBetween(start, end) + 1;
  const months = monthsBetween(start, end);
  const monthIndex = new Map(months.map((m, i) => [monthKey(m), i]));
  const creditKeys = (['amex', 'brex', 'ink'] as AccountKey[]).filter(has);
  const creditWeights: Record<string, number> = { amex: 0.6, brex: 0.25, ink: 0.15 };

  // ---- 1. structural schedule ------------------------------------------------------------------------
  let schedule: Scheduled[] = [];
  const at = (m: string, day: number) => {
    const y = Number(m.slice(0, 4));
    const mo = Number(m.slice(5, 7));
    return `${m.slice(0, 8)}${String(Math.min(day, daysInMonth(y, mo))).padStart(2, '0')}`;
  };
  const push = (date: string, kind: StructuralKind, rows: number, account?: AccountKey) => {
    if (date >= start && date <= end) schedule.push({ date, kind, rows, account });
  };
  const seriesAMonth = Math.floor(months.length * 0.35);
  const loanMonth = Math.floor(months.length * 0.55);
  months.forEach((m, mi) => {
    const mo = Number(m.slice(5, 7));
    push(at(m, 1), 'rent', 1);
    push(at(m, 15), 'payroll', 1);
    push(monthEnd(m), 'payroll', 1);
    if (mi > 0) {
      for (const k of creditKeys) push(at(m, 3), 'payoff', 2, k);
      if (has('reimb')) push(at(m, 7), 'payoff', 2, 'reimb');
      if (has('interco') && mo % 3 === 1) push(at(m, 10), 'payoff', 2, 'interco');
    }
    if (has('savings') && mi % 3 === 2) push(at(m, 20), 'sweep_out', 2);
    if (has('savings') && mi % 6 === 4) push(at(m, 22), 'sweep_back', 2);
    if (has('savings') && mi >= 3) push(monthEnd(m), 'interest', 1);
    if (has('interco')) push(at(m, 28), 'interco_charge', 1);
    if (profile.key === 'growth' || profile.key === 'startup') {
      if (mi === seriesAMonth && mi > 0) push(at(m, 12), 'series_a', 1);
      if ([1, 4, 6, 9].includes(mo)) push(at(m, 15), 'tax_fed', 1);
      if (mo === 4) push(at(m, 15), 'tax_state', 1);
      if (mi % 12 === 1) push(at(m, 5), 'insurance_annual', 1);
      if (mi % 3 === 0) push(at(m, 16), 'equipment', 1);
    }
    if (growth) {
      if (mi === loanMonth) push(at(m, 18), 'loan', 1);
      if (mi > loanMonth) push(at(m, 25), 'loan_payment', 1);
      if (mi % 12 === 2) push(at(m, 8), 'software_annual', 1);
    }
  });
  const scheduledRows = () => schedule.reduce((s, e) => s + e.rows, 0);
  for (const kind of DROP_ORDER) {
    if (scheduledRows() <= count / 2) break;
    schedule = schedule.filter((e) => e.kind !== kind);
  }
  while (scheduledRows() > count / 2 && schedule.length > 1) schedule = schedule.filter((_, i) => i % 2 === 0);
  if (scheduledRows() > count) schedule = [];
  const byDate = new Map<string, Scheduled[]>();
  for (const e of schedule) {
    let list = byDate.get(e.date);
    if (!list) byDate.set(e.date, (list = []));
    list.push(e);
  }

  // ---- 2. random rows per day -------------------------------------------------------------------------
  const randomCount = count - scheduledRows();
  const growthRate = growth ? 2 : 1;
  const dayWeights: number[] = [];
  for (let i = 0; i < historyDays; i++) {
    const wd = weekday(addDays(start, i));
    dayWeights.push((1 + (growthRate * i) / Math.max(1, historyDays - 1)) * (wd === 0 || wd === 6 ? 0.35 : 1));
  }
  const perDay = apportion(randomCount, dayWeights);

  const kinds: { kind: Kind; weight: number }[] = [
    { kind: 'card_expense', weight: 0.66 },
    { kind: 'card_refund', weight: 0.01 },
    { kind: 'bank_expense', weight: 0.07 },
    { kind: 'income', weight: 0.17 },
    { kind: 'reimb', weight: has('reimb') ? 0.05 : 0 },
    { kind: 'interco', weight: has('interco') ? 0.01 : 0 },
    { kind: 'split', weight: 0.012 },
  ];
  const pickKind = weightedPicker(kinds, (k) => k.weight);
  const pickCardExpense = weightedPicker([...CARD_EXPENSES, ...FORMULA_LIKE], (e) => e.weight);
  const pickRefund = weightedPicker(CARD_REFUNDS, (e) => e.weight);
  const pickBank = weightedPicker(BANK_EXPENSES, (e) => e.weight);
  const pickReimb = weightedPicker(REIMBURSEMENTS, (e) => e.weight);
  const pickInterco = weightedPicker(INTERCOMPANY, (e) => e.weight);
  const pickCredit = weightedPicker(creditKeys, (k) => creditWeights[k]);
  const cardsByAccount = new Map<AccountKey, CardInfo[]>();
  for (const c of cards) {
    let list = cardsByAccount.get(c.accountKey);
    if (!list) cardsByAccount.set(c.accountKey, (list = []));
    list.push(c);
  }
  const deptIdsOf = (keys: string[] | undefined): string[] =>
    (keys ?? []).map((k) => depts.ids.get(k)).filter((id): id is string => id !== undefined && depts.assignable.includes(id));
  const chooseDept = (keys: string[] | undefined): string => {
    const hinted = deptIdsOf(keys);
    return hinted.length > 0 ? pick(rand, hinted) : pick(rand, depts.assignable);
  };
  const ref = () => String(randInt(rand, 10000, 99999));
  const fill = (desc: string | undefined, fallback: string) => (desc ?? fallback).replace('{ref}', ref());

  const rows: Row[] = [];
  const mk = (kind: Kind, date: string, account: AccountInfo, partial: Partial<Row> = {}): Row => {
    const r: Row = {
      idx: rows.length,
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
    rows.push(r);
    return r;
  };
  const cardFor = (key: AccountKey, date: string): string | null => {
    const list = cardsByAccount.get(key);
    if (!list || chance(rand, 0.08)) return null;
    const frac = daysBetween(start, date) / Math.max(1, historyDays - 1);
    const usable = list.filter((c) => c.weight > 0 && c.usedFrom <= frac && frac <= c.usedTo);
    if (usable.length === 0) return null;
    let x = rand() * usable.reduce((s, c) => s + c.weight, 0);
    for (const c of usable) {
      x -= c.weight;
      if (x < 0) return c.id;
    }
    return usable[usable.length - 1].id;
  };
  const withDept = (r: Row, keys: string[] | undefined, p: number) => {
    if (chance(rand, p)) {
      r.departmentId = chooseDept(keys);
      r.departmentSource = chance(rand, 0.45) ? 'rule' : 'manual';
    }
  };
  const bankFor = (date: string): AccountInfo =>
    has('legacy') && daysBetween(start, date) < historyDays * 0.4 && chance(rand, 0.2) ? acct('legacy') : acct('checking');

  const poolExpense = (kind: Kind, date: string, account: AccountInfo, e: PoolEntry, sign: 1 | -1, fallbackDesc: string) => {
    const r = mk(kind, date, account, {
      amount: sign * dollarsToCents(rand, e.min, e.max),
      merchant: e.merchant,
      description: fill(e.desc, fallbackDesc),
      categoryId: cat(e.cat),
      flaggable: true,
    });
    if (account.type === 'credit') r.cardId = cardFor(account.key, date);
    withDept(r, e.depts, sign < 0 ? 0.85 : 0.5);
    return r;
  };

  const randomRow = (date: string) => {
    const kind = pickKind(rand).kind;
    switch (kind) {
      case 'card_expense': {
        const e = pickCardExpense(rand);
        poolExpense(kind, date, acct(pickCredit(rand)), e, -1, 'Card purchase');
        return;
      }
      case 'card_refund': {
        poolExpense(kind, date, acct(pickCredit(rand)), pickRefund(rand), 1, 'Refund');
        return;
      }
      case 'bank_expense': {
        const e = pickBank(rand);
        poolExpense(kind, date, bankFor(date), e, -1, `ACH DEBIT ${e.merchant.toUpperCase()} {ref}`);
        return;
      }
      case 'reimb': {
        poolExpense(kind, date, acct('reimb'), pickReimb(rand), -1, 'Expense report #{ref}');
        return;
      }
      case 'interco': {
        poolExpense(kind, date, acct('interco'), pickInterco(rand), -1, 'Intercompany recharge');
        return;
      }
      case 'income': {
        const stripe = chance(rand, 0.45);
        if (stripe) {
          const r = mk('income', date, acct('checking'), {
            merchant: 'Stripe',
            description: 'STRIPE PAYOUT',
            categoryId: cat('platform_subscriptions'),
            flaggable: true,
            weight: 1 * Math.exp((rand() - 0.5) * 1.2),
          });
          withDept(r, undefined, 0.1);
          return;
        }
        const customer = pick(rand, CUSTOMERS);
        const x = rand();
        const collection = x < 0.3 && daysBetween(start, date) > 31;
        const category = collection ? 'ar' : x < 0.8 ? 'enterprise_licenses' : 'implementation';
        const r = mk('income', date, bankFor(date), {
          merchant: customer,
          description: collection ? `Invoice INV-${ref()} payment` : `ACH CREDIT ${customer.toUpperCase()}`,
          categoryId: cat(category),
          flaggable: true,
          weight: 6 * Math.exp((rand() - 0.5) * 1.6),
        });
        if (!collection) withDept(r, ['sales_east', 'sales_west'], 0.3);
        return;
      }
      case 'split': {
        const t: SplitTemplate = pick(rand, SPLITS);
        const onCard = creditKeys.length > 0 && chance(rand, 0.7);
        const account = onCard ? acct(pickCredit(rand)) : acct('checking');
        const total = dollarsToCents(rand, t.min, t.max);
        const n = t.parts.length === 2 ? 2 : randInt(rand, 2, 3);
        const keys = t.parts.slice(0, n);
        const amounts = apportion(total, keys.map(() => 0.3 + rand()));
        const parts: SplitPartRow[] = keys.map((k, i) => ({
          categoryId: i === n - 1 && chance(rand, 0.1) ? null : cat(k),
          departmentId: chance(rand, 0.6) ? chooseDept(t.depts) : null,
          amount: -amounts[i],
        }));
        mk('split', date, account, {
          type: 'split',
          amount: -total,
          merchant: t.merchant,
          description: `Split purchase ${ref()}`,
          cardId: account.type === 'credit' ? cardFor(account.key, date) : null,
          splits: parts,
        });
        return;
      }
      default:
        throw new Error(`unexpected kind ${kind}`);
    }
  };

  const transfers: TransferEvent[] = [];
  const transferPair = (kind: TransferEvent['kind'], date: string, from: AccountKey, to: AccountKey, outDesc: string, inDesc: string, merchant: string) => {
    const transferId = newId('trf', rand);
    const out = mk('transfer', date, acct(from), { type: 'transfer', transferId, merchant, description: outDesc });
    const inn = mk('transfer', date, acct(to), { type: 'transfer', transferId, merchant, description: inDesc });
    const ev: TransferEvent = { kind, from, to, date, out, in: inn };
    out.transfer = ev;
    inn.transfer = ev;
    transfers.push(ev);
  };
  const structural = (e: Scheduled) => {
    const checking = acct('checking');
    switch (e.kind) {
      case 'rent':
        mk('rent', e.date, checking, {
          merchant: growth ? 'Landmark Properties' : 'Oakline Realty',
          description: 'Monthly rent',
          categoryId: cat('rent'),
          departmentId: chooseDept(['workplace', 'fin_ops']),
          departmentSource: 'rule',
        });
        return;
      case 'payroll':
        mk('payroll', e.date, checking, {
          type: 'split',
          merchant: 'Gusto',
          description: `GUSTO PAYROLL ${e.date}`,
          shares: [
            { cat: 'salaries', share: 0.78 },
            { cat: 'payroll_taxes', share: 0.08 },
            { cat: 'benefits', share: 0.14 },
          ],
        });
        return;
      case 'payoff': {
        const to = e.account as AccountKey;
        const a = acct(to);
        const label =
          to === 'reimb' ? 'Expensify reimbursements' : to === 'interco' ? 'Intercompany settlement' : `${a.vendor === 'amex' ? 'American Express' : a.name} payment`;
        transferPair('payoff', e.date, 'checking', to, `${label.toUpperCase()}`, 'Payment received - thank you', label);
        return;
      }
      case 'sweep_out':
        transferPair('sweep_out', e.date, 'checking', 'savings', 'Transfer to Mercury Treasury', 'Transfer from Operating Checking', 'Internal transfer');
        return;
      case 'sweep_back':
        transferPair('sweep_back', e.date, 'savings', 'checking', 'Transfer to Operating Checking', 'Transfer from Mercury Treasury', 'Internal transfer');
        return;
      case 'interest':
        mk('interest', e.date, acct('savings'), { merchant: 'Mercury', description: 'Interest payment', categoryId: cat('interest_income') });
        return;
      case 'series_a':
        mk('series_a', e.date, checking, {
          merchant: growth ? 'Redwood Ventures' : 'Lakeside Capital',
          description: growth ? 'Series A preferred stock purchase' : 'Seed preferred stock purchase',
          categoryId: cat('preferred_stock'),
        });
        return;
      case 'loan':
        mk('loan', e.date, checking, { merchant: 'Harbor Bank', description: 'Term loan proceeds', categoryId: cat('term_loan') });
        return;
      case 'loan_payment':
        mk('loan_payment', e.date, checking, {
          type: 'split',
          merchant: 'Harbor Bank',
          description: 'Term loan payment',
          shares: [
            { cat: 'term_loan', share: 0 },
            { cat: 'interest_expense', share: 0 },
          ],
        });
        return;
      case 'tax_fed':
        mk('tax_fed', e.date, checking, { merchant: 'IRS', description: 'IRS USATAXPYMT estimated tax', categoryId: cat('federal_tax'), departmentId: null });
        return;
      case 'tax_state':
        mk('tax_state', e.date, checking, {
          merchant: profile.incorporationState === 'DE' ? 'Delaware Division of Corporations' : 'Franchise Tax Board',
          description: 'Annual franchise tax',
          categoryId: cat('state_tax'),
        });
        return;
      case 'insurance_annual': {
        const startM = monthStart(e.date);
        const r = mk('insurance_annual', e.date, checking, {
          merchant: 'The Hartford',
          description: 'Annual business insurance premium',
          categoryId: cat('insurance'),
          spread: JSON.stringify({ start_date: startM, end_date: monthEnd(addMonths(startM, 11)) }),
        });
        withDept(r, ['fin_ops', 'accounting'], 1);
        return;
      }
      case 'software_annual': {
        const startM = monthStart(e.date);
        const r = mk('software_annual', e.date, creditKeys.includes('amex') ? acct('amex') : checking, {
          merchant: 'Salesforce',
          description: 'Salesforce annual contract',
          categoryId: cat('marketing_software'),
          spread: JSON.stringify({ start_date: startM, end_date: monthEnd(addMonths(startM, 11)) }),
        });
        if (r.account.type === 'credit') r.cardId = cardFor(r.account.key, e.date);
        withDept(r, ['sales_east', 'sales_west'], 1);
        return;
      }
      case 'equipment': {
        const onCard = creditKeys.length > 0 && chance(rand, 0.5);
        const account = onCard ? acct(pickCredit(rand)) : checking;
        const r = mk('equipment', e.date, account, {
          merchant: chance(rand, 0.7) ? 'Apple' : 'Dell',
          description: 'Laptops for new hires',
          categoryId: cat('computer_equipment'),
        });
        if (onCard) r.cardId = cardFor(account.key, e.date);
        withDept(r, ['platform', 'data_science', 'design'], 0.8);
        return;
      }
      case 'interco_charge': {
        const r = mk('interco_charge', e.date, acct('interco'), {
          merchant: 'Northwind Analytics Ltd',
          description: 'Monthly management fee',
          categoryId: cat('professional_fees'),
        });
        withDept(r, ['accounting'], 1);
        return;
      }
      default:
        throw new Error(`unexpected structural kind ${e.kind}`);
    }
  };

  for (let i = 0; i < historyDays; i++) {
    const date = addDays(start, i);
    for (const e of byDate.get(date) ?? []) structural(e);
    for (let k = 0; k < perDay[i]; k++) randomRow(date);
  }

  // ---- flags on pool rows ---------------------------------------------------------------------------
  const poolRows = rows.filter((r) => r.flaggable);
  for (const r of poolRows) {
    const age = daysBetween(r.date, today);
    const pendingP = age <= 5 ? 0.9 : age <= 10 ? 0.5 : age <= 20 ? 0.1 : 0;
    if (chance(rand, pendingP)) r.status = 'pending';
    if (chance(rand, r.status === 'pending' ? 0.3 : 0.05)) {
      r.categoryId = null;
      r.departmentId = null;
      r.departmentSource = null;
    }
    if (r.status === 'approved') {
      const x = rand();
      if (x < 0.002) r.hidden = 1;
      else if (x < 0.005) r.deleted = 1;
    }
  }
  // Formula-like merchants: at least one of each, on an approved, visible card purchase.
  const cardBuys = poolRows.filter((r) => r.kind === 'card_expense' && r.status === 'approved' && !r.hidden && !r.deleted && r.categoryId);
  for (const e of FORMULA_LIKE) {
    if (cardBuys.length === 0) break;
    if (rows.some((r) => r.merchant === e.merchant)) continue;
    const r = cardBuys.splice(Math.floor(rand() * cardBuys.length), 1)[0];
    r.merchant = e.merchant;
    r.description = e.desc ?? 'Card purchase';
    r.categoryId = cat(e.cat);
    r.amount = -dollarsToCents(rand, e.min, e.max);
  }
  // Accounting-date overrides and spreads on approved, visible, categorized standard rows.
  const spreadable = new Set([cat('software'), cat('marketing_software'), cat('insurance')]);
  for (const r of poolRows) {
    if (r.status !== 'approved' || r.hidden || r.deleted || r.type !== 'standard') continue;
    const dom = dayOfMonth(r.date);
    const prevEnd = addDays(monthStart(r.date), -1);
    if (dom <= 5 && prevEnd >= start && chance(rand, 0.03)) r.override = prevEnd;
    else if (chance(rand, 0.002)) {
      const fwd = addDays(r.date, randInt(rand, 10, 45));
      if (fwd <= end) r.override = fwd;
    }
    if (r.categoryId && r.amount < 0 && spreadable.has(r.categoryId) && chance(rand, 0.02)) {
      const s = monthStart(r.override ?? r.date);
      r.spread = JSON.stringify({ start_date: s, end_date: monthEnd(addMonths(s, randInt(rand, 2, 11))) });
    }
  }

  // ---- 3. amounts ---------------------------------------------------------------------------------------
  const posts = (r: Row) => r.status === 'approved' && !r.hidden && !r.deleted;
  // Card and ACH spend per month, normalised to a full month.
  const spend = new Map<string, number>();
  for (const r of rows) {
    if (r.flaggable && r.amount < 0 && r.kind !== 'interco') spend.set(monthKey(r.date), (spend.get(monthKey(r.date)) ?? 0) - r.amount);
  }
  const monthlySpend = new Map<string, number>();
  const valid: { mi: number; v: number }[] = [];
  months.forEach((m, mi) => {
    const covered = daysBetween(m < start ? start : m, monthEnd(m) > end ? end : monthEnd(m)) + 1;
    const dim = daysInMonth(Number(m.slice(0, 4)), Number(m.slice(5, 7)));
    if (covered >= 10) valid.push({ mi, v: ((spend.get(monthKey(m)) ?? 0) * dim) / covered });
  });
  const fallbackSpend = Math.max(
    100_000,
    Math.round(([...spend.values()].reduce((s, v) => s + v, 0) * 30) / Math.max(1, historyDays)),
  );
  months.forEach((m, mi) => {
    let best: { mi: number; v: number } | undefined;
    for (const c of valid) if (!best || Math.abs(c.mi - mi) < Math.abs(best.mi - mi)) best = c;
    monthlySpend.set(monthKey(m), Math.max(100_000, Math.round(best ? best.v : fallbackSpend)));
  });
  const base = (date: string) => monthlySpend.get(monthKey(date)) as number;
  const round = (cents: number, unit: number) => Math.max(unit, Math.round(cents / unit) * unit);
  const avgSpend = [...monthlySpend.values()].reduce((s, v) => s + v, 0) / Math.max(1, monthlySpend.size);
  const noise = (spreadPct: number) => 1 + (rand() - 0.5) * 2 * spreadPct;

  const leaseRent = new Map<number, number>();
  for (const r of rows) {
    const mi = monthIndex.get(monthKey(r.date)) as number;
    switch (r.kind) {
      case 'rent': {
        const lease = Math.floor(mi / 12);
        if (!leaseRent.has(lease)) leaseRent.set(lease, round(base(r.date) * 0.12, 10_000));
        r.amount = -(leaseRent.get(lease) as number);
        break;
      }
      case 'payroll': {
        const total = Math.round(base(r.date) * 0.8 * noise(0.03));
        const shares = r.shares as { cat: string; share: number }[];
        const parts = apportion(total, shares.map((s) => s.share));
        r.splits = shares.map((s, i) => ({ categoryId: cat(s.cat), departmentId: null, amount: -parts[i] }));
        r.amount = -total;
        break;
      }
      case 'insurance_annual':
        r.amount = -round(base(r.date) * 0.3, 1_000);
        break;
      case 'software_annual':
        r.amount = -round(base(r.date) * 0.35, 1_000);
        break;
      case 'equipment':
        r.amount = -Math.round(base(r.date) * (0.05 + rand() * 0.1));
        break;
      case 'interco_charge':
        r.amount = -round(base(r.date) * 0.04, 100);
        break;
      case 'tax_fed':
        r.amount = -round(base(r.date) * 0.06, 100);
        break;
      case 'tax_state':
        r.amount = -Math.max(80_000, round(base(r.date) * 0.02, 100));
        break;
      case 'interest':
        r.amount = Math.round(avgSpend * 0.01 * noise(0.3));
        break;
      default:
        break;
    }
  }
  // Revenue: a rising share of each month's expenses, shared among the month's income rows.
  const expenses = new Map<string, number>();
  const incomeRows = new Map<string, Row[]>();
  for (const r of rows) {
    const mk2 = monthKey(r.date);
    if (r.kind === 'income') {
      let list = incomeRows.get(mk2);
      if (!list) incomeRows.set(mk2, (list = []));
      list.push(r);
    } else if (r.amount < 0 && r.type !== 'transfer' && r.kind !== 'equipment') {
      expenses.set(mk2, (expenses.get(mk2) ?? 0) - r.amount);
    }
  }
  months.forEach((m, mi) => {
    const list = incomeRows.get(monthKey(m));
    if (!list || list.length === 0) return;
    const ratio = 0.6 + (0.65 * mi) / Math.max(1, months.length - 1);
    const target = Math.round((expenses.get(monthKey(m)) ?? base(m)) * ratio * noise(0.08));
    const amounts = apportion(Math.max(target, list.length * 5_000), list.map((r) => r.weight));
    list.forEach((r, i) => (r.amount = Math.max(100, amounts[i])));
  });
  // Financing: an equity raise, a term loan and its monthly repayments (principal + interest).
  const monthlyExpense = avgSpend * 2.9;
  const equityUnit = monthlyExpense > 5_000_000 ? 5_000_000 : 100_000;
  let loanPrincipal = 0;
  for (const r of rows) {
    if (r.kind === 'series_a') r.amount = round(monthlyExpense * 10, equityUnit);
    if (r.kind === 'loan') {
      r.amount = round(monthlyExpense * 2.5, equityUnit);
      loanPrincipal = r.amount;
    }
  }
  let outstanding = loanPrincipal;
  const installment = Math.round(loanPrincipal / 36);
  for (const r of rows.filter((x) => x.kind === 'loan_payment').sort((a, b) => a.idx - b.idx)) {
    const principal = Math.max(1, Math.min(installment, outstanding - 1));
    const interest = Math.max(1, Math.round(outstanding * 0.0075));
    outstanding -= principal;
    r.splits = [
      { categoryId: cat('term_loan'), departmentId: null, amount: -principal },
      { categoryId: cat('interest_expense'), departmentId: null, amount: -interest },
    ];
    r.amount = -(principal + interest);
  }
  // Transfers: pay-offs settle the balance owed at the previous month end; sweeps move a share of revenue.
  const byAccount = new Map<AccountKey, Row[]>();
  for (const r of rows) {
    if (!posts(r) || r.type === 'transfer') continue;
    let list = byAccount.get(r.account.key);
    if (!list) byAccount.set(r.account.key, (list = []));
    list.push(r);
  }
  const paid = new Map<AccountKey, number>();
  let lastSweep = 0;
  const revenueBefore = (date: string, days: number) => {
    const from = addDays(date, -days);
    let s = 0;
    for (const r of rows) if (r.kind === 'income' && r.date >= from && r.date < date) s += r.amount;
    return s;
  };
  for (const ev of transfers.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.out.idx - b.out.idx))) {
    let amount: number;
    if (ev.kind === 'payoff') {
      const cutoff = addDays(monthStart(ev.date), -1);
      const charged = (byAccount.get(ev.to) ?? []).reduce((s, r) => (r.date <= cutoff ? s + r.amount : s), 0);
      const owed = -charged - (paid.get(ev.to) ?? 0);
      amount = owed > 0 ? owed : 2_500;
      paid.set(ev.to, (paid.get(ev.to) ?? 0) + amount);
    } else if (ev.kind === 'sweep_out') {
      amount = round(revenueBefore(ev.date, 90) * 0.25, 100_000);
      lastSweep = amount;
    } else {
      amount = round(Math.max(lastSweep, 200_000) * 0.4, 100_000);
    }
    ev.out.amount = -amount;
    ev.in.amount = amount;
  }

  // ---- 5. timestamps and sync order ---------------------------------------------------------------------
  const cap = now - 1;
  for (const r of rows) {
    const created = Math.min(cap, dayStart(r.date) + randInt(rand, 7 * 3600, 21 * 3600));
    let updated = created;
    if (r.deleted) updated = created + randInt(rand, 86_400, 10 * 86_400);
    else if (r.status === 'approved' && chance(rand, 0.3)) updated = created + randInt(rand, 3_600, 6 * 86_400);
    r.created = created;
    r.updated = Math.max(created, Math.min(cap, updated));
  }
  const order = [...rows].sort((a, b) => a.updated - b.updated || a.idx - b.idx);
  order.forEach((r, i) => (r.updateSeq = i + 1));

  // ---- insert -------------------------------------------------------------------------------------------
  const insert = db.prepare(
    `INSERT INTO transactions (id, company_id, date, accounting_date_override, amount_cents, currency, merchant, description,
       category_id, department_id, department_source, transaction_type, account_id, card_id, source_vendor, source_type,
       source_account_name, status, spread, transfer_id, hidden, deleted, created, updated, update_seq)
     VALUES (?, ?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSplit = db.prepare(
    'INSERT INTO transaction_splits (transaction_id, part, category_id, department_id, amount_cents) VALUES (?, ?, ?, ?, ?)',
  );
  for (const r of rows) {
    if (r.amount === 0) throw new Error(`seed: zero amount on ${r.kind} ${r.date}`);
    insert.run(
      r.id,
      companyId,
      r.date,
      r.override,
      r.amount,
      r.merchant,
      r.description,
      r.type === 'standard' ? r.categoryId : null,
      r.type === 'standard' ? r.departmentId : null,
      r.type === 'standard' && r.departmentId ? r.departmentSource ?? 'manual' : null,
      r.type,
      r.account.id,
      r.cardId,
      r.account.vendor,
      r.account.type,
      r.account.name,
      r.status,
      r.spread,
      r.transferId,
      r.hidden,
      r.deleted,
      r.created,
      r.updated,
      r.updateSeq,
    );
    if (r.splits) {
      const sum = r.splits.reduce((s, p) => s + p.amount, 0);
      if (sum !== r.amount) throw new Error(`seed: split parts of ${r.kind} do not sum to the amount`);
      r.splits.forEach((p, i) => insertSplit.run(r.id, i + 1, p.categoryId, p.departmentId, p.amount));
    }
  }
  db.prepare(
    `INSERT INTO counters (company_id, name, value) VALUES (?, 'update_seq', ?)
     ON CONFLICT(company_id, name) DO UPDATE SET value = MAX(value, excluded.value)`,
  ).run(companyId, rows.length);

  return { count: rows.length, avgMonthlyExpense: Math.round(monthlyExpense), monthlySpend, maxUpdateSeq: rows.length };
}
