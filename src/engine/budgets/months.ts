// A period read from a budget kept by month: the months it spans, each of which the budget must have.

import { isWholeMonths, monthIndex, monthIndexToYearMonth, monthLabel, type Period } from '../dates';
import { fail, ok, type Result } from '../result';
import { monthsCovered, type BudgetLine, type BudgetSheet } from './sheet';

function listed(labels: readonly string[]): string {
  if (labels.length <= 3) return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more`;
}

/** The positions (in BudgetSheet.months) of the months a period spans, or why the budget cannot answer for it. */
export function monthsOfPeriod(sheet: Pick<BudgetSheet, 'months'>, period: Pick<Period, 'start' | 'end'>): Result<number[]> {
  if (!isWholeMonths(period)) {
    return fail(`A budget is kept by month, and ${period.start} to ${period.end} is not whole months: use months, quarters or years (2026-07, 2026-Q3, FY2026, YTD).`);
  }
  const positions: number[] = [];
  const missing: string[] = [];
  for (let m = monthIndex(period.start); m <= monthIndex(period.end); m++) {
    const at = sheet.months.indexOf(m);
    if (at >= 0) positions.push(at);
    else {
      const { year, month } = monthIndexToYearMonth(m);
      missing.push(monthLabel(year, month));
    }
  }
  if (missing.length > 0) {
    return fail(`The budget has no column for ${listed(missing)} (it covers ${monthsCovered(sheet)}).`);
  }
  return ok(positions);
}

/** A line's cents over some of the budget's months, in the user's own signs. */
export function centsOver(line: Pick<BudgetLine, 'cents'>, positions: readonly number[]): number {
  return positions.reduce((sum, p) => sum + line.cents[p], 0);
}
