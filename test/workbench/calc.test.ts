import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson, type FunctionInfo } from '../../src/workbench/customFunctions';
import { CustomFunctionsError } from '../../src/workbench/customFunctionsStub';
import { cellView } from '../../src/workbench/display';

// The workbench's calculation: Excel's calling convention for custom functions (one argument per declared
// parameter, null for omitted ones, then the invocation), results, errors, spills and streaming.

const METADATA = {
  functions: [
    { id: 'ECHO', name: 'ECHO', parameters: [{ name: 'a' }, { name: 'b', optional: true }, { name: 'c', optional: true }] },
    { id: 'FAIL', name: 'FAIL', parameters: [{ name: 'why' }] },
    { id: 'GRID', name: 'GRID', parameters: [{ name: 'rows', type: 'number' }] },
    { id: 'TICK', name: 'TICK', parameters: [], options: { stream: true } },
    { id: 'RANGE', name: 'RANGE', parameters: [{ name: 'cells', type: 'any', dimensionality: 'matrix' }, { name: 'b', optional: true }] },
  ],
};

function world() {
  const book = new WorkbenchBook();
  const calls: unknown[][] = [];
  let ticker: ((v: unknown) => void) | null = null;
  let cancelled = 0;
  const functions = new Map<string, (...args: unknown[]) => unknown>([
    ['ECHO', async (...args: unknown[]) => {
      calls.push(args);
      return JSON.stringify(args.slice(0, 3));
    }],
    ['FAIL', async (why: unknown) => {
      throw new CustomFunctionsError('#N/A', String(why));
    }],
    ['GRID', async (rows: unknown) => Array.from({ length: Number(rows) }, (_, r) => [`r${r}`, r])],
    ['RANGE', async (...args: unknown[]) => {
      calls.push(args);
      return JSON.stringify(args[0]);
    }],
    ['TICK', (invocation: unknown) => {
      const inv = invocation as { setResult: (v: unknown) => void; onCanceled: () => void };
      ticker = inv.setResult;
      inv.onCanceled = () => {
        cancelled += 1;
      };
    }],
  ]);
  const metadata: Promise<Map<string, FunctionInfo>> = Promise.resolve(parseFunctionsJson(METADATA));
  const engine = new FormulaEngine({ book, functions, metadata });
  const at = (a1: string) => {
    const m = /^([A-Z])(\d+)$/.exec(a1)!;
    return { sheet: 'Sheet1', row: Number(m[2]) - 1, col: m[1].charCodeAt(0) - 65 };
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await engine.whenIdle();
  };
  return { book, engine, calls, at, settle, tick: (v: unknown) => ticker?.(v), cancelled: () => cancelled };
}

