import { cellA1 } from '../../src/engine/ports/address';
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson, type FunctionInfo } from '../../src/workbench/customFunctions';
import { CustomFunctionsError } from '../../src/workbench/customFunctionsStub';
import { cellView } from '../../src/workbench/display';

// A model built in the workbench as in Excel: references, ranges, arithmetic and Excel's functions around
// FIN calls, dependants recalculated when a referenced cell changes, and FIN calls made only when their
// arguments change (the API's calls are scarce).

const METADATA = {
  functions: [
    { id: 'PNL', name: 'PNL', parameters: [{ name: 'category', type: 'string' }, { name: 'start', type: 'any' }, { name: 'end', type: 'any', optional: true }] },
    { id: 'GRID', name: 'GRID', parameters: [{ name: 'rows', type: 'number' }] },
  ],
};

/** FIN.PNL answers 100 × the month number ("2025-03" -> 300) after `release()`; "Nope" is unknown. */
function world() {
  const book = new WorkbenchBook();
  const calls: unknown[][] = [];
  const waiting: (() => void)[] = [];
  let held = false;
  const answer = <T>(value: () => T): Promise<T> =>
    new Promise((resolve, reject) => {
      const go = () => {
        try {
          resolve(value());
        } catch (e) {
          reject(e);
        }
      };
      if (held) waiting.push(go);
      else go();
    });
  const functions = new Map<string, (...args: unknown[]) => unknown>([
    [
      'PNL',
      (category: unknown, start: unknown, end: unknown) => {
        calls.push([category, start, end]);
        return answer(() => {
          if (category === 'Nope') throw new CustomFunctionsError('#N/A', 'Unknown category "Nope"');
          const month = typeof start === 'number' ? 7 : Number(/-(\d\d)$/.exec(String(start))?.[1] ?? NaN);
          if (!Number.isFinite(month)) throw new CustomFunctionsError('#VALUE!', `Bad period ${JSON.stringify(start)}`);
          return month * 100;
        });
      },
    ],
    ['GRID', async (rows: unknown) => Array.from({ length: Number(rows) }, (_, r) => [r + 1, (r + 1) * 10])],
  ]);
  const metadata: Promise<Map<string, FunctionInfo>> = Promise.resolve(parseFunctionsJson(METADATA));
  const engine = new FormulaEngine({ book, functions, metadata });
  const pos = (a1: string) => {
    const [sheet, cell] = a1.includes('!') ? a1.split('!') : ['Sheet1', a1];
    const m = /^([A-Z]+)(\d+)$/.exec(cell)!;
    return { sheet, row: Number(m[2]) - 1, col: m[1].charCodeAt(0) - 65 };
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await engine.whenIdle();
  };
  const type = async (a1: string, input: string) => {
    const outcome = await book.enter(pos(a1), input);
    await settle();
    return outcome;
  };
  const shown = (a1: string) => cellView(book, engine, pos(a1)).text;
  const result = (a1: string) => engine.resultAt(pos(a1));
  return {
    book,
    engine,
    calls,
    type,
    shown,
    result,
    settle,
    hold: () => (held = true),
    release: async () => {
      held = false;
      for (const go of waiting.splice(0)) go();
      await settle();
    },
  };
}

