// Issue 27, item 2: a budget typed in the workbook, matched to the chart of accounts by name path, compared with
// the income statement in a block (Actual, Budget, Variance, Variance %: favourable positive) and in FIN cells,
// rolled forward with the reporting period, never sent anywhere: the budget side costs 0 calls (the sandbox's
// own count), the actual side is the ordinary cached read.
import { readBudgetAt } from '../../../src/engine/budgets/kept';
import { keepBudget, matchBudget } from '../../../src/engine/budgets';
import { buildTree } from '../../../src/engine/tree';
import { isoToSerial, monthIndex, monthIndexToYearMonth, periodOfMonth, type YearMonth } from '../../../src/engine/dates';
import { setReportingPeriod } from '../../../src/engine/reporting/period';
import { changedOnly, createStatementsEngine, type StatementSpec } from '../../../src/engine/statements';
import { rollSpec } from '../../../src/engine/statements/relative';
import { specFromBinding } from '../../../src/engine/statements/spec';
import { isFinError } from '../../../src/engine/fin';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { monthsFrom, typeBudget, typedCents, type TypedLine } from '../../support/budget';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { apiReport, blockAt, type SheetBlock } from '../../taskpane/sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];
const BUDGET = 'Budget_Test';

/** A month with figures whose next month has figures too: two months before the company's current one. */
function startMonth(): YearMonth {
  return monthIndexToYearMonth(monthIndex(sb.running.ctx.clock.today()) - 2);
}
const next = (m: YearMonth): YearMonth => monthIndexToYearMonth(m.year * 12 + m.month);

/** Two years of months, the year before the current one and the current one. */
function budgetMonths(): string[] {
  return monthsFrom(`${Number(sb.running.ctx.clock.today().slice(0, 4)) - 1}-01-01`, 24);
}

/** Cents of a category (by name) on an API income statement; 0 when not listed. */
function apiLine(report: any, name: string): number {
  for (const key of ['revenue', 'expenses', 'non_operating_income', 'taxes', 'uncategorized_income', 'uncategorized_expenses']) {
    const line = (report[key]?.categories ?? []).find((l: any) => l.name === name);
    if (line) return line.amount_cents;
  }
  return 0;
}

/** The typed budget: the given per-month units for some lines, flat for the others. */
function lines(months: string[], units: (label: string, month: string) => number, labels: string[]): TypedLine[] {
  return labels.map((label) => ({ label, units: months.map((m) => units(label, m)) }));
}

const HEADER = 6;
const row = (block: SheetBlock, label: string) => {
  const r = block.rowOf(label, HEADER + 1);
  expect(r).toBeGreaterThan(HEADER);
  return r;
};
const units = (cents: number) => cents / 100;
const serial = (iso: string) => {
  const s = isoToSerial(iso, 1900);
  if (!s.ok) throw new Error(s.error);
  return s.value;
};

