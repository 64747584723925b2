// The demo transaction feed of one company: a deterministic simulation of a business over its history.
//
// Every step draws from the one PRNG stream it is handed, in this order, so the same inputs give the
// same rows (test/sandbox/seed-identity.test.ts holds the result to the byte):
// 1. schedule.ts: structural events on the calendar (rent, payroll, pay-offs, sweeps, financing...).
// 2. Day by day, the structural rows of the day's events (structural.ts), then the day's share of pool
//    rows (pool.ts): card spend, ACH payments, customer payments, refunds, reimbursements, intercompany
//    charges, split purchases, on a weight that grows over time and drops at weekends.
// 3. flags.ts: pending, uncategorized, hidden, deleted, re-dated and spread pool rows.
// 4. spend.ts, amounts.ts: structural amounts, revenue, financing and transfers, sized from the spend
//    (after the flags: pay-offs settle only what posts).
// 5. timestamps.ts: created / updated times and update_seq. Then insert.ts writes the rows.

import { addDays } from '../../calendar';
import type { Db } from '../../db/open';
import type { AccountInfo, AccountKey, CardInfo } from '../accounts';
import type { DepartmentSet } from '../chart';
import type { CompanyProfile } from '../roster';
import type { Rand } from '../util';
import { sizeAmounts } from './amounts';
import { Feed, settingOf } from './feed';
import { flagPoolRows } from './flags';
import { insertFeed } from './insert';
import { addPoolRow, poolPickers, poolRowsPerDay } from './pool';
import { scheduleStructuralEvents } from './schedule';
import { addStructuralRows } from './structural';
import { stampTimes } from './timestamps';

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

export function generateTransactions(input: GenerateInput): GenerateResult {
  const { db, companyId, count, now, rand } = input;
  const s = settingOf(input);
  const feed = new Feed();

  const schedule = scheduleStructuralEvents(s, count);
  const perDay = poolRowsPerDay(s, count - schedule.rows);
  const pickers = poolPickers(s);
  for (let i = 0; i < s.historyDays; i++) {
    const date = addDays(s.start, i);
    for (const e of schedule.byDate.get(date) ?? []) addStructuralRows(s, feed, rand, e);
    for (let k = 0; k < perDay[i]; k++) addPoolRow(s, feed, rand, pickers, date);
  }
  flagPoolRows(s, feed, rand);
  const { monthlySpend, avgMonthlyExpense } = sizeAmounts(s, feed, rand);
  stampTimes(feed.rows, now, rand);
  insertFeed(db, companyId, feed.rows);

  const n = feed.rows.length;
  return { count: n, avgMonthlyExpense, monthlySpend, maxUpdateSeq: n };
}
