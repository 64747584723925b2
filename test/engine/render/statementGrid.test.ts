import { Cell, TEXT_FORMAT, cellValues } from '../../../src/engine/render/grid';
import { RenderError, Scale, accountingFormat } from '../../../src/engine/render/money';
import type {
  BalanceSheetReport,
  IncomeStatementReport,
  ReportSection,
  StatementReport,
} from '../../../src/engine/render/reportShapes';
import {
  RenderStatementInput,
  RowInfo,
  StatementGrid,
  formatRefreshedAt,
  renderStatement,
} from '../../../src/engine/render/statementGrid';
import {
  TreeNode,
  demoBalanceSheet,
  demoCashFlow,
  demoIncomeStatement,
  incomeStatement,
  rng,
  section,
} from '../fixtures/statements';

const REFRESHED = new Date(Date.UTC(2026, 6, 15, 18, 30, 5, 678));

function render(reports: StatementReport[], extra: Partial<RenderStatementInput> = {}): StatementGrid {
  return renderStatement({ reports, companyName: 'Acme Robotics, Inc.', refreshedAt: REFRESHED, scale: 'thousands', ...extra });
}

function label(grid: StatementGrid, row: number): string {
  const cell = grid.rows[row][0];
  return cell.kind === 'text' ? cell.value : '';
}

function rowOf(grid: StatementGrid, predicate: (info: RowInfo, label: string) => boolean): number {
  const i = grid.rowInfo.findIndex((info, r) => predicate(info, label(grid, r)));
  if (i < 0) throw new Error('row not found');
  return i;
}

const lineRow = (grid: StatementGrid, categoryId: string) => rowOf(grid, (info) => info.categoryId === categoryId);
const labelRow = (grid: StatementGrid, text: string) => rowOf(grid, (_, l) => l === text);

function numberAt(grid: StatementGrid, row: number, column: number): number | undefined {
  const cell = grid.rows[row][column];
  return cell.kind === 'number' ? cell.value : undefined;
}

/**
 * Every structural promise of the grid model, checked on every grid these tests build. Violations are
 * collected and compared once, so large random grids do not cost one expect() per cell.
 */
function expectWellFormed(grid: StatementGrid): void {
  expect(grid.rows.map((row) => row.length)).toEqual(grid.rows.map(() => grid.columnCount));
  expect(grid.rows).toHaveLength(grid.rowCount);
  expect(grid.rows[0]).toHaveLength(grid.columnCount);
  expect(grid.numberFormats).toHaveLength(grid.rowCount);
  for (const formats of grid.numberFormats) expect(formats).toHaveLength(grid.columnCount);
  expect(grid.rowInfo).toHaveLength(grid.rowCount);
  expect(grid.columnWidths).toHaveLength(grid.columnCount);
  expect(grid.columns).toHaveLength(grid.columnCount - 1);
  expect(grid.values.row + grid.values.rowCount).toBe(grid.rowCount);
  expect(grid.values.column + grid.values.columnCount).toBe(grid.columnCount);
  const moneyFormat = accountingFormat(grid.currency, grid.scale);
  const problems: string[] = [];
  grid.rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      const at = `R${r}C${c}`;
      if (cell.kind === 'text' && grid.numberFormats[r][c] !== TEXT_FORMAT) problems.push(`${at}: text without @`);
      if (cell.kind === 'number') {
        if (!Number.isFinite(cell.value)) problems.push(`${at}: not finite`);
        if (c < 1 || r < grid.values.row) problems.push(`${at}: number outside the value block`);
        if (grid.numberFormats[r][c] !== moneyFormat) problems.push(`${at}: number without the accounting format`);
      }
      // Labels live in column 0 only; the value block holds numbers or nothing.
      if (r >= grid.values.row && c >= 1 && cell.kind === 'text') problems.push(`${at}: text in the value block`);
    }),
  );
  grid.rowInfo.forEach((info, r) => {
    if (info.outlineLevel < 0 || info.outlineLevel > 7) problems.push(`row ${r}: outline level ${info.outlineLevel}`);
    if (info.role !== 'line' && info.outlineLevel !== 0) problems.push(`row ${r}: outlined ${info.role}`);
  });
  expect(problems).toEqual([]);
}

