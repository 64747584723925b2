/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 27, item 2, in the pane: the user selects the budget sheet they typed, checks it (what matches, what does
// not and why, which categories have no line; the chart of accounts its only cost), keeps it under a name, and
// inserts the income statement against it: Actual, Budget and the variance, the budget side costing nothing.
import { act } from 'react';
import { calendarDateAt, isEndOfMonth, periodOfMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import { BUDGETS_SETTING } from '../../src/engine/budgets';
import { monthsFrom, typeBudget, typedCents } from '../support/budget';
import { connected, errorText, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from './harness';
import { apiReport, blockAt } from './sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];

function budgetMonths(): string[] {
  return monthsFrom(`${Number(sb.running.ctx.clock.today().slice(0, 4)) - 1}-01-01`, 24);
}

test('select a budget, check it, keep it, and insert the last quarter against it: its figures are the typed budget and the API', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const months = budgetMonths();
  const typed = await typeBudget(h.gateway, 'Budget', months, [
    { label: 'Platform Subscriptions', units: months.map((_, i) => 90000 + i * 100) },
    { label: 'Operating Expenses > Rent', units: months.map(() => 12000) },
    { label: 'Marketing', units: months.map(() => 5000) },
    { label: 'Total expenses', units: months.map(() => 17000) },
  ]);
  act(() => h.gateway.select('Budget', typed.address.replace(/^Budget!/, '')));

  const budgets = screen.getByRole('region', { name: 'Budgets' });
  // Settled before anything is counted: the cost of checking is worked out when the tab opens.
  expect(await within(budgets).findByText('Checking spends 1 call: the chart of accounts, once', {}, { timeout: 15000 })).toBeTruthy();
  const before = await sb.usage(company());
  await h.user.click(within(budgets).getByRole('button', { name: 'Check the selected budget' }));
  const check = await within(budgets).findByRole('region', { name: 'Budget check' }, { timeout: 15000 });
  expect(await sb.usage(company())).toBe(before + 1);
  const [first, last] = [months[0], months[months.length - 1]].map((m) => monthIndexToYearMonth(monthIndex(`${m}-01`)));
  expect(within(check).getByText(`${typed.address}: 2 lines matched to categories, Jan ${first.year} to Dec ${last.year}. Costs typed as positive amounts.`)).toBeTruthy();
  expect(within(check).getByText(/^Lines that match no category, left out: Marketing \(Budget!A4\): Unknown category "Marketing": did you mean "Sales & Marketing"/)).toBeTruthy();
  expect(within(check).getByText('Subtotals left out (the statement adds up its lines itself): Total expenses.')).toBeTruthy();
  expect(within(check).getByText(/^Categories with no budget line \(budgeted at 0\): Revenue > Subscription Revenue > Enterprise Licenses; Revenue > Services Revenue; Cost of Revenue;/)).toBeTruthy();
  const name = within(check).getByRole('textbox', { name: 'Budget name' }) as HTMLInputElement;
  expect(name.value).toBe(`Budget_${first.year}_${last.year}`);
  await h.user.clear(name);
  await h.user.type(name, 'Plan_2026');
  await h.user.click(within(check).getByRole('button', { name: 'Keep as a budget' }));
  await within(budgets).findByText(`Kept ${typed.address} as the budget Plan_2026. Formulas read it by its name, as in FIN.BUDGET(Plan_2026, "Rent", FIN_PERIOD).`, {}, { timeout: 15000 });
  expect(h.gateway.definedNames()).toContainEqual({ name: 'Plan_2026', visible: true, address: typed.address });
  expect(await h.gateway.readSetting(BUDGETS_SETTING)).toEqual(['Plan_2026']);
  // The check's region went with the button that had focus: focus stays in the panel (issue 36, item 9).
  expect(document.activeElement).toBe(within(budgets).getByRole('button', { name: 'Check the selected budget' }));
  expect(await within(await within(budgets).findByRole('list', { name: 'Kept budgets' }, { timeout: 15000 })).findByText(`Plan_2026: ${typed.address}`)).toBeTruthy();

  // A budget is kept by month: the year to date ending today (unless today ends a month) is refused in place.
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Layout' }), await screen.findByRole('option', { name: 'Against budget' }, { timeout: 15000 }));
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), screen.getByRole('option', { name: 'Year to date' }));
  if (!isEndOfMonth(calendarDateAt(Date.now()))) {
    expect(await screen.findByText('A budget is kept by month: choose whole months (last month, a quarter, or a period of the reporting period).', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Insert' }).hasAttribute('disabled')).toBe(true);
  }
  // The income statement of last quarter against it: the chart is cached now, the quarter's statement is the cost.
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), screen.getByRole('option', { name: 'Last quarter' }));
  expect((screen.getByRole('combobox', { name: 'Budget' }) as HTMLSelectElement).value).toBe('Plan_2026');
  await screen.findByText('Costs 1 call (1 cached)', {}, { timeout: 15000 });
  const usage = await sb.usage(company());
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  const done = (await screen.findByText(/^Inserted the income statement at /, {}, { timeout: 30000 })).textContent!;
  expect(done).toContain('Spent 1 call.');
  expect(await sb.usage(company())).toBe(usage + 1);

  const binding = (await h.gateway.listBindings())[0];
  expect(binding.parameters).toMatchObject({ layout: 'budget', budget: 'Plan_2026', period: 'last_quarter' });
  const quarter = periodOfMonth(monthIndexToYearMonth(monthIndex(String(binding.parameters.start))), 'quarter', 1);
  const block = blockAt(h.gateway, binding.address);
  const actual = await apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: quarter.start, end_date: quarter.end });
  const line = (name: string) => (actual.revenue.categories as any[]).concat(actual.expenses.categories).find((l) => l.name === name).amount_cents as number;
  const rent = block.rowOf('Rent', 7);
  expect(block.cell(rent, 1).value as number).toBeCloseTo(line('Rent') / 100, 9);
  expect(block.cell(rent, 2).value as number).toBeCloseTo(-typedCents(typed, 'Operating Expenses > Rent', quarter.start, quarter.end) / 100, 9);
  expect(block.cell(rent, 3).value as number).toBeCloseTo((line('Rent') + typedCents(typed, 'Operating Expenses > Rent', quarter.start, quarter.end)) / 100, 9);
  const subscriptions = block.rowOf('Platform Subscriptions', 7);
  expect(block.cell(subscriptions, 2).value as number).toBeCloseTo(typedCents(typed, 'Platform Subscriptions', quarter.start, quarter.end) / 100, 9);
  // The block says what it compares with, and which budget line it left out.
  expect(block.cell(2, 0).value).toBe(`${quarter.label} (${quarter.start} to ${quarter.end}) against the budget Plan_2026; left out, matching no category: "Marketing"`);

  // The controller revises the quarter's rent: the Refresh tab shows the block behind its budget, at no call of its own.
  act(() => h.gateway.typeValue('Budget', `${String.fromCharCode(66 + months.indexOf(quarter.start.slice(0, 7)))}3`, 13000));
  await openTab(h, 'Refresh');
  expect(await screen.findByText('Budget edited', {}, { timeout: 15000 })).toBeTruthy();
  expect(screen.getByText('Its budget Plan_2026 was edited since it was written: refresh (0 calls).')).toBeTruthy();
  h.unmount();
});

