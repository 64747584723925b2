// Books closed through a month end: which requests lie wholly within the closed months (kept across
// refreshes) and which do not (fetched again as usual).
import { checkClosedThrough, isClosedRequest } from '../../../src/engine/reader/closedBooks';

const through = '2025-06-30';
const closed = (path: string, query: Record<string, string> = {}) => isClosedRequest({ path, query }, through);

it('reports ending on or before the close are closed; one reaching past it, or defaulting to today, is not', () => {
  expect(closed('/reports/income_statement', { start_date: '2025-04-01', end_date: '2025-06-30' })).toBe(true);
  expect(closed('/reports/income_statement', { start_date: '2025-06-01', end_date: '2025-07-31' })).toBe(false);
  expect(closed('/reports/income_statement', { end_date: '2025-05-31' })).toBe(false);
  expect(closed('/reports/cash_flow', { start_date: '2025-01-01', end_date: '2025-06-30' })).toBe(true);
  expect(closed('/reports/balance_sheet', { date: '2025-06-30' })).toBe(true);
  expect(closed('/reports/balance_sheet', { date: '2025-07-01' })).toBe(false);
  expect(closed('/reports/balance_sheet')).toBe(false);
});

it('totals are read by whole months, lists by their end, reference lists never', () => {
  expect(closed('/aggregations/total', { category_id: 'c', start_date: '2025-06-01', end_date: '2025-06-15' })).toBe(true);
  expect(closed('/aggregations/total', { category_id: 'c', date: '2025-06-10' })).toBe(true);
  expect(closed('/aggregations/total', { category_id: 'c', date: '2025-07-10' })).toBe(false);
  expect(closed('/aggregations/total', { category_id: 'c', start_month: '2025-01', end_month: '2025-06' })).toBe(true);
  expect(closed('/transactions', { start_date: '2025-06-01', end_date: '2025-06-30' })).toBe(true);
  expect(closed('/transactions', { start_date: '2025-06-01' })).toBe(false);
  for (const path of ['/categories', '/departments', '/company', '/parties/merchants']) expect(closed(path)).toBe(false);
});

it('the close is a month end', () => {
  expect(checkClosedThrough('2025-06-30')).toEqual({ ok: true, value: '2025-06-30' });
  expect(checkClosedThrough('2025-06-15')).toEqual({ ok: false, error: 'Books close at a month end: 2025-06-15 is not one (2025-06-30 is)' });
  expect(checkClosedThrough('June')).toMatchObject({ ok: false });
});
