// Moving the reporting period (issue 15's roll forward, priced as issue 14 asks: before it spends): the FIN
// formulas that name FIN_PERIOD recalculate, and what they will read at the new month is known only once
// they have. The pane counts them at what they read now; here, in the workbench (its formula engine calculates
// the add-in's real FIN functions, against a sandbox), that count is what moving the period then spends.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import { periodFormulas } from '../../src/engine/reporting/periodFormulas';
import { namesReportingPeriod, setReportingPeriod } from '../../src/engine/reporting/period';
import { incomeStatementRead } from '../../src/engine/reporting/packReads';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench } from '../support/workbench';
import { monthsFrom, typeBudget } from '../support/budget';

let sb: TestSandbox;
const year = lastFullYear();

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

test('a formula names the reporting period in any case, not as part of another name or a function', () => {
  expect(namesReportingPeriod('=FIN.PNL("Revenue", FIN_PERIOD)')).toBe(true);
  expect(namesReportingPeriod('=FIN.PNL("Revenue",fin_period&" YTD")')).toBe(true);
  expect(namesReportingPeriod("=FIN.PNL('Reporting period'!B1)")).toBe(false);
  expect(namesReportingPeriod('=FIN.PNL("Revenue", FIN_PERIOD2)')).toBe(false);
  expect(namesReportingPeriod('=FIN.PNL("Revenue", MY_FIN_PERIOD)')).toBe(false);
});

test('the formulas naming FIN_PERIOD are counted at what they read now, and moving the period spends that', async () => {
  const w = sandboxWorkbench(sb);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  await setReportingPeriod(w.book, { year, month: 3 });
  await w.book.writeFormula('Sheet1!A1', '=FIN.PNL("Revenue", FIN_PERIOD)');
  await w.book.writeFormula('Sheet1!A2', '=FIN.PNL("Rent", FIN_PERIOD&" YTD")-FIN.PNL("Travel", FIN_PERIOD&" YTD")');
  // Not on the period: it stays as it is.
  await w.book.writeFormula('Sheet1!A3', `=FIN.PNL("Revenue", "${year}-01")`);
  await w.engine.whenIdle();
  const host = w.host;
  const deps = {
    sheets: async () => (await w.book.listSheets()).map((s) => s.name),
    finCellsIn: host.finCellsIn!.bind(host),
    requestsOf: (cells: Parameters<typeof runtime.cellRequests>[0]) => runtime.cellRequests(cells),
  };
  // March's income statement (A1) and the year to March (A2's two lines read one report).
  expect(await periodFormulas(deps)).toEqual({ cells: 2, calls: 2, unknown: 0 });
  // A sheet priced elsewhere (the board pack's KPIs) is left out.
  expect(await periodFormulas(deps, ['sheet1'])).toEqual({ cells: 0, calls: 0, unknown: 0 });
  // A figure read by what is priced exactly (the pack's formulas) is not counted again: March's statement.
  expect(await periodFormulas(deps, [], [incomeStatementRead({ year, month: 3 })])).toEqual({ cells: 2, calls: 1, unknown: 0 });

  const company = sb.companies['growth-admin'];
  const before = await sb.usage(company);
  await setReportingPeriod(w.book, { year, month: 4 });
  await w.engine.whenIdle();
  // April's statement; the year to April is the year to March (cached) and April's, summed (reader/derive.ts).
  expect((await sb.usage(company)) - before).toBe(1);
  // Counted again after the move: what they read at April, as many.
  expect(await periodFormulas(deps)).toEqual({ cells: 2, calls: 2, unknown: 0 });
});

test('a FIN.BUDGET formula on the period reads nothing from the API: counted as known (0 calls), never as not calculated yet', async () => {
  const w = sandboxWorkbench(sb);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  await setReportingPeriod(w.book, { year, month: 3 });
  const months = monthsFrom(`${year}-01-01`, 12);
  const typed = await typeBudget(w.book, 'Budget', months, [{ label: 'Rent', units: months.map(() => 8_500) }]);
  await w.book.writeFormula('Sheet1!A1', `=FIN.BUDGET(${typed.address}, "Rent", FIN_PERIOD)`);
  await w.book.writeFormula('Sheet1!A2', '=FIN.PNL("Rent", FIN_PERIOD)');
  await w.engine.whenIdle();
  const host = w.host;
  const deps = {
    sheets: async () => (await w.book.listSheets()).map((s) => s.name),
    finCellsIn: host.finCellsIn!.bind(host),
    requestsOf: (cells: Parameters<typeof runtime.cellRequests>[0]) => runtime.cellRequests(cells),
  };
  // Both calculated: the budget's cell read nothing, the P&L's the month's statement (and the chart, cached or not).
  const priced = await periodFormulas(deps);
  expect(priced).toMatchObject({ cells: 2, unknown: 0 });
});
