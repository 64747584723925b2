// What a pulled table and its sheet are called: after their dates, the filter that tells pulls apart
// ("Transactions Q3 2025" on sheet "Transactions Q3 2025"), not "Transactions2" on "Transactions (2)".

import type { PeriodOptions } from '../../engine/dates';
import type { TransactionFilters } from '../../engine/transactions';
import { periodLabel } from '../../runtime/screenKit';

/** Excel's limit on a sheet name. */
const SHEET_NAME_MAX = 31;

/**
 * The dates as short as they read: a whole month, quarter or fiscal year by its label ("Q3 2025"), other
 * ranges as their two dates (the end without its year when it is the same one).
 */
function datesLabel(filters: TransactionFilters, options: PeriodOptions): string {
  const { start_date: start, end_date: end } = filters;
  if (start && end) {
    const label = periodLabel(start, end, options);
    if (label !== `${start} to ${end}`) return label;
    return start.slice(0, 4) === end.slice(0, 4) ? `${start}–${end.slice(5)}` : `${start}–${end}`;
  }
  if (start) return `from ${start}`;
  if (end) return `to ${end}`;
  return '';
}

/** "Transactions Q3 2025", or "Txns …" when the longer word would not fit in a sheet name. */
export function pulledSheetName(filters: TransactionFilters, options: PeriodOptions = {}): string {
  const dates = datesLabel(filters, options);
  if (!dates) return 'Transactions';
  const name = `Transactions ${dates}`;
  return name.length <= SHEET_NAME_MAX ? name : `Txns ${dates}`;
}

/**
 * The table's name: the sheet's, in the characters a table name may hold ("Transactions_Q3_2025"), with
 * "_2", "_3"… when the workbook has one of that name already (Excel's own way would be
 * "Transactions_Q3_20252").
 */
export function pulledTableName(sheetName: string, existing: readonly string[]): string {
  const base = sheetName.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'Transactions';
  const taken = new Set(existing.map((t) => t.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}_${i}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
