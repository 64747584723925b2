/** @jest-environment jsdom */
// The workbench draws the workbook's charts from what their cells show (formula results included), and a
// protected sheet refuses typing as Excel does.
import { render, screen, within } from '@testing-library/react';
import { axisLabel, ChartView, valueTicks } from '../../src/workbench/ChartView';
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson } from '../../src/workbench/customFunctions';

function world() {
  const book = new WorkbenchBook();
  const engine = new FormulaEngine({ book, functions: new Map(), metadata: Promise.resolve(parseFunctionsJson({ functions: [] })) });
  return { book, engine, settle: async () => { for (let i = 0; i < 5; i++) await engine.whenIdle(); } };
}

test("a chart's series show its cells as calculated, and its figure names them in a table of its data", async () => {
  const w = world();
  await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [[null, 'Jan', 'Feb'], ['Revenue', 100, 250]] });
  await w.book.writeFormula('Sheet1!B3', '=B2*2');
  await w.book.writeFormula('Sheet1!C3', '=C2-300');
  await w.settle();
  await w.book.addChart({ sheet: 'Sheet1', over: 'E1:L16' }, { kind: 'column', title: 'Revenue', categories: 'Sheet1!B1:C1', series: [{ name: 'Revenue', values: 'Sheet1!B2:C2' }, { name: 'Twice, less', values: 'Sheet1!B3:C3' }] }, 'FinChart_1');
  const [chart] = w.book.chartsOn('Sheet1');
  expect(chart.series.map((s) => s.shown)).toEqual([[100, 250], [200, -50]]);
  render(<ChartView chart={chart} width={480} height={300} />);
  const table = screen.getByRole('table', { name: 'Data of the chart Revenue' });
  expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['SeriesJanFeb', 'Revenue100250', 'Twice, less200-50']);
  expect(screen.getByRole('figure', { name: 'Chart: Revenue' })).toBeTruthy();
});

test("the value axis follows the source cells' number format, as Excel links it: a margin in percent reads in percent", async () => {
  const w = world();
  await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['Jan', 'Feb'], [0.85, 0.875]], cellFormats: [[null, null], ['0.0%', '0.0%']] });
  await w.book.addChart({ sheet: 'Sheet1', over: 'D1:J12' }, { kind: 'line', title: 'Gross margin', categories: 'Sheet1!A1:B1', series: [{ name: 'Gross margin', values: 'Sheet1!A2:B2' }] }, 'FinChart_M');
  const [chart] = w.book.chartsOn('Sheet1');
  expect(chart.valueFormat).toBe('0.0%');
  expect(valueTicks(0, 0.875).map((t) => axisLabel(t, chart.valueFormat))).toEqual(['0%', '20%', '40%', '60%', '80%', '100%']);
  expect(axisLabel(1_500_000, '#,##0.00_);(#,##0.00)')).toBe('1.5M');
  // A percent sign inside quotes is text, not a percent format.
  expect(axisLabel(12, '0" %pts"')).toBe('12');
});

test('the value axis takes round steps through zero', () => {
  expect(valueTicks(-50, 250)).toEqual([-100, 0, 100, 200, 300]);
  expect(valueTicks(0, 1_234_567)).toEqual([0, 500000, 1000000, 1500000]);
  expect(valueTicks(0, 0)).toEqual([0, 1]);
});

test("typing on a protected sheet is refused with Excel's words", async () => {
  const w = world();
  await w.book.protectSheet('Sheet1');
  expect(await w.book.enter({ sheet: 'Sheet1', row: 0, col: 0 }, 'hello')).toEqual({ ok: false, message: expect.stringMatching(/^The cell or chart you're trying to change is on a protected sheet/) });
  expect(w.book.cellAt('Sheet1', 0, 0).value).toBe('');
});
