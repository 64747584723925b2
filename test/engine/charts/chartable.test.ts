// What of a statement block a chart can read (chartableBlock): its period columns and its lines with a figure
// in each. The layouts whose columns are not one period each: against budget (Actual and Budget compared, the
// variance columns left out) and by department (the departments and Unassigned, the Total left out).
import { chartableBlock } from '../../../src/engine/charts/blockCharts';
import type { BindingRecord } from '../../../src/engine/ports/workbook';

const binding = (parameters: Record<string, unknown>): BindingRecord =>
  ({ id: 'b1', kind: 'statement', company: 'cmp_1', parameters, address: "'P&L'!A1:E12", name: 'FinBlock_b1' }) as unknown as BindingRecord;

const month = { start: '2026-10-01', end: '2026-10-31' };

test('against budget: Actual and Budget side by side, the variance columns left out', () => {
  const values = [
    ['Northwind', null, null, null, null],
    [null, 'Actual', 'Budget', 'Variance fav/(unfav)', 'Variance % fav/(unfav)'],
    ['Revenue', 24446461.27, 21014005, 3432456.27, 0.163],
    ['Rent', -849000, -873000, 24000, 0.027],
    ['Net income', 1200, 0, 1200, null],
  ];
  const block = chartableBlock(binding({ layout: 'budget', columnPeriods: [month, null, null, null], rowCategoryIds: [null, null, 'cat_rev', 'cat_rent', null] }), values);
  expect(block).toMatchObject({ headerRow: 1, firstColumn: 1, columns: 2, periods: ['Actual', 'Budget'] });
  expect(block!.lines.map((l) => l.label)).toEqual(['Revenue', 'Rent', 'Net income']);
});

test('another comparison keeps its two periods; one period alone is a chart of one column', () => {
  const prior = { start: '2025-10-01', end: '2025-10-31' };
  const values = [
    [null, 'Oct 2026', 'Oct 2025', 'Variance'],
    ['Revenue', 10, 8, 2],
  ];
  expect(chartableBlock(binding({ layout: 'prior_year', columnPeriods: [month, prior, null] }), values)).toMatchObject({ columns: 2, periods: ['Oct 2026', 'Oct 2025'] });
  expect(chartableBlock(binding({ layout: 'single', columnPeriods: [month] }), [[null, 'Oct 2026'], ['Revenue', 10]])).toMatchObject({ columns: 1 });
});

test('by department: the departments and Unassigned, the Total (the same period, the whole of them) left out', () => {
  const values = [
    [null, 'Sales', 'R&D', 'Unassigned', 'Total'],
    ['Net income', -5, -7, 20, 8],
  ];
  const block = chartableBlock(binding({ layout: 'by_department', columnPeriods: [month, month, month, month] }), values);
  expect(block).toMatchObject({ columns: 3, periods: ['Sales', 'R&D', 'Unassigned'] });
});