test('a budget is matched by name path: the lines that match no category and the categories no line covers are said', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const months = budgetMonths();
  const typed = await typeBudget(
    gateway,
    'Budget',
    months,
    lines(months, () => 100, [
      'Revenue > Subscription Revenue > Platform Subscriptions', // a full path
      'Enterprise Licenses', // a unique name
      'Operating Expenses > Rent', // a head and a tail of a path
      'payroll & benefits > salaries  & wages', // case and spaces do not matter
      'Benefits',
      'Marketing', // no such category
      'Cash', // a balance-sheet category
      'Total operating expenses', // a subtotal the statement computes itself
      'Rent', // the same category twice
    ]),
  );
  const sheet = await readBudgetAt(gateway, typed.address);
  const tree = buildTree((await rt.client.categories.list()).data, 'category');
  const match = matchBudget(sheet, tree);

  expect(match.matched.map((m) => [m.line.label, m.node.path])).toEqual([
    ['Revenue > Subscription Revenue > Platform Subscriptions', 'Revenue > Subscription Revenue > Platform Subscriptions'],
    ['Enterprise Licenses', 'Revenue > Subscription Revenue > Enterprise Licenses'],
    ['Operating Expenses > Rent', 'Operating Expenses > General & Administrative > Rent'],
    ['payroll & benefits > salaries  & wages', 'Operating Expenses > Payroll & Benefits > Salaries & Wages'],
    ['Benefits', 'Operating Expenses > Payroll & Benefits > Benefits'],
  ]);
  expect(match.matched.map((m) => m.direction)).toEqual([1, 1, -1, -1, -1]);
  expect(match.unmatched.map((u) => [u.line.label, u.subtotal])).toEqual([
    ['Marketing', false],
    ['Cash', false],
    ['Total operating expenses', true],
    ['Rent', false],
  ]);
  expect(match.unmatched[0].reason).toMatch(/^Unknown category "Marketing": did you mean "Sales & Marketing"/);
  expect(match.unmatched[1].reason).toContain('is a balance-sheet category');
  expect(match.unmatched[3].reason).toContain('the same category as the line "Operating Expenses > Rent"');
  // Categories of the income statement no line covers, each the top of what is uncovered.
  const uncovered = match.unbudgeted.map((n) => n.path);
  expect(uncovered).toEqual(
    expect.arrayContaining([
      'Revenue > Services Revenue',
      'Cost of Revenue',
      'Operating Expenses > Payroll & Benefits > Payroll Taxes',
      'Operating Expenses > Payroll & Benefits > Contractors',
      'Operating Expenses > Sales & Marketing',
      'Operating Expenses > General & Administrative > Software Subscriptions',
      'Other Income',
      'Taxes',
    ]),
  );
  // Covered: budgeted, above a budgeted line, or below one; and a listed parent stands for its children.
  for (const covered of ['Revenue', 'Operating Expenses > Payroll & Benefits', 'Operating Expenses > General & Administrative > Rent', 'Operating Expenses > Sales & Marketing > Advertising']) {
    expect(uncovered).not.toContain(covered);
  }
  expect(uncovered.some((p) => p.startsWith('Assets'))).toBe(false);
  expect(match.costs).toBe('positive');
});