describe('income statement', () => {
  const report = demoIncomeStatement();
  const grid = render([report]);

  test('is well formed', () => expectWellFormed(grid));

  test('header rows name the company, statement, period, refresh time and units', () => {
    expect(cellValues(grid.rows.slice(0, 7)).map((r) => r[0])).toEqual([
      'Acme Robotics, Inc.',
      'Income statement',
      'For the period 2026-01-01 to 2026-03-31',
      'Refreshed 2026-07-15 18:30 UTC',
      'USD, thousands',
      '',
      '',
    ]);
    expect(grid.columnHeaderRow).toBe(6);
    expect(grid.rows[6][1]).toEqual({ kind: 'text', value: 'Q1 2026' });
    expect(grid.rowInfo.slice(0, 2).every((i) => i.bold)).toBe(true);
    expect(grid.rowInfo[6].bold).toBe(true);
    expect(grid.values).toEqual({ row: 7, column: 1, rowCount: grid.rowCount - 7, columnCount: 1 });
  });

  test('lines follow the API order with a three-tier tree of indents and outline levels', () => {
    const body = grid.rowInfo.map((info, r) => [info.role, label(grid, r), info.indent, info.outlineLevel] as const)
      .slice(grid.values.row, grid.values.row + 8);
    expect(body).toEqual([
      ['section-heading', 'Revenue', 0, 0],
      ['line', 'Sales', 1, 1],
      ['line', 'Subscriptions', 2, 2],
      ['line', 'Monthly plans', 3, 3],
      ['line', 'Annual plans', 3, 3],
      ['line', 'Professional services', 2, 2],
      ['line', 'Other revenue', 1, 1],
      ['section-total', 'Total revenue', 0, 0],
    ]);
    const monthly = grid.rowInfo[lineRow(grid, 'cat_subs_monthly')];
    expect(monthly).toMatchObject({ section: 'revenue', parentCategoryId: 'cat_subs', depth: 2, hasChildren: false, isGroup: false });
    expect(grid.rowInfo[lineRow(grid, 'cat_sales')]).toMatchObject({ depth: 0, hasChildren: true, parentCategoryId: null });
  });

  test('sections, operating income, net income and the check appear in statement order', () => {
    const order = grid.rowInfo
      .map((info, r) => ({ info, l: label(grid, r) }))
      .filter(({ info }) => ['section-heading', 'section-total', 'subtotal', 'check'].includes(info.role))
      .map(({ l }) => l);
    expect(order).toEqual([
      'Revenue', 'Total revenue',
      'Expenses', 'Total expenses',
      'Uncategorized expenses', 'Total uncategorized expenses',
      'Operating income',
      'Non-operating income', 'Total non-operating income',
      'Taxes', 'Total taxes',
      'Net income',
      'Check: net income = sum of sections',
    ]);
    expect(label(grid, grid.rowCount - 1)).toBe('Check: net income = sum of sections');
    // No uncategorized income in this period: no empty section for it.
    expect(grid.rowInfo.some((i) => i.section === 'uncategorized_income')).toBe(false);
  });

  test('amounts are cents / 100 / 1000, totals come from the API, and the check is zero', () => {
    expect(numberAt(grid, lineRow(grid, 'cat_subs_monthly'), 1)).toBe(123.45679);
    expect(numberAt(grid, lineRow(grid, 'cat_salaries'), 1)).toBe(-187.65432);
    expect(numberAt(grid, labelRow(grid, 'Total revenue'), 1)).toBe(report.revenue.total_cents / 100_000);
    expect(numberAt(grid, labelRow(grid, 'Operating income'), 1)).toBe(report.operating_income_cents / 100_000);
    expect(numberAt(grid, labelRow(grid, 'Net income'), 1)).toBe(report.net_income_cents / 100_000);
    expect(numberAt(grid, labelRow(grid, 'Check: net income = sum of sections'), 1)).toBe(0);
  });

  test('bold: headings, totals, operating and net income; not lines or the check', () => {
    const boldLabels = grid.rowInfo.flatMap((info, r) => (info.bold && r > grid.columnHeaderRow ? [label(grid, r)] : []));
    expect(boldLabels).toEqual([
      'Revenue', 'Total revenue', 'Expenses', 'Total expenses', 'Uncategorized expenses',
      'Total uncategorized expenses', 'Operating income', 'Non-operating income', 'Total non-operating income',
      'Taxes', 'Total taxes', 'Net income',
    ]);
  });

  test('the check shows a broken report in display units', () => {
    const broken: IncomeStatementReport = { ...report, net_income_cents: report.net_income_cents + 123_456 };
    const g = render([broken], { scale: 'units' });
    expect(numberAt(g, labelRow(g, 'Check: net income = sum of sections'), 1)).toBe(1234.56);
  });

  test('column widths fit the longest label', () => {
    expect(grid.columnWidths[0]).toBeGreaterThanOrEqual('Check: net income = sum of sections'.length * 6);
    expect(grid.columnWidths[1]).toBeGreaterThanOrEqual(70);
  });
});

