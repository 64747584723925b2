// Issue 37, items 3 and 5: the whole board pack (charts and P&L by department, no budget) on each demo company
// the sandbox seeds, cold in a workbook of its own: the cost shown before inserting is what inserting spends,
// KPI and chart formulas included, but for the walk over the month's journal entries, priced "at least" its
// first page until read (the spec gives no count); rolling forward one month spends the cost shown, the walk
// priced "about" from the month read aside. The figures the closing note asks for are printed.
import '../../../src/workbench/customFunctionsStub';
import { calendarDateAt, formatYearMonth, lastDayOf, monthIndex, monthIndexToYearMonth, type YearMonth } from '../../../src/engine/dates';
import { WALK_PARAM } from '../../../src/engine/reader/walks';
import type { ReadRequest } from '../../../src/engine/reader/requestCache';
import { blockRequests } from '../../../src/engine/statements/columns';
import { boardPackIn, insertBoardPack, packCosts, packFormulaReads, type PackChoice } from '../../../src/engine/reporting/boardPack';
import { proposeRolesFor } from '../../../src/engine/reporting/packRoles';
import { setReportingPeriod } from '../../../src/engine/reporting/period';
import { createStatementsEngine } from '../../../src/engine/statements';
import * as runtime from '../../../src/runtime';
import { createWorkbench, type WorkbenchWorld } from '../../../src/workbench/host';
import { registerFinFunctions } from '../../support/finFunctions';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
let world: WorkbenchWorld;
let registered: ReturnType<typeof registerFinFunctions>;
beforeAll(async () => {
  sb = await startSandbox();
  registered = registerFinFunctions();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb?.close();
});
const monthAgo = (n: number): YearMonth => monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) - n);
/** The pages the walk over a month's journal entries takes: 500 entries to a page, one at least. */
function journalPages(company: string, m: YearMonth): number {
  const month = formatYearMonth(m.year, m.month);
  const row = sb.running.ctx.db
    .prepare('SELECT COUNT(*) AS n FROM journal_entries WHERE company_id = ? AND date BETWEEN ? AND ?')
    .get(company, `${month}-01`, lastDayOf(m.year, m.month)) as { n: number };
  return Math.max(1, Math.ceil(row.n / 500));
}

/** What the walks among these requests are priced at now. */
async function walkPriced(requests: readonly ReadRequest[]): Promise<number> {
  return (await (await runtime.getReader())!.cost(requests.filter((r) => r.query?.[WALK_PARAM]))).calls;
}

async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) await world.engine.whenIdle();
}

test.each([
  ['Northwind Analytics', 'growth-admin'],
  ['Westbrook Software', 'growth2-admin'],
  ['Alderbrook Labs', 'growth3-admin'],
])('%s: the pack cold and rolled forward spends the cost shown', async (name, label) => {
  world = createWorkbench({ baseUrl: sb.baseUrl, metadata: registered.then((r) => r.info) });
  await registered;
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys[label], companyId: sb.companies[label] });
  const reader = (await runtime.getReader())!;
  const client = (await runtime.getClient())!;
  const statements = createStatementsEngine({ gateway: world.book, reader, client, companyName: name });
  const m0 = monthAgo(2);
  const m1 = monthAgo(1);
  const choice: PackChoice = { fiscalYearStartMonth: 1, charts: true, byDepartment: true };
  await setReportingPeriod(world.book, m0);
  await settled();
  const costs = await packCosts(reader, m0, choice);
  expect(costs.pack).toMatchObject({ cached: 0, estimated: 'at least' });
  const u0 = await sb.usage(sb.companies[label]);
  const roles = (await proposeRolesFor(reader, client))!.roles;
  await insertBoardPack(world.book, statements, m0, { ...choice, roles });
  await settled();
  const spent = (await sb.usage(sb.companies[label])) - u0;
  const company = sb.companies[label];
  // The walk's pages beyond its first are what "at least" could not know (Northwind's month: 3 pages).
  expect(spent).toBe(costs.pack.calls - 1 + journalPages(company, m0));
  const plan = await statements.planRoll(m1, packFormulaReads((await boardPackIn(world.book))!, m1));
  expect(plan.cost.estimated).toBe('about');
  const walk1 = await walkPriced(plan.blocks.flatMap((b) => blockRequests(b.spec)));
  const u1 = await sb.usage(sb.companies[label]);
  await statements.roll(plan);
  await settled();
  const rollSpent = (await sb.usage(sb.companies[label])) - u1;
  expect(rollSpent).toBe(plan.cost.calls - walk1 + journalPages(company, m1));
  console.log(
    `${name}: board pack (charts, by department) cold: shown at least ${costs.pack.calls}, spent ${spent} (journal walk ${journalPages(company, m0)} pages); ` +
      `roll forward: shown about ${plan.cost.calls}, spent ${rollSpent} (walk ${walk1} estimated, ${journalPages(company, m1)} read)`,
  );
});
