// Books closed through a month end (a workbook setting, issue 14 item 2): figures wholly on or before it do
// not move any more, so their cached answers are kept across refreshes and never fetched again unless the
// user reopens them (Refresh this block fetches everything again whatever is closed). Which requests lie
// wholly within the closed months follows from their parameters, as touched.ts reads them.

import { endOfMonth, requireIsoDate } from '../dates';
import type { ReadRequest } from './requestCache';
import { walkKind } from './walks';

/** A month end in `YYYY-MM-DD`, or an error sentence for the pane. */
export function checkClosedThrough(iso: string): { ok: true; value: string } | { ok: false; error: string } {
  try {
    requireIsoDate(iso, 'books closed through');
  } catch {
    return { ok: false, error: `Books closed through: ${JSON.stringify(iso)} is not a date (YYYY-MM-DD)` };
  }
  if (endOfMonth(iso) !== iso) return { ok: false, error: `Books close at a month end: ${iso} is not one (${endOfMonth(iso)} is)` };
  return { ok: true, value: iso };
}

/** The workbook setting the close is kept in, per company (a workbook may hold figures of several). */
export function closedSettingKey(companyId: string): string {
  return `fin.booksClosedThrough.${companyId}`;
}

/** The setting's value as stored, or null when it is absent or not a month end. */
export function closedThroughOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const checked = checkClosedThrough(value);
  return checked.ok ? checked.value : null;
}

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s.slice(0, 10);
}

/** Whether the request's data lies wholly on or before `through` (a month end). */
export function isClosedRequest(req: ReadRequest, through: string): boolean {
  const q = req.query ?? {};
  const on = (d: string | undefined) => d !== undefined && d <= through;
  const month = (m: string | undefined) => m !== undefined && m <= through.slice(0, 7);
  switch (req.path) {
    case '/reports/income_statement':
    case '/reports/cash_flow':
      // A defaulted period follows today: never closed.
      return text(q.start_date) !== undefined && on(text(q.end_date));
    case '/reports/balance_sheet':
      return on(text(q.date));
    case '/aggregations/total': {
      const date = text(q.date);
      if (date) return on(endOfMonth(date));
      const end = text(q.end_date);
      if (end) return text(q.start_date) !== undefined && on(endOfMonth(end));
      return text(q.start_month) !== undefined && month(text(q.end_month));
    }
    case '/transactions':
      // A list with an end in the closed months; its other filters do not widen it.
      return on(text(q.end_date));
    case '/journal_entries':
      // A walk of a period (walks.ts), whose entries were each checked to lie in it.
      return walkKind(req) !== undefined && text(q.start_date) !== undefined && on(text(q.end_date));
    default:
      // Reference lists and merchant names (across all months) are never closed.
      return false;
  }
}
