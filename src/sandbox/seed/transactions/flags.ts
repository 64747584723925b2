// Step 3: flags on the pool rows (structural rows are never flagged): recent rows are often pending,
// ~5% uncategorized, a few hidden or deleted (tombstones), re-dated (accounting_date_override) or spread.

import { addDays, addMonths, dayOfMonth, daysBetween, monthEnd, monthStart } from '../../calendar';
import { FORMULA_LIKE } from '../pools';
import { chance, dollarsToCents, randInt, type Rand } from '../util';
import type { Feed, Row, Setting } from './feed';

/** Pending (likelier the more recent), uncategorized, hidden or deleted. */
function flagStatus(s: Setting, rand: Rand, poolRows: Row[]): void {
  for (const r of poolRows) {
    const age = daysBetween(r.date, s.today);
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
}

/** Formula-like merchants: at least one of each, on an approved, visible card purchase. */
function placeFormulaLikeMerchants(s: Setting, feed: Feed, rand: Rand, poolRows: Row[]): void {
  const cardBuys = poolRows.filter((r) => r.kind === 'card_expense' && r.status === 'approved' && !r.hidden && !r.deleted && r.categoryId);
  for (const e of FORMULA_LIKE) {
    if (cardBuys.length === 0) break;
    if (feed.rows.some((r) => r.merchant === e.merchant)) continue;
    const r = cardBuys.splice(Math.floor(rand() * cardBuys.length), 1)[0];
    r.merchant = e.merchant;
    r.description = e.desc ?? 'Card purchase';
    r.categoryId = s.cat(e.cat);
    r.amount = -dollarsToCents(rand, e.min, e.max);
  }
}

/** Accounting-date overrides and spreads on approved, visible, categorized standard rows. */
function redateAndSpread(s: Setting, rand: Rand, poolRows: Row[]): void {
  const spreadable = new Set([s.cat('software'), s.cat('marketing_software'), s.cat('insurance')]);
  for (const r of poolRows) {
    if (r.status !== 'approved' || r.hidden || r.deleted || r.type !== 'standard') continue;
    const dom = dayOfMonth(r.date);
    const prevEnd = addDays(monthStart(r.date), -1);
    if (dom <= 5 && prevEnd >= s.start && chance(rand, 0.03)) r.override = prevEnd;
    else if (chance(rand, 0.002)) {
      const fwd = addDays(r.date, randInt(rand, 10, 45));
      if (fwd <= s.end) r.override = fwd;
    }
    if (r.categoryId && r.amount < 0 && spreadable.has(r.categoryId) && chance(rand, 0.02)) {
      const start = monthStart(r.override ?? r.date);
      r.spread = JSON.stringify({ start_date: start, end_date: monthEnd(addMonths(start, randInt(rand, 2, 11))) });
    }
  }
}

export function flagPoolRows(s: Setting, feed: Feed, rand: Rand): void {
  const poolRows = feed.rows.filter((r) => r.flaggable);
  flagStatus(s, rand, poolRows);
  placeFormulaLikeMerchants(s, feed, rand, poolRows);
  redateAndSpread(s, rand, poolRows);
}
