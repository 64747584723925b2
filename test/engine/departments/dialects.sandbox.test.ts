// Issue 27: figures by department in the sandbox's variant dialect (src/sandbox/http/dialect.ts), whose
// journal entries take their date range under other names and ignore start_date / end_date. The walk finds
// an entry of another day on its first page and refuses by name: nothing is written, a FIN cell says why,
// and the refusal is remembered, so a recalculation does not pay for it again. The standard dialect's
// figures are the other tests' (byDepartment.sandbox.test.ts).
import { isFinError } from '../../../src/engine/fin';
import type { StatementSpec } from '../../../src/engine/statements';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { testRuntime, testWorkspace } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ dialect: 'variant' });
});
afterAll(async () => {
  await sb?.close();
});

const REFUSAL = /answered an entry dated \d{4}-\d{2}-\d{2} when asked for 2025-06-01 to 2025-06-30: it does not read the date range under the names this add-in sends \(start_date, end_date\), so figures by department cannot be read from it/;

async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const company = sb.companies['growth-admin'];
  const before = await sb.usage(company);
  const value = await fn();
  return { value, calls: (await sb.usage(company)) - before };
}

test('a P&L by department is refused by name after one page, and nothing is written', async () => {
  const rt = await testRuntime(sb, { clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 } });
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { quietMs: 50 });
  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: '2025-06-01', end: '2025-06-30', layout: 'by_department', scale: 'units', fiscalYearStartMonth: 1 };
  const sheets = (await gateway.listSheets()).length;
  const { value: error, calls } = await counted(() => workspace.statements.insert(spec, 'newSheet').catch((e: unknown) => e));
  expect(error).toMatchObject({ code: 'unreadable_answer', message: expect.stringMatching(REFUSAL) });
  // The walk's first page, beside the statement and the two lists.
  expect(calls).toBe(4);
  expect((await gateway.listSheets()).length).toBe(sheets);
  expect(await gateway.listBindings()).toEqual([]);
});

test("a department's FIN.PNL shows the refusal, and recalculating it spends nothing", async () => {
  const rt = await testRuntime(sb, { clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 } });
  const cell = () => rt.service.pnl({ line: 'Operating Expenses', start: '2025-06', department: 'Sales' }).catch((e: unknown) => e);
  const first = await counted(cell);
  expect(isFinError(first.value)).toBe(true);
  expect(first.value).toMatchObject({ kind: 'na', message: expect.stringMatching(REFUSAL) });
  const again = await counted(cell);
  expect(again.value).toMatchObject({ message: (first.value as Error).message });
  expect(again.calls).toBe(0);
  // The same figure without a department is the statement's, which both dialects answer alike.
  expect(typeof (await rt.service.pnl({ line: 'Operating Expenses', start: '2025-06' }))).toBe('number');
});
