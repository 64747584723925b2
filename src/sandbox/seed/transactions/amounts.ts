// Step 4b: the amounts of the structural rows and of revenue (pool expenses drew theirs in step 2).
// Structural expenses are sized from the month's spend (payroll ~1.6x in two runs, rent ~0.12x...);
// revenue of a month is a ratio of that month's expenses that rises from ~0.6 to ~1.25 over the history
// (burning early, profitable later); financing from the average spend; pay-offs equal the statement
// balance at the previous month end. Opening capital (seed/journal.ts) is then set so that Cash never
// drops below a cushion.

import { addDays, monthOf, monthStart } from '../../calendar';
import type { AccountKey } from '../accounts';
import { apportion, type Rand } from '../util';
import type { Feed, Row, Setting } from './feed';
import { measureMonthlySpend } from './spend';

export interface Sizing {
  /** Card and ACH spend of each month normalised to a full month (cents, positive), by 'YYYY-MM'. */
  monthlySpend: Map<string, number>;
  /** Average monthly operating expense (cents, positive) of the history. */
  avgMonthlyExpense: number;
}

/** Rounds to a multiple of unit, never below one unit. */
const roundTo = (cents: number, unit: number) => Math.max(unit, Math.round(cents / unit) * unit);

/** A factor around 1, within +/- spreadPct. */
const noise = (rand: Rand, spreadPct: number) => 1 + (rand() - 0.5) * 2 * spreadPct;

function sizeStructuralExpenses(s: Setting, rows: Row[], monthlySpend: Map<string, number>, avgSpend: number, rand: Rand): void {
  const monthIndex = new Map(s.months.map((m, i) => [monthOf(m), i]));
  const base = (date: string) => monthlySpend.get(monthOf(date)) as number;
  // One rent per twelve-month lease, fixed when the lease starts.
  const leaseRent = new Map<number, number>();
  for (const r of rows) {
    switch (r.kind) {
      case 'rent': {
        const lease = Math.floor((monthIndex.get(monthOf(r.date)) as number) / 12);
        if (!leaseRent.has(lease)) leaseRent.set(lease, roundTo(base(r.date) * 0.12, 10_000));
        r.amount = -(leaseRent.get(lease) as number);
        break;
      }
      case 'payroll': {
        const total = Math.round(base(r.date) * 0.8 * noise(rand, 0.03));
        const shares = r.shares as { cat: string; share: number }[];
        const parts = apportion(total, shares.map((sh) => sh.share));
        r.splits = shares.map((sh, i) => ({ categoryId: s.cat(sh.cat), departmentId: null, amount: -parts[i] }));
        r.amount = -total;
        break;
      }
      case 'insurance_annual':
        r.amount = -roundTo(base(r.date) * 0.3, 1_000);
        break;
      case 'software_annual':
        r.amount = -roundTo(base(r.date) * 0.35, 1_000);
        break;
      case 'equipment':
        r.amount = -Math.round(base(r.date) * (0.05 + rand() * 0.1));
        break;
      case 'interco_charge':
        r.amount = -roundTo(base(r.date) * 0.04, 100);
        break;
      case 'tax_fed':
        r.amount = -roundTo(base(r.date) * 0.06, 100);
        break;
      case 'tax_state':
        r.amount = -Math.max(80_000, roundTo(base(r.date) * 0.02, 100));
        break;
      case 'interest':
        r.amount = Math.round(avgSpend * 0.01 * noise(rand, 0.3));
        break;
      default:
        break;
    }
  }
}

/** Revenue: a rising share of each month's expenses, shared among the month's income rows by weight. */
function sizeRevenue(s: Setting, rows: Row[], monthlySpend: Map<string, number>, rand: Rand): void {
  const expenses = new Map<string, number>();
  const incomeRows = new Map<string, Row[]>();
  for (const r of rows) {
    const month = monthOf(r.date);
    if (r.kind === 'income') {
      let list = incomeRows.get(month);
      if (!list) incomeRows.set(month, (list = []));
      list.push(r);
    } else if (r.amount < 0 && r.type !== 'transfer' && r.kind !== 'equipment') {
      expenses.set(month, (expenses.get(month) ?? 0) - r.amount);
    }
  }
  s.months.forEach((m, mi) => {
    const list = incomeRows.get(monthOf(m));
    if (!list || list.length === 0) return;
    const ratio = 0.6 + (0.65 * mi) / Math.max(1, s.months.length - 1);
    const target = Math.round((expenses.get(monthOf(m)) ?? (monthlySpend.get(monthOf(m)) as number)) * ratio * noise(rand, 0.08));
    const amounts = apportion(Math.max(target, list.length * 5_000), list.map((r) => r.weight));
    list.forEach((r, i) => (r.amount = Math.max(100, amounts[i])));
  });
}

/** Financing: an equity raise, a term loan and its monthly repayments (principal + interest). */
function sizeFinancing(s: Setting, rows: Row[], monthlyExpense: number): void {
  const equityUnit = monthlyExpense > 5_000_000 ? 5_000_000 : 100_000;
  let loanPrincipal = 0;
  for (const r of rows) {
    if (r.kind === 'series_a') r.amount = roundTo(monthlyExpense * 10, equityUnit);
    if (r.kind === 'loan') {
      r.amount = roundTo(monthlyExpense * 2.5, equityUnit);
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
      { categoryId: s.cat('term_loan'), departmentId: null, amount: -principal },
      { categoryId: s.cat('interest_expense'), departmentId: null, amount: -interest },
    ];
    r.amount = -(principal + interest);
  }
}

/** Transfers: pay-offs settle the balance owed at the previous month end; sweeps move a share of revenue. */
function sizeTransfers(feed: Feed): void {
  const { rows } = feed;
  const posts = (r: Row) => r.status === 'approved' && !r.hidden && !r.deleted;
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
    let sum = 0;
    for (const r of rows) if (r.kind === 'income' && r.date >= from && r.date < date) sum += r.amount;
    return sum;
  };
  const inDateOrder = [...feed.transfers].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.out.idx - b.out.idx));
  for (const ev of inDateOrder) {
    let amount: number;
    if (ev.kind === 'payoff') {
      const cutoff = addDays(monthStart(ev.date), -1);
      const charged = (byAccount.get(ev.to) ?? []).reduce((sum, r) => (r.date <= cutoff ? sum + r.amount : sum), 0);
      const owed = -charged - (paid.get(ev.to) ?? 0);
      amount = owed > 0 ? owed : 2_500;
      paid.set(ev.to, (paid.get(ev.to) ?? 0) + amount);
    } else if (ev.kind === 'sweep_out') {
      amount = roundTo(revenueBefore(ev.date, 90) * 0.25, 100_000);
      lastSweep = amount;
    } else {
      amount = roundTo(Math.max(lastSweep, 200_000) * 0.4, 100_000);
    }
    ev.out.amount = -amount;
    ev.in.amount = amount;
  }
}

export function sizeAmounts(s: Setting, feed: Feed, rand: Rand): Sizing {
  const monthlySpend = measureMonthlySpend(s, feed.rows);
  const avgSpend = [...monthlySpend.values()].reduce((sum, v) => sum + v, 0) / Math.max(1, monthlySpend.size);
  const monthlyExpense = avgSpend * 2.9;
  sizeStructuralExpenses(s, feed.rows, monthlySpend, avgSpend, rand);
  sizeRevenue(s, feed.rows, monthlySpend, rand);
  sizeFinancing(s, feed.rows, monthlyExpense);
  sizeTransfers(feed);
  return { monthlySpend, avgMonthlyExpense: Math.round(monthlyExpense) };
}
