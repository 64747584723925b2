// What a drill-down checks before it writes anything. Its lines come from /journal_entries, whose date
// filter's names and line amounts the spec does not show; an API that read them otherwise would list the
// wrong entries and the sheet would still look right. So each entry must be dated inside the period asked,
// and the lines must add up to the figure they explain -- the total a FIN cell holds for the same months, or
// the statement line for the same dates, read through the cache (an answer a cell or a block holds costs
// nothing; else one call, or two for a balance, which is the change between two balance sheets). Otherwise nothing is written, and the pane
// says what did not add up.

import { UnreadableAnswer } from '../../api/answerShape';
import type { AggregationTotal, BalanceSheet, Category, IncomeStatement, JournalEntry } from '../../api';
import { addDays, endOfMonth, startOfMonth } from '../dates';
import { balanceSheetLine, incomeStatementLine } from '../fin/lines';
import { centsToDisplay } from '../render/money';
import { Refusal } from '../refusal';
import type { Deps } from './context';

const LIST = '/journal_entries';

/** An entry dated outside the period asked: the API did not apply the date range the add-in sent. */
export function checkEntryDate(entry: JournalEntry, start: string, end: string): void {
  if (entry.date >= start && entry.date <= end) return;
  throw new UnreadableAnswer({
    endpoint: LIST,
    expected: 'date range',
    found: [],
    detail:
      `The API's ${LIST} answered an entry dated ${entry.date} when asked for ${start} to ${end}: it does not read the date range ` +
      'under the names this add-in sends (start_date, end_date), so the entries listed would not be the period\'s',
  });
}

export interface ExplainedFigure {
  cents: number;
  /** Where it was read, for the message: "the income statement for 2026-07-01 to 2026-07-31". */
  source: string;
}

/** The figure the lines of `category`'s subtree between start and end explain, signed as signedCents signs them. */
export async function explainedFigure(deps: Deps, category: Category, start: string, end: string): Promise<ExplainedFigure> {
  const { reports } = deps.client;
  if (!category.point_in_time) {
    // Whole months: a FIN.TOTAL cell's answer for the same months is the same figure ("the day is ignored").
    if (start === startOfMonth(start) && end === endOfMonth(end)) {
      const total = deps.cached<AggregationTotal>({ path: '/aggregations/total', query: { category_id: category.id, start_date: start, end_date: end } });
      if (total) return { cents: total.value.total_cents, source: `the total for ${start} to ${end}` };
    }
    const query = { start_date: start, end_date: end };
    const { value } = await deps.read<IncomeStatement>({ path: '/reports/income_statement', query: { ...query } }, (o) => reports.incomeStatement(query, o));
    return { cents: incomeStatementLine(value, category.id) ?? 0, source: `the income statement for ${start} to ${end}` };
  }
  const before = addDays(start, -1);
  const sheet = async (date: string): Promise<BalanceSheet> =>
    (await deps.read<BalanceSheet>({ path: '/reports/balance_sheet', query: { date } }, (o) => reports.balanceSheet({ date }, o))).value;
  const [opening, closing] = await Promise.all([sheet(before), sheet(end)]);
  return {
    cents: (balanceSheetLine(closing, category.id) ?? 0) - (balanceSheetLine(opening, category.id) ?? 0),
    source: `the change between the balance sheets of ${before} and ${end}`,
  };
}

/** Refuses lines that do not add up to the figure they explain (nothing has been written yet). */
export function checkLinesAddUp(totalCents: number, figure: ExplainedFigure, category: Category, signedLines: boolean): void {
  if (totalCents === figure.cents) return;
  const units = (c: number) => centsToDisplay(c, 'units').toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const why = signedLines
    ? " The API gives each line one signed amount, read as debit positive; if it signs credits positive, that explains it."
    : '';
  throw new Refusal(
    "The entries do not add up",
    `The journal lines of ${category.name} add up to ${units(totalCents)}, but ${figure.source} says ${units(figure.cents)}. ` +
      `Nothing was written: a drill-down that does not explain its figure would mislead.${why}`,
    'drilldown_mismatch',
  );
}
