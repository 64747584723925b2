/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The Transactions tab of the real pane (App, shared runtime, MemoryGateway workbook) against a real
// sandbox: pull with a filter, edit a department in the table, Review changes shows one group and its
// cost, Push, and the row's Push status says Updated.

import { addMonths } from '../../src/engine/dates';
import { COL, MSG } from '../../src/engine/transactions';
import { cellA1, parseQualified } from '../../src/engine/ports/address';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from '../taskpane/harness';

jest.setTimeout(120_000);

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
  const pulled = await screen.findByText(/^Pulled [\d,]+ transactions into Transactions/, {}, { timeout: 30_000 });
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
  expect(drilled.textContent).toMatch(/\(3 calls\)/);
  h.unmount();
});