test('against budget: Actual, Budget, Variance and Variance %, favourable positive for revenue and expense lines; the budget costs no call', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const m0 = startMonth();
  const quarter = periodOfMonth(m0, 'quarter', 1);
  const actual = await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: quarter.start, end_date: quarter.end });
  const quarterMonths = monthsFrom(quarter.start, 3);
  const months = budgetMonths();
  // Revenue budgeted 3,000 under what came in (favourable), Rent 900 over what was spent (under budget:
  // favourable), Salaries 2,100 under what was spent (over budget: unfavourable); costs typed positive.
  const perMonth = (cents: number, delta: number) => Math.round(cents / 3) / 100 + delta;
  const plan: Record<string, (m: string) => number> = {
    'Platform Subscriptions': () => perMonth(apiLine(actual, 'Platform Subscriptions'), -1000),
    Rent: () => perMonth(-apiLine(actual, 'Rent'), 300),
    'Salaries & Wages': () => perMonth(-apiLine(actual, 'Salaries & Wages'), -700),
    'Benefits': () => 1234.56,
  };
  const typed = await typeBudget(gateway, 'Budget', months, lines(months, (label, m) => (quarterMonths.includes(m) ? plan[label](m) : 10), Object.keys(plan)));
  await keepBudget(gateway, BUDGET, typed.address);

  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: quarter.start, end: quarter.end, layout: 'budget', budget: BUDGET, scale: 'units', fiscalYearStartMonth: 1 };
  const before = await sb.usage(company());
  expect((await statements.cost(spec)).calls).toBe(2); // the quarter's statement and the chart of accounts
  const { written, binding } = await statements.insert(spec, 'newSheet');
  expect(await sb.usage(company())).toBe(before + 2);
  expect(written.sheet).toBe(`P&L ${quarter.label} vs budget`);
  expect(specFromBinding(binding)).toMatchObject({ layout: 'budget', budget: BUDGET });
  // The Budget column is no period: a drill-down from it has nothing to explain it.
  expect(binding.parameters.columnPeriods).toEqual([{ start: quarter.start, end: quarter.end }, null, null, null]);

  const block = blockAt(gateway, written.address);
  expect([1, 2, 3, 4].map((c) => block.cell(HEADER, c).value)).toEqual(['Actual', 'Budget', 'Variance fav/(unfav)', 'Variance % fav/(unfav)']);
  expect(block.cell(2, 0).value).toBe(`${quarter.label} (${quarter.start} to ${quarter.end}) against the budget ${BUDGET}`);
  const expectLine = (label: string, actualCents: number, budgetCents: number, favourable: 'favourable' | 'unfavourable') => {
    const r = row(block, label);
    expect(block.cell(r, 1).value as number).toBeCloseTo(units(actualCents), 9);
    expect(block.cell(r, 2).value as number).toBeCloseTo(units(budgetCents), 9);
    const variance = block.cell(r, 3).value as number;
    expect(variance).toBeCloseTo(units(actualCents - budgetCents), 9);
    expect(Math.sign(variance)).toBe(favourable === 'favourable' ? 1 : -1);
    expect(block.cell(r, 4).value as number).toBeCloseTo((actualCents - budgetCents) / Math.abs(budgetCents), 12);
  };
  const budgetOf = (label: string, sign: 1 | -1) => sign * typedCents(typed, label, quarter.start, quarter.end);
  // Revenue: above budget is favourable. Costs: the budget is shown as the statement shows costs (negative).
  expectLine('Platform Subscriptions', apiLine(actual, 'Platform Subscriptions'), budgetOf('Platform Subscriptions', 1), 'favourable');
  expectLine('Rent', apiLine(actual, 'Rent'), budgetOf('Rent', -1), 'favourable');
  expectLine('Salaries & Wages', apiLine(actual, 'Salaries & Wages'), budgetOf('Salaries & Wages', -1), 'unfavourable');
  // A parent with no line of its own is budgeted at its lines' sum; a category with no budget shows 0 there.
  const payroll = row(block, 'Payroll & Benefits');
  expect(block.cell(payroll, 2).value as number).toBeCloseTo(units(budgetOf('Salaries & Wages', -1) + budgetOf('Benefits', -1)), 9);
  expect(block.cell(row(block, 'Advertising'), 2).value).toBe(0);
  // Totals: the budget's section totals and net income, and their variance, from the same cents.
  const budgetRevenue = budgetOf('Platform Subscriptions', 1);
  const budgetCosts = budgetOf('Rent', -1) + budgetOf('Salaries & Wages', -1) + budgetOf('Benefits', -1);
  const totalRevenue = row(block, 'Total revenue');
  expect(block.cell(totalRevenue, 2).value as number).toBeCloseTo(units(budgetRevenue), 9);
  expect(block.cell(row(block, 'Total expenses'), 2).value as number).toBeCloseTo(units(budgetCosts), 9);
  const net = row(block, 'Net income');
  expect(block.cell(net, 1).value as number).toBeCloseTo(units(actual.net_income_cents), 9);
  expect(block.cell(net, 2).value as number).toBeCloseTo(units(budgetRevenue + budgetCosts), 9);
  expect(block.cell(net, 3).value as number).toBeCloseTo(units(actual.net_income_cents - budgetRevenue - budgetCosts), 9);
  expect(block.cell(row(block, 'Check: net income = sum of sections'), 2).value).toBe(0);

  // The same variance from FIN cells: the actual side read from the cache (no call), the budget side never a call.
  const range = (await gateway.readRange(typed.address)).values;
  const usage = await sb.usage(company());
  const period = `${quarter.start.slice(0, 4)}-Q${Math.floor((m0.month - 1) / 3) + 1}`;
  expect(await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [range, 'Salaries & Wages', period] })).toBeCloseTo(block.cell(row(block, 'Salaries & Wages'), 3).value as number, 9);
  expect(await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [range, 'Net Income', period] })).toBeCloseTo(block.cell(net, 3).value as number, 9);
  expect(await rt.service.evaluate({ name: 'BUDGET', args: [range, 'Rent', period] })).toBeCloseTo(units(typedCents(typed, 'Rent', quarter.start, quarter.end)), 9);
  expect(await sb.usage(company())).toBe(usage);
});

