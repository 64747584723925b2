// The one test that runs at the machine's real "today", whatever the pinned clock of the other tests
// (test/support/pinnedClock.js). It seeds a sandbox at the real today and checks only what must hold on
// every day: the history ends today, the statements agree with each other at today, and the add-in's
// own "today" (YTD, the current month) asks the API for the same days the sandbox counts as today.
import { addDays, calendarDateAt, yearToDate } from '../../src/engine/dates';
import { Clock } from '../../src/sandbox/clock';
import { testRuntime } from '../support/runtime';
import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { realNow } from '../support/clock';

let sb: TestSandbox;
let key: string;
let companyId: string;
const clock = new Clock(realNow);

const ok = async (pathAndQuery: string): Promise<any> => {
  const res = await call(sb, key, 'GET', pathAndQuery);
  if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

beforeAll(async () => {
  sb = await startSandbox({ seed: 'fresh', transactions: 2_000, clock });
  key = sb.keys['growth-admin'];
  companyId = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb?.close();
});

it('the demo history ends on the real today, in the company zone', () => {
  const today = calendarDateAt(realNow());
  const { last } = sb.running.ctx.db.prepare('SELECT MAX(date) AS last FROM transactions WHERE company_id = ?').get(companyId) as { last: string };
  expect(last <= today).toBe(true);
  expect(last >= addDays(today, -7)).toBe(true);
  const { created } = sb.running.ctx.db.prepare('SELECT MAX(created) AS created FROM transactions WHERE company_id = ?').get(companyId) as { created: number };
  expect(created * 1000).toBeLessThanOrEqual(realNow());
});

it("today's statements agree: the balance sheet balances and retained earnings carry year-to-date net income", async () => {
  const today = calendarDateAt(realNow());
  const bs = await ok('/reports/balance_sheet');
  expect(bs.date).toBe(today);
  expect(bs.liabilities_and_equity_cents).toBe(bs.assets.total_cents);
  const ytd = yearToDate(today);
  const is = await ok(`/reports/income_statement?start_date=${ytd.start}&end_date=${today}`);
  expect(bs.equity.retained_earnings.net_income_cents).toBe(is.net_income_cents);
  const cf = await ok(`/reports/cash_flow?start_date=${ytd.start}&end_date=${today}`);
  // Cash at today minus cash the day before the year started is the year's change in cash.
  const before = await ok(`/reports/balance_sheet?date=${addDays(ytd.start, -1)}`);
  expect(cf.change_in_cash_cents).toBe(bs.cash_cents - before.cash_cents);
});

it("the add-in's YTD is the sandbox's year to date, its statement fetched once", async () => {
  const { service, sent } = await testRuntime(sb, { now: realNow });
  const net = await service.pnl({ line: 'Net Income', start: 'YTD' });
  const today = calendarDateAt(realNow());
  const is = await ok(`/reports/income_statement?start_date=${yearToDate(today).start}&end_date=${today}`);
  expect(net).toBe(is.net_income_cents / 100);
  // The statement once, and the chart (a category named "Net Income" would win over the spec's line).
  expect(sent()).toBe(2);
});
