// The lines the spec gives every statement, by name in FIN.PNL and FIN.BALANCE, on two charts of accounts:
// the first demo company's and the third's, which has no "Revenue", "Operating Expenses" or "Cash" category
// (test/sandbox/third-growth-company.test.ts). Every figure is checked against the API's own statement, read
// directly; a category named like a line wins, by the one rule every name follows.
import { centsToDisplay } from '../../../src/engine/render/money';
import { FinError } from '../../../src/engine/fin';
import { call, startSandbox, type TestSandbox } from '../../support/sandbox';
import { finHarness, lastFullYear, type FinHarness } from './finHarness';

let sb: TestSandbox;
const year = lastFullYear();
const units = (cents: number) => centsToDisplay(cents, 'units');

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

async function api(label: string, path: string) {
  const res = await call(sb, sb.keys[label], 'GET', path);
  expect(res.status).toBe(200);
  return res.body;
}

describe.each(['growth-admin', 'growth3-admin'])('on the chart of %s', (label) => {
  let h: FinHarness;
  beforeAll(async () => {
    h = await finHarness(sb, label);
  });

  it('gives the income statement\u2019s section totals and incomes by the spec\u2019s names', async () => {
    const is = await api(label, `/reports/income_statement?start_date=${year}-04-01&end_date=${year}-06-30`);
    const pnl = (line: string) => h.service.pnl({ line, start: `${year}-Q2` });
    expect(await pnl('Total Revenue')).toBe(units(is.revenue.total_cents));
    expect(await pnl('total expenses')).toBe(units(is.expenses.total_cents));
    expect(await pnl('Total Non-Operating Income')).toBe(units(is.non_operating_income.total_cents));
    expect(await pnl('Operating Income')).toBe(units(is.operating_income_cents));
    expect(await pnl('Net Income')).toBe(units(is.net_income_cents));
    // An optional section the answer does not carry had no such data: zero, as the spec says it is omitted.
    expect(await pnl('Total Taxes')).toBe(units(is.taxes?.total_cents ?? 0));
    expect(is.revenue.total_cents).toBeGreaterThan(0);
  });

  it('gives the balance sheet\u2019s totals and cash by the spec\u2019s names', async () => {
    const bs = await api(label, `/reports/balance_sheet?date=${year}-09-30`);
    const balance = (category: string) => h.service.balance({ category, date: `${year}-09-30` });
    expect(await balance('Total Assets')).toBe(units(bs.assets.total_cents));
    expect(await balance('Total Liabilities')).toBe(units(bs.liabilities.total_cents));
    expect(await balance('Total Equity')).toBe(units(bs.equity.total_cents));
    expect(await balance('Total Liabilities and Equity')).toBe(units(bs.liabilities_and_equity_cents));
    expect(await balance('Cash')).toBe(units(bs.cash_cents));
    expect(bs.cash_cents).not.toBe(0);
  });

  it('splits a spec line by department as it splits a category', async () => {
    const departments = (await api(label, '/departments')).data as { name: string; tier: number }[];
    const branches = departments.filter((d) => d.tier === 2).map((d) => d.name);
    const byBranch = await Promise.all(branches.map((department) => h.service.pnl({ line: 'Total Expenses', start: `${year}-05`, department })));
    const whole = await h.service.pnl({ line: 'Total Expenses', start: `${year}-05` });
    const company = await h.service.pnl({ line: 'Total Expenses', start: `${year}-05`, department: departments[0].name });
    // The company's own department holds every branch and its own lines; unassigned lines are in neither.
    expect(Math.round(byBranch.reduce((a, b) => a + b, 0) * 100)).toBeGreaterThanOrEqual(Math.round(company * 100));
    expect(company).toBeLessThan(0);
    expect(company).toBeGreaterThanOrEqual(whole);
  });
});

it('lets a category named like a spec line win: Northwind\u2019s Cash is its category, the same figure by the spec', async () => {
  const h = await finHarness(sb, 'growth-admin');
  const bs = await api('growth-admin', `/reports/balance_sheet?date=${year}-03-31`);
  const cash = bs.assets.categories.find((c: { name: string }) => c.name === 'Cash');
  expect(await h.service.balance({ category: 'Cash', date: `${year}-03-31` })).toBe(units(cash.balance_cents));
  expect(cash.balance_cents).toBe(bs.cash_cents);
  // The demo's "Revenue" category is the company's own line: FIN.PNL reads it as such.
  const is = await api('growth-admin', `/reports/income_statement?start_date=${year}-03-01&end_date=${year}-03-31`);
  const revenue = is.revenue.categories.find((c: { name: string }) => c.name === 'Revenue');
  expect(await h.service.pnl({ line: 'Revenue', start: `${year}-03` })).toBe(units(revenue.amount_cents));
});

it('refuses a demo name the third company does not have, naming it, where a spec line answers', async () => {
  const h = await finHarness(sb, 'growth3-admin');
  const error = await h.service.pnl({ line: 'Operating Expenses', start: `${year}-03` }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FinError);
  expect((error as FinError).message).toContain('Operating Expenses');
  expect(await h.service.pnl({ line: 'Total Expenses', start: `${year}-03` })).toBeLessThan(0);
});