test('FIN.BUDGET spends no call, not even on a cold cache; FIN.BUDGET_VARIANCE spends what FIN.PNL of the period would', async () => {
  const rt = await testRuntime(sb); // nothing cached
  const gateway = new MemoryGateway();
  const months = budgetMonths();
  const typed = await typeBudget(gateway, 'Budget', months, [
    { label: 'Payroll & Benefits > Salaries & Wages', units: months.map((_, i) => 1000 + i) },
    { label: 'Payroll & Benefits > Benefits', units: months.map(() => 250.25) },
    { label: 'Rent', units: months.map(() => 500) },
  ]);
  const range = (await gateway.readRange(typed.address)).values;
  const m = startMonth();
  const month = periodOfMonth(m, 'month', 1);
  const ytd = periodOfMonth(m, 'ytd', 1);
  const before = await sb.usage(company());
  expect(await rt.service.evaluate({ name: 'BUDGET', args: [range, 'Rent', month.start.slice(0, 7)] })).toBe(500);
  expect(await rt.service.evaluate({ name: 'BUDGET', args: [range, 'Salaries & Wages', ytd.start, ytd.end] })).toBeCloseTo(units(typedCents(typed, 'Payroll & Benefits > Salaries & Wages', ytd.start, ytd.end)), 9);
  // Months headed by date cells (serials in the workbook's date system, which the runtime asks the host for).
  const dated = [range[0].map((h, c) => (c === 0 ? h : serial(`${String(h)}-01`))), ...range.slice(1)];
  expect(await rt.service.evaluate({ name: 'BUDGET', args: [dated, 'Rent', month.start.slice(0, 7)] })).toBe(500);
  // A parent by the paths typed under it.
  expect(await rt.service.evaluate({ name: 'BUDGET', args: [range, 'Payroll & Benefits', month.start.slice(0, 7)] })).toBeCloseTo(1000 + months.indexOf(month.start.slice(0, 7)) + 250.25, 9);
  expect(await sb.usage(company())).toBe(before);
  // What it cannot answer is said, still for no call.
  const failure = async (args: unknown[]) => {
    try {
      await rt.service.evaluate({ name: 'BUDGET', args });
    } catch (error) {
      if (isFinError(error)) return `${error.kind}: ${error.message}`;
      throw error;
    }
    throw new Error('answered');
  };
  expect(await failure([range, 'Rent', `${Number(months[0].slice(0, 4)) - 1}-12`])).toMatch(/^na: The budget has no column for Dec \d{4}/);
  expect(await failure([range, 'Travel', months[0]])).toMatch(/^value: The budget has no line "Travel"/);
  expect(await failure([[...range.slice(0, 2), ['Rent', ...range[3].slice(1, -1), 'n/a']], 'Rent', months[0]])).toMatch(/^value: The budget has text "n\/a" where a figure belongs/);
  expect(await sb.usage(company())).toBe(before);

  // The variance reads the chart of accounts and the month's statement: 2 calls, then nothing more.
  const variance = await rt.service.evaluate<number>({ name: 'BUDGET_VARIANCE', args: [range, 'Rent', month.start.slice(0, 7)] });
  expect(await sb.usage(company())).toBe(before + 2);
  const actual = await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: month.start, end_date: month.end });
  expect(variance).toBeCloseTo(units(apiLine(actual, 'Rent') + 50000), 9); // actual (negative) less a budgeted cost of 500
  const usage = await sb.usage(company());
  await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [range, 'Salaries & Wages', month.start.slice(0, 7)] });
  expect(await sb.usage(company())).toBe(usage);

  // One category on two lines (issue 36, item 3): both functions refuse, neither reads the first line alone.
  const twice = [...range, ['General & Administrative > Rent', ...range[3].slice(1)]];
  expect(await failure([twice, 'Rent', month.start.slice(0, 7)])).toMatch(/^value: "Rent" matches 2 lines of the budget/);
  const varianceFailure = async () => {
    try {
      await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [twice, 'Rent', month.start.slice(0, 7)] });
    } catch (error) {
      if (isFinError(error)) return `${error.kind}: ${error.message}`;
      throw error;
    }
    throw new Error('answered');
  };
  expect(await varianceFailure()).toBe('na: "Operating Expenses > General & Administrative > Rent" is on two lines of the budget ("Rent" and "General & Administrative > Rent"): keep one line per category');

  // Three costs typed positive and one negative (issue 36, item 9): the majority's rule would make that line
  // budgeted income. The variance refuses it, naming the line, for the line and for any total over it.
  const signs = [...range, ['Cloud Hosting', ...range[3].slice(1).map(() => -200000)]];
  const signFailure = async (line: string) => {
    try {
      await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [signs, line, month.start.slice(0, 7)] });
    } catch (error) {
      if (isFinError(error)) return `${error.kind}: ${error.message}`;
      throw error;
    }
    throw new Error('answered');
  };
  const refused = 'na: The budget\'s cost line "Cloud Hosting" is typed negative while its other costs are positive: type it as they are, or it would read as income';
  expect(await signFailure('Cloud Hosting')).toBe(refused);
  expect(await signFailure('Net Income')).toBe(refused);
  expect(await signFailure('Cost of Revenue')).toBe(refused);
  expect(typeof (await rt.service.evaluate({ name: 'BUDGET_VARIANCE', args: [signs, 'Rent', month.start.slice(0, 7)] }))).toBe('number');
});

