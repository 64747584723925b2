// Step 2b: the everyday rows, drawn from the merchant pools and spread over the days of the history.

import { addDays, daysBetween, weekday } from '../../calendar';
import type { AccountInfo } from '../accounts';
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
} from '../pools';
import { apportion, chance, dollarsToCents, pick, randInt, weightedPicker, type Rand } from '../util';
import { bankFor, cardFor, chooseDepartment, maybeDepartment, reference, withReference } from './choices';
import type { Feed, Kind, Setting, SplitPartRow } from './feed';

/**
 * How many pool rows fall on each day of the history: a weight that grows over time (a growing company)
 * and drops at weekends, apportioned exactly.
 */
export function poolRowsPerDay(s: Setting, total: number): number[] {
  const growthRate = s.growth ? 2 : 1;
  const dayWeights: number[] = [];
  for (let i = 0; i < s.historyDays; i++) {
    const wd = weekday(addDays(s.start, i));
    dayWeights.push((1 + (growthRate * i) / Math.max(1, s.historyDays - 1)) * (wd === 0 || wd === 6 ? 0.35 : 1));
  }
  return apportion(total, dayWeights);
}

export type PoolPickers = ReturnType<typeof poolPickers>;

/** Weighted draws of a row's kind and of each pool's entries (the tables are built once per feed). */
export function poolPickers(s: Setting) {
  const kinds: { kind: Kind; weight: number }[] = [
    { kind: 'card_expense', weight: 0.66 },
    { kind: 'card_refund', weight: 0.01 },
    { kind: 'bank_expense', weight: 0.07 },
    { kind: 'income', weight: 0.17 },
    { kind: 'reimb', weight: s.has('reimb') ? 0.05 : 0 },
    { kind: 'interco', weight: s.has('interco') ? 0.01 : 0 },
    { kind: 'split', weight: 0.012 },
  ];
  return {
    kind: weightedPicker(kinds, (k) => k.weight),
    cardExpense: weightedPicker([...CARD_EXPENSES, ...FORMULA_LIKE], (e) => e.weight),
    refund: weightedPicker(CARD_REFUNDS, (e) => e.weight),
    bank: weightedPicker(BANK_EXPENSES, (e) => e.weight),
    reimbursement: weightedPicker(REIMBURSEMENTS, (e) => e.weight),
    intercompany: weightedPicker(INTERCOMPANY, (e) => e.weight),
  };
}

function addPoolExpense(
  s: Setting,
  feed: Feed,
  rand: Rand,
  kind: Kind,
  date: string,
  account: AccountInfo,
  e: PoolEntry,
  sign: 1 | -1,
  fallbackDesc: string,
): void {
  const r = feed.add(rand, kind, date, account, {
    amount: sign * dollarsToCents(rand, e.min, e.max),
    merchant: e.merchant,
    description: withReference(rand, e.desc, fallbackDesc),
    categoryId: s.cat(e.cat),
    flaggable: true,
  });
  if (account.type === 'credit') r.cardId = cardFor(s, rand, account.key, date);
  maybeDepartment(s, rand, r, e.depts, sign < 0 ? 0.85 : 0.5);
}

/** A customer payment or a Stripe payout; its amount is sized later, as a share of the month's revenue. */
function addIncome(s: Setting, feed: Feed, rand: Rand, date: string): void {
  const stripe = chance(rand, 0.45);
  if (stripe) {
    const r = feed.add(rand, 'income', date, s.acct('checking'), {
      merchant: 'Stripe',
      description: 'STRIPE PAYOUT',
      categoryId: s.cat('platform_subscriptions'),
      flaggable: true,
      weight: 1 * Math.exp((rand() - 0.5) * 1.2),
    });
    maybeDepartment(s, rand, r, undefined, 0.1);
    return;
  }
  const customer = pick(rand, CUSTOMERS);
  const x = rand();
  const collection = x < 0.3 && daysBetween(s.start, date) > 31;
  const category = collection ? 'ar' : x < 0.8 ? 'enterprise_licenses' : 'implementation';
  const r = feed.add(rand, 'income', date, bankFor(s, rand, date), {
    merchant: customer,
    description: collection ? `Invoice INV-${reference(rand)} payment` : `ACH CREDIT ${customer.toUpperCase()}`,
    categoryId: s.cat(category),
    flaggable: true,
    weight: 6 * Math.exp((rand() - 0.5) * 1.6),
  });
  if (!collection) maybeDepartment(s, rand, r, ['sales_east', 'sales_west'], 0.3);
}

/** A purchase split over two or three categories, on a card or the checking account. */
function addSplitPurchase(s: Setting, feed: Feed, rand: Rand, date: string): void {
  const t: SplitTemplate = pick(rand, SPLITS);
  const onCard = s.creditKeys.length > 0 && chance(rand, 0.7);
  const account = onCard ? s.acct(s.pickCredit(rand)) : s.acct('checking');
  const total = dollarsToCents(rand, t.min, t.max);
  const n = t.parts.length === 2 ? 2 : randInt(rand, 2, 3);
  const keys = t.parts.slice(0, n);
  const amounts = apportion(total, keys.map(() => 0.3 + rand()));
  const parts: SplitPartRow[] = keys.map((k, i) => ({
    categoryId: i === n - 1 && chance(rand, 0.1) ? null : s.cat(k),
    departmentId: chance(rand, 0.6) ? chooseDepartment(s, rand, t.depts) : null,
    amount: -amounts[i],
  }));
  feed.add(rand, 'split', date, account, {
    type: 'split',
    amount: -total,
    merchant: t.merchant,
    description: `Split purchase ${reference(rand)}`,
    cardId: account.type === 'credit' ? cardFor(s, rand, account.key, date) : null,
    splits: parts,
  });
}

/** One pool row on `date`, of a kind drawn by weight. */
export function addPoolRow(s: Setting, feed: Feed, rand: Rand, pickers: PoolPickers, date: string): void {
  const kind = pickers.kind(rand).kind;
  switch (kind) {
    case 'card_expense': {
      const e = pickers.cardExpense(rand);
      addPoolExpense(s, feed, rand, kind, date, s.acct(s.pickCredit(rand)), e, -1, 'Card purchase');
      return;
    }
    case 'card_refund':
      addPoolExpense(s, feed, rand, kind, date, s.acct(s.pickCredit(rand)), pickers.refund(rand), 1, 'Refund');
      return;
    case 'bank_expense': {
      const e = pickers.bank(rand);
      addPoolExpense(s, feed, rand, kind, date, bankFor(s, rand, date), e, -1, `ACH DEBIT ${e.merchant.toUpperCase()} {ref}`);
      return;
    }
    case 'reimb':
      addPoolExpense(s, feed, rand, kind, date, s.acct('reimb'), pickers.reimbursement(rand), -1, 'Expense report #{ref}');
      return;
    case 'interco':
      addPoolExpense(s, feed, rand, kind, date, s.acct('interco'), pickers.intercompany(rand), -1, 'Intercompany recharge');
      return;
    case 'income':
      addIncome(s, feed, rand, date);
      return;
    case 'split':
      addSplitPurchase(s, feed, rand, date);
      return;
    default:
      throw new Error(`unexpected kind ${kind}`);
  }
}
