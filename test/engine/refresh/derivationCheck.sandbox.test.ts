// Issue 30, item 4: derivation is a connection setting, and a full refresh checks it. With derivation off,
// every figure is fetched; the full refresh then compares each total the API gave with the sum of the
// monthly statements (no call) and says what it found. An API that breaks the identity (here the sandbox's
// answers to /aggregations/total altered by one cent on their way in) turns derivation off for the company,
// persisted with the reason; one that keeps it says derivation can be turned on.
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import type { StatementSpec } from '../../../src/engine/statements';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, testWorkspace, type TestRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const months: StatementSpec = { statement: 'income_statement', period: 'custom', start: `${year}-01-01`, end: `${year}-12-31`, layout: 'months', scale: 'units', fiscalYearStartMonth: 1 };

/** An API whose category totals are one cent off the statements' lines: it breaks the identity. */
const offByOneCent: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (!String(input).includes('/aggregations/total') || res.status !== 200) return res;
  const body = (await res.json()) as { total_cents: number };
  return new Response(JSON.stringify({ ...body, total_cents: body.total_cents + 1 }), { status: 200, headers: res.headers });
};

async function usage(work: () => Promise<unknown>): Promise<number> {
  const company = sb.companies['growth-admin'];
  const before = await sb.usage(company);
  await work();
  return (await sb.usage(company)) - before;
}

/** A workbook of twelve monthly statements and four quarterly Revenue totals, derivation off. */
async function workbook(rt: TestRuntime) {
  await rt.runtime.setDerivation(false);
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { quietMs: 50 });
  await workspace.statements.insert(months, 'newSheet');
  const totals = () => Promise.all([1, 2, 3, 4].map((q) => rt.service.total({ category: 'Revenue', start: `${year}-Q${q}` })));
  // Off: the four totals are fetched although their months are cached (and the category list they name).
  expect(await usage(totals)).toBe(1 + 4);
  const refreshFull = async () => (await workspace.refresh(await workspace.askRefresh('full'))).result;
  return { totals, refreshFull };
}

test('with derivation off, a full refresh says the figures the statements decide matched the API\'s; turned on, they cost nothing again', async () => {
  let rt: TestRuntime;
  rt = await testRuntime(sb, { recalculate: async () => void (await totalsOf()) });
  const totalsOf = () => Promise.all([1, 2, 3, 4].map((q) => rt.service.total({ category: 'Revenue', start: `${year}-Q${q}` })));
  const { refreshFull } = await workbook(rt);
  const result = await refreshFull();
  expect(result.message).toMatch(/ 4 figures of the API matched the sum of the monthly statements: derivation from them can be turned on \(Connection\)\.$/);
  expect((await rt.runtime.getConnection())?.deriveFromStatements).toBe(false);

  // The setting is kept with the connection: a reopened workbook has derivation off until it is turned on.
  const reopened = await testRuntime(sb, { stores: rt.stores });
  expect((await reopened.runtime.getReader())!.derivations.enabled).toBe(false);
  await reopened.runtime.setDerivation(true);
  expect((await reopened.runtime.getConnection())?.deriveFromStatements).toBeUndefined();
  expect((await reopened.runtime.getReader())!.derivations.enabled).toBe(true);
  rt = reopened;
  await (await rt.runtime.getReader())!.markAllStale();
  await Promise.all(Array.from({ length: 12 }, (_, i) => rt.service.pnl({ line: 'Revenue', start: `${year}-${String(i + 1).padStart(2, '0')}` })));
  expect(await usage(totalsOf)).toBe(0);
});

test('an API whose totals differ from its statements: the full refresh turns derivation off for the company and says why', async () => {
  const rt = await testRuntime(sb, { fetch: offByOneCent, recalculate: async () => void (await totalsOf()) });
  const totalsOf = () => Promise.all([1, 2, 3, 4].map((q) => rt.service.total({ category: 'Revenue', start: `${year}-Q${q}` })));
  const { refreshFull } = await workbook(rt);
  const result = await refreshFull();
  expect(result.message).toMatch(/ Derivation from the monthly statements is now off for this company: 4 figures of the API differed from the sum of its monthly statements \(\/aggregations\/total\?category_id=cat_\w+&end_date=\d{4}-03-31&start_date=\d{4}-01-01; .*\)\. Every figure is fetched from the API\.$/);
  const connection = await rt.runtime.getConnection();
  expect(connection).toMatchObject({ deriveFromStatements: false, derivationOffBecause: expect.stringMatching(/^4 figures of the API differed/) });
  // Off, the totals are the API's own (one cent more than the statements' lines), fetched.
  const cells = await totalsOf();
  const q1 = (await rt.client.reports.incomeStatement({ start_date: `${year}-01-01`, end_date: `${year}-03-31` })).revenue.categories.find((c) => c.name === 'Revenue')!.amount_cents;
  expect(Math.round(cells[0] * 100)).toBe(q1 + 1);
});

test('derivation on (the default), an API whose totals differ from its statements by one cent: the full refresh fetches a derived total to compare, turns derivation off and says why', async () => {
  const rt = await testRuntime(sb, { fetch: offByOneCent, recalculate: async () => void (await totalsOf()) });
  const totalsOf = () => Promise.all([1, 2, 3, 4].map((q) => rt.service.total({ category: 'Revenue', start: `${year}-Q${q}` })));
  expect((await rt.runtime.getReader())!.derivations.enabled).toBe(true);
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { quietMs: 50 });
  await workspace.statements.insert(months, 'newSheet');
  // On: the totals are derived from the cached months; the one call is the category list they name.
  expect(await usage(totalsOf)).toBe(1);
  const result = (await workspace.refresh(await workspace.askRefresh('full'))).result;
  // Before issue 34 the check skipped derived answers: "Spent N calls." and derivation stayed on.
  expect(result.message).toMatch(/ Derivation from the monthly statements is now off for this company: 1 figure of the API differed from the sum of its monthly statements \(\/aggregations\/total\?category_id=cat_\w+&end_date=\d{4}-\d{2}-\d{2}&start_date=\d{4}-\d{2}-01\)\. Every figure is fetched from the API\.$/);
  expect(await rt.runtime.getConnection()).toMatchObject({ deriveFromStatements: false });
  expect((await rt.runtime.getReader())!.derivations.enabled).toBe(false);
});

test('an identity found not to hold (retained earnings read otherwise by the API) is said by every full refresh, and its totals stay the API\'s', async () => {
  await sb.control('control', { totals_without_computed_earnings: true });
  try {
    // The workbook's two cells, read again by the refresh's recalculation.
    const cells = () => Promise.all([rt.service.balance({ category: 'Cash', date: `${year}-06-30` }), rt.service.total({ category: 'Retained Earnings', start: `${year}-06` })]);
    const rt: TestRuntime = await testRuntime(sb, { recalculate: async () => void (await cells()) });
    const workspace = await testWorkspace(rt.runtime, new MemoryGateway(), { quietMs: 50 });
    await cells();
    const result = (await workspace.refresh(await workspace.askRefresh('full'))).result;
    expect(result.message).toMatch(/ Balance totals resting on the retained earnings identity are fetched, not derived: the API's total for "Retained Earnings" at \d{4}-06-30 is -?\d+ cents where its balance sheet's line is -?\d+\.$/);
    // Derivation stays on for everything else.
    expect(rt.reader.derivations.enabled).toBe(true);
  } finally {
    await sb.control('control', { totals_without_computed_earnings: false });
  }
});