describe('sibling and tree order', () => {
  test('rows follow the tree even when the API lists children first and siblings out of position', () => {
    const base = demoIncomeStatement();
    const shuffled: IncomeStatementReport = {
      ...base,
      revenue: { ...base.revenue, categories: [...base.revenue.categories].reverse() },
    };
    const a = render([base]);
    const b = render([shuffled]);
    expect(cellValues(b.rows)).toEqual(cellValues(a.rows));
    expect(b.rowInfo).toEqual(a.rowInfo);
  });

  test('a parent missing from the section makes a root line; a parent cycle loses no line', () => {
    const s: ReportSection = {
      total_cents: 300,
      categories: [
        { category_id: 'cat_orphan', name: 'Orphan', amount_cents: 100, position: 2, parent_category_id: 'cat_gone' },
        { category_id: 'cat_a', name: 'A', amount_cents: 200, position: 1, parent_category_id: 'cat_b' },
        { category_id: 'cat_b', name: 'B', amount_cents: 200, position: 1, parent_category_id: 'cat_a' },
      ],
    };
    const report = { ...demoIncomeStatement(), revenue: s };
    const g = render([report]);
    const ids = g.rowInfo.filter((i) => i.section === 'revenue' && i.role === 'line').map((i) => [i.categoryId, i.depth]);
    expect(ids).toEqual([['cat_orphan', 0], ['cat_a', 0], ['cat_b', 1]]);
  });
});

describe('balance sheet', () => {
  const report = demoBalanceSheet();
  const grid = render([report], { scale: 'units' });

  test('is well formed, "as of" its date, with balance_cents lines', () => {
    expectWellFormed(grid);
    expect(label(grid, 1)).toBe('Balance sheet');
    expect(label(grid, 2)).toBe('As of 2026-03-31');
    expect(label(grid, 4)).toBe('USD');
    expect(grid.rows[grid.columnHeaderRow][1]).toEqual({ kind: 'text', value: '2026-03-31' });
    expect(grid.columns[0]).toEqual({ column: 1, label: '2026-03-31', date: '2026-03-31', dataRefreshedAt: 1_780_000_000 });
    expect(numberAt(grid, lineRow(grid, 'cat_cash'), 1)).toBe(523456.01);
    expect(numberAt(grid, lineRow(grid, 'cat_accum_depr'), 1)).toBe(-12500.01);
    expect(grid.rowInfo[lineRow(grid, 'cat_accum_depr')]).toMatchObject({ indent: 2, outlineLevel: 2, parentCategoryId: 'cat_fixed' });
  });

  test('sections, the liabilities and equity total, and the balance check', () => {
    const order = grid.rowInfo
      .map((info, r) => ({ info, l: label(grid, r) }))
      .filter(({ info }) => info.role !== 'line' && info.role !== 'blank' && info.role !== 'title' && info.role !== 'column-header')
      .map(({ l }) => l);
    expect(order).toEqual([
      'Assets', 'Total assets', 'Liabilities', 'Total liabilities', 'Equity', 'Total equity',
      'Total liabilities and equity', 'Check: liabilities and equity = assets',
    ]);
    expect(numberAt(grid, labelRow(grid, 'Total liabilities and equity'), 1)).toBe(report.assets.total_cents / 100);
    expect(numberAt(grid, labelRow(grid, 'Check: liabilities and equity = assets'), 1)).toBe(0);
    expect(grid.rowInfo[labelRow(grid, 'Check: liabilities and equity = assets')]).toMatchObject({ role: 'check', figure: 'check_balance' });
  });

  test('an unbalanced sheet shows its difference', () => {
    const broken: BalanceSheetReport = { ...report, liabilities_and_equity_cents: report.liabilities_and_equity_cents - 5_000_000 };
    const g = render([broken], { scale: 'thousands' });
    expect(numberAt(g, labelRow(g, 'Check: liabilities and equity = assets'), 1)).toBe(-50);
  });

  test('quarter ends side by side', () => {
    const dates = ['2026-03-31', '2026-06-30', '2026-09-30', '2026-12-31'];
    const g = render(dates.map((d, i) => demoBalanceSheet(d, i + 1)));
    expectWellFormed(g);
    expect(label(g, 2)).toBe('As of 4 dates: 2026-03-31, 2026-06-30, 2026-09-30, 2026-12-31');
    expect(cellValues([g.rows[g.columnHeaderRow]])[0]).toEqual(['', ...dates]);
    const check = labelRow(g, 'Check: liabilities and equity = assets');
    expect([1, 2, 3, 4].map((c) => numberAt(g, check, c))).toEqual([0, 0, 0, 0]);
  });
});

