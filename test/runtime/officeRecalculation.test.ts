// Refresh all's recalculation in Excel (src/excel/recalculation.ts) over a small fake of the Excel calls it
// makes: it recalculates this workbook's FIN cells and nothing else (after connecting, only those showing an
// error), counts their FIN calls, reads Application.calculationState, and falls back to recalculating each
// sheet where ExcelApi 1.9 is missing.
// The fake keeps the one rule of the real client that matters here: a loaded property is there only after
// the next sync.
import { ADDRESS_CHARS, FORMULA_CELLS_PER_SYNC, finCellsIn, recalculateFinCells } from '../../src/excel/recalculation';
import { cellA1, parseBox } from '../../src/engine/ports/address';
import type { ExcelRunner } from '../../src/excel/officeGateway';

interface SheetState {
  name: string;
  /** "row,col" (0-based) -> formula. */
  formulas: Map<string, string>;
  /** "row,col" of the cells whose value is an error. */
  errors: Set<string>;
}

interface Log {
  syncs: number;
  /** Cells recalculated, as "Sheet!A1". */
  calculated: string[];
  addressLists: string[];
  sheetCalculations: { sheet: string; markAllDirty: boolean }[];
  applicationCalculations: number;
  specialCells: number;
  /** What each formula range loaded. */
  rangeLoads: string[];
}