describe('formula cells', () => {
  it('calls the function with one argument per parameter, null for omitted ones, then the invocation', async () => {
    const w = world();
    await w.book.writeFormula('Sheet1!B2', '=FIN.ECHO("x",,)');
    expect(cellView(w.book, w.engine, w.at('B2')).text).toBe('#BUSY!');
    await w.settle();
    expect(w.calls).toHaveLength(1);
    expect(w.calls[0].slice(0, 3)).toEqual(['x', null, null]);
    expect(w.calls[0][3]).toMatchObject({ address: 'Sheet1!B2', functionName: 'FIN.ECHO', isInValuePreview: false });
    expect(w.engine.resultAt(w.at('B2'))).toEqual({ state: 'value', value: '["x",null,null]' });
    expect(cellView(w.book, w.engine, w.at('B2'))).toMatchObject({ text: '["x",null,null]', formula: '=FIN.ECHO("x",,)' });
  });

  it('reads a defined name as the cell it names, and follows that cell (the reporting period, FIN_PERIOD)', async () => {
    const w = world();
    await w.book.writeFormula('Sheet1!C1', '=FIN.ECHO(FIN_PERIOD&" YTD")');
    await w.settle();
    expect(w.engine.resultAt(w.at('C1'))).toMatchObject({ state: 'error', code: '#NAME?' });
    await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B1' }, { values: [['2026-10']] }, { name: 'FIN_PERIOD', nameVisible: true });
    await w.book.writeFormula('Sheet1!C2', '=FIN.ECHO(FIN_PERIOD)');
    await w.settle();
    expect(w.engine.resultAt(w.at('C2'))).toEqual({ state: 'value', value: '["2026-10",null,null]' });
    await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B1' }, { values: [['2026-11']] });
    await w.settle();
    expect(w.engine.resultAt(w.at('C2'))).toEqual({ state: 'value', value: '["2026-11",null,null]' });
    expect(w.book.definedNames()).toContainEqual({ name: 'FIN_PERIOD', visible: true, address: 'Sheet1!B1' });
  });

  it('hands a matrix parameter its range as rows (a defined name too, followed when a cell of it changes), blanks as null', async () => {
    const w = world();
    await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [[null, '2026-01'], ['Rent', 500]] });
    await w.book.nameRange('Sheet1!A1:B2', 'Budget_2026');
    await w.book.writeFormula('Sheet1!D1', '=FIN.RANGE(Budget_2026)');
    await w.book.writeFormula('Sheet1!D2', '=FIN.RANGE(A2:B2)');
    await w.book.writeFormula('Sheet1!D3', '=FIN.RANGE(7)');
    await w.settle();
    expect(w.engine.resultAt(w.at('D1'))).toEqual({ state: 'value', value: '[[null,"2026-01"],["Rent",500]]' });
    expect(w.engine.resultAt(w.at('D2'))).toEqual({ state: 'value', value: '[["Rent",500]]' });
    expect(w.engine.resultAt(w.at('D3'))).toEqual({ state: 'value', value: '[[7]]' });
    await w.book.enter(w.at('B2'), '650');
    await w.settle();
    expect(w.engine.resultAt(w.at('D1'))).toEqual({ state: 'value', value: '[[null,"2026-01"],["Rent",650]]' });
    // An error in the range is the answer, as for a single value: the function is not called with it.
    await w.book.writeFormula('Sheet1!B2', '=1/0');
    await w.settle();
    expect(w.engine.resultAt(w.at('D1'))).toMatchObject({ state: 'error', code: '#DIV/0!' });
  });

  it('shows errors with their messages, and refuses what Excel would refuse', async () => {
    const w = world();
    await w.book.writeFormula('Sheet1!A1', '=FIN.FAIL("no data")');
    await w.book.writeFormula('Sheet1!A2', '=FIN.NOPE()');
    await w.book.writeFormula('Sheet1!A3', '=FIN.ECHO(1,2,3,4)');
    await w.book.writeFormula('Sheet1!A4', '=FIN.ECHO()');
    await w.book.writeFormula('Sheet1!A5', '=FIN.GRID("many")');
    await w.settle();
    expect(w.engine.resultAt(w.at('A1'))).toEqual({ state: 'error', code: '#N/A', message: 'no data' });
    expect(w.engine.resultAt(w.at('A2'))).toMatchObject({ state: 'error', code: '#NAME?' });
    expect(w.engine.resultAt(w.at('A3'))).toMatchObject({ state: 'error', code: '#VALUE!', message: 'FIN.ECHO takes at most 3 arguments' });
    expect(w.engine.resultAt(w.at('A4'))).toMatchObject({ state: 'error', code: '#VALUE!', message: 'FIN.ECHO needs its a argument' });
    expect(w.engine.resultAt(w.at('A5'))).toMatchObject({ state: 'error', code: '#VALUE!', message: 'rows must be a number' });
    expect(cellView(w.book, w.engine, w.at('A1'))).toMatchObject({ text: '#N/A', message: 'no data' });
  });

  it('spills into blank cells, and shows #SPILL! when they are not blank', async () => {
    const w = world();
    await w.book.writeFormula('Sheet1!A1', '=FIN.GRID(3)');
    await w.settle();
    expect(cellView(w.book, w.engine, w.at('A1')).text).toBe('r0');
    expect(cellView(w.book, w.engine, w.at('B3')).text).toBe('2');
    expect(cellView(w.book, w.engine, w.at('B3')).spilled).toBe(true);
    expect(w.engine.spillExtent('Sheet1')).toEqual({ rows: 3, cols: 2 });
    await w.book.enter(w.at('B2'), 'in the way');
    expect(w.engine.resultAt(w.at('A1'))).toMatchObject({ state: 'error', code: '#SPILL!' });
    expect(cellView(w.book, w.engine, w.at('A3')).text).toBe('');
    await w.book.enter(w.at('B2'), '');
    expect(cellView(w.book, w.engine, w.at('A3')).text).toBe('r2');
  });

  it('recalculates every formula (Refresh all), streams, and forgets overwritten formulas', async () => {
    const w = world();
    await w.book.writeFormula('Sheet1!A1', '=FIN.ECHO(1)');
    await w.book.writeFormula('Sheet1!A2', '=FIN.TICK()');
    await w.settle();
    w.tick('first');
    expect(w.engine.resultAt(w.at('A2'))).toEqual({ state: 'value', value: 'first' });
    await w.engine.recalculateAll();
    await w.settle();
    expect(w.calls).toHaveLength(2);
    expect(w.cancelled()).toBe(1);
    w.tick(new CustomFunctionsError('#N/A', 'not connected'));
    expect(w.engine.resultAt(w.at('A2'))).toMatchObject({ state: 'error', code: '#N/A' });
    await w.book.enter(w.at('A1'), '5');
    expect(w.engine.resultAt(w.at('A1'))).toBeUndefined();
    expect(w.book.formulas().map((p) => p.row)).toEqual([1]);
  });
});