test('Roll forward moves the comparison: a block against budget for the year to date follows the reporting period, costing the new period only', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const months = budgetMonths();
  const typed = await typeBudget(gateway, 'Budget', months, lines(months, (label, m) => (label === 'Rent' ? 400 + Number(m.slice(5)) : 9000), ['Rent', 'Platform Subscriptions']));
  await keepBudget(gateway, BUDGET, typed.address);
  const m0 = startMonth();
  const m1 = next(m0);
  await setReportingPeriod(gateway, m0);
  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: '', end: '', layout: 'budget', budget: BUDGET, scale: 'units', fiscalYearStartMonth: 1, relation: 'ytd' };
  await statements.insert(rollSpec(spec, m0), 'newSheet');

  const plan = await statements.planRoll(m1);
  expect(plan.blocks).toHaveLength(1);
  expect(plan.cost.calls).toBe(1); // the new year to date's statement; the chart of accounts is cached
  const before = await sb.usage(company());
  const outcome = await statements.roll(plan);
  expect(outcome.failed).toEqual([]);
  expect(await sb.usage(company())).toBe(before + 1);

  const ytd = periodOfMonth(m1, 'ytd', 1);
  const [binding] = outcome.rolled;
  expect(specFromBinding(binding)).toMatchObject({ start: ytd.start, end: ytd.end, budget: BUDGET, relation: 'ytd' });
  const block = blockAt(gateway, binding.address);
  const actual = await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: ytd.start, end_date: ytd.end });
  const rent = row(block, 'Rent');
  expect(block.cell(rent, 1).value as number).toBeCloseTo(units(apiLine(actual, 'Rent')), 9);
  expect(block.cell(rent, 2).value as number).toBeCloseTo(units(-typedCents(typed, 'Rent', ytd.start, ytd.end)), 9);
  expect(block.cell(2, 0).value).toContain(`(${ytd.start} to ${ytd.end}) against the budget ${BUDGET}`);
});

test('an edited budget makes its blocks due, rebuilt from the cache for no call; a budget that cannot answer is refused before any call', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const months = budgetMonths();
  const typed = await typeBudget(gateway, 'Budget', months, lines(months, () => 700, ['Rent']));
  await keepBudget(gateway, BUDGET, typed.address);
  const month = periodOfMonth(startMonth(), 'month', 1);
  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: month.start, end: month.end, layout: 'budget', budget: BUDGET, scale: 'units', fiscalYearStartMonth: 1 };
  await statements.insert(spec, 'newSheet');
  const unchanged = (await statements.plan()).blocks[0];
  expect(unchanged.changed).toEqual([]);
  expect(unchanged.budgetChanged).toBeUndefined();

  // The controller revises the month's rent in the budget sheet.
  const column = 1 + months.indexOf(month.start.slice(0, 7));
  gateway.typeValue('Budget', `${String.fromCharCode(65 + column)}2`, 950);
  const plan = await statements.plan();
  expect(plan.blocks[0]).toMatchObject({ budgetChanged: true, changedCalls: 0 });
  expect(plan.changedCalls).toMatchObject({ blocks: 1, blockCalls: 0 });
  const before = await sb.usage(company());
  const outcome = await statements.refreshAll(changedOnly(plan), { scope: 'changed' });
  expect(outcome.failed).toEqual([]);
  expect(await sb.usage(company())).toBe(before);
  expect(blockAt(gateway, outcome.refreshed[0].address).cell(row(blockAt(gateway, outcome.refreshed[0].address), 'Rent'), 2).value).toBe(-950);
  expect((await statements.plan()).blocks[0].budgetChanged).toBeUndefined();

  // A period the budget has no months for, and text typed where a figure belongs: refused, nothing spent.
  const early = periodOfMonth(monthIndexToYearMonth(monthIndex(`${months[0]}-01`) - 1), 'month', 1);
  await expect(statements.insert({ ...spec, start: early.start, end: early.end }, 'newSheet')).rejects.toMatchObject({ code: 'budget_months', message: expect.stringContaining(`${BUDGET}: The budget has no column for`) });
  gateway.typeValue('Budget', `${String.fromCharCode(65 + column)}2`, '1,200');
  await expect(statements.insert(spec, 'newSheet')).rejects.toMatchObject({ code: 'budget_unreadable', message: expect.stringContaining(`, Budget!${String.fromCharCode(65 + column)}2): type it as a number.`) });
  expect(await sb.usage(company())).toBe(before);
});
