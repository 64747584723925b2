import { BEFORE_ALL_DATES } from '../calendar';
import type { Db } from '../db/open';
import { activityBetween, latestCreated } from './activity';
import { INCOME_STATEMENT_TYPES } from './reports';
import { prepared, readSnapshot } from './sql';
import { subtree, type CategoryNode, type Chart } from './tree';

// One signed total for a category and its descendants (GET /aggregations/total). It is computed from the
// same journal lines as the statements, so it equals the statement line: a periodic category's total over
// whole months is its income statement amount for those months; a point-in-time category's total is its
// balance sheet balance at the month end.

export interface CategoryTotal {
  totalCents: number;
  refreshedAt: number | null;
}

interface Sums {
  debit: number;
  credit: number;
  refreshedAt: number | null;
}

function sumsFromActivity(db: Db, companyId: string, ids: string[], from: string, to: string): Sums {
  const activity = activityBetween(db, companyId, from, to);
  let debit = 0;
  let credit = 0;
  for (const id of ids) {
    debit += activity.get(id)?.debit ?? 0;
    credit += activity.get(id)?.credit ?? 0;
  }
  return { debit, credit, refreshedAt: latestCreated(activity, ids) };
}

/** Lines recorded with exactly this merchant (case-sensitive): not kept by month, so queried directly. */
function sumsForMerchant(db: Db, companyId: string, ids: string[], from: string, to: string, merchant: string): Sums {
  const row = prepared(
    db,
    `SELECT COALESCE(SUM(l.debit_cents), 0) AS debit, COALESCE(SUM(l.credit_cents), 0) AS credit, MAX(e.created) AS refreshed_at
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.company_id = @company AND l.category_id IN (SELECT value FROM json_each(@ids))
        AND l.date >= @from AND l.date <= @to AND l.merchant = @merchant`,
  ).get({ company: companyId, ids: JSON.stringify(ids), from, to, merchant }) as { debit: number; credit: number; refreshed_at: number | null };
  return { debit: row.debit, credit: row.credit, refreshedAt: row.refreshed_at };
}

/**
 * Total of `node` and its descendants over from..to inclusive (from = null: every posting through `to`).
 * Assets are debit minus credit, every other category credit minus debit. A balance that holds Retained
 * Earnings also carries the income of every period through `to`, as the balance sheet does.
 */
export function categoryTotal(
  db: Db,
  companyId: string,
  chart: Chart,
  node: CategoryNode,
  from: string | null,
  to: string,
  merchant: string | null,
  options: { withoutComputedEarnings?: boolean } = {},
): CategoryTotal {
  const ids = subtree(node).map((n) => n.id);
  if (from === null && !options.withoutComputedEarnings && ids.some((id) => chart.byId.get(id)?.role === 'retained_earnings')) {
    ids.push(...chart.ordered.filter((n) => INCOME_STATEMENT_TYPES.has(n.accountType)).map((n) => n.id));
  }
  const start = from ?? BEFORE_ALL_DATES;
  const sums = readSnapshot(db, () =>
    merchant === null ? sumsFromActivity(db, companyId, ids, start, to) : sumsForMerchant(db, companyId, ids, start, to, merchant),
  );
  const creditMinusDebit = sums.credit - sums.debit;
  return { totalCents: node.accountType === 'asset' ? -creditMinusDebit : creditMinusDebit, refreshedAt: sums.refreshedAt };
}
