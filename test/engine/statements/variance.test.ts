// Issue 15, item 3: comparison blocks with Variance columns, and the layout against the prior year to date.
// The periods a block fetches, what its binding keeps (old bindings render as before), its names, and the
// drill-down parameters (a Variance column is no period).
import { renderStatement } from '../../../src/engine/render';
import {
  columnsFor,
  describeSpec,
  LAYOUTS,
  offersTotal,
  offersVariance,
  sheetNameFor,
  specFromBinding,
  specToParameters,
  type StatementSpec,
} from '../../../src/engine/statements';
import { columnLabels, drillParameters } from '../../../src/engine/statements/spec';
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { statementCellTarget } from '../../../src/engine/transactions/drillTarget';
import { incomeStatement } from '../fixtures/statements';

const october: StatementSpec = {
  statement: 'income_statement',
  period: 'last_month',
  start: '2026-10-01',
  end: '2026-10-31',
  layout: 'prior_ytd',
  scale: 'units',
  fiscalYearStartMonth: 1,
};

const periods = (spec: StatementSpec) => columnsFor(spec).map((c) => [c.start ?? c.date, c.end ?? c.date]);
const bindingOf = (spec: StatementSpec, extra: Record<string, unknown> = {}): BindingRecord => ({
  id: 'b',
  kind: 'statement',
  parameters: { ...specToParameters(spec), ...extra } as BindingRecord['parameters'],
  company: 'c',
  refreshedAt: '',
  address: 'A!A1',
});

describe('against the prior year to date', () => {
  test('is offered as a layout', () => {
    expect(LAYOUTS.find((l) => l.key === 'prior_ytd')?.label).toBe('Against the prior year to date');
  });

  test('the year to the end of the chosen period, against the same span of the prior year: two requests', () => {
    expect(periods(october)).toEqual([
      ['2026-01-01', '2026-10-31'],
      ['2025-01-01', '2025-10-31'],
    ]);
    expect(columnsFor(october).map((c) => c.request)).toEqual([
      { path: '/reports/income_statement', query: { start_date: '2026-01-01', end_date: '2026-10-31' } },
      { path: '/reports/income_statement', query: { start_date: '2025-01-01', end_date: '2025-10-31' } },
    ]);
    // Whatever period was chosen, only its end counts: a quarter, or the year itself.
    expect(periods({ ...october, start: '2026-07-01', end: '2026-09-30' })).toEqual([['2026-01-01', '2026-09-30'], ['2025-01-01', '2025-09-30']]);
    expect(periods({ ...october, start: '2025-01-01', end: '2025-12-31' })).toEqual([['2025-01-01', '2025-12-31'], ['2024-01-01', '2024-12-31']]);
  });

  test('a fiscal year starting in July: from July, across the calendar year end', () => {
    const fy = { ...october, fiscalYearStartMonth: 7 };
    expect(periods(fy)).toEqual([['2026-07-01', '2026-10-31'], ['2025-07-01', '2025-10-31']]);
    expect(periods({ ...fy, start: '2027-02-01', end: '2027-02-28' })).toEqual([['2026-07-01', '2027-02-28'], ['2025-07-01', '2026-02-28']]);
    // The fiscal year's first month: a year to date of one month.
    expect(periods({ ...fy, start: '2026-07-01', end: '2026-07-31' })).toEqual([['2026-07-01', '2026-07-31'], ['2025-07-01', '2025-07-31']]);
    // April start, a leap-year February end stays a month end a year earlier.
    expect(periods({ ...october, fiscalYearStartMonth: 4, start: '2028-02-01', end: '2028-02-29' })).toEqual([['2027-04-01', '2028-02-29'], ['2026-04-01', '2027-02-28']]);
  });

  test('a period ending today: to that day, against the same day a year before', () => {
    expect(periods({ ...october, period: 'this_month', start: '2026-11-01', end: '2026-11-23' })).toEqual([['2026-01-01', '2026-11-23'], ['2025-01-01', '2025-11-23']]);
  });

  test('a balance sheet: at the period end against a year before', () => {
    expect(columnsFor({ ...october, statement: 'balance_sheet' }).map((c) => c.request)).toEqual([
      { path: '/reports/balance_sheet', query: { date: '2026-10-31' } },
      { path: '/reports/balance_sheet', query: { date: '2025-10-31' } },
    ]);
  });

  test('its columns are headed by the year to date they show; a balance sheet by its dates', () => {
    expect(columnLabels(october, columnsFor(october))).toEqual(['YTD Oct 2026', 'YTD Oct 2025']);
    const today = { ...october, end: '2026-11-23' };
    expect(columnLabels(today, columnsFor(today))).toEqual(['YTD 2026-11-23', 'YTD 2025-11-23']);
    expect(columnLabels({ ...october, statement: 'balance_sheet' }, columnsFor({ ...october, statement: 'balance_sheet' }))).toBeUndefined();
    expect(columnLabels({ ...october, layout: 'prior_year' }, columnsFor({ ...october, layout: 'prior_year' }))).toBeUndefined();
  });

  test('described and named by the year to date it shows', () => {
    expect(describeSpec({ ...october, variance: true })).toBe('Income statement, YTD Oct 2026, against the prior year to date with variance');
    expect(describeSpec({ ...october, end: '2026-11-23', scale: 'thousands' })).toBe('Income statement, YTD 2026-11-23, against the prior year to date, in thousands');
    expect(sheetNameFor({ ...october, variance: true })).toBe('P&L YTD Oct 2026');
  });
});

