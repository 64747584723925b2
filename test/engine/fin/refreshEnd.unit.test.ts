// The end of a refresh of the FIN cells and the recalculations Excel makes on its own, against a scripted
// client (every call counted):
//  - once the FIN evaluations have settled, the host recalculates what is built on them (Excel's
//    RangeAreas.calculate reaches direct dependents only: office-js#5063), and the report says whether Excel
//    then confirmed it had finished, waiting a bounded time: Excel may never say so (#3319);
//  - Excel recalculates FIN cells when rows are inserted or deleted or grouped (#3332, #3911): outside a
//    refresh such an evaluation is answered from the cache, even an answer due for a refresh, so it spends
//    nothing the refresh's cost did not show.
import type { FinService } from '../../../src/engine/fin';
import { CellReads } from '../../../src/engine/fin/cellReads';
import { scriptedFin as rig } from '../../support/scriptedFin';

/** What Excel does to a FIN cell when it recalculates it: the function is called again. */
const cell = (fin: FinService) => fin.pnl({ line: 'Revenue', start: '2026-07' });

describe('the end of a refresh of the FIN cells', () => {
  it('recalculates what is built on the FIN cells once they have settled, then waits for Excel to say it is done', async () => {
    const { fin } = rig();
    const seen: string[] = [];
    let figure: number | undefined;
    const report = await fin.refreshAll({
      quietMs: 20,
      recalculate: async () => {
        void cell(fin).then((v) => {
          figure = v;
          seen.push(`FIN cell ${v}`);
        });
        return {
          evaluations: 1,
          calculationDone: async () => true,
          dependents: async () => {
            seen.push(`dependents with the FIN cell at ${figure}`);
          },
        };
      },
    });
    expect(seen).toEqual(['FIN cell 200', 'dependents with the FIN cell at 200']);
    expect(report).toMatchObject({ settled: true, calculationConfirmed: true, spent: 2, message: 'Refresh all spent 2 calls' });
  });

  it('does not wait for ever for Excel to say it is done (a chart on TODAY keeps it Pending), and says what it could not confirm', async () => {
    const { fin } = rig();
    const started = Date.now();
    const report = await fin.refreshAll({
      quietMs: 20,
      doneWaitMs: 150,
      recalculate: async () => {
        void cell(fin);
        return { evaluations: 1, calculationDone: async () => false, dependents: async () => {} };
      },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(report.settled).toBe(true);
    expect(report.calculationConfirmed).toBe(false);
    expect(report.message).toBe(
      'Refresh all spent 2 calls; Excel has not confirmed it finished calculating (it may never do so while the workbook holds charts): look at the totals built on FIN cells before you share them',
    );
  });

  it('a dependents step Excel refuses leaves the figures refreshed and says what to do', async () => {
    const { fin } = rig();
    const report = await fin.refreshAll({
      quietMs: 20,
      recalculate: async () => {
        void cell(fin);
        return {
          evaluations: 1,
          calculationDone: async () => true,
          dependents: async () => {
            throw new Error('GeneralException');
          },
        };
      },
    });
    expect(report.spent).toBe(2);
    expect(report.calculationConfirmed).toBe(false);
    expect(report.message).toMatch(/refused to recalculate the formulas built on the FIN cells: recalculate the workbook \(Formulas > Calculate Now\)/);
  });
});

describe("the recalculations Excel makes on its own (rows inserted, deleted or grouped: office-js#3332, #3911)", () => {
  it('answer a cell that made the same call before from the cache, even what is due for a refresh: 0 calls; the refresh itself fetches it', async () => {
    const { fin, reader, calls } = rig();
    const ctx = { cellReads: new CellReads() };
    // Excel gives each invocation its cell's address; each is a new call object, as functions.ts makes them.
    const invoke = () => fin.evaluate<number>({ name: 'PNL', args: ['Revenue', '2026-07'], address: 'Model!B2' }, ctx);
    expect(await invoke()).toBe(200);
    expect(calls()).toBe(2); // the categories and July's statement

    await reader.markAllStale(); // what a push or a sync marked, not refreshed yet
    // Excel recalculates B2 on its own (the add-in grouped a block's rows): the figure it shows, no call.
    expect(await invoke()).toBe(200);
    expect(calls()).toBe(2);
    // A formula typed now gets the figures the books hold: what it reads is due, and fetched for it.
    expect(await fin.evaluate<number>({ name: 'PNL', args: ['Revenue', '2026-07'], address: 'Model!C2' }, ctx)).toBe(300);
    expect(calls()).toBe(4);

    // The refresh whose cost was shown fetches what is due; what Excel recalculates after it reads its answers.
    await reader.markAllStale();
    const report = await fin.refreshAll({
      quietMs: 20,
      recalculate: async () => {
        void invoke();
        return { evaluations: 1 };
      },
    });
    expect(report.spent).toBe(2); // every answer was due: the categories too
    expect(await invoke()).toBe(400);
    expect(calls()).toBe(6);
  });
});
