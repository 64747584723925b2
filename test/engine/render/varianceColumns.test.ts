// Issue 15, item 3: a comparison's Variance and Variance % columns, computed at render from the two
// columns' cents. Favourable is positive on every statement (varianceColumns.ts says why per statement).

import { TEXT_FORMAT, cellValues } from '../../../src/engine/render/grid';
import { RenderError, accountingFormat } from '../../../src/engine/render/money';
import type { BalanceSheetReport, CashFlowReport, StatementReport } from '../../../src/engine/render/reportShapes';
import { renderStatement, type RenderStatementInput, type StatementGrid } from '../../../src/engine/render/statementGrid';
import {
  PERCENT_FORMAT,
  VARIANCE_LABEL,
  VARIANCE_PERCENT_LABEL,
  orientationOf,
  varianceCents,
  variancePercent,
} from '../../../src/engine/render/varianceColumns';
import { demoBalanceSheet, demoCashFlow, incomeStatement, section } from '../fixtures/statements';

const REFRESHED = new Date(Date.UTC(2026, 6, 15, 18, 30));

function render(reports: StatementReport[], extra: Partial<RenderStatementInput> = {}): StatementGrid {
  return renderStatement({ reports, companyName: 'Acme Robotics, Inc.', refreshedAt: REFRESHED, scale: 'units', variance: true, ...extra });
}

const labelOf = (g: StatementGrid, r: number) => (g.rows[r][0].kind === 'text' ? (g.rows[r][0] as { value: string }).value : '');
const lineRow = (g: StatementGrid, id: string) => g.rowInfo.findIndex((i) => i.categoryId === id);
const labelRow = (g: StatementGrid, text: string) => g.rows.findIndex((_, r) => labelOf(g, r) === text);

/** A row's four figures: actual and comparison in cents, variance in cents, variance % (undefined when blank). */
function figures(g: StatementGrid, row: number, divisor = 100): (number | undefined)[] {
  expect(row).toBeGreaterThanOrEqual(g.values.row);
  return g.rows[row].slice(1).map((cell, c) => {
    if (cell.kind !== 'number') return undefined;
    return c === 3 ? cell.value : Math.round(cell.value * divisor);
  });
}

function expectWellFormed(g: StatementGrid): void {
  expect(g.rows.map((row) => row.length)).toEqual(g.rows.map(() => g.columnCount));
  expect(g.columnCount).toBe(5);
  expect(g.columnWidths).toHaveLength(5);
  expect(g.columns).toHaveLength(4);
  expect(g.values).toMatchObject({ column: 1, columnCount: 4 });
  const money = accountingFormat(g.currency, g.scale);
  const problems: string[] = [];
  g.rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (cell.kind === 'text' && g.numberFormats[r][c] !== TEXT_FORMAT) problems.push(`R${r}C${c}: text without @`);
      if (cell.kind === 'number' && r < g.values.row) problems.push(`R${r}C${c}: number above the values`);
      if (cell.kind === 'number' && g.numberFormats[r][c] !== (c === 4 ? PERCENT_FORMAT : money)) problems.push(`R${r}C${c}: format`);
    }),
  );
  expect(problems).toEqual([]);
}

