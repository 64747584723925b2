// Issue 37: the board pack on a company whose chart is its own (Alderbrook Labs, growth3-admin: "Sales" and
// "Services Income" as two revenue roots, "Cost of sales" under an "Expenses" root, no "Revenue", "Cost of
// Revenue", "Operating Expenses" or "Cash" category). In the workbench's formula engine with the add-in's real
// FIN functions: the roles proposed from its chart, every KPI and every chart point equal to the API's
// statements read by the spec's fields, no #N/A on the board's sheet and no gap before the reporting period;
// and, with no cost of revenue mapped, the KPI that needs one left out with a word and its chart not made.
import '../../../src/workbench/customFunctionsStub';
import { calendarDateAt, formatYearMonth, lastDayOf, monthIndex, monthIndexToYearMonth, shiftMonth, type YearMonth } from '../../../src/engine/dates';
import { boardChartSpecs, chartMonths, CHART_SHEET } from '../../../src/engine/reporting/boardCharts';
import { boardPackIn, insertBoardPack, KPI_FIRST_ROW, NO_COST_OF_REVENUE, packCost, packFormulaReads, packKpis, type PackChoice } from '../../../src/engine/reporting/boardPack';
import { changePackRoles } from '../../../src/engine/reporting/packRolesEdit';
import { proposePackRoles, type PackRoles } from '../../../src/engine/reporting/packRoles';
import { setReportingPeriod } from '../../../src/engine/reporting/period';
import { createStatementsEngine } from '../../../src/engine/statements';
import * as runtime from '../../../src/runtime';
import { createWorkbench, type WorkbenchWorld } from '../../../src/workbench/host';
import { registerFinFunctions } from '../../support/finFunctions';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { apiReport, blockAt } from '../../taskpane/sheet';

const LABEL = 'growth3-admin';
let sb: TestSandbox;
let world: WorkbenchWorld;
let registered: ReturnType<typeof registerFinFunctions>;

async function freshWorld(): Promise<void> {
  world = createWorkbench({ baseUrl: sb.baseUrl, metadata: registered.then((r) => r.info) });
  await registered;
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys[LABEL], companyId: sb.companies[LABEL] });
}

beforeAll(async () => {
  sb = await startSandbox();
  registered = registerFinFunctions();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb?.close();
});

const company = () => sb.companies[LABEL];
const monthAgo = (n: number): YearMonth => monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) - n);
const text = (m: YearMonth) => formatYearMonth(m.year, m.month);

const reports = new Map<string, any>();
async function report(path: string, query: Record<string, string>): Promise<any> {
  const key = `${path}?${new URLSearchParams(query)}`;
  if (!reports.has(key)) reports.set(key, await apiReport(sb, LABEL, path, query));
  return reports.get(key);
}

async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) await world.engine.whenIdle();
}

function kpiCell(roles: PackRoles, label: string): unknown {
  const row = KPI_FIRST_ROW + packKpis(roles).findIndex((k) => k.label === label);
  const result = world.engine.resultAt({ sheet: 'Board KPIs', row: row - 1, col: 1 });
  return result?.state === 'value' ? result.value : result;
}

/** A month's figures from the API by the spec's fields alone (and the mapped category's line), in units. */
async function apiMonth(m: YearMonth, costOfRevenue: string | null) {
  const is = (x: YearMonth) => report('/reports/income_statement', { start_date: `${text(x)}-01`, end_date: lastDayOf(x.year, x.month) });
  const cash = async (x: YearMonth) => (await report('/reports/balance_sheet', { date: lastDayOf(x.year, x.month) })).cash_cents as number;
  const cor = async (x: YearMonth) => (costOfRevenue ? ((await is(x)).expenses.categories.find((c: any) => c.category_id === costOfRevenue)?.amount_cents ?? 0) : 0);
  const opex = async (x: YearMonth) => -((await is(x)).expenses.total_cents - (await cor(x)));
  const revenue = (await is(m)).revenue.total_cents as number;
  const cashNow = await cash(m);
  const burn3 = ((await cash(shiftMonth(m, -3))) - cashNow) / 3;
  return {
    revenue: revenue / 100,
    revenuePrior: (await is(shiftMonth(m, -12))).revenue.total_cents / 100,
    opex: (await opex(m)) / 100,
    opexPrior: (await opex(shiftMonth(m, -12))) / 100,
    grossMargin: revenue === 0 ? null : (revenue + (await cor(m))) / revenue,
    cash: cashNow / 100,
    netBurn: ((await cash(shiftMonth(m, -1))) - cashNow) / 100,
    runway: burn3 > 0 ? cashNow / burn3 : null,
    revenueBefore: (await is(shiftMonth(m, -1))).revenue.total_cents / 100,
  };
}