function fakeExcel(sheets: SheetState[], state: { calculationState: string } = { calculationState: 'Done' }) {
  const log: Log = { syncs: 0, calculated: [], addressLists: [], sheetCalculations: [], applicationCalculations: 0, specialCells: 0, rangeLoads: [] };
  const onSync: (() => void)[] = [];

  /** Formula cells as areas: Excel's are rectangles; vertical runs per column are rectangles too. */
  function areasOf(sheet: SheetState) {
    const cells = [...sheet.formulas.keys()].map((k) => k.split(',').map(Number) as [number, number]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const areas: { rowIndex: number; columnIndex: number; rowCount: number; columnCount: number }[] = [];
    for (const [row, col] of cells) {
      const last = areas[areas.length - 1];
      if (last && last.columnIndex === col && last.rowIndex + last.rowCount === row) last.rowCount += 1;
      else areas.push({ rowIndex: row, columnIndex: col, rowCount: 1, columnCount: 1 });
    }
    return areas;
  }

  /** Range.getSpecialCellsOrNullObject('Formulas') over a box of the sheet (all of it by default). */
  function specialCells(sheet: SheetState, within?: { row: number; col: number; rows: number; cols: number }) {
    return (type: string) => {
      expect(type).toBe('Formulas');
      log.specialCells += 1;
      const inside = (a: { rowIndex: number; columnIndex: number }) =>
        !within || (a.rowIndex >= within.row && a.rowIndex < within.row + within.rows && a.columnIndex >= within.col && a.columnIndex < within.col + within.cols);
      // Cut to the box: one-cell areas are enough for what the tests ask.
      const areas = within
        ? areasOf(sheet)
            .flatMap((a) => Array.from({ length: a.rowCount }, (_, i) => ({ rowIndex: a.rowIndex + i, columnIndex: a.columnIndex, rowCount: 1, columnCount: 1 })))
            .filter(inside)
        : areasOf(sheet);
      const result = {
        isNullObject: undefined as boolean | undefined,
        areas: { items: undefined as unknown },
        load: (what: string) => {
          expect(what).toContain('areas/items/rowIndex');
          onSync.push(() => {
            result.isNullObject = areas.length === 0;
            result.areas.items = areas;
          });
        },
      };
      return result;
    };
  }

  function worksheet(sheet: SheetState) {
    return {
      name: undefined as string | undefined,
      getRange: () => ({ getSpecialCellsOrNullObject: specialCells(sheet) }),
      getRangeByIndexes: (row: number, col: number, rows: number, cols: number) => {
        const range = {
          getSpecialCellsOrNullObject: specialCells(sheet, { row, col, rows, cols }),
          formulas: undefined as unknown,
          valueTypes: undefined as unknown,
          load: (what: string) => {
            expect(['formulas', 'formulas,valueTypes']).toContain(what);
            log.rangeLoads.push(what);
            onSync.push(() => {
              range.formulas = Array.from({ length: rows }, (_, r) =>
                Array.from({ length: cols }, (_, c) => sheet.formulas.get(`${row + r},${col + c}`) ?? ''),
              );
              if (what.includes('valueTypes')) {
                range.valueTypes = Array.from({ length: rows }, (_, r) =>
                  Array.from({ length: cols }, (_, c) => (sheet.errors.has(`${row + r},${col + c}`) ? 'Error' : 'Double')),
                );
              }
            });
          },
        };
        return range;
      },
      getRanges: (addresses: string) => ({
        calculate: () => {
          log.addressLists.push(addresses);
          for (const address of addresses.split(',')) {
            const box = parseBox(address);
            for (let r = 0; r < box.rows; r++) for (let c = 0; c < box.cols; c++) log.calculated.push(`${sheet.name}!${cellA1(box.row + r, box.col + c)}`);
          }
        },
      }),
      calculate: (markAllDirty: boolean) => {
        log.sheetCalculations.push({ sheet: sheet.name, markAllDirty });
      },
    };
  }

  const run: ExcelRunner = async (_options, batch) => {
    const proxies = sheets.map((s) => ({ state: s, proxy: worksheet(s) }));
    const worksheets = {
      items: undefined as unknown,
      getItem: (name: string) => proxies.find((p) => p.state.name === name)!.proxy,
      load: (what: string) => {
        expect(what).toBe('items/name');
        onSync.push(() => {
          for (const p of proxies) p.proxy.name = p.state.name;
          worksheets.items = proxies.map((p) => p.proxy);
        });
      },
    };
    const application = {
      calculationState: undefined as string | undefined,
      load: (what: string) => {
        expect(what).toBe('calculationState');
        onSync.push(() => {
          application.calculationState = state.calculationState;
        });
      },
      calculate: () => {
        log.applicationCalculations += 1;
      },
    };
    const context = {
      workbook: { worksheets, application },
      sync: async () => {
        log.syncs += 1;
        for (const apply of onSync.splice(0)) apply();
      },
    };
    return batch(context as unknown as Excel.RequestContext);
  };
  return { run, log, state };
}

/** A sheet's formulas by A1 address; `errors` lists the cells whose value is an error. */
function sheet(name: string, cells: Record<string, string>, errors: string[] = []): SheetState {
  const rowCol = (a1: string) => {
    const { row, col } = parseBox(a1);
    return `${row},${col}`;
  };
  const formulas = new Map<string, string>();
  for (const [a1, formula] of Object.entries(cells)) formulas.set(rowCol(a1), formula);
  return { name, formulas, errors: new Set(errors.map(rowCol)) };
}

const ALL_SETS = () => true;
const BEFORE_1_9 = (set: string, version: string) => set !== 'ExcelApi' || Number(version.split('.')[1]) < 9;

describe("Refresh all's recalculation in Excel", () => {
  it("recalculates only this workbook's FIN cells, never the application, and counts their FIN calls", async () => {
    const excel = fakeExcel([
      sheet('Model', {
        B2: '=FIN.PNL("Rent","2026-07")',
        B3: '=FIN.PNL("Travel","2026-07")+FIN.PNL("Meals","2026-07")',
        B4: '=FIN.BALANCE("Cash","2026-07")',
        B5: '=SUM(B2:B4)', // same area, not FIN
        C2: '=OTHERADDIN.PRICE("MSFT")', // another add-in's metered function
        D2: '=FIN.VERSION()', // no evaluation
        D3: '="FIN.TOTAL(" & A1', // text
        E7: '=fin.total("Rent", "2026-Q1")',
      }),
      sheet('Empty', {}),
      sheet('Notes', { A1: '=TODAY()' }),
    ]);
    const recalculation = await recalculateFinCells({ run: excel.run, supports: ALL_SETS });
    expect(excel.log.calculated.sort()).toEqual(['Model!B2', 'Model!B3', 'Model!B4', 'Model!E7']);
    expect(excel.log.addressLists).toEqual(['B2:B4,E7']);
    expect(recalculation.evaluations).toBe(5);
    expect(excel.log.applicationCalculations).toBe(0);
    expect(excel.log.sheetCalculations).toEqual([]);
    expect(excel.log.specialCells).toBe(3);
    expect(excel.log.syncs).toBe(4); // sheets, their formula areas, the formulas, the recalculation
    expect(new Set(excel.log.rangeLoads)).toEqual(new Set(['formulas']));

    // Excel's calculation state, read when asked.
    expect(await recalculation.calculationDone!()).toBe(true);
    excel.state.calculationState = 'Calculating';
    expect(await recalculation.calculationDone!()).toBe(false);
    excel.state.calculationState = 'Pending';
    expect(await recalculation.calculationDone!()).toBe(false);
  });

  it('after connecting: only the FIN cells that show an error, in the same syncs', async () => {
    const excel = fakeExcel([
      sheet(
        'Model',
        {
          B2: '=FIN.PNL("Rent","2026-07")', // Not connected
          B3: '=FIN.PNL("Travel","2026-07")+FIN.PNL("Meals","2026-07")', // Not connected
          B4: '=FIN.BALANCE("Cash","2026-07")', // a figure (perhaps from a colleague's cache): left alone
          B5: '=SUM(B2:B4)', // an error, but no FIN call: Excel recalculates it as a dependant
          E7: '=fin.total("Rent", "2026-Q1")', // a figure
        },
        ['B2', 'B3', 'B5'],
      ),
      sheet('Other', { A1: '=FIN.CATEGORIES()' }, ['A1']),
    ]);
    const recalculation = await recalculateFinCells({ run: excel.run, supports: ALL_SETS, errorsOnly: true });
    expect(excel.log.calculated.sort()).toEqual(['Model!B2', 'Model!B3', 'Other!A1']);
    expect(recalculation.evaluations).toBe(4);
    expect(new Set(excel.log.rangeLoads)).toEqual(new Set(['formulas,valueTypes']));
    expect(excel.log.syncs).toBe(4);
    expect(excel.log.applicationCalculations).toBe(0);
  });

  it('a workbook without FIN cells: nothing recalculated, nothing to wait for', async () => {
    const excel = fakeExcel([sheet('Sheet1', { A1: '=1+1' }), sheet('Sheet2', {})]);
    const recalculation = await recalculateFinCells({ run: excel.run, supports: ALL_SETS });
    expect(recalculation.evaluations).toBe(0);
    expect(excel.log.calculated).toEqual([]);
    expect(excel.log.applicationCalculations).toBe(0);
  });

  it('reads many formulas a slice at a time and recalculates scattered FIN cells in bounded address lists', async () => {
    // 30,000 formulas in one column, every other one a FIN call: 15,000 separate cells.
    const cells: Record<string, string> = {};
    for (let row = 1; row <= 30_000; row++) cells[`C${row}`] = row % 2 === 1 ? `=FIN.TOTAL("Rent","2026-${String((row % 12) + 1).padStart(2, '0')}")` : '=1';
    const excel = fakeExcel([sheet('Big', cells)]);
    const recalculation = await recalculateFinCells({ run: excel.run, supports: ALL_SETS });
    expect(recalculation.evaluations).toBe(15_000);
    expect(excel.log.calculated).toHaveLength(15_000);
    expect(new Set(excel.log.calculated).size).toBe(15_000);
    expect(excel.log.calculated.every((a) => Number(a.slice('Big!C'.length)) % 2 === 1)).toBe(true);
    expect(excel.log.addressLists.length).toBeGreaterThan(1);
    expect(excel.log.addressLists.every((list) => list.length <= ADDRESS_CHARS)).toBe(true);
    // sheets + areas + ceil(30,000 / 20,000) formula reads + the recalculation
    expect(excel.log.syncs).toBe(2 + Math.ceil(30_000 / FORMULA_CELLS_PER_SYNC) + 1);
  });

  it('without ExcelApi 1.9: every sheet of this workbook is recalculated (never the application), and no count', async () => {
    const excel = fakeExcel([sheet('Model', { B2: '=FIN.PNL("Rent","2026-07")' }), sheet('Other', {})]);
    const recalculation = await recalculateFinCells({ run: excel.run, supports: BEFORE_1_9 });
    expect(recalculation).toEqual({});
    expect(excel.log.sheetCalculations).toEqual([
      { sheet: 'Model', markAllDirty: true },
      { sheet: 'Other', markAllDirty: true },
    ]);
    expect(excel.log.specialCells).toBe(0);
    expect(excel.log.applicationCalculations).toBe(0);
  });
});

describe('A refresh of the selection or the sheet in Excel', () => {
  const model = () =>
    fakeExcel([
      sheet('Model', {
        B2: '=FIN.PNL("Rent","2026-07")',
        B3: '=FIN.PNL("Travel",FIN_PERIOD)+FIN.PNL("Meals",FIN_PERIOD&" YTD")',
        B4: '=SUM(B2:B3)',
        E7: '=fin.total("Rent", "2026-Q1")',
      }),
      sheet('Other', { A1: '=FIN.BALANCE("Cash","2026-07")' }),
    ]);

  it('finds the FIN cells of a box, or of the whole sheet, with the FIN calls of each and whether it names FIN_PERIOD', async () => {
    const excel = model();
    const box = parseBox('A1:C5');
    expect(await finCellsIn('Model', box, { run: excel.run, supports: ALL_SETS })).toEqual([
      { sheet: 'Model', row: 1, col: 1, calls: 1, readsPeriod: false },
      { sheet: 'Model', row: 2, col: 1, calls: 2, readsPeriod: true },
    ]);
    const whole = await finCellsIn('Model', { row: 0, col: 0, rows: 1_048_576, cols: 16_384 }, { run: excel.run, supports: ALL_SETS });
    expect(whole.map((c) => cellA1(c.row, c.col))).toEqual(['B2', 'B3', 'E7']);
  });

  it('recalculates those cells and nothing else, and counts their FIN calls', async () => {
    const excel = model();
    const cells = await finCellsIn('Model', parseBox('A1:C5'), { run: excel.run, supports: ALL_SETS });
    const recalculation = await recalculateFinCells({ run: excel.run, supports: ALL_SETS, cells });
    expect(excel.log.calculated).toEqual(['Model!B2', 'Model!B3']);
    expect(excel.log.addressLists).toEqual(['B2:B3']);
    expect(recalculation.evaluations).toBe(3);
    expect(excel.log.sheetCalculations).toEqual([]);
  });

  it('where formulas cannot be picked out (before ExcelApi 1.9) it says so instead of guessing', async () => {
    const excel = model();
    await expect(finCellsIn('Model', parseBox('A1:C5'), { run: excel.run, supports: BEFORE_1_9 })).rejects.toThrow(/needs ExcelApi 1\.9\): refresh the whole workbook instead/);
  });
});