describe('cash flow', () => {
  const report = demoCashFlow();
  const grid = render([report]);

  test('is well formed, with grp_ groups as parents of their lines', () => {
    expectWellFormed(grid);
    expect(label(grid, 1)).toBe('Cash flow statement');
    const operating = grid.rowInfo
      .map((info, r) => ({ info, l: label(grid, r) }))
      .filter(({ info }) => info.section === 'operating_activities' && info.role === 'line')
      .map(({ info, l }) => [l, info.categoryId, info.depth, info.outlineLevel, info.isGroup]);
    expect(operating).toEqual([
      ['Net Income', 'grp_net_income', 0, 1, true],
      ['Non-Cash Expenses', 'grp_non_cash_expenses', 0, 1, true],
      ['Depreciation', 'cat_depreciation', 1, 2, false],
      ['Changes in Working Capital', 'grp_working_capital', 0, 1, true],
      ['Accounts Receivable', 'cat_ar', 1, 2, false],
      ['Prepaid Expenses', 'cat_prepaid', 1, 2, false],
      ['Accounts Payable', 'cat_ap', 1, 2, false],
    ]);
  });

  test('change in cash, beginning and ending cash, and both checks', () => {
    const tail = grid.rowInfo
      .map((info, r) => [info.role, label(grid, r), numberAt(grid, r, 1)] as const)
      .filter(([role]) => role === 'subtotal' || role === 'check');
    expect(tail).toEqual([
      ['subtotal', 'Net change in cash', report.change_in_cash_cents / 100_000],
      ['subtotal', 'Beginning cash', 400],
      ['subtotal', 'Ending cash', report.ending_cash_cents! / 100_000],
      ['check', 'Check: change in cash = sum of activities', 0],
      ['check', 'Check: ending cash = beginning cash + change', 0],
    ]);
  });

  test('without beginning and ending cash nothing is laid out: a statement that silently lost them would mislead', () => {
    const { beginning_cash_cents: _b, ending_cash_cents: _e, ...rest } = report;
    expect(() => render([rest])).toThrow(new RenderError('cash_flow has no beginning_cash_cents'));
  });

  test('beginning and ending cash taken from the balance sheets are labelled so', () => {
    const labels = (g: ReturnType<typeof render>) => g.rows.map((_, r) => label(g, r));
    const g = render([{ ...report, cash_from_balance_sheets: true as const }]);
    expectWellFormed(g);
    expect(labels(g)).toEqual(expect.arrayContaining(['Beginning cash (balance sheet)', 'Ending cash (balance sheet)', 'Check: ending cash = beginning cash + change']));
    expect(labels(render([report]))).toEqual(expect.arrayContaining(['Beginning cash', 'Ending cash']));
  });
});

