import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// The third Growth company (growth3-admin) names and shapes its chart of accounts and its department tree
// its own way, as a real company does: the board pack and its charts must work on it by the lines the spec
// names for every company and by a mapping the user confirms, never by the demo's category names. These
// checks read it as the API lists it.

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

interface Category {
  id: string;
  name: string;
  account_type: string;
  tier: number;
  parent_id: string | null;
  point_in_time: boolean;
}

interface Department {
  id: string;
  name: string;
  tier: number;
  parent_id: string | null;
  assignable: boolean;
}

async function get(label: string, path: string) {
  const res = await call(sb, sb.keys[label], 'GET', path);
  expect(res.status).toBe(200);
  return res.body;
}

const DEMO_NAMES = ['Revenue', 'Cost of Revenue', 'Operating Expenses', 'Cash'];

it('is a Growth company of its own, connected by its own key', async () => {
  const company = await get('growth3-admin', '/company');
  expect(company.id).toBe(sb.companies['growth3-admin']);
  expect(company.name).toBe('Alderbrook Labs');
  const others = ['growth-admin', 'growth2-admin'].map((l) => sb.companies[l]);
  expect(others).not.toContain(company.id);
});

describe('its chart of accounts', () => {
  let chart: Category[];
  beforeAll(async () => {
    chart = (await get('growth3-admin', '/categories')).data as Category[];
  });
  const named = (name: string) => chart.find((c) => c.name === name);

  it('uses none of the demo chart names the board pack once read', () => {
    for (const name of DEMO_NAMES) expect(named(name)).toBeUndefined();
    // and the first demo company still has every one of them
  });

  it('has two revenue roots besides uncategorized income', () => {
    const roots = chart.filter((c) => c.account_type === 'revenue' && c.parent_id === null).map((c) => c.name);
    expect(roots.filter((n) => n !== 'Uncategorized Income')).toEqual(['Sales', 'Services Income']);
  });

  it('keeps cost of sales under an Expenses root, beside the operating costs', () => {
    const cos = named('Cost of sales')!;
    const parent = chart.find((c) => c.id === cos.parent_id)!;
    expect(parent).toMatchObject({ name: 'Expenses', account_type: 'expense', tier: 1, parent_id: null });
    expect(cos.tier).toBe(2);
    const siblings = chart.filter((c) => c.parent_id === parent.id).map((c) => c.name);
    expect(siblings).toEqual(['Cost of sales', 'People', 'Marketing & Sales', 'Overheads']);
    expect(chart.filter((c) => c.parent_id === cos.id).map((c) => c.name)).toEqual(['Servers & Hosting', 'Data Feeds']);
  });

  it('stays within the spec\u2019s three tiers, every parent listed before its children', () => {
    const seen = new Set<string>();
    for (const c of chart) {
      expect(c.tier).toBeGreaterThanOrEqual(1);
      expect(c.tier).toBeLessThanOrEqual(3);
      if (c.parent_id !== null) {
        expect(seen.has(c.parent_id)).toBe(true);
        expect(c.tier).toBe(chart.find((p) => p.id === c.parent_id)!.tier + 1);
      }
      seen.add(c.id);
    }
  });

  it('differs from the first company\u2019s, which still has the demo names', async () => {
    const first = (await get('growth-admin', '/categories')).data as Category[];
    for (const name of DEMO_NAMES) expect(first.some((c) => c.name === name)).toBe(true);
  });
});

it('has a department tree of its own, up to four tiers, sharing no team name below the company with the others', async () => {
  const tree = (await get('growth3-admin', '/departments')).data as Department[];
  expect(tree[0]).toMatchObject({ name: 'Alderbrook Labs', tier: 1, parent_id: null });
  expect(Math.max(...tree.map((d) => d.tier))).toBeLessThanOrEqual(4);
  expect(tree.filter((d) => d.tier === 2).map((d) => d.name)).toEqual(['Commercial', 'Product', 'Corporate']);
  const below = (ds: Department[]) => new Set(ds.filter((d) => d.tier === 2).map((d) => d.name));
  for (const label of ['growth-admin', 'growth2-admin']) {
    const other = below((await get(label, '/departments')).data as Department[]);
    for (const name of below(tree)) expect(other.has(name)).toBe(false);
  }
  // Transactions are assigned to its own leaves only, and some are.
  const assignable = new Set(tree.filter((d) => d.assignable).map((d) => d.id));
  const page = await get('growth3-admin', '/transactions?limit=500');
  const assigned = (page.data as { department_id: string | null }[]).filter((t) => t.department_id !== null);
  expect(assigned.length).toBeGreaterThan(0);
  for (const t of assigned) expect(assignable.has(t.department_id as string)).toBe(true);
});

it('reports a year whose two revenue roots and single expenses root make up the statement', async () => {
  const now = await get('growth3-admin', '/company');
  expect(now).toBeTruthy();
  const lastYear = Number((sb.running.ctx.db.prepare("SELECT MAX(date) AS d FROM transactions WHERE company_id = ?").get(sb.companies['growth3-admin']) as { d: string }).d.slice(0, 4)) - 1;
  const is = await get('growth3-admin', `/reports/income_statement?start_date=${lastYear}-01-01&end_date=${lastYear}-12-31`);
  const roots = (section: { categories: { parent_category_id: string | null; name: string; amount_cents: number }[] }) =>
    section.categories.filter((c) => c.parent_category_id === null);
  const revenueRoots = roots(is.revenue);
  expect(revenueRoots.map((c) => c.name)).toEqual(['Sales', 'Services Income']);
  for (const r of revenueRoots) expect(r.amount_cents).toBeGreaterThan(0);
  expect(revenueRoots.reduce((s, c) => s + c.amount_cents, 0)).toBe(is.revenue.total_cents);
  const expenseRoots = roots(is.expenses);
  expect(expenseRoots.map((c) => c.name)).toEqual(['Expenses']);
  expect(expenseRoots[0].amount_cents).toBe(is.expenses.total_cents);
  const costOfSales = is.expenses.categories.find((c: { name: string }) => c.name === 'Cost of sales');
  expect(costOfSales.amount_cents).toBeLessThan(0);

  const bs = await get('growth3-admin', `/reports/balance_sheet?date=${lastYear}-12-31`);
  expect(bs.liabilities_and_equity_cents).toBe(bs.assets.total_cents);
  const cash = bs.assets.categories.find((c: { name: string }) => c.name === 'Bank & Cash');
  expect(cash.balance_cents).toBe(bs.cash_cents);
  expect(bs.cash_cents).toBeGreaterThan(0);
});