// Q2 against Q1: revenue up on one line and down on another, a new line, an expense up, one down, one
// flat, one at zero in both, taxes up.
const actual = incomeStatement('2026-04-01', '2026-06-30', {
  revenue: [
    { id: 'cat_subs', name: 'Subscriptions', cents: 1_200_000 },
    { id: 'cat_services', name: 'Services', cents: 300_000 },
    { id: 'cat_new', name: 'New product', cents: 50_000 },
  ],
  expenses: [
    { id: 'cat_payroll', name: 'Payroll', children: [{ id: 'cat_salaries', name: 'Salaries', cents: -450_000 }] },
    { id: 'cat_rent', name: 'Rent', cents: -100_000 },
    { id: 'cat_software', name: 'Software', cents: -30_000 },
    { id: 'cat_legal', name: 'Legal', cents: 0 },
  ],
  non_operating_income: [{ id: 'cat_interest', name: 'Interest income', cents: 1_000 }],
  taxes: [{ id: 'cat_tax', name: 'Income tax', cents: -200_000 }],
});
const prior = incomeStatement('2026-01-01', '2026-03-31', {
  revenue: [
    { id: 'cat_subs', name: 'Subscriptions', cents: 1_000_000 },
    { id: 'cat_services', name: 'Services', cents: 400_000 },
  ],
  expenses: [
    { id: 'cat_payroll', name: 'Payroll', children: [{ id: 'cat_salaries', name: 'Salaries', cents: -400_000 }] },
    { id: 'cat_rent', name: 'Rent', cents: -100_000 },
    { id: 'cat_software', name: 'Software', cents: -40_000 },
    { id: 'cat_legal', name: 'Legal', cents: 0 },
  ],
  non_operating_income: [{ id: 'cat_interest', name: 'Interest income', cents: 0 }],
  taxes: [{ id: 'cat_tax', name: 'Income tax', cents: -150_000 }],
});

describe('income statement against a comparison', () => {
  const g = render([actual, prior]);

  test('is well formed: the two periods, then Variance and Variance % headed with the sign convention', () => {
    expectWellFormed(g);
    expect(cellValues([g.rows[g.columnHeaderRow]])[0]).toEqual(['', 'Q2 2026', 'Q1 2026', VARIANCE_LABEL, VARIANCE_PERCENT_LABEL]);
    expect(VARIANCE_LABEL).toBe('Variance fav/(unfav)');
    expect(VARIANCE_PERCENT_LABEL).toBe('Variance % fav/(unfav)');
    expect(g.columns.map((c) => [c.column, c.start ?? null, c.variance ?? null])).toEqual([
      [1, '2026-04-01', null], [2, '2026-01-01', null], [3, null, 'amount'], [4, null, 'percent'],
    ]);
    // The title says which period is set against which (not "2 periods from" a span that includes neither gap).
    expect(labelOf(g, 2)).toBe('2026-04-01 to 2026-06-30 against 2026-01-01 to 2026-03-31');
  });

  test('revenue up is favourable (positive), revenue down unfavourable (negative)', () => {
    expect(figures(g, lineRow(g, 'cat_subs'))).toEqual([1_200_000, 1_000_000, 200_000, 0.2]);
    expect(figures(g, lineRow(g, 'cat_services'))).toEqual([300_000, 400_000, -100_000, -0.25]);
  });

  test('an expense up is unfavourable (negative), an expense down favourable (positive), a flat one zero', () => {
    expect(figures(g, lineRow(g, 'cat_salaries'))).toEqual([-450_000, -400_000, -50_000, -0.125]);
    expect(figures(g, lineRow(g, 'cat_payroll'))).toEqual([-450_000, -400_000, -50_000, -0.125]);
    expect(figures(g, lineRow(g, 'cat_software'))).toEqual([-30_000, -40_000, 10_000, 0.25]);
    expect(figures(g, lineRow(g, 'cat_rent'))).toEqual([-100_000, -100_000, 0, 0]);
    expect(figures(g, lineRow(g, 'cat_tax'))).toEqual([-200_000, -150_000, -50_000, -1 / 3]);
  });

  test('a zero base has no percentage: blank, not an error; the variance is still shown', () => {
    expect(figures(g, lineRow(g, 'cat_new'))).toEqual([50_000, 0, 50_000, undefined]);
    expect(figures(g, lineRow(g, 'cat_interest'))).toEqual([1_000, 0, 1_000, undefined]);
    expect(figures(g, lineRow(g, 'cat_legal'))).toEqual([0, 0, 0, undefined]);
    expect(g.rows[lineRow(g, 'cat_new')][4]).toEqual({ kind: 'empty' });
  });

  test('section totals, operating income and net income follow the same rule', () => {
    expect(figures(g, labelRow(g, 'Total revenue'))).toEqual([1_550_000, 1_400_000, 150_000, 150_000 / 1_400_000]);
    expect(figures(g, labelRow(g, 'Total expenses'))).toEqual([-580_000, -540_000, -40_000, -40_000 / 540_000]);
    expect(figures(g, labelRow(g, 'Total taxes'))).toEqual([-200_000, -150_000, -50_000, -50_000 / 150_000]);
    expect(figures(g, labelRow(g, 'Operating income'))).toEqual([970_000, 860_000, 110_000, 110_000 / 860_000]);
    expect(figures(g, labelRow(g, 'Net income'))).toEqual([771_000, 710_000, 61_000, 61_000 / 710_000]);
    // Each variance is the difference of the columns beside it, in cents: no rounding drift.
    const rows = g.rowInfo.flatMap((info, r) => (['line', 'section-total', 'subtotal'].includes(info.role) ? [r] : []));
    const drift = rows.filter((r) => {
      const [a, b, v] = figures(g, r);
      return v !== a! - b!;
    });
    expect(drift.map((r) => labelOf(g, r))).toEqual([]);
  });

  test('a smaller loss is favourable: the percentage is measured from the size of the base', () => {
    const loss = (start: string, end: string, rent: number) =>
      incomeStatement(start, end, { revenue: [{ id: 'cat_subs', cents: 100_000 }], expenses: [{ id: 'cat_rent', cents: rent }], non_operating_income: [] });
    const l = render([loss('2026-04-01', '2026-06-30', -150_000), loss('2026-01-01', '2026-03-31', -200_000)]);
    expect(figures(l, labelRow(l, 'Operating income'))).toEqual([-50_000, -100_000, 50_000, 0.5]);
    expect(figures(l, labelRow(l, 'Net income'))).toEqual([-50_000, -100_000, 50_000, 0.5]);
  });

  test('headings, blanks and checks have no variance; title rows none either', () => {
    const blankRows = g.rowInfo.flatMap((info, r) => (['title', 'blank', 'section-heading', 'check'].includes(info.role) ? [r] : []));
    expect(blankRows.filter((r) => g.rows[r][3].kind !== 'empty' || g.rows[r][4].kind !== 'empty')).toEqual([]);
    // The checks themselves still hold in both periods.
    const check = labelRow(g, 'Check: net income = sum of sections');
    expect(figures(g, check).slice(0, 2)).toEqual([0, 0]);
  });

  test('in thousands the variance is scaled like the columns; the percentage is not', () => {
    const t = render([actual, prior], { scale: 'thousands' });
    expectWellFormed(t);
    expect(figures(t, lineRow(t, 'cat_subs'), 100_000)).toEqual([1_200_000, 1_000_000, 200_000, 0.2]);
    expect(t.rows[lineRow(t, 'cat_subs')][3]).toEqual({ kind: 'number', value: 2 });
  });

  test('the period columns are the same as without the variance', () => {
    const plainGrid = render([actual, prior], { variance: false });
    expect(g.rows.map((row) => row.slice(0, 3))).toEqual(plainGrid.rows);
    expect(g.rowInfo).toEqual(plainGrid.rowInfo);
  });
});

