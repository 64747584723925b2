// Which cached answers a change touches. The rules follow the API's semantics (spec: reports take days,
// totals take months, balances are cumulative, list filters are on the transaction's date); each case here
// is a figure that would be wrong after the change, or one that cannot be, so a refresh is not wasted on it.
import { touchedBy, type TransactionChange } from '../../../src/engine/reader/touched';

const IS = (start: string, end: string) => ({ path: '/reports/income_statement', query: { start_date: start, end_date: end } });
const CF = (start: string, end: string) => ({ path: '/reports/cash_flow', query: { start_date: start, end_date: end } });
const BS = (date: string) => ({ path: '/reports/balance_sheet', query: { date } });
const total = (start: string, end: string) => ({ path: '/aggregations/total', query: { category_id: 'cat_1', start_date: start, end_date: end } });
const pit = (date: string) => ({ path: '/aggregations/total', query: { category_id: 'cat_2', date } });
const list = (start?: string, end?: string) => ({ path: '/transactions', query: { start_date: start, end_date: end, fin_view: 'v1' } });

// The move of issue 13: an accounting date from December into January.
const decToJan: TransactionChange = { date: '2025-12-18', accountingBefore: '2025-12-18', accountingAfter: '2026-01-05' };
const deptOnly: TransactionChange = { date: '2025-06-02', accountingBefore: '2025-06-30', accountingAfter: '2025-06-30' };

describe('an accounting date moved from December to January', () => {
  const touched = touchedBy([decToJan]);

  it('touches the income statements holding exactly one of the two dates', () => {
    expect(touched(IS('2025-12-01', '2025-12-31'))).toBe(true);
    expect(touched(IS('2026-01-01', '2026-01-31'))).toBe(true);
    expect(touched(IS('2025-01-01', '2025-12-31'))).toBe(true);
    // Both dates inside: the period's figures are as they were; neither inside: untouched.
    expect(touched(IS('2025-10-01', '2026-03-31'))).toBe(false);
    expect(touched(IS('2025-11-01', '2025-11-30'))).toBe(false);
    expect(touched(IS('2026-02-01', '2026-02-28'))).toBe(false);
    // Day precision: a December period that ends before the 18th did not hold it.
    expect(touched(IS('2025-12-01', '2025-12-17'))).toBe(false);
  });

  it('touches every balance sheet on or after the earlier date, and no earlier one', () => {
    expect(touched(BS('2025-12-18'))).toBe(true);
    expect(touched(BS('2025-12-31'))).toBe(true);
    expect(touched(BS('2026-06-30'))).toBe(true);
    expect(touched(BS('2025-12-17'))).toBe(false);
    expect(touched(BS('2025-11-30'))).toBe(false);
  });

  it('touches cash flows overlapping the move (working capital between their ends)', () => {
    expect(touched(CF('2025-10-01', '2025-12-31'))).toBe(true);
    expect(touched(CF('2026-01-01', '2026-03-31'))).toBe(true);
    expect(touched(CF('2025-07-01', '2025-09-30'))).toBe(false);
    expect(touched(CF('2026-04-01', '2026-06-30'))).toBe(false);
  });

  it('reads totals by month: periodic by their months, point-in-time from the earlier month on', () => {
    expect(touched(total('2025-12-01', '2025-12-01'))).toBe(true);
    expect(touched(total('2025-12-31', '2026-01-01'))).toBe(false); // both months included
    expect(touched({ path: '/aggregations/total', query: { start_month: '2026-01', end_month: '2026-03' } })).toBe(true);
    expect(touched(pit('2025-12-01'))).toBe(true); // "cumulative through the selected month"
    expect(touched(pit('2025-11-30'))).toBe(false);
  });

  it('touches transaction lists whose date range holds the transaction, and lists with no range', () => {
    expect(touched(list('2025-12-01', '2025-12-31'))).toBe(true);
    expect(touched(list())).toBe(true);
    expect(touched(list('2026-01-01', '2026-01-31'))).toBe(false); // the list filters on `date`, not the accounting date
  });

  it('leaves the company, categories, departments and merchant names alone; a defaulted period counts as touched', () => {
    for (const path of ['/company', '/categories', '/departments', '/parties/merchants']) expect(touched({ path })).toBe(false);
    expect(touched({ path: '/reports/income_statement' })).toBe(true);
    expect(touched({ path: '/reports/balance_sheet' })).toBe(true);
  });
});

describe('a department changed, the accounting date not', () => {
  const touched = touchedBy([deptOnly]);
  it('touches only the transaction lists that hold it (reports have no department filter)', () => {
    expect(touched(list('2025-06-01', '2025-06-30'))).toBe(true);
    expect(touched(list('2025-07-01'))).toBe(false);
    expect(touched(IS('2025-06-01', '2025-06-30'))).toBe(false);
    expect(touched(BS('2025-06-30'))).toBe(false);
    expect(touched(total('2025-06-01', '2025-06-30'))).toBe(false);
  });
});

it('a move inside one month touches day-precise reports but no monthly total', () => {
  const touched = touchedBy([{ date: '2025-03-02', accountingBefore: '2025-03-02', accountingAfter: '2025-03-28' }]);
  expect(touched(IS('2025-03-01', '2025-03-15'))).toBe(true);
  expect(touched(IS('2025-03-01', '2025-03-31'))).toBe(false);
  expect(touched(total('2025-03-01', '2025-03-31'))).toBe(false);
  expect(touched(pit('2025-03-31'))).toBe(false);
});

describe('a change the add-in did not make (amounts may have moved)', () => {
  // As a sync sees it: the row as it is now, accounting date from its date to a later one.
  const touched = touchedBy([{ date: '2025-03-10', accountingBefore: '2025-03-10', accountingAfter: '2025-03-10', postings: true }]);
  it('touches every report holding the date, balances from it on, lists holding it, and merchant names', () => {
    expect(touched(IS('2025-03-01', '2025-03-31'))).toBe(true);
    expect(touched(IS('2025-01-01', '2025-12-31'))).toBe(true);
    expect(touched(IS('2025-04-01', '2025-04-30'))).toBe(false);
    expect(touched(total('2025-03-01', '2025-03-31'))).toBe(true);
    expect(touched(CF('2025-01-01', '2025-12-31'))).toBe(true);
    expect(touched(CF('2025-04-01', '2025-06-30'))).toBe(false);
    expect(touched(BS('2025-03-31'))).toBe(true);
    expect(touched(BS('2025-02-28'))).toBe(false);
    expect(touched(pit('2025-06-30'))).toBe(true);
    expect(touched(list('2025-03-01', '2025-03-31'))).toBe(true);
    expect(touched({ path: '/parties/merchants', query: { category_id: 'cat_1' } })).toBe(true);
    expect(touched({ path: '/categories' })).toBe(false);
  });
});
