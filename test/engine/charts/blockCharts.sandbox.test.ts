// Issue 28, item 2: a chart of a statement block's chosen lines across its periods, kept with the block. Its
// series read the block's cells (the API's figures, as the block shows them); a refresh that brings a new
// line above the chosen ones moves them down, and the chart follows them; a roll forward gives the block a
// new month, and the chart shows it. No call is spent on a chart.
import { monthIndex, monthIndexToYearMonth } from '../../../src/engine/dates';
import { blockLines, chartsOf, insertBlockChart } from '../../../src/engine/charts/blockCharts';
import { parseQualified } from '../../../src/engine/ports/address';
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { setReportingPeriod } from '../../../src/engine/reporting/period';
import { createStatementsEngine, type StatementSpec } from '../../../src/engine/statements';
import { rollSpec } from '../../../src/engine/statements/relative';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { apiReport } from '../../taskpane/sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];
const year = () => Number(sb.running.ctx.clock.today().slice(0, 4)) - 1;
const month = (y: number, m: number) => {
  const mm = String(m).padStart(2, '0');
  return { start: `${y}-${mm}-01`, end: `${y}-${mm}-${new Date(Date.UTC(y, m, 0)).getUTCDate()}` };
};

interface Report {
  net_income_cents: number;
  revenue: { total_cents: number; categories: { category_id: string; amount_cents: number }[] };
}

async function monthly(months: { start: string; end: string }[]): Promise<Report[]> {
  const out: Report[] = [];
  for (const m of months) out.push((await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: m.start, end_date: m.end })) as unknown as Report);
  return out;
}

const units = (cents: number) => cents / 100;

test("a chart of Net income and a revenue line reads the block's rows; a refresh that moves them keeps it on them, for no call", async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: `${year()}-01-01`, end: `${year()}-12-31`, layout: 'months', scale: 'units', fiscalYearStartMonth: 1, total: true };
  const { binding } = await statements.insert(spec, 'newSheet');
  const { sheet, box } = parseQualified(binding.address);

  const block = await blockLines(gateway, binding);
  expect(block.periods).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m) => `${m} ${year()}`));
  const net = block.lines.find((l) => l.key === 'label:Net income')!;
  const revenue = block.lines.find((l) => l.key.startsWith('category:'))!;
  expect(net).toBeDefined();
  expect(revenue).toBeDefined();
  // A line is known by its category; totals and subtotals, which have none, by their label.
  expect(block.lines.filter((l) => l.key.startsWith('label:')).map((l) => l.label)).toEqual(expect.arrayContaining(['Total revenue', 'Operating income', 'Net income']));

  const usage = await sb.usage(company());
  const inserted = await insertBlockChart(gateway, binding, { lines: [revenue.key, net.key], kind: 'line' });
  expect(await sb.usage(company())).toBe(usage);
  expect(inserted).toMatchObject({ sheet, chart: { kind: 'line', title: `${revenue.label} and Net income`, lines: [{ key: revenue.key }, { key: net.key }] } });
  // Right of the block (its Total column included), clear of it.
  expect(parseQualified(`x!${inserted.over}`).box.col).toBe(box.col + box.cols + 1);
  expect(chartsOf((await gateway.listBindings())[0])).toEqual([inserted.chart]);

  const months = Array.from({ length: 12 }, (_, i) => month(year(), i + 1));
  const reports = await monthly(months);
  const revenueId = revenue.key.slice('category:'.length);
  const chartOf = () => gateway.chartsOn(sheet)[0];
  expect(chartOf().series.map((x) => [x.name, x.shown])).toEqual([
    [revenue.label, reports.map((r) => units(r.revenue.categories.find((c) => c.category_id === revenueId)?.amount_cents ?? 0))],
    ['Net income', reports.map((r) => units(r.net_income_cents))],
  ]);
  expect(chartOf().series[0].labels).toEqual(block.periods);

  // The accountant adds a revenue category in the web app and moves a June sale into it: a line appears
  // above Net income. (The sandbox lists every category of the chart, so a new line needs a new category.)
  const categories = (await rt.client.categories.list()).data;
  const revenueParent = categories.find((c) => c.account_type === 'revenue' && c.parent_id === null)!;
  const newcomer = { id: 'cat_chartsnewline1', name: 'Partner Revenue' };
  sb.running.ctx.db
    .prepare(
      `INSERT INTO categories (id, company_id, name, account_type, point_in_time, tier, position, parent_id, selectable, role, cash_flow_class, created)
       VALUES (?, ?, ?, 'revenue', 0, 2, 0, ?, 1, NULL, NULL, ?)`,
    )
    .run(newcomer.id, company(), newcomer.name, revenueParent.id, Math.floor(Date.now() / 1000));
  let moved: string | null = null;
  for await (const t of rt.client.transactions.iterate({ start_date: months[5].start, end_date: months[5].end })) {
    if (t.transaction_type === 'standard' && t.status === 'approved' && t.amount_cents > 0 && t.category_id && t.accounting_date !== null && t.accounting_date >= months[5].start && t.accounting_date <= months[5].end) {
      moved = t.id;
      break;
    }
  }
  expect(moved).not.toBeNull();
  await sb.control(`transactions/${moved}`, { category_id: newcomer.id });

  const before = await sb.usage(company());
  const outcome = await statements.refreshAll(await statements.plan(), {});
  expect(outcome.failed).toEqual([]);
  const refreshed = outcome.refreshed[0];
  expect(await sb.usage(company())).toBe(before + 12);
  const after = await blockLines(gateway, refreshed);
  expect(after.lines.find((l) => l.key === net.key)!.row).toBeGreaterThan(net.row);
  const fresh = await monthly(months);
  expect(fresh.map((r) => r.net_income_cents)).toEqual(reports.map((r) => r.net_income_cents)); // a move within the income statement
  expect(chartOf().series.map((x) => [x.name, x.values, x.shown])).toEqual([
    [revenue.label, expect.any(String), fresh.map((r) => units(r.revenue.categories.find((c) => c.category_id === revenueId)?.amount_cents ?? 0))],
    ['Net income', `'${sheet}'!${'B'}${box.row + after.lines.find((l) => l.key === net.key)!.row + 1}:M${box.row + after.lines.find((l) => l.key === net.key)!.row + 1}`, fresh.map((r) => units(r.net_income_cents))],
  ]);
  expect(chartsOf(refreshed)).toEqual([inserted.chart]);
});