describe('balance sheet against a comparison: favourable is more net assets', () => {
  const bs = (date: string, cash: number, payable: number, capital: number): BalanceSheetReport => {
    const assets = section([{ id: 'cat_cash', name: 'Cash', cents: cash }], 'balance_cents');
    const liabilities = section([{ id: 'cat_ap', name: 'Accounts payable', cents: payable }], 'balance_cents');
    const equity = section([{ id: 'cat_capital', name: 'Capital', cents: capital }], 'balance_cents');
    return { object: 'balance_sheet', date, currency: 'USD', refreshed_at: null, assets, liabilities, equity, liabilities_and_equity_cents: payable + capital };
  };
  const g = render([bs('2026-06-30', 900_000, 300_000, 600_000), bs('2025-06-30', 500_000, 200_000, 300_000)]);

  test('an asset up and equity up are favourable, a liability up unfavourable', () => {
    expectWellFormed(g);
    expect(figures(g, lineRow(g, 'cat_cash'))).toEqual([900_000, 500_000, 400_000, 0.8]);
    expect(figures(g, labelRow(g, 'Total assets'))).toEqual([900_000, 500_000, 400_000, 0.8]);
    expect(figures(g, lineRow(g, 'cat_ap'))).toEqual([300_000, 200_000, -100_000, -0.5]);
    expect(figures(g, labelRow(g, 'Total liabilities'))).toEqual([300_000, 200_000, -100_000, -0.5]);
    expect(figures(g, lineRow(g, 'cat_capital'))).toEqual([600_000, 300_000, 300_000, 1]);
  });

  test('total liabilities and equity mixes both directions: no variance', () => {
    expect(figures(g, labelRow(g, 'Total liabilities and equity'))).toEqual([900_000, 500_000, undefined, undefined]);
  });

  test('the demo balance sheets render with variance', () => {
    expectWellFormed(render([demoBalanceSheet('2026-06-30', 2), demoBalanceSheet('2025-06-30', 1)]));
  });
});

