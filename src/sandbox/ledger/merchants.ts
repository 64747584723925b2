import type { Db } from '../db/open';
import { prepared } from './sql';

/**
 * Distinct merchant names recorded on the journal lines of the given categories, in binary order, after
 * `after` (exclusive) when given. Pending transactions post no lines, so held entries never appear.
 */
export function merchantNames(db: Db, companyId: string, categoryIds: string[], after: string | null, limit: number): string[] {
  const rows = prepared(
    db,
    `SELECT DISTINCT merchant FROM journal_lines
      WHERE company_id = @company AND category_id IN (SELECT value FROM json_each(@ids))
        AND merchant IS NOT NULL AND merchant <> '' AND (@after IS NULL OR merchant > @after)
      ORDER BY merchant LIMIT @limit`,
  ).all({ company: companyId, ids: JSON.stringify(categoryIds), after, limit }) as { merchant: string }[];
  return rows.map((r) => r.merchant);
}
