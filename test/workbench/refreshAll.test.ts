// Refresh all in the workbench (its RuntimeHost: the in-memory workbook and its formula engine), against a
// sandbox: the host reports how many FIN evaluations its recalculation starts and when it has handed them
// all over, so Refresh all ends when they have settled, not after a quiet period.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import { registry } from '../../src/workbench/customFunctionsStub';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench, type CountedWorkbench } from '../support/workbench';

let sb: TestSandbox;
const year = lastFullYear();
const month = `${year}-07`;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

async function workbench(formulas: string[]): Promise<CountedWorkbench> {
  const w = sandboxWorkbench(sb);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  for (const [i, formula] of formulas.entries()) await w.book.writeFormula(`Sheet1!A${i + 1}`, formula);
  await w.engine.whenIdle();
  return w;
}

const values = (w: CountedWorkbench, count: number) => Array.from({ length: count }, (_, row) => w.engine.resultAt({ sheet: 'Sheet1', row, col: 0 }));

describe('Refresh all in the workbench', () => {
  it('ends when the expected evaluations have settled, long before the quiet period', async () => {
    const w = await workbench([`=FIN.PNL("Rent","${month}")`, `=FIN.PNL("Travel","${month}")`, `=FIN.BALANCE("Cash","${month}")`, '=FIN.VERSION()']);
    const before = values(w, 4);
    expect(before.every((r) => r?.state === 'value')).toBe(true);
    expect(registry.size).toBeGreaterThan(10);
    const sentBefore = w.sent();
    const t0 = Date.now();
    // A quiet period of 20 s would fail the test's time limit: the count of 3 evaluations ends it.
    const report = await runtime.refreshAll({ quietMs: 20_000 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    // categories + July income statement + July balance sheet.
    expect(report).toMatchObject({ spent: 3, settled: true, message: 'Refresh all spent 3 calls' });
    expect(w.sent() - sentBefore).toBe(3);
    expect(values(w, 4)).toEqual(before);
  });

  it('a FIN cell whose arguments are wrong is never called: the formula engine saying it is done ends the wait', async () => {
    const w = await workbench([`=FIN.PNL("Rent","${month}")`, '=FIN.PNL("Rent")']);
    expect(values(w, 2)[1]).toMatchObject({ state: 'error', code: '#VALUE!' });
    const t0 = Date.now();
    const report = await runtime.refreshAll({ quietMs: 20_000 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(report).toMatchObject({ settled: true });
    expect(values(w, 2)[0]).toMatchObject({ state: 'value' });
  });
});
