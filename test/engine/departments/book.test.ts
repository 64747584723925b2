// Issue 27: the split of a statement by department, on a small chart. A line is its category and those under
// it; every line of the activity lands in exactly one column; and lines that do not add up to the statement
// (a signed amount read the wrong way round, entries the walk did not get) are refused before any figure.
import type { Category, Department, IncomeStatement } from '../../../src/api/types';
import type { DepartmentActivity } from '../../../src/engine/departments/activity';
import { DepartmentBook } from '../../../src/engine/departments/book';
import { defaultParent, splitUnder } from '../../../src/engine/departments/split';
import { isRefusal } from '../../../src/engine/refusal';
import { buildTree } from '../../../src/engine/tree';

const category = (id: string, name: string, parent: string | null, type: 'revenue' | 'expense' | 'asset'): Category =>
  ({ id, object: 'category', name, account_type: type, point_in_time: type === 'asset', tier: parent ? 2 : 1, position: 0, parent_id: parent, created: 0 }) as Category;
const CHART = buildTree(
  [
    category('cat_rev', 'Revenue', null, 'revenue'),
    category('cat_opex', 'Operating Expenses', null, 'expense'),
    category('cat_rent', 'Rent', 'cat_opex', 'expense'),
    category('cat_travel', 'Travel', 'cat_opex', 'expense'),
    category('cat_cash', 'Cash', null, 'asset'),
  ],
  'category',
);
const department = (id: string, name: string, parent: string | null): Department => ({ id, object: 'department', name, tier: 1, parent_id: parent, assignable: true }) as Department;
const DEPARTMENTS = buildTree(
  [department('dept_co', 'Company', null), department('dept_gtm', 'GTM', 'dept_co'), department('dept_sales', 'Sales', 'dept_gtm'), department('dept_rnd', 'R&D', 'dept_co')],
  'department',
);

const line = (category_id: string, name: string, amount_cents: number, parent_category_id: string | null = null) => ({ category_id, name, amount_cents, position: 0, parent_category_id });
function statement(rent: number, travel: number, revenue: number): IncomeStatement {
  return {
    object: 'income_statement',
    start_date: '2026-10-01',
    end_date: '2026-10-31',
    currency: 'USD',
    refreshed_at: null,
    revenue: { total_cents: revenue, categories: [line('cat_rev', 'Revenue', revenue)] },
    expenses: { total_cents: rent + travel, categories: [line('cat_opex', 'Operating Expenses', rent + travel), line('cat_rent', 'Rent', rent, 'cat_opex'), line('cat_travel', 'Travel', travel, 'cat_opex')] },
    operating_income_cents: revenue + rent + travel,
    non_operating_income: { total_cents: 0, categories: [] },
    net_income_cents: revenue + rent + travel,
  } as unknown as IncomeStatement;
}
function activity(lines: DepartmentActivity['lines'], signed = false): DepartmentActivity {
  return { object: 'department_activity', start_date: '2026-10-01', end_date: '2026-10-31', pages: 1, items: lines.length, lines, signed, refreshed_at: null };
}

// Sales pays rent and earns revenue, R&D travels, some rent has no department; cash lines are not the statement's.
const LINES: DepartmentActivity['lines'] = [
  ['cat_rent', 'dept_sales', -1000],
  ['cat_travel', 'dept_rnd', -250],
  ['cat_rent', null, -400],
  ['cat_rev', 'dept_sales', 5000],
  ['cat_cash', null, -3350],
];

describe('the split of a statement by department', () => {
  const book = new DepartmentBook(statement(-1400, -250, 5000), activity(LINES), CHART);
  const split = splitUnder(DEPARTMENTS, 'dept_co');
  const column = (i: number) => (d: string | null) => split.columnOf(d) === i;

  it('gives each column a statement of the same lines, a parent line holding its children', () => {
    expect(split.columns.map((c) => c.label)).toEqual(['GTM', 'R&D', 'Company itself', 'Other departments', 'Unassigned', 'Departments not listed']);
    const gtm = book.report(column(0));
    expect(gtm.expenses.categories.map((c) => [c.name, c.amount_cents])).toEqual([['Operating Expenses', -1000], ['Rent', -1000], ['Travel', 0]]);
    expect([gtm.expenses.total_cents, gtm.revenue.total_cents, gtm.net_income_cents]).toEqual([-1000, 5000, 4000]);
    expect(book.report(column(4)).net_income_cents).toBe(-400);
    expect(book.has(column(2))).toBe(false);
    // A department is itself and all under it: Sales is GTM's rent here.
    expect(book.line('cat_opex', (d) => d === 'dept_sales', 'sales')).toBe(-1000);
    expect(book.report((d) => d === 'dept_rnd').net_income_cents).toBe(-250);
  });

  it('puts a line in exactly one column: the parent itself, other departments, unlisted ones, none', () => {
    expect(split.columnOf('dept_sales')).toBe(0);
    expect(split.columnOf('dept_co')).toBe(2);
    expect(split.columnOf('dept_gone')).toBe(5);
    expect(split.columnOf(null)).toBe(4);
    const underGtm = splitUnder(DEPARTMENTS, 'dept_gtm');
    expect(underGtm.columns.map((c) => c.label)).toEqual(['Sales', 'GTM itself', 'Other departments', 'Unassigned', 'Departments not listed']);
    expect(underGtm.columnOf('dept_rnd')).toBe(2);
    expect(splitUnder(DEPARTMENTS, null).columns.map((c) => c.label)).toEqual(['Company', 'Unassigned', 'Departments not listed']);
    // A tree of one top department starts at its children.
    expect(defaultParent(DEPARTMENTS)).toBe('dept_co');
  });
});

describe('lines that do not add up to the statement', () => {
  it('are refused, naming the line and both figures', () => {
    let refusal: unknown;
    try {
      new DepartmentBook(statement(-1500, -250, 5000), activity(LINES), CHART);
    } catch (e) {
      refusal = e;
    }
    expect(isRefusal(refusal)).toBe(true);
    expect(refusal).toMatchObject({ code: 'departments_mismatch' });
    expect((refusal as Error).message).toMatch(
      /^The journal lines of Operating Expenses for 2026-10-01 to 2026-10-31 add up to -16.50 across the departments, but the income statement says -17.50\. Nothing was written/,
    );
  });

  it('say why when the amounts came signed: credits read as debits turn every sign round', () => {
    const flipped = LINES.map(([c, d, cents]) => [c, d, -cents] as const);
    expect(() => new DepartmentBook(statement(-1400, -250, 5000), activity(flipped, true), CHART)).toThrow(/read as debit positive; if it signs credits positive, that explains it/);
  });
});