test('a budget with text where a figure belongs is refused, naming the cell; nothing is kept', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const months = budgetMonths().slice(0, 3);
  await typeBudget(h.gateway, 'Budget', months, [{ label: 'Rent', units: [100, 100, 100] }]);
  await h.gateway.writeGrid({ kind: 'anchor', sheet: 'Budget', cell: 'C2' }, { values: [['1,200']] });
  act(() => h.gateway.select('Budget', 'A1:D2'));
  await h.user.click(within(screen.getByRole('region', { name: 'Budgets' })).getByRole('button', { name: 'Check the selected budget' }));
  const [, second] = months.map((m) => monthIndexToYearMonth(monthIndex(`${m}-01`)));
  const monthName = new Date(Date.UTC(second.year, second.month - 1, 1)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  expect(await errorText()).toContain(`The budget has text "1,200" where a figure belongs (Rent, ${monthName} ${second.year}, Budget!C2): type it as a number.`);
  expect(screen.queryByRole('region', { name: 'Budget check' })).toBeNull();
  expect(await h.gateway.readSetting(BUDGETS_SETTING)).toBeUndefined();
  // Without a kept budget the layout is not offered.
  expect(screen.queryByRole('option', { name: 'Against budget' })).toBeNull();
  h.unmount();
});

test('a cost typed against the others is pointed out and the budget cannot be kept so; the price of checking is read again (issue 36, item 9)', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const months = budgetMonths().slice(0, 3);
  const typed = await typeBudget(h.gateway, 'Budget', months, [
    { label: 'Salaries & Wages', units: [100000, 100000, 100000] },
    { label: 'Rent', units: [12000, 12000, 12000] },
    { label: 'Benefits', units: [25000, 25000, 25000] },
    { label: 'Cloud Hosting', units: [-200000, -200000, -200000] },
  ]);
  act(() => h.gateway.select('Budget', typed.address.replace(/^Budget!/, '')));
  const budgets = screen.getByRole('region', { name: 'Budgets' });
  await within(budgets).findByText('Checking spends 1 call: the chart of accounts, once', {}, { timeout: 15000 });
  await h.user.click(within(budgets).getByRole('button', { name: 'Check the selected budget' }));
  const check = await within(budgets).findByRole('region', { name: 'Budget check' }, { timeout: 15000 });
  expect(within(check).getByRole('alert').textContent).toBe(
    "Typed against the budget's other costs (negative among positive amounts), so read as income: Cloud Hosting (Budget!A5). Type it as the other costs are, then check again: the budget cannot be kept so.",
  );
  expect((within(check).getByRole('button', { name: 'Keep as a budget' }) as HTMLButtonElement).disabled).toBe(true);
  expect(await within(budgets).findByText('Checking spends no call: the chart of accounts is cached', {}, { timeout: 15000 })).toBeTruthy();
  h.unmount();
});

