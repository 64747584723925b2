/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 15, items 1 and 2 in the pane: set the reporting period (FIN_PERIOD), insert a block relative to it,
// move the period one month and see the cost first, then the rolled block with the API's figures for its new
// dates, having spent exactly the cost shown.
import { calendarDateAt, formatYearMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import { KPI_FIRST_ROW, KPIS, packCost } from '../../src/engine/reporting/boardPack';
import { readReportingPeriod } from '../../src/engine/reporting/period';
import { columnsFor } from '../../src/engine/statements';
import { specFromBinding } from '../../src/engine/statements/spec';
import { connected, openTab, renderPane, reportsSettled, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { expectBlockMatchesApi } from './sheet';

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

test('the board pack: its cost before inserting, five blocks and a KPI sheet of FIN formulas on FIN_PERIOD, rolled with it', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await screen.findByText('Set the reporting period first: the pack follows it.', {}, { timeout: 15000 });
  const m0 = monthText(-2);
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await h.user.clear(field);
  await h.user.type(field, m0);
  await h.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m0} \\(.*\\): spent 0 calls\\.`), {}, { timeout: 15000 });
  const month = { year: Number(m0.slice(0, 4)), month: Number(m0.slice(5)) };
  await screen.findByText(/^Five statement sheets and a KPI sheet for .*: costs \d+ calls/, {}, { timeout: 15000 });
  const priced = await packCost((await h.services.runtime.getReader())!, month, 1);
  const cold = priced.calls;
  // Its year to date is the sum of the months its P&L by month fetches (issue 30).
  expect(priced.derived).toBe(1);
  await screen.findByText(`Five statement sheets and a KPI sheet for ${m0}, rolling forward with the reporting period: costs ${cold} calls (0 cached), and 1 from the monthly statements at no call.`, {}, { timeout: 15000 });
  const usage = await sb.usage(sb.companies['growth-admin']);
  await h.user.click(screen.getByRole('button', { name: 'Insert the board pack' }));
  const done = await screen.findByText(/^Inserted the board pack for /, {}, { timeout: 30000 });
  await screen.findByText(/^This workbook has its board pack \(KPI sheet "Board KPIs"\): it rolls forward/, {}, { timeout: 15000 });
  // Here no formula engine calculates the KPIs: the statements spend their share of the cost shown.
  const spent = (await sb.usage(sb.companies['growth-admin'])) - usage;
  expect(spent).toBeLessThan(cold);
  expect(done.textContent).toContain(`The statements spent ${spent} calls`);
  expect(h.gateway.sheetNames()).toEqual(['Sheet1', 'Reporting period', 'Board P&L', 'Board P&L by month', 'Board balance sheet', 'Board cash flow', 'Board KPIs']);
  const bindings = await h.gateway.listBindings();
  expect(bindings.map((b) => b.parameters.relation)).toEqual(['month', 'month', 'ytd', 'ytd', 'ytd']);
  expect(KPIS.map((_, i) => h.gateway.cell('Board KPIs', `B${KPI_FIRST_ROW + i}`).formula)).toEqual(KPIS.map((k) => k.formula));
  expect(KPIS.every((k) => k.formula.includes('FIN_PERIOD') || /B\d/.test(k.formula))).toBe(true);
  // One pack per workbook: both would follow the one reporting period. Insert is refused, and says why.
  await screen.findByText(/^This workbook has its board pack \(KPI sheet "Board KPIs"\): it rolls forward/, {}, { timeout: 15000 });
  const again = screen.getByRole('button', { name: 'Insert the board pack' });
  expect(again.getAttribute('aria-disabled')).toBe('true');
  await h.user.click(again);
  expect(h.gateway.sheetNames()).toHaveLength(7);

  // Rolling the pack: its cost names the blocks and prices the KPIs' reads too.
  const m1 = monthText(-1);
  await h.user.clear(field);
  await h.user.type(field, m1);
  const cost = await screen.findByText(new RegExp(`^Moving to ${m1} rolls 5 blocks forward: costs (\\d+) calls`), {}, { timeout: 15000 });
  const shown = Number(/costs (\d+) calls/.exec(cost.textContent!)![1]);
  expect(shown).toBeGreaterThan(0);
  const before = await sb.usage(sb.companies['growth-admin']);
  await h.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m1} .*: rolled 5 blocks forward`), {}, { timeout: 30000 });
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
