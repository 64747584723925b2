/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The Transactions tab of the real pane (App, shared runtime, MemoryGateway workbook) against a real
// sandbox: pull with a filter, edit a department in the table, Review changes shows one group and its
// cost, Push, and the row's Push status says Updated.

import { addMonths, namedPeriod, periodLabel } from '../../src/engine/dates';
import { COL, MSG } from '../../src/engine/transactions';
import { cellA1, parseQualified } from '../../src/engine/ports/address';
import { getClient } from '../../src/runtime';
import { capMonthOf } from '../../src/api';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from '../taskpane/harness';

jest.setTimeout(120_000);

const SOFTWARE = 'Operating Expenses > General & Administrative > Software Subscriptions';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

test('pull with a filter, edit a department, review (1 group and its cost), push: Updated', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await openTab(h, 'Transactions');

  const today = sb.running.ctx.clock.today();
  const from = addMonths(today, -3);
  const to = addMonths(today, -2);
  await h.user.type(screen.getByRole('textbox', { name: 'From date' }), from);
  await h.user.type(screen.getByRole('textbox', { name: 'To date' }), to);
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'standard');
  // A mutable filter: the pane says refresh will re-pull.
  expect(screen.getByText(/Refresh will re-pull everything: transaction_type/)).toBeTruthy();
  await h.user.click(screen.getByRole('button', { name: 'Pull' }));
  // The sheet is named after the dates (shortened to Excel's 31 characters when they span years).
  const pulled = await screen.findByText(/^Pulled [\d,]+ transactions into /, {}, { timeout: 30_000 });
  expect(pulled.textContent).toMatch(/calls\)/);
  expect(pulled.textContent).toMatch(/Refresh will re-pull the whole selection: transaction_type/);

  // The user picks another department in the table (from the dropdown's list).
  const [binding] = (await h.gateway.listBindings()).filter((b) => b.kind === 'transactions');
  const table = await h.gateway.readTable(binding.table!);
  const col = (n: string) => table.columns.indexOf(n);
  expect(table.rows.length).toBeGreaterThan(0);
  expect(table.rows.every((r) => r[col(COL.type)] === 'standard')).toBe(true);
  const row = table.rows[0];
  const id = String(row[col(COL.id)]);
  const source = h.gateway.validationSource(table.sheet, 'H2')!;
  const listLength = Number(/\$A\$(\d+)$/.exec(source)![1]) - 1;
  const options = Array.from({ length: listLength }, (_, i) => String(h.gateway.cell('FinLists', `A${i + 2}`).value));
  const target = options.find((o) => o !== row[col(COL.pulledDepartment)])!;
  await h.gateway.updateRowsByKey(binding.table!, COL.id, [{ key: id, values: { [COL.department]: target } }]);

  await h.user.click(await screen.findByRole('button', { name: 'Review changes' }));
  const review = await screen.findByRole('region', { name: 'Changes to push' }, { timeout: 15_000 });
  expect(within(review).getByText('1 group to send (1 row)')).toBeTruthy();
  expect(within(review).getByText(`Department → ${target}: 1 row — one PATCH (1 call)`)).toBeTruthy();
  expect(within(review).getByText('About 2 calls: 1 upstream check, 1 PATCH (failed jobs with over 500 errors: 1 more per 500).')).toBeTruthy();

  await h.user.click(screen.getByRole('button', { name: 'Push' }));
  const done = await screen.findByText(/^Pushed: 1 row updated, 0 pending/, {}, { timeout: 30_000 });
  expect(done.textContent).toMatch(/\(2 calls\)/);
  await waitFor(async () => {
    const after = await h.gateway.readTable(binding.table!);
    const r = after.rows.find((x) => x[col(COL.id)] === id)!;
    expect(r[col(COL.pushStatus)]).toBe(MSG.updated);
    expect(r[col(COL.pulledDepartment)]).toBe(target);
  });

  // Shift accounting dates: several rows selected at once give their ids (any columns of them).
  const { sheet: tableSheet, box } = parseQualified(table.address);
  h.gateway.select(tableSheet, `${cellA1(box.row + 2, box.col + 3)}:${cellA1(box.row + 4, box.col + 5)}`);
  await h.user.click(screen.getByRole('button', { name: 'Use selected rows' }));
  const ids = table.rows.slice(1, 4).map((x) => String(x[col(COL.id)]));
  await waitFor(() => expect((screen.getByRole('textbox', { name: 'Transaction ids' }) as HTMLInputElement).value).toBe(ids.join(', ')));

  // Drill-down from a FIN formula in the selected cell.
  await h.gateway.writeFormula('Sheet1!B2', `=FIN.TOTAL("Cost of Revenue","${from.slice(0, 7)}")`);
  h.gateway.select('Sheet1', 'B2');
  await h.user.click(screen.getByRole('button', { name: "Show what's behind this cell" }));
  const drilled = await screen.findByText(/^[\d,]+ journal lines? of Cost of Revenue, .* \(from =FIN\.TOTAL/, {}, { timeout: 30_000 });
  // Categories, departments, one page, and the month's income statement the lines are checked against (the
  // formula was written, not calculated, so no total of it is cached).
  expect(drilled.textContent).toMatch(/\(4 calls\)/);
  h.unmount();
});