describe('variance columns in a block', () => {
  const quarter: StatementSpec = { ...october, period: 'last_quarter', start: '2026-07-01', end: '2026-09-30', layout: 'prior_period' };

  test('offered on the comparison layouts only, balance sheets included; never with a total', () => {
    expect(['prior_period', 'prior_year', 'prior_ytd'].every((layout) => offersVariance({ layout: layout as StatementSpec['layout'] }))).toBe(true);
    expect(['single', 'months', 'quarters'].some((layout) => offersVariance({ layout: layout as StatementSpec['layout'] }))).toBe(false);
    expect(LAYOUTS.filter((l) => offersVariance({ layout: l.key }) && offersTotal({ statement: 'income_statement', layout: l.key }))).toEqual([]);
  });

  test('kept in the binding; a binding without it (written before) reads as before, without', () => {
    const withVariance = { ...quarter, variance: true };
    expect(specToParameters(withVariance)).toMatchObject({ layout: 'prior_period', variance: true });
    expect(specFromBinding(bindingOf(withVariance))).toEqual(withVariance);
    expect(specToParameters(quarter)).not.toHaveProperty('variance');
    expect(specFromBinding(bindingOf(quarter))).toEqual(quarter);
    // Where none can be (settings edited to one period), it is ignored rather than rendered.
    expect(specFromBinding(bindingOf({ ...withVariance, layout: 'single' }, { variance: true }))?.variance).toBeUndefined();
  });

  test('the same comparison with and without variance get names that tell them apart', () => {
    expect(sheetNameFor({ ...quarter, variance: true }, [quarter])).toBe('P&L Q3 2026 (variance)');
    expect(sheetNameFor(quarter, [{ ...quarter, variance: true }])).toBe('P&L Q3 2026 (no variance)');
    expect(describeSpec({ ...quarter, variance: true })).toBe('Income statement, Q3 2026, against the prior period with variance');
  });

  test('drill-down parameters: the two periods, then no period for Variance and Variance %', () => {
    const report = (start: string, end: string, cents: number) =>
      incomeStatement(start, end, { revenue: [{ id: 'cat_subs', cents }], expenses: [], non_operating_income: [] });
    const grid = renderStatement({
      reports: [report('2026-07-01', '2026-09-30', 300), report('2026-04-01', '2026-06-30', 200)],
      companyName: 'Acme',
      refreshedAt: new Date(0),
      scale: 'units',
      variance: true,
    });
    const drill = drillParameters(grid);
    expect(drill.columnPeriods).toEqual([{ start: '2026-07-01', end: '2026-09-30' }, { start: '2026-04-01', end: '2026-06-30' }, null, null]);
    expect(drill.rowCategoryIds.filter((id) => id !== null)).toEqual(['cat_subs']);
  });
});

test('a Variance cell drilled into says to pick a period, and a period cell beside it still drills', () => {
  const sel = (address: string) => ({ sheet: 'P&L', address, rowCount: 1, columnCount: 1, topLeft: { formula: null, value: 1 } });
  const binding: BindingRecord = {
    ...bindingOf({ ...october, layout: 'prior_period', variance: true }),
    address: "'P&L'!A1:E3",
    parameters: {
      ...specToParameters({ ...october, layout: 'prior_period', variance: true }),
      rowCategoryIds: [null, 'cat_subs', null],
      columnPeriods: [{ start: '2026-10-01', end: '2026-10-31' }, { start: '2026-09-01', end: '2026-09-30' }, null, null],
    },
  };
  expect(statementCellTarget(sel("'P&L'!C2"), [binding])).toMatchObject({ ok: true, target: { categoryId: 'cat_subs', start: '2026-09-01', end: '2026-09-30' } });
  for (const cell of ['D2', 'E2']) {
    expect(statementCellTarget(sel(`'P&L'!${cell}`), [binding])).toMatchObject({ ok: false, message: expect.stringMatching(/^A variance is computed from the two periods/) });
  }
});