const SERIES: Record<string, keyof Awaited<ReturnType<typeof apiMonth>>> = {
  Revenue: 'revenue',
  'Revenue, prior year': 'revenuePrior',
  'Operating expenses': 'opex',
  'Operating expenses, prior year': 'opexPrior',
  'Gross margin': 'grossMargin',
  'Cash at month end': 'cash',
  'Net burn': 'netBurn',
  'Cash runway (months)': 'runway',
};

async function insertPack(roles: PackRoles, m0: YearMonth) {
  await freshWorld();
  const reader = (await runtime.getReader())!;
  const client = (await runtime.getClient())!;
  const statements = createStatementsEngine({ gateway: world.book, reader, client, companyName: 'Alderbrook Labs' });
  const choice: PackChoice = { fiscalYearStartMonth: 1, charts: true, byDepartment: true };
  await setReportingPeriod(world.book, m0);
  await settled();
  const cost = await packCost(reader, m0, choice);
  const before = await sb.usage(company());
  const pack = await insertBoardPack(world.book, statements, m0, { ...choice, roles });
  await settled();
  return { pack, cost, spent: (await sb.usage(company())) - before };
}

test('the roles proposed from its chart: its "Cost of sales", with the other expense categories as choices', async () => {
  const chart = (await report('/categories', {})).data;
  const proposal = proposePackRoles(chart);
  expect(proposal.roles.costOfRevenue?.name).toBe('Cost of sales');
  expect(proposal.candidates[0]).toMatchObject({ name: 'Cost of sales', path: 'Expenses > Cost of sales' });
  // Every periodic expense category is a choice, once; none of another type.
  const expenses = chart.filter((c: any) => c.account_type === 'expense');
  expect(proposal.candidates.map((c) => c.id).sort()).toEqual(expenses.map((c: any) => c.id).sort());
});

test('the whole pack with its charts: every KPI and every chart point is the API\u2019s, no #N/A before the period; its cost shown is spent', async () => {
  const m0 = monthAgo(2);
  const roles = proposePackRoles((await report('/categories', {})).data).roles;
  const { pack, cost, spent } = await insertPack(roles, m0);
  expect(pack).toMatchObject({ kpiSheet: 'Board KPIs', chartSheet: CHART_SHEET });
  expect(spent).toBeGreaterThan(0);
  // The cost shown counts the walk over the month's journal entries "at least" one page: it may take more.
  expect(spent).toBeGreaterThanOrEqual(cost.calls);
  expect(await boardPackIn(world.book)).toMatchObject({ roles });
  // The P&L by department split under the company, its branches the columns (not the company as one column).
  const byDept = pack.blocks.find((b) => b.parameters.layout === 'by_department')!;
  const block = blockAt(world.book, byDept.address);
  const headers = Array.from({ length: block.cols - 1 }, (_, c) => block.cell(6, c + 1).value);
  expect(headers).toEqual(expect.arrayContaining(['Commercial', 'Product', 'Corporate', 'Unassigned', 'Total']));

  const f = await apiMonth(m0, roles.costOfRevenue!.id);
  const kpi = (label: string) => kpiCell(roles, label);
  expect(kpi('Revenue')).toBeCloseTo(f.revenue, 6);
  expect(kpi('Revenue growth on the month before')).toBeCloseTo(f.revenue / f.revenueBefore - 1, 6);
  expect(kpi('Gross margin')).toBeCloseTo(f.grossMargin!, 6);
  expect(kpi('Operating expense ratio')).toBeCloseTo(f.opex / f.revenue, 6);
  expect(kpi('Cash at the month end')).toBeCloseTo(f.cash, 6);
  expect(kpi('Net burn')).toBeCloseTo(f.netBurn, 6);
  for (const k of packKpis(roles)) expect(['number', 'string']).toContain(typeof kpi(k.label));

  const months = chartMonths(m0, 1);
  const figures = await Promise.all(months.map((m) => apiMonth(m, roles.costOfRevenue!.id)));
  const charts = world.book.chartsOn(CHART_SHEET);
  expect(charts.map((c) => c.name)).toEqual(boardChartSpecs(CHART_SHEET, roles).map((c) => c.name));
  expect(charts).toHaveLength(5);
  for (const chart of charts) {
    for (const series of chart.series) {
      months.forEach((_, i) => {
        const expected = figures[i][SERIES[series.name]];
        // No gap before the period but where the spec's rule leaves no figure (no burn, no runway).
        if (expected === null) expect(series.name).toBe('Cash runway (months)');
        else expect(series.shown[i] as number).toBeCloseTo(expected as number, 6);
      });
      for (const v of series.shown.slice(months.length)) expect(typeof v).not.toBe('number');
    }
  }
});