describe('several periods side by side', () => {
  // Jan has no taxes; Feb adds a Legal expense; Mar adds a Bonuses line under Payroll, listed first by
  // the API but positioned last among Payroll's children.
  const jan = incomeStatement('2026-01-01', '2026-01-31', {
    revenue: [{ id: 'cat_sales', name: 'Sales', children: [{ id: 'cat_subs', name: 'Subscriptions', cents: 1_000_001 }] }],
    expenses: [
      { id: 'cat_payroll', name: 'Payroll', children: [{ id: 'cat_salaries', name: 'Salaries', cents: -400_003 }] },
      { id: 'cat_rent', name: 'Rent', cents: -100_000 },
    ],
    non_operating_income: [{ id: 'cat_interest', name: 'Interest income', cents: 1_234 }],
  });
  const feb = incomeStatement('2026-02-01', '2026-02-28', {
    revenue: [{ id: 'cat_sales', name: 'Sales', children: [{ id: 'cat_subs', name: 'Subscriptions', cents: 1_100_007 }] }],
    expenses: [
      { id: 'cat_payroll', name: 'Payroll', children: [{ id: 'cat_salaries', name: 'Salaries', cents: -410_001 }] },
      { id: 'cat_rent', name: 'Rent', cents: -100_000 },
      { id: 'cat_legal', name: 'Legal', cents: -55_555 },
    ],
    non_operating_income: [{ id: 'cat_interest', name: 'Interest income', cents: 1_301 }],
    taxes: [{ id: 'cat_tax', name: 'Income tax', cents: -99_999 }],
  });
  const marBase = incomeStatement('2026-03-01', '2026-03-31', {
    revenue: [{ id: 'cat_sales', name: 'Sales', children: [{ id: 'cat_subs', name: 'Subscriptions', cents: 1_200_003 }] }],
    expenses: [
      {
        id: 'cat_payroll', name: 'Payroll', children: [
          { id: 'cat_salaries', name: 'Salaries', cents: -420_000 },
          { id: 'cat_bonus', name: 'Bonuses', cents: -77_777 },
        ],
      },
      { id: 'cat_rent', name: 'Rent', cents: -100_000 },
    ],
    non_operating_income: [{ id: 'cat_interest', name: 'Interest income', cents: 999 }],
    taxes: [{ id: 'cat_tax', name: 'Income tax', cents: -120_000 }],
  });
  const bonus = marBase.expenses.categories.find((c) => c.category_id === 'cat_bonus')!;
  const mar: IncomeStatementReport = {
    ...marBase,
    expenses: {
      ...marBase.expenses,
      categories: [bonus, ...marBase.expenses.categories.filter((c) => c !== bonus)],
    },
  };
  const reports = [jan, feb, mar];
  const grid = render(reports, { scale: 'units' });

  test('is well formed, with one column per period and derived labels', () => {
    expectWellFormed(grid);
    expect(grid.columnCount).toBe(4);
    expect(cellValues([grid.rows[grid.columnHeaderRow]])[0]).toEqual(['', 'Jan 2026', 'Feb 2026', 'Mar 2026']);
    expect(label(grid, 2)).toBe('3 periods from 2026-01-01 to 2026-03-31');
    expect(grid.columns.map((c) => [c.column, c.start, c.end])).toEqual([
      [1, '2026-01-01', '2026-01-31'], [2, '2026-02-01', '2026-02-28'], [3, '2026-03-01', '2026-03-31'],
    ]);
  });

  test('lines are the union across periods, in tree order', () => {
    const expenses = grid.rowInfo.filter((i) => i.section === 'expenses' && i.role === 'line').map((i) => i.categoryId);
    expect(expenses).toEqual(['cat_payroll', 'cat_salaries', 'cat_bonus', 'cat_rent', 'cat_legal']);
  });

  // Issue 13: Jan's report leaves out the taxes section (no tax that month), Feb's the Legal line: the
  // accounting dash (0), not a blank that reads as "no figure". The checks still hold.
  test('a line missing in a period shows the dash (0) there, present elsewhere', () => {
    const legal = lineRow(grid, 'cat_legal');
    expect(grid.rows[legal].slice(1)).toEqual([{ kind: 'number', value: 0 }, { kind: 'number', value: -555.55 }, { kind: 'number', value: 0 }]);
    const bonusRow = lineRow(grid, 'cat_bonus');
    expect(grid.rows[bonusRow].slice(1)).toEqual([{ kind: 'number', value: 0 }, { kind: 'number', value: 0 }, { kind: 'number', value: -777.77 }]);
    expect(grid.rowInfo[bonusRow]).toMatchObject({ depth: 1, outlineLevel: 2, parentCategoryId: 'cat_payroll' });
  });

  test('a section missing in a period shows the dash on its lines and total there, and its check still holds', () => {
    const taxesTotal = labelRow(grid, 'Total taxes');
    expect(numberAt(grid, taxesTotal, 1)).toBe(0);
    expect(numberAt(grid, taxesTotal, 2)).toBe(-999.99);
    expect(numberAt(grid, lineRow(grid, 'cat_tax'), 1)).toBe(0);
    const check = labelRow(grid, 'Check: net income = sum of sections');
    expect([1, 2, 3].map((c) => numberAt(grid, check, c))).toEqual([0, 0, 0]);
    // Every cell of every section row holds a number: only figures a report lacks stay blank.
    const sectionRows = grid.rowInfo.flatMap((info, r) => (info.role === 'line' || info.role === 'section-total' ? [r] : []));
    expect(sectionRows.every((r) => grid.rows[r].slice(1).every((cell) => cell.kind === 'number'))).toBe(true);
    // The accounting format shows 0 as the dash.
    expect(grid.numberFormats[taxesTotal][1]).toBe(accountingFormat('USD', 'units'));
    expect(grid.numberFormats[taxesTotal][1]).toContain('"-"');
  });

  test('each column adds up to its own totals', () => {
    for (let p = 0; p < reports.length; p++) {
      for (const key of ['revenue', 'expenses', 'non_operating_income'] as const) {
        const roots = grid.rowInfo.flatMap((info, r) =>
          info.section === key && info.role === 'line' && info.depth === 0 ? [numberAt(grid, r, p + 1) ?? 0] : [],
        );
        const total = numberAt(grid, rowOf(grid, (i) => i.role === 'section-total' && i.section === key), p + 1)!;
        expect(roots.reduce((a, b) => a + b, 0)).toBeCloseTo(total, 9);
      }
    }
  });

  test('explicit labels are used as given, as text', () => {
    const g = render(reports, { periodLabels: ['2026-01', '=Feb', 'March'] });
    expect(g.rows[g.columnHeaderRow].slice(1)).toEqual([
      { kind: 'text', value: '2026-01' }, { kind: 'text', value: '=Feb' }, { kind: 'text', value: 'March' },
    ]);
    expect(g.columns.map((c) => c.label)).toEqual(['2026-01', '=Feb', 'March']);
  });

  test('twelve months, the board pack layout', () => {
    const months = Array.from({ length: 12 }, (_, i) => {
      const m = String(i + 1).padStart(2, '0');
      const end = new Date(Date.UTC(2025, i + 1, 0)).toISOString().slice(0, 10);
      return demoIncomeStatement(`2025-${m}-01`, end, i + 1);
    });
    const g = render(months);
    expectWellFormed(g);
    expect(g.columnCount).toBe(13);
    expect(g.rows[g.columnHeaderRow][12]).toEqual({ kind: 'text', value: 'Dec 2025' });
  });
  describe('with a Total column (issue 13: months side by side had none)', () => {
    const g = render(reports, { scale: 'units', total: true });
    const cents = (row: number, column: number) => Math.round((numberAt(g, row, column) ?? NaN) * 100);

    test('is well formed: one more column, "Total", covering the whole range', () => {
      expectWellFormed(g);
      expect(g.columnCount).toBe(5);
      expect(cellValues([g.rows[g.columnHeaderRow]])[0]).toEqual(['', 'Jan 2026', 'Feb 2026', 'Mar 2026', 'Total']);
      expect(g.columns[3]).toMatchObject({ column: 4, label: 'Total', start: '2026-01-01', end: '2026-03-31' });
      // The title still describes the periods fetched, not the total.
      expect(label(g, 2)).toBe('3 periods from 2026-01-01 to 2026-03-31');
    });

    test('every line, section total, operating and net income is the sum of its months, in cents', () => {
      const summed = g.rowInfo.flatMap((info, r) => (['line', 'section-total', 'subtotal'].includes(info.role) ? [r] : []));
      expect(summed.length).toBeGreaterThan(10);
      const wrong = summed.filter((r) => cents(r, 4) !== cents(r, 1) + cents(r, 2) + cents(r, 3));
      expect(wrong.map((r) => label(g, r))).toEqual([]);
      expect(cents(labelRow(g, 'Total taxes'), 4)).toBe(-99_999 + -120_000);
      expect(cents(lineRow(g, 'cat_legal'), 4)).toBe(-55_555);
      expect(cents(labelRow(g, 'Net income'), 4)).toBe(jan.net_income_cents + feb.net_income_cents + mar.net_income_cents);
      expect(numberAt(g, labelRow(g, 'Check: net income = sum of sections'), 4)).toBe(0);
    });

    test('the period columns are the same as without the total', () => {
      const plainGrid = render(reports, { scale: 'units' });
      expect(g.rows.map((row) => row.slice(0, 4))).toEqual(plainGrid.rows);
    });

    test('cash flow: flows summed, beginning cash of the first month and ending cash of the last', () => {
      const first = demoCashFlow('2026-01-01', '2026-01-31');
      const second = { ...demoCashFlow('2026-02-01', '2026-02-28'), beginning_cash_cents: first.ending_cash_cents };
      const chained = { ...second, ending_cash_cents: second.beginning_cash_cents! + second.change_in_cash_cents };
      const c = render([first, chained], { scale: 'units', total: true });
      expectWellFormed(c);
      const at = (text: string) => Math.round(numberAt(c, labelRow(c, text), 3)! * 100);
      expect(at('Beginning cash')).toBe(first.beginning_cash_cents);
      expect(at('Ending cash')).toBe(chained.ending_cash_cents);
      expect(at('Net change in cash')).toBe(first.change_in_cash_cents + chained.change_in_cash_cents);
      expect(numberAt(c, labelRow(c, 'Check: ending cash = beginning cash + change'), 3)).toBe(0);
    });

    test('a balance sheet has none: its columns are points in time', () => {
      expect(() => render([demoBalanceSheet('2026-03-31'), demoBalanceSheet('2026-06-30')], { total: true })).toThrow(RenderError);
    });
  });
});

