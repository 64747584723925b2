// Excel calculates its custom functions again, non-volatile ones included, when rows or cells are inserted or
// deleted and when rows are grouped (OfficeDev/office-js#3332, #3911: by design), and the add-in does all of
// these: a statement block groups its rows, a transactions table inserts and deletes rows. The workbench's
// formula engine does the same (book.ts onStructureChanged). With answers the FIN cells read due for a refresh
// (a push changed them, Refresh changes has not run), such a recalculation is answered from the cache: the
// block costs what its preview said, and the FIN cells keep their figures until the refresh whose cost is shown.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import { parseQualified } from '../../src/engine/ports/address';
import type { StatementSpec } from '../../src/engine/statements';
import { lastFullYear } from '../engine/fin/finHarness';
import { testWorkspace } from '../support/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench } from '../support/workbench';

let sb: TestSandbox;
const year = lastFullYear();

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

const usage = (): Promise<number> => sb.usage(sb.companies['growth-admin']);

it('a block the add-in inserts groups rows and Excel calculates the FIN cells again: with their answers due, that spends only what the preview showed', async () => {
  const w = sandboxWorkbench(sb);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  const workspace = await testWorkspace(runtime, w.book);
  await w.book.writeFormula('Sheet1!A1', `=FIN.PNL("Rent","${year}-07")`);
  await w.book.writeFormula('Sheet1!A2', `=FIN.PNL("Travel","${year}-08")-FIN.PNL("Rent","${year}-08")`);
  await w.engine.whenIdle();
  const figures = [w.engine.resultAt({ sheet: 'Sheet1', row: 0, col: 0 }), w.engine.resultAt({ sheet: 'Sheet1', row: 1, col: 0 })];
  expect(figures).toEqual([expect.objectContaining({ state: 'value' }), expect.objectContaining({ state: 'value' })]);

  // A push changed July and August: the change marks their statements due (what the next refresh fetches).
  const reader = (await runtime.getReader())!;
  expect(await reader.markStale((req) => req.path === '/reports/income_statement')).toHaveLength(2);

  let evaluations = 0;
  const stop = runtime.onFinBatch((batch) => (evaluations += batch.evaluations));
  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: `${year}-09-01`, end: `${year}-09-30`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };
  const cost = await workspace.statements.cost(spec);
  expect(cost.calls).toBe(1); // September's statement
  const before = await usage();
  const sentBefore = w.sent();
  const { binding } = await workspace.statements.insert(spec, 'newSheet');
  await w.engine.whenIdle();
  await new Promise((resolve) => setTimeout(resolve, 400)); // the batch's quiet period: onFinBatch reports it
  stop();

  // The block grouped its rows, and Excel calculated both FIN cells again (three FIN calls, at each grouping)...
  const { sheet, box } = parseQualified(binding.address);
  expect(Array.from({ length: box.rows }, (_, r) => w.book.outlineLevel(sheet, box.row + r)).some((level) => level > 0)).toBe(true);
  expect(evaluations).toBeGreaterThanOrEqual(3);
  // ...from the cache: the block's one call, as shown, and the figures the cells showed.
  expect((await usage()) - before).toBe(cost.calls);
  expect(w.sent() - sentBefore).toBe(cost.calls);
  expect([w.engine.resultAt({ sheet: 'Sheet1', row: 0, col: 0 }), w.engine.resultAt({ sheet: 'Sheet1', row: 1, col: 0 })]).toEqual(figures);
  // What the push changed is still due: the next refresh (its cost shown) fetches it.
  expect((await workspace.statements.plan()).changedCalls.formulaCalls).toBe(2);
});