describe('typing into cells', () => {
  it('keeps formats, makes dates serials, keeps text columns text, and holds drop-down lists', async () => {
    const book = new WorkbenchBook();
    await book.createTable({
      name: 'T',
      columns: [
        { name: 'Id', kind: 'text' },
        { name: 'Department', kind: 'text' },
        { name: 'When', kind: 'number', numberFormat: 'yyyy-mm-dd' },
        { name: 'Amount', kind: 'number', numberFormat: '#,##0.00' },
      ],
      rows: [
        ['a', 'Sales', 46000, 1],
        ['b', null, 46001, 2],
      ],
      target: { kind: 'anchor', sheet: 'Sheet1', cell: 'B2' },
    });
    await book.setListValidation('T', 'Department', ['Sales', 'Finance']);
    expect(book.tablesOn('Sheet1')).toEqual([{ name: 'T', sheet: 'Sheet1', row: 1, col: 1, cols: 4, dataRows: 2 }]);
    expect(book.tableAt('Sheet1', 1, 2)).toMatchObject({ header: true });
    expect(book.visibleSheets()).toEqual(['Sheet1']);

    const dept = { sheet: 'Sheet1', row: 3, col: 2 };
    expect(await book.listItems('Sheet1', 3, 2)).toEqual(['Sales', 'Finance']);
    expect(await book.enter(dept, 'Marketing')).toMatchObject({ ok: false });
    expect(await book.enter(dept, 'Finance')).toEqual({ ok: true });
    expect((await book.readTable('T')).rows[1]).toEqual(['b', 'Finance', 46001, 2]);

    await book.enter({ sheet: 'Sheet1', row: 3, col: 3 }, '2026-07-15');
    await book.enter({ sheet: 'Sheet1', row: 3, col: 4 }, '1,234.5');
    await book.enter({ sheet: 'Sheet1', row: 3, col: 1 }, '123');
    const row = (await book.readTable('T')).rows[1];
    expect(row).toEqual(['123', 'Finance', 46218, 1234.5]);
    expect(book.cellAt('Sheet1', 3, 3).numberFormat).toBe('yyyy-mm-dd');
    expect(book.inputText({ sheet: 'Sheet1', row: 3, col: 3 })).toBe('2026-07-15');

    await book.appendRows('T', [['c', 'Sales', 46002, 3]]);
    await book.deleteRowsByKey('T', 'Id', ['a']);
    expect(book.tablesOn()[0].dataRows).toBe(2);
  });

  it('follows the active sheet with the selection, as Excel does', async () => {
    const book = new WorkbenchBook();
    let changes = 0;
    book.subscribe(() => (changes += 1));
    book.select('Sheet1', 'C3');
    await book.writeGrid({ kind: 'newSheet', name: 'P&L' }, { values: [['x']] });
    expect(book.currentCell()).toEqual({ sheet: 'P&L', row: 0, col: 0 });
    await book.activateSheet('Sheet1');
    expect(book.currentCell()).toEqual({ sheet: 'Sheet1', row: 2, col: 2 });
    expect(await book.getSelectedCell()).toMatchObject({ sheet: 'Sheet1', cell: 'C3' });
    expect(book.extent('P&L')).toEqual({ rows: 1, cols: 1 });
    // The page hears of the changes on the next turn of the event loop, once for the burst; the version moved at each.
    const version = book.getVersion();
    expect(version).toBeGreaterThan(2);
    expect(changes).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(changes).toBe(1);
    expect(book.getVersion()).toBe(version);
  });
});