describe('the refresh time, in the zone the host passes in', () => {
  // The example: 2026-11-23T07:53:17Z.
  const at = new Date(Date.UTC(2026, 10, 23, 7, 53, 17));
  const stamp = (timeZone?: string) => label(render([demoIncomeStatement()], { refreshedAt: at, timeZone }), 3);

  test.each([
    ['America/Los_Angeles', 'Refreshed 2026-11-22 23:53 PST'],
    ['America/New_York', 'Refreshed 2026-11-23 02:53 EST'],
    ['Europe/Paris', 'Refreshed 2026-11-23 08:53 GMT+1'],
    ['Asia/Kolkata', 'Refreshed 2026-11-23 13:23 GMT+5:30'],
    ['UTC', 'Refreshed 2026-11-23 07:53 UTC'],
  ])('%s: %s', (zone, expected) => {
    expect(stamp(zone)).toBe(expected);
  });

  test('summer time is named as such', () => {
    expect(label(render([demoIncomeStatement()], { timeZone: 'America/Los_Angeles' }), 3)).toBe('Refreshed 2026-07-15 11:30 PDT');
  });

  test("without a zone it is UTC: the engine never falls back on the machine's zone", () => {
    expect(stamp()).toBe('Refreshed 2026-11-23 07:53 UTC');
  });
});

