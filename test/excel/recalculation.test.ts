// Refresh's recalculation in Excel (src/excel/recalculation.ts and formulaCells.ts) through Microsoft's
// client library against the fake Excel: it finds this workbook's FIN cells in each sheet's used range,
// reads their formulas in responses that fit Excel on the web's 5 MB, recalculates those cells and nothing
// else, and once they have settled recalculates every cell that depends on them, at any depth (Excel's
// RangeAreas.calculate reaches the direct dependents only: office-js#5063). A refresh of the selection or the
// sheet finds the FIN cells of its box, a one-cell selection included (Go To Special on one cell searches the
// whole sheet).
import { finEvaluations, type Recalculation } from '../../src/engine/fin';
import { CellReads } from '../../src/engine/fin/cellReads';
import { parseBox } from '../../src/engine/ports/address';
import { ADDRESS_CHARS, finCellsIn, recalculateFinCells, type RecalculationOptions } from '../../src/excel/recalculation';
import { chartFormulas } from '../../src/engine/reporting/boardCharts';
import { FakeCalc, type CustomCall } from './fakeCalc';
import { FakeExcel, FAKE_PAYLOAD_LIMIT, parseA1 } from './fakeExcel';
import { officeHarness } from './harnesses';
import { scriptedFin } from '../support/scriptedFin';
import { membersCalledOn, realExcelRun, WEB, WINDOWS, type HostProfile } from './officeJs';
import { hostHas, HOST_FILES, readDeclarations, unavailableOn } from './requirementSets';

/** A host between ExcelApi 1.9 and 1.15 (Range.getDependents): FIN cells can be picked out, dependents not listed. */
const EXCEL_1_12: HostProfile = { name: 'ExcelApi 1.12', platform: 'PC', version: '16.0.14326.20454', sets: { excelapi: '1.12', delayforcelledit: '1.1' }, client: 'package' };

function on(profile: HostProfile, excel: FakeExcel): Pick<RecalculationOptions, 'run' | 'supports'> {
  return { run: realExcelRun(excel, profile), supports: (set, version) => hostHas(profile, { set, version }) };
}

/** Cells by A1 address: a formula (with the value it shows), or a constant. */
function fill(excel: FakeExcel, sheet: string, cells: Record<string, string | number | [string, string | number]>): void {
  const s = excel.findSheet(sheet) ?? excel.addSheet(sheet);
  for (const [address, content] of Object.entries(cells)) {
    const { row, col } = parseA1(address);
    const cell = s.ensure(row, col);
    if (Array.isArray(content)) [cell.formula, cell.value] = content;
    else if (typeof content === 'string' && content.startsWith('=')) [cell.formula, cell.value] = [content, 0];
    else cell.value = content;
  }
}

const value = (excel: FakeExcel, sheet: string, address: string) => excel.cell(sheet, address).value;
const calculated = (excel: FakeExcel) => excel.calculations.flatMap((c) => c.address.split(',').map((a) => `${c.sheet}!${a}`));

/** The runtime's part, in short: wait until the FIN evaluations have settled, then the dependents, then Excel. */
async function settle(excel: FakeExcel, calc: FakeCalc, recalculation: Recalculation): Promise<void> {
  await calc.whenIdle();
  await recalculation.dependents?.();
  await calc.whenIdle();
  expect(excel.calculationState).toBe('Done');
}

