/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 15, items 1 and 2 in the pane: set the reporting period (FIN_PERIOD), insert a block relative to it,
// move the period one month and see the cost first, then the rolled block with the API's figures for its new
// dates, having spent exactly the cost shown.
import { calendarDateAt, formatYearMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import { OUTLOOK_TITLE } from '../../src/engine/reporting/packOutlook';
import { parseQualified } from '../../src/engine/ports/address';
import { BOARD_PACK_SETTING, KPI_FIRST_ROW, packKpis, packCost, packCosts } from '../../src/engine/reporting/boardPack';
import { rolesFromRecord } from '../../src/engine/reporting/packRoles';
import { readReportingPeriod } from '../../src/engine/reporting/period';
import { columnsFor } from '../../src/engine/statements';
import { specFromBinding } from '../../src/engine/statements/spec';
import { connected, openTab, renderPane, reportsSettled, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { expectBlockMatchesApi } from './sheet';
import { keepBudget } from '../../src/engine/budgets';
import { monthsFrom, typeBudget } from '../support/budget';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const monthText = (offset: number) => {
  const m = monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) + offset);
  return formatYearMonth(m.year, m.month);
};

test('set the reporting period, insert relative to it, roll forward one month with the cost shown first', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const m0 = monthText(-2);
  const m1 = monthText(-1);
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await screen.findByText(/^No reporting period yet/, {}, { timeout: 15000 });
  await h.user.clear(field);
  await h.user.type(field, m0);
  await screen.findByText(/Moving to .* moves no block: costs 0 calls/, {}, { timeout: 15000 });
  await h.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m0} \\('Reporting period'!B1\\): spent 0 calls\\.`), {}, { timeout: 15000 });
  await screen.findByText(`FIN_PERIOD is ${m0} ('Reporting period'!B1).`, {}, { timeout: 15000 });
  await reportsSettled();
  expect(await readReportingPeriod(h.gateway)).toMatchObject({ state: 'set', text: m0 });
  expect(h.gateway.definedNames()).toContainEqual({ name: 'FIN_PERIOD', visible: true, address: "'Reporting period'!B1" });

  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), screen.getByRole('option', { name: 'Year to date of the reporting period' }));
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Layout' }), screen.getByRole('option', { name: 'Months side by side' }));
  await waitFor(() => expect(screen.getByText(/^Costs \d+ calls? \(\d+ cached\)/)).toBeTruthy());
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  await reportsSettled();
  const [inserted] = await h.gateway.listBindings();
  expect(inserted.parameters).toMatchObject({ relation: 'ytd', end: `${m0}-${String(new Date(Date.UTC(Number(m0.slice(0, 4)), Number(m0.slice(5)), 0)).getUTCDate())}` });
  expect(inserted.address.startsWith("'P&L YTD'!")).toBe(true);

  // The next month: one new month for the block (the earlier months are cached), or a new year of one month.
  await h.user.clear(field);
  await h.user.type(field, m1);
  const cost = await screen.findByText(new RegExp(`^Moving to ${m1} rolls 1 block forward: costs 1 call \\(\\d+ cached\\)`), {}, { timeout: 15000 });
  expect(cost.textContent).toContain('Formulas that read FIN_PERIOD recalculate too.');
  const usage = await sb.usage(sb.companies['growth-admin']);
  await h.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m1} .*: rolled 1 block forward, spent 1 call\\.`), {}, { timeout: 30000 });
  await screen.findByText(`FIN_PERIOD is ${m1} ('Reporting period'!B1).`, {}, { timeout: 15000 });
  await reportsSettled();
  expect(await sb.usage(sb.companies['growth-admin'])).toBe(usage + 1);
  const [rolled] = await h.gateway.listBindings();
  const spec = specFromBinding(rolled)!;
  expect(spec.end.slice(0, 7)).toBe(m1);
  await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, rolled, columnsFor(spec).map((c) => ({ start: c.start, end: c.end })));
  await screen.findByText(`FIN_PERIOD is ${m1} ('Reporting period'!B1).`, {}, { timeout: 15000 });
  h.unmount();
});

