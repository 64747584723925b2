// Issue 15, item 2: blocks relative to the reporting period. Each records its relation, so moving FIN_PERIOD
// one month rolls it forward: the cost is known before anything is spent (the new periods that are not
// cached: last month's columns serve as this month's prior ones), the roll spends exactly that (the
// sandbox's own count), the rolled blocks show the API's figures for their new dates, and blocks of fixed
// dates stay as they were. A refresh (full or of changes) follows the period too.
import { monthIndex, monthIndexToYearMonth, type YearMonth } from '../../../src/engine/dates';
import { readReportingPeriod, setReportingPeriod } from '../../../src/engine/reporting/period';
import { canonicalKey } from '../../../src/engine/reader/requestCache';
import { changedOnly, columnsFor, createStatementsEngine, relativePeriod, type StatementSpec } from '../../../src/engine/statements';
import { rollSpec } from '../../../src/engine/statements/relative';
import { specFromBinding } from '../../../src/engine/statements/spec';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { expectBlockMatchesApi } from '../../taskpane/sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];

/** A month with figures whose next month has figures too: two months before the company's current one. */
function startMonth(): YearMonth {
  return monthIndexToYearMonth(monthIndex(sb.running.ctx.clock.today()) - 2);
}

const next = (m: YearMonth): YearMonth => monthIndexToYearMonth(m.year * 12 + m.month);

const relative = (statement: StatementSpec['statement'], relation: StatementSpec['relation'], layout: StatementSpec['layout'], extra: Partial<StatementSpec> = {}): StatementSpec => ({
  statement,
  period: 'custom',
  start: '',
  end: '',
  layout,
  scale: 'units',
  fiscalYearStartMonth: 1,
  relation,
  ...extra,
});

const SPECS: StatementSpec[] = [
  relative('income_statement', 'month', 'single'),
  relative('income_statement', 'month', 'prior_ytd', { variance: true }),
  relative('income_statement', 'ytd', 'months'),
  relative('balance_sheet', 'ytd', 'prior_period'),
  relative('cash_flow', 'ytd', 'single'),
  relative('income_statement', 'last_year', 'single'),
];

function keysOf(specs: readonly StatementSpec[]): Set<string> {
  return new Set(specs.flatMap((s) => columnsFor(s).map((c) => canonicalKey(company(), c.request))));
}

function columnsOf(spec: StatementSpec) {
  return columnsFor(spec).map((c) => (c.date ? { date: c.date } : { start: c.start, end: c.end }));
}

test('moving the reporting period one month rolls every relative block, costing only the periods not cached', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const m0 = startMonth();
  const m1 = next(m0);
  await setReportingPeriod(gateway, m0);
  const fixed: StatementSpec = { statement: 'income_statement', period: 'custom', start: `${m0.year - 1}-01-01`, end: `${m0.year - 1}-03-31`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };
  const usage0 = await sb.usage(company());
  for (const spec of SPECS) await statements.insert(rollSpec(spec, m0), 'newSheet');
  await statements.insert(fixed, 'newSheet');
  const before = keysOf([...SPECS.map((s) => rollSpec(s, m0)), fixed]);
  expect(await sb.usage(company())).toBe(usage0 + before.size);

  // The cost before anything is spent: the new periods not already fetched.
  const after = keysOf(SPECS.map((s) => rollSpec(s, m1)));
  const fresh = [...after].filter((k) => !before.has(k)).length;
  expect(fresh).toBeGreaterThan(0);
  expect(fresh).toBeLessThan(after.size); // some of last month's periods serve this month
  const plan = await statements.planRoll(m1);
  expect(plan.blocks).toHaveLength(SPECS.length);
  expect(plan.unchanged).toBe(0);
  // Two of the new periods are sums of what is cached or fetched with them (reader/derive.ts): the year to date,
  // of its months; the prior year to date, of the one to the month before and that month a year ago.
  expect(plan.cost.derived).toBe(2);
  expect(plan.cost.calls).toBe(fresh - 2);
  expect(await sb.usage(company())).toBe(usage0 + before.size);

  const usage1 = await sb.usage(company());
  const outcome = await statements.roll(plan);
  expect(outcome.failed).toEqual([]);
  expect(await sb.usage(company())).toBe(usage1 + fresh - 2);
  expect(await readReportingPeriod(gateway)).toMatchObject({ state: 'set', month: m1 });

  // Each rolled block has its new dates recorded and shows the API's figures for them; the fixed one is untouched.
  const bindings = await gateway.listBindings();
  for (const spec of SPECS) {
    const rolled = rollSpec(spec, m1);
    const binding = bindings.find((b) => {
      const s = specFromBinding(b)!;
      return s.relation === spec.relation && s.layout === spec.layout && s.statement === spec.statement;
    })!;
    expect(specFromBinding(binding)).toMatchObject({ start: rolled.start, end: rolled.end, relation: spec.relation });
    await expectBlockMatchesApi(sb, 'growth-admin', gateway, binding, columnsOf(rolled));
  }
  expect(specFromBinding(bindings.find((b) => !specFromBinding(b)!.relation)!)).toMatchObject({ start: fixed.start, end: fixed.end });

  // Rolling to the month it is at already moves nothing and costs nothing.
  const again = await statements.planRoll(m1);
  expect(again).toMatchObject({ blocks: [], unchanged: SPECS.length, cost: { calls: 0 } });
});

test('a refresh follows the reporting period: the changed-only plan rolls the relative blocks, costing their new periods', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const m0 = startMonth();
  const m1 = next(m0);
  await setReportingPeriod(gateway, m0);
  const month = relative('income_statement', 'month', 'single');
  const ytd = relative('income_statement', 'ytd', 'months');
  await statements.insert(rollSpec(month, m0), 'newSheet');
  await statements.insert(rollSpec(ytd, m0), 'newSheet');
  expect((await statements.plan()).blocks.map((b) => b.rolled)).toEqual([false, false]);

  // The user types the next month into the cell; the refresh plan sees both blocks behind.
  await setReportingPeriod(gateway, m1);
  const plan = await statements.plan();
  expect(plan.blocks.map((b) => b.rolled)).toEqual([true, true]);
  expect(plan.blocks.map((b) => [b.spec.start, b.spec.end])).toEqual([month, ytd].map((s) => [relativePeriod(s.relation!, m1, 1).start, relativePeriod(s.relation!, m1, 1).end]));
  // One new month, shared by the two blocks; the months before it are cached.
  expect(plan.changedCalls).toMatchObject({ blocks: 2, blockCalls: 1 });
  const usage = await sb.usage(company());
  const outcome = await statements.refreshAll(changedOnly(plan), { scope: 'changed' });
  expect(outcome.failed).toEqual([]);
  expect(await sb.usage(company())).toBe(usage + 1);
  for (const binding of outcome.refreshed) await expectBlockMatchesApi(sb, 'growth-admin', gateway, binding, columnsOf(specFromBinding(binding)!));
  expect((await statements.plan()).blocks.map((b) => b.rolled)).toEqual([false, false]);
});