test('with no cost of revenue mapped: the gross margin is left out with a word and has no chart; the rest is the API\u2019s', async () => {
  const m0 = monthAgo(3);
  const roles: PackRoles = { costOfRevenue: null };
  await insertPack(roles, m0);
  const row = KPI_FIRST_ROW + packKpis(roles).findIndex((k) => k.label === 'Gross margin');
  const sheet = await world.book.readSheet('Board KPIs');
  // The word in the value's cell, no formula behind it (so no #N/A, no call).
  expect(sheet.values[row - 1][1]).toBe(NO_COST_OF_REVENUE);
  expect(sheet.formulas[row - 1][1]).toBeNull();
  const f = await apiMonth(m0, null);
  // Every expense is an operating expense when none is a cost of revenue.
  expect(kpiCell(roles, 'Operating expense ratio')).toBeCloseTo(f.opex / f.revenue, 6);
  expect(kpiCell(roles, 'Revenue')).toBeCloseTo(f.revenue, 6);
  const names = world.book.chartsOn(CHART_SHEET).map((c) => c.name);
  expect(names).toHaveLength(4);
  expect(names).not.toContain('FinBoard_GrossMargin');
  expect(await boardPackIn(world.book)).toMatchObject({ roles: { costOfRevenue: null } });
});

test('the cost of revenue changed after inserting: the KPI and chart formulas rewritten, the gross margin chart added then deleted, no call; rolled forward, the change holds', async () => {
  const m0 = monthAgo(3);
  const m1 = monthAgo(2);
  const none: PackRoles = { costOfRevenue: null };
  await insertPack(none, m0);
  const mapped = proposePackRoles((await report('/categories', {})).data).roles;
  const cor = mapped.costOfRevenue!.id;

  // Mapped after the fact: the gross margin appears, operating expenses no longer count the cost of sales.
  const before = await sb.usage(company());
  expect(await changePackRoles(world.book, mapped)).toMatchObject({ roles: mapped });
  await settled();
  expect(await sb.usage(company())).toBe(before);
  const f0 = await apiMonth(m0, cor);
  expect(kpiCell(mapped, 'Gross margin')).toBeCloseTo(f0.grossMargin!, 6);
  expect(kpiCell(mapped, 'Operating expense ratio')).toBeCloseTo(f0.opex / f0.revenue, 6);
  const how = (await world.book.readSheet('Board KPIs')).values.find((r) => r[0] === 'Gross margin')![2];
  expect(how).toContain('Cost of sales');
  expect(world.book.chartsOn(CHART_SHEET).map((c) => c.name)).toEqual(expect.arrayContaining(['FinBoard_GrossMargin']));
  expect(world.book.chartsOn(CHART_SHEET)).toHaveLength(5);
  const months0 = chartMonths(m0, 1);
  const margin = world.book.chartsOn(CHART_SHEET).find((c) => c.name === 'FinBoard_GrossMargin')!.series[0];
  for (const [i, m] of months0.entries()) expect(margin.shown[i] as number).toBeCloseTo((await apiMonth(m, cor)).grossMargin!, 6);
  expect(await boardPackIn(world.book)).toMatchObject({ roles: mapped });

  // Rolled forward: the roles kept, the formulas following FIN_PERIOD.
  const reader = (await runtime.getReader())!;
  const client = (await runtime.getClient())!;
  const statements = createStatementsEngine({ gateway: world.book, reader, client, companyName: 'Alderbrook Labs' });
  const outcome = await statements.roll(await statements.planRoll(m1, packFormulaReads((await boardPackIn(world.book))!, m1)));
  await settled();
  expect(outcome.failed).toEqual([]);
  const f1 = await apiMonth(m1, cor);
  expect(kpiCell(mapped, 'Gross margin')).toBeCloseTo(f1.grossMargin!, 6);
  expect(kpiCell(mapped, 'Operating expense ratio')).toBeCloseTo(f1.opex / f1.revenue, 6);
  expect(await boardPackIn(world.book)).toMatchObject({ roles: mapped });

  // And back to none: the word again, no formula behind it, the chart gone, every expense an operating one.
  await changePackRoles(world.book, none);
  await settled();
  const sheet = await world.book.readSheet('Board KPIs');
  const row = KPI_FIRST_ROW - 1 + packKpis(none).findIndex((k) => k.label === 'Gross margin');
  expect(sheet.values[row][1]).toBe(NO_COST_OF_REVENUE);
  expect(sheet.formulas[row][1]).toBeNull();
  expect(kpiCell(none, 'Operating expense ratio')).toBeCloseTo((await apiMonth(m1, null)).opex / f1.revenue, 6);
  expect(world.book.chartsOn(CHART_SHEET).map((c) => c.name)).not.toContain('FinBoard_GrossMargin');
  const table = await world.book.readSheet(CHART_SHEET);
  const header = table.values.findIndex((r) => r[0] === 'Month');
  expect(table.values[header][5]).toBe('Gross margin (left out: no cost of revenue mapped)');
  for (let r = header + 1; r <= header + 12; r++) expect(table.formulas[r][5]).toBeNull();
  expect(await boardPackIn(world.book)).toMatchObject({ roles: none });
});