test('a chart of a year-to-date block follows the roll forward: the new month is charted, with its figures', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  // Two months before the company's current one, and the month after it: both have figures.
  const m0 = monthIndexToYearMonth(monthIndex(sb.running.ctx.clock.today()) - 2);
  const m1 = monthIndexToYearMonth(m0.year * 12 + m0.month);
  await setReportingPeriod(gateway, m0);
  const ytd: StatementSpec = { statement: 'income_statement', period: 'custom', start: '', end: '', layout: 'months', scale: 'units', fiscalYearStartMonth: 1, relation: 'ytd' };
  const { binding } = await statements.insert(rollSpec(ytd, m0), 'newSheet');
  const { sheet, box } = parseQualified(binding.address);
  const block = await blockLines(gateway, binding);
  const net = block.lines.find((l) => l.key === 'label:Net income')!;
  const inserted = await insertBlockChart(gateway, binding, { lines: [net.key], kind: 'column', title: 'Net income this year' });
  // Right of where the block can grow to (twelve months), so the roll forward never writes under it.
  expect(parseQualified(`x!${inserted.over}`).box.col).toBe(box.col + 1 + 12 + 1);

  const outcome = await statements.roll(await statements.planRoll(m1));
  expect(outcome.failed).toEqual([]);
  const rolled: BindingRecord = outcome.rolled[0];
  expect(parseQualified(rolled.address).box.cols).toBe(box.cols + 1);
  const months = Array.from({ length: m1.month }, (_, i) => month(m1.year, i + 1));
  const reports = await monthly(months);
  const [chart] = gateway.chartsOn(sheet);
  expect(chart.title).toBe('Net income this year');
  expect(chart.series).toHaveLength(1);
  expect(chart.series[0].labels).toHaveLength(m1.month);
  expect(chart.series[0].shown).toEqual(reports.map((r) => units(r.net_income_cents)));
  expect(chartsOf(rolled)).toEqual([inserted.chart]);
});
