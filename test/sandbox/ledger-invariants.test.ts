import { startSandbox, type TestSandbox } from '../support/sandbox';
import {
  addMonths,
  categories,
  categoryNamed,
  categoryWithRole,
  expectWellFormedSection,
  lineOf,
  monthEnd,
  ok,
  today,
  type CategoryRow,
} from './ledgerFixtures';

// The statements agree with each other at every month end of each Growth demo company's history, over HTTP:
// the balance sheet balances; retained earnings move by exactly each month's net income (rolling into
// the beginning balance at the fiscal year start); each month's cash flow explains the change of the Cash
// balance; and /aggregations/total equals the statement line it corresponds to.

interface Month {
  month: string;
  end: string;
  bs: any;
  is: any;
  cf: any;
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

describe.each(['growth-admin', 'growth2-admin', 'growth3-admin'])('the company of %s', (label) => {
  let admin: string;
  let companyId: string;
  let months: Month[];

  beforeAll(async () => {
    admin = sb.keys[label];
    companyId = sb.companies[label];
    const firstDate = sb.running.ctx.db.prepare('SELECT MIN(date) AS d FROM journal_entries WHERE company_id = ?').get(companyId) as { d: string };
    const last = (await today(sb)).slice(0, 7);
    months = [];
    // One month before the first posting, so the first month's changes are checked against an empty sheet.
    for (let m = addMonths(firstDate.d.slice(0, 7), -1); m <= last; m = addMonths(m, 1)) {
      const end = monthEnd(m);
      const [bs, is, cf] = await Promise.all([
        ok(sb, admin, `/reports/balance_sheet?date=${end}`),
        ok(sb, admin, `/reports/income_statement?start_date=${m}-01&end_date=${end}`),
        ok(sb, admin, `/reports/cash_flow?start_date=${m}-01&end_date=${end}`),
      ]);
      months.push({ month: m, end, bs, is, cf });
    }
  });

  const pairs = () => months.slice(1).map((cur, i) => ({ prev: months[i], cur }));

  it('covers about two years of month ends', () => {
    expect(months.length).toBeGreaterThanOrEqual(24);
    expect(months[0].bs.assets.total_cents).toBe(0);
  });

  it('balances the balance sheet at every month end', () => {
    for (const { bs } of months) {
      expect(bs.liabilities_and_equity_cents).toBe(bs.liabilities.total_cents + bs.equity.total_cents);
      expect(bs.assets.total_cents).toBe(bs.liabilities_and_equity_cents);
    }
  });

  it('keeps every section total equal to the sum of its root lines', () => {
    for (const { bs, is, cf } of months) {
      for (const s of ['assets', 'liabilities', 'equity']) expectWellFormedSection(bs[s]);
      for (const s of ['revenue', 'expenses', 'non_operating_income', 'uncategorized_income', 'uncategorized_expenses', 'taxes']) {
        if (is[s]) expectWellFormedSection(is[s]);
      }
      for (const s of ['operating_activities', 'investing_activities', 'financing_activities']) expectWellFormedSection(cf[s]);
    }
  });

  it('moves retained earnings by each month net income, rolling the beginning balance at the fiscal year start', () => {
    const reId = categoryWithRole(sb, companyId, 'retained_earnings').id;
    const { m: fiscalStart } = sb.running.ctx.db.prepare('SELECT fiscal_year_start_month AS m FROM companies WHERE id = ?').get(companyId) as { m: number };
    for (const { prev, cur } of pairs()) {
      const re = cur.bs.equity.retained_earnings;
      const before = prev.bs.equity.retained_earnings;
      expect(re.ending_balance_cents - before.ending_balance_cents).toBe(cur.is.net_income_cents);
      expect(re.ending_balance_cents).toBe(re.beginning_balance_cents + re.net_income_cents);
      expect(lineOf(cur.bs.equity, reId).balance_cents).toBe(re.ending_balance_cents);
      if (Number(cur.month.slice(5)) === fiscalStart) {
        expect(re.beginning_balance_cents).toBe(before.ending_balance_cents);
        expect(re.net_income_cents).toBe(cur.is.net_income_cents);
      } else {
        expect(re.beginning_balance_cents).toBe(before.beginning_balance_cents);
        expect(re.net_income_cents - before.net_income_cents).toBe(cur.is.net_income_cents);
      }
    }
  });

  it("explains each month's change of the Cash balance with that month's cash flow", () => {
    const cashId = categoryWithRole(sb, companyId, 'cash').id;
    for (const { prev, cur } of pairs()) {
      const { cf, bs } = cur;
      expect(bs.cash_cents).toBe(lineOf(bs.assets, cashId).balance_cents);
      expect(cf.change_in_cash_cents).toBe(
        cf.operating_activities.total_cents + cf.investing_activities.total_cents + cf.financing_activities.total_cents,
      );
      expect(cf.beginning_cash_cents).toBe(prev.bs.cash_cents);
      expect(cf.ending_cash_cents).toBe(bs.cash_cents);
      expect(cf.change_in_cash_cents).toBe(bs.cash_cents - prev.bs.cash_cents);
      expect(cf.net_income_cents).toBe(cur.is.net_income_cents);
    }
  });

  describe('/aggregations/total equals the statement line', () => {
    const sample = () => [months[2], months[Math.floor(months.length / 2)], months[months.length - 2]];

    const total = async (c: CategoryRow, q: string) =>
      (await ok(sb, admin, `/aggregations/total?category_id=${c.id}&${q}`)).total_cents as number;

    it('for periodic categories, month by month, including parents and uncategorized', async () => {
      // Each company's roots by their roles in its own chart: a revenue root and an expenses root with children.
      const all = categories(sb, companyId);
      const rootOf = (type: string) => all.find((c) => c.account_type === type && c.parent_id === null && c.role === null)!;
      const picks = [rootOf('revenue'), rootOf('expense'), ...['Interest Income', 'Taxes', 'Uncategorized Expense'].map((n) => categoryNamed(sb, companyId, n))];
      picks.push(all.find((c) => c.parent_id === picks[1].id)!);
      for (const m of sample()) {
        for (const c of picks) {
          const section = ['revenue', 'expenses', 'non_operating_income', 'taxes', 'uncategorized_expenses'].find(
            (s) => m.is[s]?.categories.some((l: any) => l.category_id === c.id),
          );
          const expected = section ? lineOf(m.is[section], c.id).amount_cents : 0;
          expect({ c: c.name, m: m.month, total: await total(c, `start_date=${m.month}-01&end_date=${m.end}`) }).toEqual({
            c: c.name,
            m: m.month,
            total: expected,
          });
        }
      }
    });

    it('for periodic categories over a run of months', async () => {
      const first = months[3].month;
      const last = months[8].month;
      const is = await ok(sb, admin, `/reports/income_statement?start_date=${first}-01&end_date=${monthEnd(last)}`);
      // A revenue root (each company names its own) and a leaf every demo chart has.
      const revenueRoot = categories(sb, companyId).find((c) => c.account_type === 'revenue' && c.parent_id === null && c.role === null)!;
      for (const c of [revenueRoot, categoryNamed(sb, companyId, 'Software Subscriptions')]) {
        const section = c.account_type === 'revenue' ? is.revenue : is.expenses;
        expect(await total(c, `start_month=${first}&end_month=${last}`)).toBe(lineOf(section, c.id).amount_cents);
        expect(await total(c, `start_date=${first}-15&end_date=${last}-02`)).toBe(lineOf(section, c.id).amount_cents);
      }
    });

    it('for point-in-time categories at month ends, Retained Earnings included', async () => {
      const all = categories(sb, companyId);
      const picks = ['cash', 'card_liability', 'retained_earnings', 'accumulated_depreciation'].map((r) => all.find((c) => c.role === r)!);
      picks.push(...all.filter((c) => c.point_in_time === 1 && c.parent_id === null));
      for (const m of sample()) {
        for (const c of picks) {
          const section = c.account_type === 'asset' ? 'assets' : c.account_type === 'liability' ? 'liabilities' : 'equity';
          expect({ c: c.name, m: m.month, total: await total(c, `date=${m.end}`) }).toEqual({
            c: c.name,
            m: m.month,
            total: lineOf(m.bs[section], c.id).balance_cents,
          });
        }
      }
    });
  });
});