describe("Refresh all's recalculation in Excel", () => {
  it("recalculates only this workbook's FIN cells, found in each sheet's used range, never the application, and counts their FIN calls", async () => {
    const excel = new FakeExcel({ sheets: ['Model', 'Empty', 'Notes'] });
    fill(excel, 'Model', {
      B2: '=FIN.PNL("Rent","2026-07")',
      B3: '=FIN.PNL("Travel","2026-07")+FIN.PNL("Meals","2026-07")',
      B4: '=FIN.BALANCE("Cash","2026-07")',
      B5: '=SUM(B2:B4)', // same area, not FIN
      C2: '=OTHERADDIN.PRICE("MSFT")', // another add-in's metered function
      D2: '=FIN.VERSION()', // no evaluation
      D3: '="FIN.TOTAL(" & A1', // text
      E7: '=fin.total("Rent", "2026-Q1")',
    });
    fill(excel, 'Notes', { A1: '=TODAY()' });
    const recalculation = await recalculateFinCells(on(WINDOWS, excel));
    expect(calculated(excel).sort()).toEqual(['Model!B2:B4', 'Model!E7']);
    expect(excel.calculations.map((c) => c.what)).toEqual(['RangeAreas']);
    expect(recalculation.evaluations).toBe(5);
    expect(excel.syncs.flatMap((s) => s.recalcs)).toEqual([]); // never Application.calculate
    // Each sheet's used range is searched, not the whole sheet; an empty one is looked at as its one cell.
    expect(excel.searches).toEqual([
      { sheet: 'Model', address: 'B2:E7' },
      { sheet: 'Empty', address: 'A1' },
      { sheet: 'Notes', address: 'A1' },
    ]);
    expect(excel.syncCount).toBe(4); // sheets, their formula areas, the formulas, the recalculation
    expect(unavailableOn(WINDOWS, membersCalledOn(WINDOWS), readDeclarations(HOST_FILES.Windows))).toEqual([]);

    // Excel's calculation state, read when asked.
    expect(await recalculation.calculationDone!()).toBe(true);
    excel.calculationState = 'Calculating';
    expect(await recalculation.calculationDone!()).toBe(false);
    excel.calculationState = 'Pending';
    expect(await recalculation.calculationDone!()).toBe(false);
  });

  it('after connecting: only the FIN cells that show an error, in the same syncs', async () => {
    const excel = new FakeExcel({ sheets: ['Model'] });
    fill(excel, 'Model', {
      B2: ['=FIN.PNL("Rent","2026-07")', '#N/A'], // Not connected
      B3: ['=FIN.PNL("Travel","2026-07")+FIN.PNL("Meals","2026-07")', '#N/A'],
      B4: ['=FIN.BALANCE("Cash","2026-07")', 1200], // a figure (perhaps from a colleague's cache): left alone
      B5: ['=SUM(B2:B4)', '#N/A'], // an error, but no FIN call: Excel recalculates it as a dependant
      E7: ['=fin.total("Rent", "2026-Q1")', 5], // a figure
    });
    fill(excel, 'Other', { A1: ['=FIN.CATEGORIES()', '#N/A'] });
    const recalculation = await recalculateFinCells({ ...on(WINDOWS, excel), errorsOnly: true });
    expect(calculated(excel).sort()).toEqual(['Model!B2:B3', 'Other!A1']);
    expect(recalculation.evaluations).toBe(4);
    expect(excel.syncCount).toBe(4);
  });

  it('a workbook without FIN cells: nothing recalculated, nothing to wait for, no dependents step', async () => {
    const excel = new FakeExcel({ sheets: ['Sheet1', 'Sheet2'] });
    fill(excel, 'Sheet1', { A1: '=1+1' });
    const recalculation = await recalculateFinCells(on(WINDOWS, excel));
    expect(recalculation.evaluations).toBe(0);
    expect(recalculation.dependents).toBeUndefined();
    expect(excel.calculations).toEqual([]);
  });

  it('scattered FIN cells are recalculated in bounded address lists', async () => {
    // 6,000 formulas in one column, every other one a FIN call: 3,000 separate cells.
    const excel = new FakeExcel({ sheets: ['Big'] });
    const sheet = excel.sheet('Big');
    for (let row = 0; row < 6_000; row++) {
      sheet.ensure(row, 2).formula = row % 2 === 0 ? `=FIN.TOTAL("Rent","2026-${String((row % 12) + 1).padStart(2, '0')}")` : '=1';
    }
    const calc = new FakeCalc(excel, () => 1);
    const recalculation = await recalculateFinCells(on(WINDOWS, excel));
    expect(recalculation.evaluations).toBe(3_000);
    const cells = calculated(excel);
    expect(cells).toHaveLength(3_000);
    expect(cells.every((a) => Number(a.slice('Big!C'.length)) % 2 === 1)).toBe(true);
    expect(excel.calculations.length).toBeGreaterThan(1);
    expect(excel.calculations.every((c) => c.address.length <= ADDRESS_CHARS)).toBe(true);
    expect(calc.calls).toHaveLength(3_000);

    // Their dependents: the column's FIN cells asked about as one range (Excel finds none), the cells between
    // them recalculated: two syncs, not one per cell.
    excel.resetLog();
    excel.calculations.length = 0;
    await recalculation.dependents!();
    expect(excel.syncCount).toBe(2);
    expect(calculated(excel)).toHaveLength(2_999);
    expect(calc.calls).toHaveLength(3_000);
  });

  it("reads a formula-heavy model's formulas in responses under Excel on the web's 5 MB: a batch refused is halved and asked again", async () => {
    // 24,000 FIN formulas of about 280 characters: 6.7 MB of formulas, more than one response may carry.
    const excel = new FakeExcel({ sheets: ['Model'] });
    const sheet = excel.sheet('Model');
    const note = 'x'.repeat(200);
    for (let row = 0; row < 24_000; row++) sheet.ensure(row, 1).formula = `=FIN.TOTAL("Operating Expenses > General & Administrative > Rent","2026-${String((row % 12) + 1).padStart(2, '0')}")+0*LEN("${note}")`;
    const recalculation = await recalculateFinCells(on(WEB, excel));
    expect(recalculation.evaluations).toBe(24_000);
    expect(calculated(excel)).toEqual(['Model!B1:B24000']);
    const refused = excel.syncs.filter((s) => s.error === 'ResponsePayloadSizeLimitExceeded');
    expect(refused).toHaveLength(1); // the first guess (20,000 cells) was too large
    expect(Math.max(...excel.syncs.filter((s) => !s.error).map((s) => s.responseBytes))).toBeLessThan(FAKE_PAYLOAD_LIMIT);
    // sheets, areas, the refused batch, three batches that fit, the recalculation
    expect(excel.syncCount).toBe(7);
  });

  it('a sheet whose formula cells stand apart by the thousand is searched in halves when one answer would be too large', async () => {
    // A host that answers at most 200,000 bytes: 4,000 separate formula cells are about 300,000 bytes of areas.
    const excel = new FakeExcel({ sheets: ['Sparse'], responseLimitBytes: 200_000 });
    const sheet = excel.sheet('Sparse');
    for (let i = 0; i < 4_000; i++) sheet.ensure(i * 2, 1).formula = '=FIN.TOTAL("Rent","2026-07")';
    const cells = await finCellsIn('Sparse', { row: 0, col: 0, rows: 1_048_576, cols: 16_384 }, { ...on(WINDOWS, excel), budgetBytes: 150_000 });
    expect(cells).toHaveLength(4_000);
    expect(excel.syncs.some((s) => s.error === 'ResponsePayloadSizeLimitExceeded')).toBe(true);
    expect(Math.max(...excel.syncs.filter((s) => !s.error).map((s) => s.responseBytes))).toBeLessThanOrEqual(200_000);
  });

  it('a refresh of the FIN cells leaves no total stale: every dependent, at any depth and on any sheet, shows the new figure', async () => {
    const excel = new FakeExcel({ sheets: ['P&L', 'Summary'] });
    fill(excel, 'P&L', {
      B2: ['=FIN.PNL("Revenue","2026-07")', 100],
      B3: ['=FIN.PNL("Cost of Revenue","2026-07")', -30],
      B4: ['=B2+B3', 70], // gross profit: a direct dependent
      B5: ['=FIN.PNL("Operating Expenses","2026-07")', -20],
      B6: ['=B4+B5', 50], // net income: on gross profit too
      B7: ['=B6*0.8', 40], // after tax: on net income only (the second level)
      D2: ['=FIN.PNL("Travel","2026-07")', 4], // a FIN cell nothing depends on
    });
    fill(excel, 'Summary', { A1: ["='P&L'!B7", 40] });
    const now: Record<string, number> = { Revenue: 200, 'Cost of Revenue': -50, 'Operating Expenses': -25, Travel: 6 };
    const calc = new FakeCalc(excel, (call: CustomCall) => Promise.resolve(now[/"([^"]+)"/.exec(call.formula)![1]]));

    const recalculation = await recalculateFinCells(on(WINDOWS, excel));
    await settle(excel, calc, recalculation);
    expect([value(excel, 'P&L', 'B2'), value(excel, 'P&L', 'B4'), value(excel, 'P&L', 'B6'), value(excel, 'P&L', 'B7'), value(excel, 'Summary', 'A1')]).toEqual([
      200, 150, 125, 100, 100,
    ]);
    // The dependents were listed by Excel (Range.getDependents, ExcelApi 1.15) and recalculated; no FIN call twice.
    expect(membersCalledOn(WINDOWS).has('Range.getDependents')).toBe(true);
    expect(calc.calls).toHaveLength(4);
    expect(unavailableOn(WINDOWS, membersCalledOn(WINDOWS), readDeclarations(HOST_FILES.Windows))).toEqual([]);
  });

  it('totals between FIN cells of a column are recalculated too, at any depth', async () => {
    const excel = new FakeExcel({ sheets: ['P&L'] });
    fill(excel, 'P&L', {
      B2: ['=FIN.PNL("Revenue","2026-07")', 100],
      B3: ['=B2*2', 200], // between the FIN cells of column B
      B4: ['=B3+1', 201], // on B3 only: the second level, inside the column's FIN span
      B5: ['=FIN.PNL("Rent","2026-07")', -10],
    });
    const calc = new FakeCalc(excel, (call) => Promise.resolve(call.address === 'B2' ? 300 : -20));
    const recalculation = await recalculateFinCells(on(WINDOWS, excel));
    await settle(excel, calc, recalculation);
    expect([value(excel, 'P&L', 'B3'), value(excel, 'P&L', 'B4'), value(excel, 'P&L', 'B5')]).toEqual([600, 601, -20]);
  });

  it('a refresh of some FIN cells (the selection) updates the totals built on them, at any depth', async () => {
    const excel = new FakeExcel({ sheets: ['P&L'] });
    fill(excel, 'P&L', {
      B2: ['=FIN.PNL("Revenue","2026-07")', 100],
      C2: ['=FIN.PNL("Revenue","2026-08")', 110],
      B4: ['=B2+C2', 210],
      B5: ['=B4/2', 105],
    });
    const calc = new FakeCalc(excel, (call) => Promise.resolve(call.address === 'B2' ? 300 : 999));
    const cells = await finCellsIn('P&L', parseBox('B2'), on(WINDOWS, excel));
    expect(cells.map((c) => [c.row, c.col])).toEqual([[1, 1]]);
    const recalculation = await recalculateFinCells({ ...on(WINDOWS, excel), cells });
    await settle(excel, calc, recalculation);
    expect([value(excel, 'P&L', 'B2'), value(excel, 'P&L', 'C2'), value(excel, 'P&L', 'B4'), value(excel, 'P&L', 'B5')]).toEqual([300, 110, 410, 205]);
    expect(calc.calls.map((c) => c.address)).toEqual(['B2']);
  });

  it('where dependents cannot be listed (before ExcelApi 1.15), every sheet is recalculated once the FIN cells have settled', async () => {
    const excel = new FakeExcel({ sheets: ['P&L'] });
    fill(excel, 'P&L', { B2: ['=FIN.PNL("Revenue","2026-07")', 100], B4: ['=B2*2', 200], B5: ['=B4+1', 201] });
    const calc = new FakeCalc(excel, () => Promise.resolve(7));
    const recalculation = await recalculateFinCells(on(EXCEL_1_12, excel));
    await settle(excel, calc, recalculation);
    expect([value(excel, 'P&L', 'B4'), value(excel, 'P&L', 'B5')]).toEqual([14, 15]);
    expect(excel.calculations.map((c) => c.what)).toEqual(['RangeAreas', 'Worksheet']);
    expect(unavailableOn(EXCEL_1_12, membersCalledOn(EXCEL_1_12), readDeclarations(HOST_FILES.Windows))).toEqual([]);
  });
});

describe('A refresh of the selection or the sheet in Excel', () => {
  const model = () => {
    const excel = new FakeExcel({ sheets: ['Model', 'Other'] });
    fill(excel, 'Model', {
      B2: '=FIN.PNL("Rent","2026-07")',
      B3: '=FIN.PNL("Travel",FIN_PERIOD)+FIN.PNL("Meals",FIN_PERIOD&" YTD")',
      B4: '=SUM(B2:B3)',
      E7: '=fin.total("Rent", "2026-Q1")',
    });
    fill(excel, 'Other', { A1: '=FIN.BALANCE("Cash","2026-07")' });
    return excel;
  };

  it('finds the FIN cells of a box, or of the whole sheet (its used range), with the FIN calls of each and whether it names FIN_PERIOD', async () => {
    const excel = model();
    expect(await finCellsIn('Model', parseBox('A1:C5'), on(WINDOWS, excel))).toEqual([
      { sheet: 'Model', row: 1, col: 1, calls: 1, readsPeriod: false },
      { sheet: 'Model', row: 2, col: 1, calls: 2, readsPeriod: true },
    ]);
    const whole = await finCellsIn('Model', { row: 0, col: 0, rows: 1_048_576, cols: 16_384 }, on(WINDOWS, excel));
    expect(whole.map((c) => [c.row, c.col])).toEqual([
      [1, 1],
      [2, 1],
      [6, 4],
    ]);
    expect(excel.searches).toEqual([
      { sheet: 'Model', address: 'A1:C5' },
      { sheet: 'Model', address: 'B2:E7' },
    ]);
  });

  it('a one-cell selection is that cell: Go To Special on one cell would search the whole sheet', async () => {
    const excel = model();
    expect(await finCellsIn('Model', parseBox('C9'), on(WINDOWS, excel))).toEqual([]);
    expect(await finCellsIn('Model', parseBox('E7'), on(WINDOWS, excel))).toEqual([{ sheet: 'Model', row: 6, col: 4, calls: 1, readsPeriod: false }]);
    expect(await finCellsIn('Model', parseBox('B4'), on(WINDOWS, excel))).toEqual([]);
  });

  it('recalculates those cells and nothing else, and counts their FIN calls', async () => {
    const excel = model();
    const cells = await finCellsIn('Model', parseBox('A1:C5'), on(WINDOWS, excel));
    const recalculation = await recalculateFinCells({ ...on(WINDOWS, excel), cells });
    expect(calculated(excel)).toEqual(['Model!B2:B3']);
    expect(recalculation.evaluations).toBe(3);
  });
});

describe('Recalculations Excel makes on its own (office-js#3332, #3911)', () => {
  it("a block whose rows the add-in groups makes Excel calculate the FIN cells again: answered from the cache, due or not", async () => {
    const h = officeHarness({ sheets: ['Model'] });
    const { fin, reader, calls } = scriptedFin();
    const cellReads = new CellReads();
    // Excel calls the FIN function with its cell's address, as the add-in's functions ask it to.
    const calc = new FakeCalc(h.fake, (call) => {
      const [, name, line, period] = /^=FIN\.(\w+)\("([^"]+)","([^"]+)"\)$/.exec(call.formula)!;
      return fin.evaluate<number>({ name, args: [line, period], address: `${call.sheet}!${call.address}` }, { cellReads });
    });
    fill(h.fake, 'Model', { B2: '=FIN.PNL("Revenue","2026-07")' });
    await recalculateFinCells(on(WINDOWS, h.fake));
    await calc.whenIdle();
    expect(value(h.fake, 'Model', 'B2')).toBe(200);
    expect(calls()).toBe(2);

    await reader.markStale((req) => req.path === '/reports/income_statement'); // a push changed July
    await h.office.writeGrid(
      { kind: 'anchor', sheet: 'Model', cell: 'D1' },
      { values: [['Revenue', ''], ['Sales', 10], ['Services', 5], ['Total revenue', 15]], outlineLevels: [0, 1, 1, 0] },
    );
    await calc.whenIdle();
    expect(h.fake.sheet('Model').outline.get(1)).toBe(1); // grouped...
    expect(calc.calls).toHaveLength(2); // ...so Excel called B2's function again
    expect(value(h.fake, 'Model', 'B2')).toBe(200);
    expect(calls()).toBe(2);
  });
});

describe('Board charts on the web (issue 36, item 2)', () => {
  it("counts the FIN calls Excel will make, not those the sheet holds: IF leaves a month after the period out, so the count is met while calculationState stays Pending (office-js#4760)", async () => {
    const excel = new FakeExcel({ sheets: ['Board charts'] });
    const sheet = excel.sheet('Board charts');
    for (const { row, col, formula } of chartFormulas(1, { costOfRevenue: { id: 'cat_cor', name: 'Cost of Revenue' } })) Object.assign(sheet.ensure(row, col), { formula, value: 0 });
    // The months so far in the fiscal year (its formula reads FIN_PERIOD, which the fake does not evaluate).
    const count = chartFormulas(1, { costOfRevenue: { id: 'cat_cor', name: 'Cost of Revenue' } })[0];
    sheet.ensure(count.row, count.col).value = 7;
    excel.userChart('Board charts', 'B38:B49', 'K2:R20');
    const calc = new FakeCalc(excel, () => Promise.resolve(100));
    calc.onTheWeb = true;
    const recalculation = await recalculateFinCells(on(WEB, excel));
    await calc.whenIdle();
    expect(calc.calls.length).toBeGreaterThan(0);
    // Only the first seven months' FIN cells are called; each call is one evaluation of the count.
    expect(new Set(calc.calls.map((c) => Number(/^=IF\((\d+)>/.exec(c.formula)![1])))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
    expect(recalculation.evaluations).toBe(calc.calls.reduce((n, c) => n + finEvaluations(c.formula), 0));
    expect(recalculation.evaluations).toBe(7 * 11); // a month's row: eleven FIN evaluations (each operating expenses cell reads the total and the cost of revenue)
    expect(await recalculation.calculationDone!()).toBe(false); // Pending for good: the count is what ends the wait
    // A refresh of the sheet counts the same way, cell by cell.
    const cells = await finCellsIn('Board charts', parseBox('A1:I60'), on(WEB, excel));
    expect(cells.reduce((n, c) => n + c.calls, 0)).toBe(recalculation.evaluations);
  });
});