test('the formula helper offers the kept budget: FIN.BUDGET of a category for the period typed', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const months = budgetMonths();
  const typed = await typeBudget(h.gateway, 'Budget', months, [{ label: 'Rent', units: months.map(() => 700) }]);
  await h.gateway.nameRange(typed.address, 'Budget_Plan');
  await h.gateway.writeSetting(BUDGETS_SETTING, ['Budget_Plan']);
  await openTab(h, 'Formulas');
  await h.user.click(await screen.findByRole('button', { name: 'Load categories' }, { timeout: 15000 }));
  await h.user.type(await screen.findByRole('searchbox', { name: 'Filter categories' }, { timeout: 15000 }), 'rent');
  await h.user.click(await screen.findByRole('option', { name: /General & Administrative > Rent/ }, { timeout: 15000 }));
  // The budgets are read from the workbook when the tab opens.
  await screen.findByRole('combobox', { name: 'Function' }, { timeout: 15000 });
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Function' }), screen.getByRole('option', { name: 'FIN.BUDGET: the budget' }));
  await h.user.clear(screen.getByRole('textbox', { name: 'Formula period' }));
  await h.user.type(screen.getByRole('textbox', { name: 'Formula period' }), '2026-Q1');
  await waitFor(() => expect((screen.getByRole('textbox', { name: 'Formula' }) as HTMLInputElement).value).toBe('=FIN.BUDGET(Budget_Plan,"Operating Expenses > General & Administrative > Rent","2026-Q1")'), { timeout: 15000 });
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Function' }), screen.getByRole('option', { name: 'FIN.BUDGET_VARIANCE: actual less budget' }));
  await waitFor(() => expect((screen.getByRole('textbox', { name: 'Formula' }) as HTMLInputElement).value).toBe('=FIN.BUDGET_VARIANCE(Budget_Plan,"Operating Expenses > General & Administrative > Rent","2026-Q1")'), { timeout: 15000 });
  h.unmount();
});