describe('cash flow against a comparison: favourable is more cash', () => {
  const first = demoCashFlow('2026-04-01', '2026-06-30');
  const cf = (change: number, ar: number): CashFlowReport => ({
    ...first,
    operating_activities: section([{ id: 'grp_working_capital', name: 'Changes in Working Capital', children: [{ id: 'cat_ar', name: 'Accounts Receivable', cents: ar }] }]),
    investing_activities: null,
    financing_activities: null,
    change_in_cash_cents: ar,
    beginning_cash_cents: 1_000_000,
    ending_cash_cents: 1_000_000 + change,
  });
  const g = render([cf(-20_000, -20_000), { ...cf(-50_000, -50_000), start_date: '2026-01-01', end_date: '2026-03-31' }]);

  test('a smaller outflow is favourable; ending cash higher is favourable', () => {
    expectWellFormed(g);
    expect(figures(g, lineRow(g, 'cat_ar'))).toEqual([-20_000, -50_000, 30_000, 0.6]);
    expect(figures(g, labelRow(g, 'Net change in cash'))).toEqual([-20_000, -50_000, 30_000, 0.6]);
    expect(figures(g, labelRow(g, 'Ending cash'))).toEqual([980_000, 950_000, 30_000, 30_000 / 950_000]);
    expect(figures(g, labelRow(g, 'Beginning cash'))).toEqual([1_000_000, 1_000_000, 0, 0]);
  });
});

describe('the rule and its edges', () => {
  test('orientation by statement and section', () => {
    expect(orientationOf('income_statement', { section: 'revenue' })).toBe(1);
    expect(orientationOf('income_statement', { section: 'expenses' })).toBe(1);
    expect(orientationOf('income_statement', { figure: 'net_income_cents' })).toBe(1);
    expect(orientationOf('cash_flow', { section: 'investing_activities' })).toBe(1);
    expect(orientationOf('balance_sheet', { section: 'assets' })).toBe(1);
    expect(orientationOf('balance_sheet', { section: 'liabilities' })).toBe(-1);
    expect(orientationOf('balance_sheet', { section: 'equity' })).toBe(1);
    expect(orientationOf('balance_sheet', { figure: 'liabilities_and_equity_cents' })).toBeNull();
  });

  test('missing figures and zero bases give blanks, never -0', () => {
    expect(varianceCents(undefined, 5, 1)).toBeUndefined();
    expect(varianceCents(5, undefined, 1)).toBeUndefined();
    expect(varianceCents(5, 5, null)).toBeUndefined();
    expect(Object.is(varianceCents(5, 5, -1), 0)).toBe(true);
    expect(variancePercent(10, 0)).toBeUndefined();
    expect(variancePercent(-10, -40)).toBe(-0.25);
    expect(Object.is(variancePercent(0, -40), 0)).toBe(true);
  });

  test('a variance needs exactly two reports and no total', () => {
    expect(() => render([actual])).toThrow(RenderError);
    expect(() => render([actual, prior, prior])).toThrow(/two reports/);
    expect(() => render([actual, prior], { total: true })).toThrow(RenderError);
  });
});
