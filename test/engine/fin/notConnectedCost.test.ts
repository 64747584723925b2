// What a formula that showed "Not connected" may read once connected, at most, on an empty cache: the
// estimate's part for what value preview cannot see (test/runtime/notConnected.sandbox.test.ts prices the
// rest against a sandbox). Requests several formulas share are counted once.
import type { FinCall } from '../../../src/engine/fin/finCall';
import { callKey, callsAtMost, plannedRequests } from '../../../src/engine/fin/notConnectedCost';

describe('the requests a FIN call reads at most', () => {
  it('single values: the category list and one report or total; a line the spec names reads the list too (a category of its name wins)', () => {
    expect(plannedRequests({ name: 'TOTAL', args: ['Rent', '2026-07', null, null] })).toHaveLength(2);
    expect(plannedRequests({ name: 'PNL', args: ['Rent', '2026-07', null] })).toHaveLength(2);
    expect(plannedRequests({ name: 'PNL', args: ['Net Income', '2026-07', null] })).toHaveLength(2);
    expect(plannedRequests({ name: 'BALANCE', args: ['Cash', '2026-07'] })).toHaveLength(2);
    expect(plannedRequests({ name: 'CASHFLOW', args: ['Change in Cash', '2026-Q3', null] })).toHaveLength(1);
    expect(plannedRequests({ name: 'CASHFLOW', args: ['Accounts Payable', '2026-Q3', null] })).toHaveLength(2);
    // A budget is the workbook's: its line reads nothing; its variance reads what FIN.PNL of the period does.
    const budget = [['', '2026-07'], ['Rent', 500]];
    expect(plannedRequests({ name: 'BUDGET', args: [budget, 'Rent', '2026-07', null] })).toEqual([]);
    expect(plannedRequests({ name: 'BUDGET_VARIANCE', args: [budget, 'Rent', '2026-07', null] })).toEqual(plannedRequests({ name: 'PNL', args: ['Rent', '2026-07', null] }));
  });

  it('statements and lists: one request; transactions and merchants: their pages at most', () => {
    expect(plannedRequests({ name: 'INCOME_STATEMENT', args: ['2026-07', null, null] })).toHaveLength(1);
    expect(plannedRequests({ name: 'CATEGORIES', args: [] })).toHaveLength(1);
    // max_rows 1000 by default: two pages of 500; a category filter adds the category list.
    expect(plannedRequests({ name: 'TRANSACTIONS', args: ['2026-07', null, null, null, null] })).toHaveLength(2);
    expect(plannedRequests({ name: 'TRANSACTIONS', args: ['2026-07', null, 'Rent', null, 1200] })).toHaveLength(4);
    expect(plannedRequests({ name: 'TRANSACTIONS', args: ['2026-07', null, null, null, 'lots'] })).toHaveLength(0);
    expect(plannedRequests({ name: 'MERCHANTS', args: ['Rent'] })).toHaveLength(21);
    expect(plannedRequests({ name: 'VERSION', args: [] })).toHaveLength(0);
  });

  it('formulas share the category list and the statement of one period; totals are their own', () => {
    const lines = ['Rent', 'Travel', 'Advertising'];
    const months = ['2026-01', '2026-02'];
    const grid = lines.flatMap((line) => months.map((m): FinCall => ({ name: 'PNL', args: [line, m, null] })));
    expect(callsAtMost(grid)).toBe(1 + months.length);
    const totals = lines.map((line): FinCall => ({ name: 'TOTAL', args: [line, '2026-01', null, null] }));
    expect(callsAtMost(totals)).toBe(1 + lines.length);
    expect(callsAtMost([...grid, ...totals, { name: 'CATEGORIES', args: [] }])).toBe(1 + months.length + lines.length);
  });

  it('one key per call: the same formula in two cells is one; an omitted argument is null', () => {
    expect(callKey({ name: 'pnl', args: ['Rent', '2026-07', undefined] })).toBe(callKey({ name: 'PNL', args: ['Rent', '2026-07', null] }));
    expect(callKey({ name: 'PNL', args: ['Rent', 46204, null] })).not.toBe(callKey({ name: 'PNL', args: ['Rent', '46204', null] }));
  });
});
