// Journal entries that come from no transaction: opening capital, monthly depreciation, and accruals
// (expense accruals reversed the next month, revenue accrued to receivables), so the cash flow has
// non-cash expenses and working-capital changes to show. Written after the transactions are posted.

import { addDays, dayStart, monthEnd, monthOf, monthsBetween } from '../calendar';
import type { Db } from '../db/open';
import { insertJournalEntry, type JournalEntryInput } from '../ledger/posting';
import type { Rand } from './util';

export interface JournalSeedInput {
  db: Db;
  companyId: string;
  start: string;
  end: string;
  now: number;
  cats: Map<string, string>;
  avgMonthlyExpense: number;
  monthlySpend: Map<string, number>;
  rand: Rand;
}

/** Signed daily movement (debit - credit) of some categories, by date, from the posted ledger. */
function dailyMovement(db: Db, companyId: string, categoryIds: string[]): { date: string; delta: number }[] {
  const marks = categoryIds.map(() => '?').join(', ');
  return db
    .prepare(
      `SELECT date, SUM(debit_cents - credit_cents) AS delta FROM journal_lines
        WHERE company_id = ? AND category_id IN (${marks}) GROUP BY date ORDER BY date`,
    )
    .all(companyId, ...categoryIds) as { date: string; delta: number }[];
}

export function seedJournalEntries(input: JournalSeedInput): { openingCents: number } {
  const { db, companyId, start, end, now, cats, rand } = input;
  const cat = (k: string) => cats.get(k) as string;
  const stamp = (date: string) => Math.min(now - 1, dayStart(date) + 22 * 3600);
  const entries: JournalEntryInput[] = [];
  const entry = (date: string, kind: JournalEntryInput['kind'], memo: string, debitCat: string, creditCat: string, cents: number) => {
    if (cents <= 0) return;
    entries.push({
      companyId,
      date,
      kind,
      memo,
      transactionId: null,
      created: stamp(date),
      lines: [
        { categoryId: debitCat, departmentId: null, merchant: null, debitCents: cents, creditCents: 0 },
        { categoryId: creditCat, departmentId: null, merchant: null, debitCents: 0, creditCents: cents },
      ],
    });
  };

  // Opening capital: enough that Cash never falls below a cushion of about three months of expenses.
  let running = 0;
  let lowest = 0;
  for (const d of dailyMovement(db, companyId, [cat('cash')])) {
    running += d.delta;
    lowest = Math.min(lowest, running);
  }
  const cushion = Math.max(2_500_000, input.avgMonthlyExpense * 3);
  const unit = 1_000_000;
  const opening = Math.ceil((cushion - lowest) / unit) * unit;
  entry(start, 'opening', 'Opening balance: founders\u2019 and seed capital', cat('cash'), cat('opening_equity'), opening);

  const months = monthsBetween(start, end);
  // Depreciation: straight line over 36 months of the equipment on hand at each month end.
  const equipment = dailyMovement(db, companyId, [cat('computer_equipment'), cat('furniture')]);
  let cost = 0;
  let accumulated = 0;
  let k = 0;
  for (const m of months) {
    const me = monthEnd(m);
    if (me > end) break;
    while (k < equipment.length && equipment[k].date <= me) cost += equipment[k++].delta;
    const dep = Math.min(Math.round(cost / 36), cost - accumulated);
    if (dep > 0) {
      accumulated += dep;
      entry(me, 'depreciation', `Depreciation ${monthOf(m)}`, cat('depreciation_expense'), cat('accum_depr'), dep);
    }
  }

  // Expense accruals: professional fees incurred in the month and billed the next; reversed on the 1st.
  for (const m of months) {
    const me = monthEnd(m);
    if (me >= end) break;
    const spend = input.monthlySpend.get(monthOf(m)) ?? 0;
    const cents = Math.max(50_000, Math.round((spend * (0.04 + rand() * 0.04)) / 10_000) * 10_000);
    entry(me, 'accrual', `Accrued professional fees ${monthOf(m)}`, cat('professional_fees'), cat('accrued'), cents);
    entry(addDays(me, 1), 'accrual', `Reversal: accrued professional fees ${monthOf(m)}`, cat('accrued'), cat('professional_fees'), cents);
  }

  // Revenue accruals: invoices billed at a month end and collected (transactions categorized to
  // Accounts Receivable) during the next month.
  const collected = new Map<string, number>();
  for (const d of dailyMovement(db, companyId, [cat('ar')])) {
    collected.set(monthOf(d.date), (collected.get(monthOf(d.date)) ?? 0) - d.delta);
  }
  for (const m of months) {
    const me = monthEnd(m);
    if (me >= end) break;
    const next = monthOf(addDays(me, 1));
    entry(me, 'accrual', `Invoices billed ${monthOf(m)} (accrued revenue)`, cat('ar'), cat('enterprise_licenses'), collected.get(next) ?? 0);
  }

  entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const e of entries) insertJournalEntry(db, e, rand);
  return { openingCents: opening };
}
