// The workbench, where this can be tried by hand: FIN formulas typed before connecting show "Not connected";
// connecting recalculates them through the workbench's formula engine (its RuntimeHost.recalculate picks the
// formulas that show an error), against a sandbox, fetching only what they need.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench, type CountedWorkbench } from '../support/workbench';

let sb: TestSandbox;
const year = lastFullYear();

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

function workbench(): CountedWorkbench {
  return sandboxWorkbench(sb);
}

const connect = () => runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
const at = (row: number) => ({ sheet: 'Sheet1', row, col: 0 });

describe('formulas typed before connecting, in the workbench', () => {
  it('show Not connected, and get their figures on connecting; a formula showing a figure is left alone', async () => {
    const w = workbench();
    // A figure fetched earlier, whose answer this computer then forgot: recalculating it would cost a call.
    await connect();
    await w.book.writeFormula('Sheet1!A1', `=FIN.PNL("Rent","${year}-03")`);
    await w.engine.whenIdle();
    expect(w.engine.resultAt(at(0))).toMatchObject({ state: 'value' });
    await runtime.disconnect({ forgetCachedAnswers: true });

    await w.book.writeFormula('Sheet1!A2', `=FIN.PNL("Rent","${year}-07")`);
    await w.book.writeFormula('Sheet1!A3', `=FIN.PNL("Travel","${year}-07")*2`);
    await w.engine.whenIdle();
    for (const row of [1, 2]) {
      expect(w.engine.resultAt(at(row))).toEqual({ state: 'error', code: '#N/A', message: 'Not connected: open Financial Reporting and connect' });
    }

    const before = w.sent();
    await connect();
    const done = await runtime.recalculateNotConnected();
    // The category list and July's income statement; not March's.
    expect(done).toEqual({ status: 'done', formulas: 2, spent: 2, failed: false, message: 'Recalculated 2 formulas that showed Not connected, spending 2 calls' });
    expect(w.sent() - before).toBe(2);
    await w.engine.whenIdle();
    expect([0, 1, 2].map((row) => w.engine.resultAt(at(row))?.state)).toEqual(['value', 'value', 'value']);
  });
});