test('the board pack: its cost before inserting (the journal walk said), the budget chosen, blocks, KPIs and charts on FIN_PERIOD, rolled with it', async () => {
  const h = renderPane(sb);
  const m0 = monthText(-2);
  const year = Number(m0.slice(0, 4));
  // Two budgets kept before the pane opens: one over last year and this one, one over last year only.
  const line = (months: string[]) => [{ label: 'Rent', units: months.map(() => 8_500) }];
  const both = monthsFrom(`${year - 1}-01-01`, 24);
  const lastYear = monthsFrom(`${year - 1}-01-01`, 12);
  await keepBudget(h.gateway, 'Budget_Both', (await typeBudget(h.gateway, 'Budget', both, line(both))).address);
  await keepBudget(h.gateway, 'Budget_LastYear', (await typeBudget(h.gateway, 'Old budget', lastYear, line(lastYear))).address);
  await connected(h, sb);
  await screen.findByText('Set the reporting period first: the pack follows it.', {}, { timeout: 15000 });
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await h.user.clear(field);
  await h.user.type(field, m0);
  await h.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m0} \\(.*\\): spent 0 calls\\.`), {}, { timeout: 15000 });
  const month = { year, month: Number(m0.slice(5)) };
  const reader = (await h.services.runtime.getReader())!;

  // The first budget by default; its cost says the walk over the month's journal entries is priced at least.
  const picker = await screen.findByRole('combobox', { name: 'Budget in the pack' }, { timeout: 15000 });
  expect((picker as HTMLSelectElement).value).toBe('Budget_Both');
  const cold = await packCost(reader, month, { fiscalYearStartMonth: 1, budget: 'Budget_Both', charts: true, byDepartment: true });
  expect(cold.estimated).toBe('at least');
  await screen.findByText(
    `Seven statement sheets (the P&L by department and against the budget Budget_Both among them), a KPI sheet and a sheet of charts for ${m0}, rolling forward with the reporting period: costs at least ${cold.calls} calls (0 cached), and 2 from the monthly statements at no call: the P&L by department reads the month's journal entries, 500 to a call, so their pages are known once read.`,
    {},
    { timeout: 15000 },
  );
  // The two costly parts, ticked, each with what it adds beside it; the pack's cost follows what is ticked.
  const full = { fiscalYearStartMonth: 1, budget: 'Budget_Both', charts: true, byDepartment: true };
  const parts = await packCosts(reader, month, full);
  expect(parts.pack).toEqual(cold);
  const charts = screen.getByRole('checkbox', { name: 'Board charts' }) as HTMLInputElement;
  const byDept = screen.getByRole('checkbox', { name: 'P&L by department for the month' }) as HTMLInputElement;
  expect([charts.checked, byDept.checked]).toEqual([true, true]);
  await waitFor(() => expect(charts.getAttribute('aria-describedby') && document.getElementById(charts.getAttribute('aria-describedby')!)?.textContent).toBe(`adds ${parts.charts.calls} calls`));
  expect(document.getElementById(byDept.getAttribute('aria-describedby')!)?.textContent).toBe(`adds at least ${parts.byDepartment.calls} calls`);
  await h.user.click(charts);
  const noCharts = await packCost(reader, month, { ...full, charts: false });
  expect(noCharts.calls).toBe(cold.calls - parts.charts.calls);
  await screen.findByText(
    `Seven statement sheets (the P&L by department and against the budget Budget_Both among them), a KPI sheet for ${m0}, rolling forward with the reporting period: costs at least ${noCharts.calls} calls (0 cached), and 1 from the monthly statements at no call: the P&L by department reads the month's journal entries, 500 to a call, so their pages are known once read.`,
    {},
    { timeout: 15000 },
  );
  await waitFor(() => expect(document.getElementById(charts.getAttribute('aria-describedby')!)?.textContent).toBe(`would add ${parts.charts.calls} calls`));
  await h.user.click(byDept);
  const neither = await packCost(reader, month, { ...full, charts: false, byDepartment: false });
  expect(neither.estimated).toBeUndefined();
  await screen.findByText(`Six statement sheets (the P&L against the budget Budget_Both among them), a KPI sheet for ${m0}, rolling forward with the reporting period: costs ${neither.calls} calls (0 cached), and 1 from the monthly statements at no call.`, {}, { timeout: 15000 });
  await h.user.click(charts);
  await h.user.click(byDept);
  await screen.findByText(new RegExp(`^Seven statement sheets .* and a sheet of charts for ${m0}, .*: costs at least ${cold.calls} calls`), {}, { timeout: 15000 });
  // A budget that does not cover the month is refused before anything is spent, and Insert with it.
  await h.user.selectOptions(picker, screen.getByRole('option', { name: 'Budget_LastYear' }));
  await screen.findByText('The budget does not cover the period', {}, { timeout: 15000 });
  expect(screen.getByRole('button', { name: 'Insert the board pack' }).getAttribute('aria-disabled')).toBe('true');
  // No budget: six statement sheets.
  await h.user.selectOptions(picker, screen.getByRole('option', { name: 'No budget comparison' }));
  await screen.findByText(/^Six statement sheets \(the P&L by department among them\), a KPI sheet and a sheet of charts for /, {}, { timeout: 15000 });
  expect(screen.queryByText('The budget does not cover the period')).toBeNull();
  await h.user.selectOptions(picker, screen.getByRole('option', { name: 'Budget_Both' }));
  await screen.findByText(/^Seven statement sheets \(the P&L by department and against the budget Budget_Both among them\)/, {}, { timeout: 15000 });

  const usage = await sb.usage(sb.companies['growth-admin']);
  await h.user.click(screen.getByRole('button', { name: 'Insert the board pack' }));
  const done = await screen.findByText(/^Inserted the board pack for /, {}, { timeout: 30000 });
  await screen.findByText(/^This workbook has its board pack \(KPI sheet "Board KPIs", charts on "Board charts"\): it rolls forward/, {}, { timeout: 15000 });
  // Here no formula engine calculates the KPIs and the charts' table: the statements spend their share of the cost shown.
  const spent = (await sb.usage(sb.companies['growth-admin'])) - usage;
  expect(spent).toBeLessThan(cold.calls);
  expect(done.textContent).toContain(`8 statement blocks, the sheet Board KPIs and the charts on Board charts. Spent ${spent} calls: the statements ${spent}, the formulas 0 as they calculated.`);
  expect(h.gateway.sheetNames()).toEqual([
    'Sheet1',
    'Budget',
    'Old budget',
    'Reporting period',
    'Board P&L',
    'Board P&L by month',
    'Board balance sheet',
    'Board cash flow',
    'Board P&L vs budget',
    'Board P&L by dept',
    'Board KPIs',
    'Board charts',
  ]);
  const bindings = await h.gateway.listBindings();
  expect(bindings.map((b) => [b.parameters.relation, b.parameters.layout, b.parameters.budget ?? null])).toEqual([
    ['month', 'single', null],
    ['month', 'prior_ytd', null],
    ['ytd', 'months', null],
    ['ytd', 'prior_period', null],
    ['ytd', 'single', null],
    ['month', 'budget', 'Budget_Both'],
    ['ytd', 'budget', 'Budget_Both'],
    ['month', 'by_department', null],
  ]);
  // Beside the year to date against the budget, its full-year outlook: FIN formulas on FIN_PERIOD, the budget's
  // Rent (a cost typed positive) turned negative as the statement shows it, Net Income the lines' sum.
  const vsBudget = await h.gateway.readSheet('Board P&L vs budget');
  const top = vsBudget.values.findIndex((r) => r.includes(OUTLOOK_TITLE));
  const left = vsBudget.values[top].indexOf(OUTLOOK_TITLE);
  const ytdBlock = parseQualified(bindings.find((b) => b.parameters.layout === 'budget' && b.parameters.relation === 'ytd')!.address).box;
  expect([top, left]).toEqual([ytdBlock.row, ytdBlock.col + ytdBlock.cols + 1]);
  const rent = vsBudget.values.findIndex((r, i) => i > top && r[left] === 'Rent');
  expect(vsBudget.formulas[rent].slice(left + 1, left + 3)).toEqual([
    expect.stringMatching(/^=FIN\.PNL\("cat_\w+",FIN_PERIOD&" YTD"\)$/),
    expect.stringMatching(/^=IF\(\(12-\$[A-Z]+\$\d+\)=0,0,-FIN\.BUDGET\(Budget_Both,"Rent",FIN\.PERIOD\(FIN_PERIOD,1\),FIN\.PERIOD\(FIN_PERIOD,\(12-\$[A-Z]+\$\d+\)\)\)\)$/),
  ]);
  expect(vsBudget.values[rent + 1][left]).toBe('Net Income');
  // The roles proposed from the demo chart, kept with the pack: its Cost of Revenue category.
  const roles = rolesFromRecord(((await h.gateway.readSetting(BOARD_PACK_SETTING)) as { roles?: unknown }).roles)!;
  expect(roles.costOfRevenue?.name).toBe('Cost of Revenue');
  const kpis = packKpis(roles);
  expect(kpis.map((_, i) => h.gateway.cell('Board KPIs', `B${KPI_FIRST_ROW + i}`).formula)).toEqual(kpis.map((k) => k.formula));
  expect(kpis.every((k) => k.formula !== null && (k.formula.includes('FIN_PERIOD') || /B\d/.test(k.formula)))).toBe(true);
  // The charts' sheet: its table of FIN formulas on FIN_PERIOD, and Excel charts reading it.
  expect(h.gateway.cell('Board charts', 'B37').formula).toBe('=MOD(VALUE(RIGHT(FIN_PERIOD,2))-1,12)+1');
  expect(h.gateway.cell('Board charts', 'A40').formula).toBe('=FIN.PERIOD(FIN_PERIOD,1-$B$37)');
  expect(h.gateway.cell('Board charts', 'B51').formula).toBe('=IF(12>$B$37,NA(),FIN.PNL("Total Revenue",$A51))');
  expect(h.gateway.chartsOn('Board charts').map((c) => [c.title, c.series.map((x) => x.values)])).toEqual([
    ['Revenue and operating expenses by month, against the prior year', ["'Board charts'!B40:B51", "'Board charts'!C40:C51", "'Board charts'!D40:D51", "'Board charts'!E40:E51"]],
    ['Gross margin by month', ["'Board charts'!F40:F51"]],
    ['Net burn by month', ["'Board charts'!H40:H51"]],
    ['Cash at month end', ["'Board charts'!G40:G51"]],
    ['Cash runway (months)', ["'Board charts'!I40:I51"]],
  ]);
  // Above the table (row 39 on), so the sheet opens on them: two, then three under them.
  expect(h.gateway.chartsOn('Board charts').map((c) => c.over)).toEqual(['A4:E18', 'F4:I18', 'A20:C34', 'D20:F34', 'G20:I34']);
  // One pack per workbook: both would follow the one reporting period. Insert is refused, and says why.
  const again = screen.getByRole('button', { name: 'Insert the board pack' });
  expect(again.getAttribute('aria-disabled')).toBe('true');
  expect(screen.queryByRole('combobox', { name: 'Budget in the pack' })).toBeNull();
  await h.user.click(again);
  expect(h.gateway.sheetNames()).toHaveLength(12);

  // Rolling the pack: its cost names the blocks, prices the KPIs' and the charts' reads too, and says the new
  // month's journal walk is an estimate ("about", from the month read).
  const m1 = monthText(-1);
  await h.user.clear(field);
  await h.user.type(field, m1);
  const cost = await screen.findByText(new RegExp(`^Moving to ${m1} rolls 8 blocks forward: costs about (\\d+) calls \\(\\d+ cached; journal entries are read 500 to a call`), {}, { timeout: 15000 });
  const shown = Number(/costs about (\d+) calls/.exec(cost.textContent!)![1]);
  expect(shown).toBeGreaterThan(0);
  const before = await sb.usage(sb.companies['growth-admin']);
  await h.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m1} .*: rolled 8 blocks forward`), {}, { timeout: 30000 });
  await screen.findByText(`FIN_PERIOD is ${m1} ('Reporting period'!B1).`, {}, { timeout: 15000 });
  await reportsSettled();
  expect((await sb.usage(sb.companies['growth-admin'])) - before).toBeLessThanOrEqual(shown);
  h.unmount();
});

/** Sets the reporting period to `month` from the pane, then inserts a block of its month; returns the period field. */
async function periodWithMonthBlock(h: PaneHarness, month: string): Promise<HTMLElement> {
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await screen.findByText(/^No reporting period yet/, {}, { timeout: 15000 });
  await h.user.clear(field);
  await h.user.type(field, month);
  await h.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${month} \\(.*\\): spent 0 calls\\.`), {}, { timeout: 15000 });
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), screen.getByRole('option', { name: 'Month of the reporting period' }));
  await waitFor(() => expect(screen.getByText(/^Costs \d+ calls? \(\d+ cached\)/)).toBeTruthy());
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  await reportsSettled();
  return field;
}

