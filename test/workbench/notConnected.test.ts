// The workbench, where this can be tried by hand: FIN formulas typed before connecting show "Not connected";
// connecting recalculates them through the workbench's formula engine (its RuntimeHost.recalculate picks the
// formulas that show an error), against a sandbox, fetching only what they need.
import '../../src/workbench/customFunctionsStub';
import path from 'node:path';
import * as functions from '../../src/functions/functions';
import * as runtime from '../../src/runtime';
import { parseFunctionsJson } from '../../src/workbench/customFunctions';
import { createWorkbench, type WorkbenchWorld } from '../../src/workbench/host';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateCustomFunctionsMetadata } = require('custom-functions-metadata') as {
  generateCustomFunctionsMetadata(input: string[], wantAssociate: boolean): Promise<{ metadataJson: string; associate: { id: string; functionName: string }[] }>;
};

/** What the build does: functions.json from the JSDoc tags, and CustomFunctions.associate for each id. */
async function registerFunctions() {
  const result = await generateCustomFunctionsMetadata([path.resolve(__dirname, '../../src/functions/functions.ts')], true);
  const exported = functions as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const { id, functionName } of result.associate) CustomFunctions.associate(id, exported[functionName]);
  return parseFunctionsJson(JSON.parse(result.metadataJson));
}

let sb: TestSandbox;
let sent = 0;
const year = lastFullYear();

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

function workbench(): WorkbenchWorld {
  return createWorkbench({
    baseUrl: sb.baseUrl,
    metadata: registerFunctions(),
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
  });
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

    const before = sent;
    await connect();
    const done = await runtime.recalculateNotConnected();
    // The category list and July's income statement; not March's.
    expect(done).toEqual({ status: 'done', formulas: 2, spent: 2, failed: false, message: 'Recalculated 2 formulas that showed Not connected, spending 2 calls' });
    expect(sent - before).toBe(2);
    await w.engine.whenIdle();
    expect([0, 1, 2].map((row) => w.engine.resultAt(at(row))?.state)).toEqual(['value', 'value', 'value']);
  });
});