describe('scales', () => {
  const report = demoIncomeStatement();
  const cents = report.expenses.categories.find((c) => c.category_id === 'cat_salaries')!.amount_cents!;

  test.each<[Scale, number, string]>([
    ['units', 100, 'USD'],
    ['thousands', 100_000, 'USD, thousands'],
    ['millions', 100_000_000, 'USD, millions'],
  ])('%s', (scale, divisor, note) => {
    const g = render([report], { scale });
    expectWellFormed(g);
    expect(label(g, 4)).toBe(note);
    expect(numberAt(g, lineRow(g, 'cat_salaries'), 1)).toBe(cents / divisor);
    expect(g.numberFormats[lineRow(g, 'cat_salaries')][1]).toBe(accountingFormat('USD', scale));
    expect(g.scale).toBe(scale);
  });

  test('the statement currency sets the symbol', () => {
    const g = render([{ ...report, currency: 'EUR' }], { scale: 'units' });
    expect(g.numberFormats[lineRow(g, 'cat_salaries')][1]).toContain('"€"');
    expect(label(g, 4)).toBe('EUR');
  });
});

describe('text from the API stays text', () => {
  const hostile = ['=HYPERLINK("http://evil.example","click")', '+SUM(A1:A9)', '-1+2', '@cmd', '2026-07', '0012', '=1+1'];
  const report = incomeStatement('2026-01-01', '2026-01-31', {
    revenue: hostile.map((name, i) => ({ id: `cat_h${i}`, name, cents: 100 * (i + 1) })),
    expenses: [],
    non_operating_income: [],
  });
  const grid = render([report], { companyName: '=cmd|" /C calc"!A0' });

  test('names starting with = + - @ or looking like numbers are text cells with the text format', () => {
    expectWellFormed(grid);
    for (const name of hostile) {
      const r = labelRow(grid, name);
      expect(grid.rows[r][0]).toEqual({ kind: 'text', value: name });
      expect(grid.numberFormats[r][0]).toBe('@');
    }
    expect(grid.rows[0][0]).toEqual({ kind: 'text', value: '=cmd|" /C calc"!A0' });
    expect(grid.numberFormats[0][0]).toBe('@');
  });

  test('every string in the grid is a text cell, and every text cell has the text format', () => {
    const all: Cell[] = grid.rows.flat();
    expect(all.every((c) => c.kind !== 'number' || typeof c.value === 'number')).toBe(true);
    expect(all.every((c) => c.kind !== 'text' || typeof c.value === 'string')).toBe(true);
  });

  test('empty sections still render their heading and a zero total', () => {
    const r = labelRow(grid, 'Total expenses');
    expect(numberAt(grid, r, 1)).toBe(0);
  });

  test('very long names are cut to what a cell holds', () => {
    const long = incomeStatement('2026-01-01', '2026-01-31', {
      revenue: [{ id: 'cat_long', name: 'x'.repeat(40_000), cents: 1 }], expenses: [], non_operating_income: [],
    });
    const g = render([long]);
    const cell = g.rows[lineRow(g, 'cat_long')][0];
    expect(cell.kind === 'text' && cell.value.length).toBe(32767);
    expect(g.columnWidths[0]).toBeLessThanOrEqual(360);
  });
});