// Issue 13, items 6, 7 and 9: categories are picked by name (one call to load the chart, its cost said
// first, none when cached), every action's progress and result show under the button that started it,
// and the table and sheet are named after the filters.
test('categories picked by name in the filters and the drill-down; results under their own buttons; names after the filters', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await openTab(h, 'Transactions');
  const company = sb.companies['growth-admin'];

  // Not cached yet: each picker offers to load the chart of accounts and says what that costs.
  const loads = screen.getAllByRole('button', { name: 'Load categories' });
  expect(loads).toHaveLength(2);
  expect(loads[0].getAttribute('aria-describedby')).toBeTruthy();
  expect(document.getElementById(loads[0].getAttribute('aria-describedby')!)!.textContent).toMatch(/costs 1 call/);
  expect(screen.queryByRole('textbox', { name: /Category id/ })).toBeNull();
  const before = await sb.usage(company);
  await h.user.click(loads[0]);
  // One call fills both pickers.
  const pick = await screen.findByRole('combobox', { name: 'Category' });
  expect(screen.getByRole('combobox', { name: 'Category to drill into' })).toBeTruthy();
  expect(await sb.usage(company)).toBe(before + 1);

  // Type words of the name (pasted: one input event, where typing re-renders the list per key in jsdom); pick by path.
  await h.user.click(pick);
  await h.user.paste('software sub');
  const option = await screen.findByRole('option', { name: SOFTWARE });
  expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1);
  await h.user.click(option);
  await waitFor(() => expect((pick as HTMLInputElement).value).toBe(SOFTWARE));

  const { start, end } = namedPeriod('last_quarter', { today: sb.running.ctx.clock.today() });
  await h.user.type(screen.getByRole('textbox', { name: 'From date' }), start);
  await h.user.type(screen.getByRole('textbox', { name: 'To date' }), end);
  // The note is whole sentences and names the category by its path, never its id.
  const note = screen.getByText(/^Pulls the transactions matching: /);
  expect(note.textContent).toContain(`${start} to ${end}, in ${SOFTWARE}.`);
  expect(note.textContent).not.toMatch(/cat_/);

  const pullButton = screen.getByRole('button', { name: 'Pull' });
  await h.user.click(pullButton);
  const label = periodLabel(start, end);
  const pulled = await screen.findByText(new RegExp(`^Pulled [\\d,]+ transactions? into Transactions ${label} `), {}, { timeout: 30_000 });
  // Under the Pull button, before the next section.
  const editHeading = screen.getByRole('heading', { name: 'Edit and push' });
  expect(pullButton.compareDocumentPosition(pulled) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(pulled.compareDocumentPosition(editHeading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

  const binding = (await h.gateway.listBindings()).find((b) => b.kind === 'transactions')!;
  expect(binding.table).toBe(`Transactions_${label.replace(/ /g, '_')}`);
  const table = await h.gateway.readTable(binding.table!);
  expect(table.sheet).toBe(`Transactions ${label}`);
  expect(table.rows.length).toBeGreaterThan(0);
  expect(table.rows.every((r) => r[table.columns.indexOf(COL.category)] === 'Software Subscriptions')).toBe(true);

  // Drill-down by name: the result shows under its own buttons, the Pull result is gone from above.
  const drillPick = screen.getByRole('combobox', { name: 'Category to drill into' });
  await h.user.click(drillPick);
  await h.user.paste('software');
  await h.user.click(await screen.findByRole('option', { name: SOFTWARE }));
  await h.user.type(screen.getByRole('textbox', { name: 'Period from' }), start);
  await h.user.type(screen.getByRole('textbox', { name: 'Period to' }), end);
  const show = screen.getByRole('button', { name: 'Show entries' });
  await h.user.click(show);
  const drilled = await screen.findByText(/^[\d,]+ journal lines? of Software Subscriptions on /, {}, { timeout: 30_000 });
  expect(show.compareDocumentPosition(drilled) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(screen.queryByText(/^Pulled /)).toBeNull();
  h.unmount();
});

// Issue 13, item 2: a push that would stop part way for the month's cap is not started.
test('a push that costs more than is left this month is not started: it says why and spends nothing', async () => {
  const h = renderPane(sb);
  await connected(h, sb, 'formation-admin', 'formation');
  await openTab(h, 'Transactions');
  const company = sb.companies['formation-admin'];
  const today = sb.running.ctx.clock.today();
  await h.user.type(screen.getByRole('textbox', { name: 'From date' }), addMonths(today, -2));
  await h.user.type(screen.getByRole('textbox', { name: 'To date' }), addMonths(today, -1));
  await h.user.click(screen.getByRole('button', { name: 'Pull' }));
  await screen.findByText(/^Pulled [\d,]+ transactions/, {}, { timeout: 30_000 });
  const [binding] = (await h.gateway.listBindings()).filter((b) => b.kind === 'transactions');
  const table = await h.gateway.readTable(binding.table!);
  const col = (n: string) => table.columns.indexOf(n);
  const source = h.gateway.validationSource(table.sheet, 'H2')!;
  const listLength = Number(/\$A\$(\d+)$/.exec(source)![1]) - 1;
  const options = Array.from({ length: listLength }, (_, i) => String(h.gateway.cell('FinLists', `A${i + 2}`).value));
  // Three rows, each to a department of its own: three PATCHes and the check.
  const rows = table.rows.slice(0, 3);
  await h.gateway.updateRowsByKey(
    binding.table!,
    COL.id,
    rows.map((r, i) => ({ key: String(r[col(COL.id)]), values: { [COL.department]: options.filter((o) => o !== r[col(COL.pulledDepartment)])[i] } })),
  );
  await h.user.click(await screen.findByRole('button', { name: 'Review changes' }));
  const review = await screen.findByRole('region', { name: 'Changes to push' }, { timeout: 15_000 });
  const cost = /About (\d+) calls/.exec(review.textContent ?? '');
  expect(cost).toBeTruthy();
  // FIN formulas spent the month down to 1 call (as this add-in counts them, and as the API does).
  const used = await sb.usage(company);
  const client = (await getClient())!;
  await client.meter.meter.record(company, capMonthOf(Date.now()), 9 - used);
  await sb.control('usage', { company_id: company, count: 9 });

  await h.user.click(screen.getByRole('button', { name: 'Push' }));
  const refused = await screen.findByRole('group', { name: 'Error: Not started: too few calls left this month' }, { timeout: 15_000 });
  expect(refused.textContent).toContain(`This push costs ${cost![1]} calls and only 1 call is left this month on the Formation plan, so it is not started`);
  expect(refused.textContent).toMatch(/Push fewer rows at a time, or wait for the reset\./);
  expect(await sb.usage(company)).toBe(9);
  const after = await h.gateway.readTable(binding.table!);
  for (const r of rows) {
    const now = after.rows.find((x) => x[col(COL.id)] === r[col(COL.id)])!;
    expect(now[col(COL.pulledDepartment)]).toBe(r[col(COL.pulledDepartment)]);
    expect(now[col(COL.pushStatus)]).not.toBe(MSG.updated);
  }
  h.unmount();
});
