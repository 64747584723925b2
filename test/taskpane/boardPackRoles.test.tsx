/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 37, item 2: the pack's cost of revenue on a company whose chart names it its own way (Alderbrook Labs,
// growth3-admin: "Expenses > Cost of sales"). The pane proposes it from the chart, read only on the user's word
// (opening the tab spends nothing), lets the user change it, and the pack is inserted with the choice: here
// "None", so the KPI sheet's gross margin says it was left out, with no #N/A and no chart for it, and the
// workbook's pack record keeps the choice.
import '../../src/workbench/customFunctionsStub';
import { calendarDateAt, formatYearMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import { KPI_FIRST_ROW, NO_COST_OF_REVENUE, packKpis } from '../../src/engine/reporting/boardPack';
import * as runtime from '../../src/runtime';
import { createWorkbench } from '../../src/workbench/host';
import { registerFinFunctions } from '../support/finFunctions';
import { act, waitFor } from '@testing-library/react';
import { connected, renderServices, reportsSettled, screen, startSandbox, type TestSandbox } from './harness';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb?.close();
});

const monthText = (offset: number) => {
  const m = monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) + offset);
  return formatYearMonth(m.year, m.month);
};

test('the cost of revenue proposed from the chart on the user\u2019s word, changed to none: the gross margin left out with a word', async () => {
  const world = createWorkbench({ baseUrl: sb.baseUrl, metadata: registerFinFunctions().then((r) => r.info) });
  const settled = () =>
    act(async () => {
      for (let i = 0; i < 5; i++) await world.engine.whenIdle();
    });
  const pane = renderServices(world.services);
  await connected(pane, sb, 'growth3-admin');
  const company = sb.companies['growth3-admin'];
  const m0 = monthText(-2);
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await pane.user.clear(field);
  await pane.user.type(field, m0);
  await pane.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m0} \\(.*\\): spent 0 calls\\.`), {}, { timeout: 15000 });

  // Nothing read for the choice until asked: the chart is one of the pack's own reads.
  const before = await sb.usage(company);
  const costShown = (calls: string, cached: number) => new RegExp(`^Six statement sheets .*: costs at least ${calls} calls \\(${cached} cached\\)`);
  const cold = Number(/costs at least (\d+) calls \(0 cached\)/.exec((await screen.findByText(costShown('\\d+', 0), {}, { timeout: 15000 })).textContent!)![1]);
  const choose = await screen.findByRole('button', { name: /^Choose it now/ }, { timeout: 15000 });
  expect(await sb.usage(company)).toBe(before);
  await pane.user.click(choose);
  const select = (await screen.findByRole('combobox', { name: 'Cost of revenue (gross margin)' }, { timeout: 15000 })) as HTMLSelectElement;
  expect(await sb.usage(company)).toBe(before + 1);
  // The chart read early is the pack's call spent: the cost is worked out again without it (it stayed at the
  // cold figure, one more than the pack then spent: the "about 34" for 33).
  await screen.findByText(costShown(String(cold - 1), 1), {}, { timeout: 15000 });
  expect(select.selectedOptions[0].textContent).toBe('Expenses > Cost of sales');
  expect(screen.getByText(/^Proposed: Cost of sales, named like a cost of revenue\./)).toBeTruthy();
  await pane.user.selectOptions(select, 'None: leave the gross margin out');

  const beforeInsert = await sb.usage(company);
  await pane.user.click(screen.getByRole('button', { name: 'Insert the board pack' }));
  await screen.findByText(/^Inserted the board pack for /, {}, { timeout: 60000 });
  await settled();
  await reportsSettled();
  // What it spent in all, once its formulas have calculated: the statements and the formulas, as the API counted.
  const spent = (await sb.usage(company)) - beforeInsert;
  // Alderbrook's month has under 500 journal entries: the walk's one page, so the cost shown is what it spent.
  expect(spent).toBe(cold - 1);
  await screen.findByText(new RegExp(`^Inserted the board pack for .* Spent ${spent} calls: the statements \\d+, the formulas [1-9]\\d* as they calculated\\.$`), {}, { timeout: 15000 });

  const roles = { costOfRevenue: null };
  expect(await world.book.readSetting('fin.boardPack')).toMatchObject({ roles });
  const kpis = await world.book.readSheet('Board KPIs');
  const row = KPI_FIRST_ROW - 1 + packKpis(roles).findIndex((k) => k.label === 'Gross margin');
  expect(kpis.values[row][1]).toBe(NO_COST_OF_REVENUE);
  // Every KPI value is a figure or a word: no error on the board's sheet.
  for (let r = KPI_FIRST_ROW - 1; r < KPI_FIRST_ROW - 1 + packKpis(roles).length; r++) {
    expect(String(kpis.values[r][1])).not.toMatch(/^#/);
  }
  expect(world.book.chartsOn('Board charts').map((c) => c.name)).not.toContain('FinBoard_GrossMargin');

  // Changed after inserting (item 2): the pack's choice shown, Cost of sales chosen, the formulas written again.
  const change = await screen.findByRole('button', { name: 'Change it in the board pack' }, { timeout: 15000 });
  const edit = (await screen.findByRole('combobox', { name: 'Cost of revenue (gross margin)' }, { timeout: 15000 })) as HTMLSelectElement;
  await waitFor(() => expect(edit.selectedOptions[0].textContent).toBe('None: leave the gross margin out'));
  expect(change.getAttribute('aria-disabled')).toBe('true');
  const beforeChange = await sb.usage(company);
  // By its value: user-event matches an option's markup, where ">" is "&gt;".
  await pane.user.selectOptions(edit, [...edit.options].find((o) => o.textContent === 'Expenses > Cost of sales')!.value);
  await pane.user.click(change);
  await screen.findByText(/^The board pack's cost of revenue is now Cost of sales: its KPI and chart formulas were written again/, {}, { timeout: 15000 });
  await settled();
  await reportsSettled();
  // The formulas read the statements the pack cached: no call.
  expect(await sb.usage(company)).toBe(beforeChange);
  const cor = (await world.book.readSetting('fin.boardPack')) as { roles: { costOfRevenue: { name: string } } };
  expect(cor.roles.costOfRevenue.name).toBe('Cost of sales');
  const mapped = await world.book.readSheet('Board KPIs');
  expect(mapped.formulas[row][1]).toMatch(/^=\(B5\+FIN\.PNL\("cat_/);
  expect(typeof mapped.values[row][1]).toBe('number');
  expect(world.book.chartsOn('Board charts').map((c) => c.name)).toContain('FinBoard_GrossMargin');
  // The field now shows the pack's new choice, and there is nothing to change.
  await waitFor(() => expect((screen.getByRole('combobox', { name: 'Cost of revenue (gross margin)' }) as HTMLSelectElement).selectedOptions[0].textContent).toBe('Expenses > Cost of sales'));
  expect(screen.getByRole('button', { name: 'Change it in the board pack' }).getAttribute('aria-disabled')).toBe('true');
});