describe('no drift: rendered lines add up to the API total', () => {
  function randomTree(next: () => number, depth: number, breadth: number, ids: { n: number }): TreeNode[] {
    const count = 1 + Math.floor(next() * breadth);
    return Array.from({ length: count }, () => {
      const id = `cat_r${ids.n++}`;
      if (depth > 1 && next() < 0.4) return { id, children: randomTree(next, depth - 1, breadth, ids) };
      // Cents that do not divide evenly by 100, 1,000 or 1,000,000, of both signs and many magnitudes.
      const magnitude = 10 ** Math.floor(next() * 10);
      return { id, cents: Math.round((next() - 0.5) * 2 * magnitude * 7.77) + 1 };
    });
  }

  const scales: Scale[] = ['units', 'thousands', 'millions'];
  let naiveDrifted = 0;

  test.each(Array.from({ length: 60 }, (_, i) => i + 1))('random statement, seed %d', (seed) => {
    const next = rng(seed);
    const ids = { n: 0 };
    const report = incomeStatement('2026-01-01', '2026-01-31', {
      revenue: randomTree(next, 3, 8, ids),
      expenses: randomTree(next, 3, 12, ids),
      non_operating_income: randomTree(next, 2, 4, ids),
    });
    for (const scale of scales) {
      const g = render([report], { scale });
      expectWellFormed(g);
      const divisor = { units: 100, thousands: 100_000, millions: 100_000_000 }[scale];
      for (const key of ['revenue', 'expenses', 'non_operating_income'] as const) {
        const rows = g.rowInfo.flatMap((info, r) => (info.section === key && info.role === 'line' ? [r] : []));
        const roots = rows.filter((r) => g.rowInfo[r].depth === 0).map((r) => numberAt(g, r, 1)!);
        const expected = report[key].total_cents / divisor;
        const sum = roots.reduce((a, b) => a + b, 0);
        // Only the last bits of the doubles may differ, never a displayed digit.
        expect(Math.abs(sum - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
        expect(numberAt(g, rowOf(g, (i) => i.role === 'section-total' && i.section === key), 1)).toBe(expected);
        // Parents add up to their children the same way.
        const childSums = new Map<string, number>();
        for (const r of rows) {
          const parent = g.rowInfo[r].parentCategoryId;
          if (parent) childSums.set(parent, (childSums.get(parent) ?? 0) + numberAt(g, r, 1)!);
        }
        const parentErrors = rows
          .filter((r) => g.rowInfo[r].hasChildren)
          .filter((r) => {
            const parent = numberAt(g, r, 1)!;
            return Math.abs(childSums.get(g.rowInfo[r].categoryId!)! - parent) > 1e-9 * Math.max(1, Math.abs(parent));
          });
        expect(parentErrors).toEqual([]);
        // What rounding each line to the displayed decimals would have done instead.
        const decimals = scale === 'units' ? 2 : 0;
        const roundTo = (v: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;
        if (roundTo(roots.map(roundTo).reduce((a, b) => a + b, 0)) !== roundTo(expected)) naiveDrifted++;
      }
      expect(numberAt(g, labelRow(g, 'Check: net income = sum of sections'), 1)).toBe(0);
    }
  });

  test('rounding each line would have drifted visibly in some of those statements', () => {
    expect(naiveDrifted).toBeGreaterThan(0);
  });
});

describe('bad input', () => {
  test('no reports', () => {
    expect(() => render([])).toThrow(new RenderError('no report to render'));
  });

  test('mixed kinds', () => {
    expect(() => render([demoIncomeStatement(), demoBalanceSheet()])).toThrow('cannot put a balance_sheet report beside income_statement reports');
  });

  test('mixed currencies', () => {
    expect(() => render([demoIncomeStatement(), { ...demoIncomeStatement(), currency: 'EUR' }])).toThrow(
      'reports in USD and EUR cannot share columns',
    );
  });

  test('labels that do not match the reports', () => {
    expect(() => render([demoIncomeStatement()], { periodLabels: ['a', 'b'] })).toThrow('2 period labels for 1 reports');
  });

  test('fractional cents', () => {
    const r = demoIncomeStatement();
    const bad = { ...r, revenue: { ...r.revenue, categories: [{ ...r.revenue.categories[0], amount_cents: 10.5 }] } };
    expect(() => render([bad])).toThrow(/revenue: amount_cents of cat_sales must be an integer number of cents, got 10.5/);
    expect(() => render([{ ...r, net_income_cents: 0.1 }])).toThrow(RenderError);
  });

  test('a balance sheet line without balance_cents', () => {
    const r = demoBalanceSheet();
    const { balance_cents: _omit, ...line } = r.assets.categories[0];
    const bad = { ...r, assets: { ...r.assets, categories: [{ ...line, amount_cents: 5 }] } };
    expect(() => render([bad])).toThrow(/balance_cents of cat_cash/);
  });

  test('a category listed twice in one period', () => {
    const r = demoIncomeStatement();
    const bad = { ...r, taxes: section([{ id: 'cat_tax', cents: -1 }, { id: 'cat_tax', cents: -2 }]) };
    expect(() => render([bad])).toThrow('taxes: category cat_tax is listed twice in period 1');
  });

  test('a required section missing', () => {
    const { revenue: _omit, ...rest } = demoIncomeStatement();
    expect(() => render([rest as unknown as IncomeStatementReport])).toThrow('income_statement has no revenue section');
  });

  test('an invalid refresh time', () => {
    expect(() => formatRefreshedAt(new Date(Number.NaN))).toThrow(RenderError);
    expect(formatRefreshedAt(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 999)))).toBe('2026-01-02 03:04 UTC');
  });

  test('an unknown time zone falls back to UTC rather than fail the block', () => {
    expect(formatRefreshedAt(new Date(Date.UTC(2026, 0, 2, 3, 4)), 'Nowhere/Atlantis')).toBe('2026-01-02 03:04 UTC');
  });
});