describe('a small model', () => {
  it('takes a period from a cell, adds FIN cells up, and recalculates what depends on a changed cell only', async () => {
    const w = world();
    await w.type('A1', '2025-03');
    await w.type('B1', '=FIN.PNL("Revenue", A1)');
    await w.type('B2', '=FIN.PNL("Rent", A1)');
    await w.type('B3', '=FIN.PNL("Travel", "2025-01")');
    await w.type('B4', '=SUM(B1:B3)');
    await w.type('B5', '=B4*2-B1/3&" units"');
    expect([w.shown('B1'), w.shown('B2'), w.shown('B3'), w.shown('B4')]).toEqual(['300', '300', '100', '700']);
    expect(w.result('B5')).toEqual({ state: 'value', value: '1300 units' });
    expect(w.calls).toHaveLength(3);

    // A1 changes: the two cells that read it call again, B3 does not; the SUM follows.
    await w.type('A1', '2025-05');
    expect(w.calls).toHaveLength(5);
    expect(w.calls.slice(3)).toEqual([
      ['Revenue', '2025-05', null],
      ['Rent', '2025-05', null],
    ]);
    expect(w.shown('B4')).toBe('1100');
    expect(w.result('B5')).toEqual({ state: 'value', value: '2033.33333333333 units' });

    // An unrelated cell changes: no call at all.
    await w.type('D9', '42');
    await w.type('C1', '=B1+D9');
    expect(w.shown('C1')).toBe('542');
    expect(w.calls).toHaveLength(5);
  });

  it('shows #BUSY! until the answers are in, then the dependants recalculate', async () => {
    const w = world();
    w.hold();
    await w.book.enter({ sheet: 'Sheet1', row: 0, col: 0 }, '2025-02');
    await w.book.enter({ sheet: 'Sheet1', row: 0, col: 1 }, '=FIN.PNL("Revenue",A1)');
    await w.book.enter({ sheet: 'Sheet1', row: 1, col: 1 }, '=B1+1');
    await Promise.resolve();
    await Promise.resolve();
    expect([w.shown('B1'), w.shown('B2')]).toEqual(['#BUSY!', '#BUSY!']);
    expect(w.engine.busyCount()).toBe(2);
    await w.release();
    expect([w.shown('B1'), w.shown('B2')]).toEqual(['200', '201']);
    expect(w.engine.busyCount()).toBe(0);
  });

  it('reads other sheets, $-references, whole columns, spills and A1#', async () => {
    const w = world();
    await w.book.writeGrid({ kind: 'newSheet', name: 'P&L FY2025' }, { values: [['Revenue', 10], ['Rent', -4]] });
    await w.type('A1', "='P&L FY2025'!B1+'P&L FY2025'!$B$2");
    await w.type('A2', "=SUM('P&L FY2025'!B:B)");
    await w.type('C1', '=FIN.GRID(3)');
    await w.type('A3', '=SUM(D1:D3)');
    await w.type('A4', '=SUM(C1#)');
    expect([w.shown('A1'), w.shown('A2'), w.shown('A3'), w.shown('A4')]).toEqual(['6', '6', '60', '66']);
    // A changed figure on the other sheet reaches the model.
    await w.book.writeGrid({ kind: 'anchor', sheet: 'P&L FY2025', cell: 'B1' }, { values: [[20]] });
    await w.settle();
    expect(w.shown('A1')).toBe('16');
    // A spill that grows reaches the cells that read where it now spills.
    await w.type('C1', '=FIN.GRID(4)');
    expect(w.shown('A4')).toBe('110');
    expect(w.shown('A3')).toBe('60');
  });

  it('evaluates Excel functions and only the branch IF takes', async () => {
    const w = world();
    await w.type('A1', '');
    await w.type('B1', '=IF(A1="", "pick a period", FIN.PNL("Revenue", A1))');
    await w.type('B2', '=ROUND(AVERAGE(2,3,4.5), 1)');
    await w.type('B3', '=MAX(1, 7, 3) & "/" & MIN(4, 2)');
    await w.type('B4', '=IFERROR(FIN.PNL("Nope","2025-01"), "n/a")');
    await w.type('B5', '=2^3 >= 8');
    await w.type('B6', '=-2^2');
    expect(w.result('B1')).toEqual({ state: 'value', value: 'pick a period' });
    expect(w.calls).toEqual([['Nope', '2025-01', null]]);
    expect([w.shown('B2'), w.shown('B3'), w.shown('B4'), w.shown('B5'), w.shown('B6')]).toEqual(['3.2', '7/2', 'n/a', 'TRUE', '4']);
    await w.type('A1', '2025-04');
    expect(w.shown('B1')).toBe('400');
  });

  it('shows errors as Excel does, with the message kept for the formula bar', async () => {
    const w = world();
    await w.type('A1', '=FIN.PNL("Nope","2025-01")');
    await w.type('A2', '=A1*2');
    await w.type('A3', '=1/0');
    await w.type('A4', '=NOPE(1)');
    await w.type('A5', '=Missing!A1');
    await w.type('A6', '="a"+1');
    await w.type('A7', '=FIN.NOPE()');
    await w.type('A8', '=SUM(A1, 5)');
    expect(w.result('A1')).toEqual({ state: 'error', code: '#N/A', message: 'Unknown category "Nope"' });
    expect(w.result('A2')).toEqual({ state: 'error', code: '#N/A', message: 'Unknown category "Nope"' });
    expect(w.result('A8')).toEqual({ state: 'error', code: '#N/A', message: 'Unknown category "Nope"' });
    expect(w.result('A3')).toEqual({ state: 'error', code: '#DIV/0!' });
    expect(w.result('A4')).toMatchObject({ state: 'error', code: '#NAME?', message: 'NOPE is not a function the workbench knows' });
    expect(w.result('A5')).toMatchObject({ state: 'error', code: '#REF!', message: 'There is no sheet named Missing' });
    expect(w.result('A6')).toMatchObject({ state: 'error', code: '#VALUE!' });
    expect(w.result('A7')).toMatchObject({ state: 'error', code: '#NAME?', message: 'FIN.NOPE is not a function of this add-in' });
    // A FIN call whose argument is an error is not made: the error is the answer.
    expect(w.calls).toHaveLength(1);
    await w.type('B1', '=FIN.PNL("Revenue", A3)');
    expect(w.result('B1')).toEqual({ state: 'error', code: '#DIV/0!' });
    expect(w.calls).toHaveLength(1);
    // The sheet appears: the reference reads it.
    await w.book.writeGrid({ kind: 'newSheet', name: 'Missing' }, { values: [[5]] });
    await w.settle();
    expect(w.shown('A5')).toBe('5');
  });

  it('refuses a formula it cannot read, and reports circular references', async () => {
    const w = world();
    expect(await w.type('A1', '=SUM(1))')).toMatchObject({ ok: false, message: expect.stringMatching(/^There's a problem with this formula: /) });
    expect(w.book.cellAt('Sheet1', 0, 0).formula).toBeUndefined();
    await w.type('A1', '=B1+1');
    await w.type('B1', '=A1+1');
    expect(w.result('A1')).toMatchObject({ state: 'error', code: '#REF!', message: expect.stringMatching(/^Circular reference/) });
    expect(w.result('B1')).toMatchObject({ state: 'error', code: '#REF!' });
    await w.type('B1', '3');
    expect(w.shown('A1')).toBe('4');
  });

  it('makes every FIN call again on a full recalculation (Refresh all), and only then', async () => {
    const w = world();
    await w.type('A1', '2025-06');
    for (let r = 2; r <= 5; r++) await w.type(`A${r}`, `=FIN.PNL("Line ${r}", A1)`);
    await w.type('A6', '=SUM(A2:A5)');
    expect(w.calls).toHaveLength(4);
    await w.type(cellA1(0, 7), 'unrelated');
    expect(w.calls).toHaveLength(4);
    const formulas = await w.engine.recalculateAll();
    expect(formulas).toHaveLength(5);
    expect(w.calls).toHaveLength(8);
    await w.settle();
    expect(w.shown('A6')).toBe('2400');
    expect(w.engine.calculating()).toBe(false);
  });

  it('is calculating while a FIN cell waits for a cell it reads, so Refresh all waits for its call too', async () => {
    const w = world();
    w.hold();
    await w.book.enter({ sheet: 'Sheet1', row: 0, col: 0 }, '=FIN.PNL("Rent","2025-02")');
    await w.book.enter({ sheet: 'Sheet1', row: 0, col: 1 }, '=FIN.PNL("Revenue",A1)');
    await Promise.resolve();
    await Promise.resolve();
    expect(w.calls).toHaveLength(1);
    expect(w.engine.calculating()).toBe(true);
    await w.release();
    // B1 is called once A1's answer is in, with that answer.
    expect(w.calls).toHaveLength(2);
    expect(w.calls[1]).toEqual(['Revenue', 200, null]);
    expect(w.engine.calculating()).toBe(false);
  });
});
