// The workbench reads formula results as Excel's Range.values does (the formula engine's values, spills,
// #BUSY!, error codes), so Share as values copies what the grid shows and the grid shows the copy.
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson } from '../../src/workbench/customFunctions';
import { CustomFunctionsError } from '../../src/workbench/customFunctionsStub';

const METADATA = {
  functions: [
    { id: 'GRID', name: 'GRID', parameters: [{ name: 'rows', type: 'number' }] },
    { id: 'FAIL', name: 'FAIL', parameters: [] },
    { id: 'NEVER', name: 'NEVER', parameters: [] },
  ],
};

function world() {
  const book = new WorkbenchBook();
  const functions = new Map<string, (...args: unknown[]) => unknown>([
    ['GRID', async (rows: unknown) => Array.from({ length: Number(rows) }, (_, r) => [`r${r}`, r * 10])],
    ['FAIL', async () => {
      throw new CustomFunctionsError('#N/A', 'no such category');
    }],
    ['NEVER', () => new Promise(() => undefined)],
  ]);
  const engine = new FormulaEngine({ book, functions, metadata: Promise.resolve(parseFunctionsJson(METADATA)) });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await engine.whenIdle();
  };
  return { book, engine, settle };
}

test('readSheet gives formula results, spilled cells, errors and #BUSY! as values, formulas apart', async () => {
  const w = world();
  await w.book.writeFormula('Sheet1!A1', '=FIN.GRID(2)');
  await w.book.writeFormula('Sheet1!D1', '=FIN.FAIL()');
  await w.book.writeFormula('Sheet1!D2', '=A2*2');
  await w.settle();
  await w.book.writeFormula('Sheet1!D3', '=FIN.NEVER()');
  await Promise.resolve();
  const read = await w.book.readSheet('Sheet1');
  expect(read.address).toBe('Sheet1!A1:D3');
  expect(read.values).toEqual([
    ['r0', 0, '', '#N/A'],
    ['r1', 10, '', '#VALUE!'], // "r1" * 2
    ['', '', '', '#BUSY!'],
  ]);
  expect(read.formulas[0]).toEqual(['=FIN.GRID(2)', null, null, '=FIN.FAIL()']);
});

test('isCalculating, as Excel\'s calculationState: not done while a formula waits for a cell still calculating', async () => {
  const w = world();
  await w.book.writeFormula('Sheet1!A1', '=FIN.GRID(1)');
  await w.settle();
  expect(await w.book.isCalculating()).toBe(false);
  await w.book.writeFormula('Sheet1!B1', '=FIN.NEVER()');
  await w.book.writeFormula('Sheet1!B2', '=B1*2');
  for (let i = 0; i < 5; i++) await Promise.resolve();
  expect(await w.book.isCalculating()).toBe(true);
});

test('a values copy in the workbench holds the values the grid shows and no formula the engine would calculate', async () => {
  const w = world();
  await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'C1' }, { values: [[1.5]], cellFormats: [['#,##0.00']] });
  await w.book.writeFormula('Sheet1!A1', '=FIN.GRID(2)');
  await w.settle();
  const copy = await w.book.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: ['Values as of now'] });
  await w.settle();
  expect(copy).toEqual({ sheet: 'Sheet1 (values)', address: "'Sheet1 (values)'!A1:C4" });
  expect(w.book.visibleSheets()).toEqual(['Sheet1', 'Sheet1 (values)']);
  expect(w.book.extent('Sheet1 (values)')).toEqual({ rows: 4, cols: 3 });
  const read = await w.book.readSheet('Sheet1 (values)');
  expect(read.values).toEqual([
    ['Values as of now', '', ''],
    ['', '', ''],
    ['r0', 0, 1.5],
    ['r1', 10, ''],
  ]);
  expect(read.formulas.flat().every((f) => f === null)).toBe(true);
  expect(w.book.formulas().map((p) => p.sheet)).toEqual(['Sheet1']);
  expect(w.book.cellAt('Sheet1 (values)', 2, 2).numberFormat).toBe('#,##0.00');
});
