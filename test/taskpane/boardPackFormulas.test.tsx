/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Moving the reporting period with a board pack and formulas of the user's own on FIN_PERIOD: the pane counts
// the user's formulas at what they read now ("about"), but not a figure the pack's own formulas read (the KPIs
// and the charts' table, priced exactly in the cost): it would be counted twice, and then spend nothing. Here
// the pane runs over the workbench, whose formula engine calculates the add-in's FIN functions, so what the
// formulas read is known and what the move spends is measured.
import '../../src/workbench/customFunctionsStub';
import { calendarDateAt, formatYearMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import * as runtime from '../../src/runtime';
import { createWorkbench } from '../../src/workbench/host';
import { registerFinFunctions } from '../support/finFunctions';
import { act } from '@testing-library/react';
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

/** The pane over a workbench whose formula engine calculates FIN functions, connected, FIN_PERIOD set to `m0`. */
async function paneWithPeriod(m0: string) {
  const world = createWorkbench({ baseUrl: sb.baseUrl, metadata: registerFinFunctions().then((r) => r.info) });
  // The FIN cells answering update the pane (its costs are worked out again after each batch): inside act.
  const settled = () =>
    act(async () => {
      for (let i = 0; i < 5; i++) await world.engine.whenIdle();
    });
  const pane = renderServices(world.services);
  await connected(pane, sb);
  const field = await screen.findByRole('textbox', { name: 'Reporting period' }, { timeout: 15000 });
  await pane.user.clear(field);
  await pane.user.type(field, m0);
  await pane.user.click(screen.getByRole('button', { name: 'Set reporting period' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m0} \\(.*\\): spent 0 calls\\.`), {}, { timeout: 15000 });
  return { world, settled, pane, field };
}

test("a formula of the user's reading a month the pack's charts read is not counted again; one reading another month is", async () => {
  const m0 = monthText(-2);
  const m1 = monthText(-1);
  const { world, settled, pane, field } = await paneWithPeriod(m0);
  // The pack with its charts, without the P&L by department: its cost is then exact (no journal walk).
  const byDept = await screen.findByRole('checkbox', { name: 'P&L by department for the month' }, { timeout: 15000 });
  await pane.user.click(byDept);
  await screen.findByText(/^Five statement sheets, a KPI sheet and a sheet of charts for .*: costs \d+ calls \(\d+ cached\), and 2 from the monthly statements at no call\.$/, {}, { timeout: 15000 });
  await pane.user.click(screen.getByRole('button', { name: 'Insert the board pack' }));
  await screen.findByText(/^Inserted the board pack for /, {}, { timeout: 60000 });
  await settled();
  await reportsSettled();
  // The pack as chosen: no P&L by department, and the workbook's record says so.
  expect(world.book.sheetNames()).toEqual(expect.arrayContaining(['Board KPIs', 'Board charts']));
  expect(world.book.sheetNames()).not.toContain('Board P&L by dept');
  expect(await world.book.readSetting('fin.boardPack')).toMatchObject({ included: { charts: true, byDepartment: false } });

  // Two formulas of the user's on the period: the month a year before (the charts' prior-year column reads it)
  // and the month two years before (nothing of the pack reads it).
  await act(async () => {
    await world.book.writeFormula('Sheet1!Z1', '=FIN.PNL("Revenue", FIN_PERIOD&"-1Y")');
    await world.book.writeFormula('Sheet1!Z2', '=FIN.PNL("Revenue", FIN_PERIOD&"-2Y")');
  });
  await settled();

  await pane.user.clear(field);
  await pane.user.type(field, m1);
  const cost = await screen.findByText(new RegExp(`^Moving to ${m1} rolls 5 blocks forward: costs (\\d+) calls? \\(\\d+ cached\\), and 2 from the monthly statements at no call\\.`), {}, { timeout: 30000 });
  // Without the fix: "about 2 calls more", the first counted again beside the charts' exact reads.
  expect(cost.textContent).toContain('The 2 FIN formulas naming FIN_PERIOD recalculate too: about 1 call more, what they read now.');
  const shown = Number(/costs (\d+) calls?/.exec(cost.textContent!)![1]);
  const before = await sb.usage(sb.companies['growth-admin']);
  await pane.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m1} .*: rolled 5 blocks forward`), {}, { timeout: 30000 });
  await settled();
  await reportsSettled();
  // The cost shown, and the one call said "about": Z2's new month. Z1's is the charts'.
  expect((await sb.usage(sb.companies['growth-admin'])) - before).toBe(shown + 1);
  pane.unmount();
});

test("a formula of the user's reading what a block on the reporting period reads is not counted again", async () => {
  const m0 = monthText(-3);
  const m1 = monthText(-2);
  const { world, settled, pane, field } = await paneWithPeriod(m0);
  // No pack: one block on the month of the reporting period.
  const choose = async (name: string, option: string) => pane.user.selectOptions(screen.getByRole('combobox', { name }), await screen.findByRole('option', { name: option }, { timeout: 15000 }));
  await choose('Statement', 'Income statement');
  await choose('Period', 'Month of the reporting period');
  await choose('Layout', 'One period');
  await pane.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the income statement at /, {}, { timeout: 30000 });
  await act(async () => {
    await world.book.writeFormula('Sheet1!Z1', '=FIN.PNL("Revenue", FIN_PERIOD)');
  });
  await settled();
  await reportsSettled();

  await pane.user.clear(field);
  await pane.user.type(field, m1);
  const cost = await screen.findByText(new RegExp(`^Moving to ${m1} rolls 1 block forward: costs 1 call`), {}, { timeout: 30000 });
  // The block reads the month's statement, which is all the formula reads: in the cost already.
  expect(cost.textContent).toContain('The FIN formula naming FIN_PERIOD recalculates too: no call more, what it reads now being in the cost above.');
  const before = await sb.usage(sb.companies['growth-admin']);
  await pane.user.click(screen.getByRole('button', { name: 'Roll forward' }));
  await screen.findByText(new RegExp(`^FIN_PERIOD is ${m1} .*: rolled 1 block forward`), {}, { timeout: 30000 });
  await settled();
  await reportsSettled();
  expect((await sb.usage(sb.companies['growth-admin'])) - before).toBe(1);
  pane.unmount();
});
