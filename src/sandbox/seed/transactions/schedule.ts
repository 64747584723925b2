// Step 1: the structural events of the history, on the calendar (no random draws).

import { monthDay, monthEnd, monthOfYear } from '../../calendar';
import type { AccountKey } from '../accounts';
import type { Kind, Setting } from './feed';

export type StructuralKind =
  | Exclude<Kind, 'card_expense' | 'card_refund' | 'bank_expense' | 'income' | 'reimb' | 'interco' | 'split'>
  | 'payoff'
  | 'sweep_out'
  | 'sweep_back';

export interface Scheduled {
  date: string;
  kind: StructuralKind;
  /** Pay-offs: the account paid. */
  account?: AccountKey;
  rows: number;
}

export interface Schedule {
  byDate: Map<string, Scheduled[]>;
  /** Rows the events will make (a transfer makes two). */
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

/**
 * Rent, payroll (a split), card / reimbursement / intercompany pay-offs and savings sweeps (transfers),
 * interest, an equity raise, a loan and its repayments (a split), estimated taxes, annual prepaid
 * contracts and equipment purchases; thinned out so that they take at most half of `count` rows.
 */
export function scheduleStructuralEvents(s: Setting, count: number): Schedule {
  const { profile, months, has } = s;
  let events: Scheduled[] = [];
  const push = (date: string, kind: StructuralKind, rows: number, account?: AccountKey) => {
    if (date >= s.start && date <= s.end) events.push({ date, kind, rows, account });
  };
  const seriesAMonth = Math.floor(months.length * 0.35);
  const loanMonth = Math.floor(months.length * 0.55);
  months.forEach((m, mi) => {
    const mo = monthOfYear(m);
    push(monthDay(m, 1), 'rent', 1);
    push(monthDay(m, 15), 'payroll', 1);
    push(monthEnd(m), 'payroll', 1);
    if (mi > 0) {
      for (const k of s.creditKeys) push(monthDay(m, 3), 'payoff', 2, k);
      if (has('reimb')) push(monthDay(m, 7), 'payoff', 2, 'reimb');
      if (has('interco') && mo % 3 === 1) push(monthDay(m, 10), 'payoff', 2, 'interco');
    }
    if (has('savings') && mi % 3 === 2) push(monthDay(m, 20), 'sweep_out', 2);
    if (has('savings') && mi % 6 === 4) push(monthDay(m, 22), 'sweep_back', 2);
    if (has('savings') && mi >= 3) push(monthEnd(m), 'interest', 1);
    if (has('interco')) push(monthDay(m, 28), 'interco_charge', 1);
    if (profile.venture) {
      if (mi === seriesAMonth && mi > 0) push(monthDay(m, 12), 'series_a', 1);
      if ([1, 4, 6, 9].includes(mo)) push(monthDay(m, 15), 'tax_fed', 1);
      if (mo === 4) push(monthDay(m, 15), 'tax_state', 1);
      if (mi % 12 === 1) push(monthDay(m, 5), 'insurance_annual', 1);
      if (mi % 3 === 0) push(monthDay(m, 16), 'equipment', 1);
    }
    if (s.growth) {
      if (mi === loanMonth) push(monthDay(m, 18), 'loan', 1);
      if (mi > loanMonth) push(monthDay(m, 25), 'loan_payment', 1);
      if (mi % 12 === 2) push(monthDay(m, 8), 'software_annual', 1);
    }
  });

  const rowsOf = (list: Scheduled[]) => list.reduce((sum, e) => sum + e.rows, 0);
  for (const kind of DROP_ORDER) {
    if (rowsOf(events) <= count / 2) break;
    events = events.filter((e) => e.kind !== kind);
  }
  while (rowsOf(events) > count / 2 && events.length > 1) events = events.filter((_, i) => i % 2 === 0);
  if (rowsOf(events) > count) events = [];

  const byDate = new Map<string, Scheduled[]>();
  for (const e of events) {
    let list = byDate.get(e.date);
    if (!list) byDate.set(e.date, (list = []));
    list.push(e);
  }
  return { byDate, rows: rowsOf(events) };
}