test('a month typed into FIN_PERIOD itself: the Refresh tab shows the relative block behind the period, with its cost', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const m0 = monthText(-2);
  const m1 = monthText(-1);
  await periodWithMonthBlock(h, m0);

  h.gateway.typeValue('Reporting period', 'B1', m1);
  await openTab(h, 'Refresh');
  const list = await screen.findByRole('list', { name: 'Blocks' }, { timeout: 15000 });
  const end = new Date(Date.UTC(Number(m1.slice(0, 4)), Number(m1.slice(5)), 0)).toISOString().slice(0, 10);
  await within(list).findByText('Behind the reporting period', {}, { timeout: 15000 });
  await within(list).findByText(`Behind the reporting period: its next refresh rolls it to ${m1}-01 to ${end} (1 call).`, {}, { timeout: 15000 });
  h.unmount();
});

// Issue 13, item 2, for the monthly roll: what cannot finish within what is left is not started.
test('moving the period when fewer calls are left than it costs is not started: the period and the block stay', async () => {
  const company = sb.companies['formation-admin'];
  await sb.control('usage', { company_id: company, count: 0 });
  const h = renderPane(sb);
  await connected(h, sb, 'formation-admin', 'formation');
  const m0 = monthText(-2);
  const m1 = monthText(-1);
  const field = await periodWithMonthBlock(h, m0);
  // The rest of the month's 10 calls spent elsewhere: a month of some year before, one call each.
  const client = (await h.services.runtime.getClient())!;
  for (let back = 1; (await client.meter.remaining('formation'))! > 0; back++) {
    const m = monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) - 24 - back);
    await client.reports.incomeStatement({ start_date: `${formatYearMonth(m.year, m.month)}-01`, end_date: `${formatYearMonth(m.year, m.month)}-28` });
  }
  const spent = await sb.usage(company);
  expect(spent).toBe(10);
  const [block] = await h.gateway.listBindings();

  await h.user.clear(field);
  await h.user.type(field, m1);
  await screen.findByText(new RegExp(`^Moving to ${m1} rolls 1 block forward: costs 1 call`), {}, { timeout: 15000 });
  await h.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  const refused = await screen.findByRole('group', { name: 'Error: Not started: too few calls left this month' }, { timeout: 15000 });
  expect(refused.textContent).toMatch(new RegExp(`Moving to ${m1} costs 1 call and no calls are left this month on the Formation plan, so it is not started`));
  expect(await readReportingPeriod(h.gateway)).toMatchObject({ state: 'set', text: m0 });
  expect(await h.gateway.listBindings()).toEqual([block]);
  expect(await sb.usage(company)).toBe(spent);
  h.unmount();
});
