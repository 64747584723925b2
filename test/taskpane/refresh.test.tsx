/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { calendarDateAt, namedPeriod, splitPeriod } from '../../src/engine/dates';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { blockAt, expectBlockMatchesApi } from './sheet';
import { qualify } from '../../src/engine/ports/address';
import { act } from '@testing-library/react';
import { refreshAll as ribbonRefreshAll } from '../../src/commands/commands';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

async function insert(h: PaneHarness, statement: string, period: string, layout: string): Promise<void> {
  await choose(h, 'Statement', statement);
  await choose(h, 'Period', period);
  await choose(h, 'Layout', layout);
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  // Everything it needed is cached now: wait for the cost line to say so (it updates after the insert).
  await screen.findByText(/^Costs 0 calls/);
}

function lastQuarterMonths() {
  const base = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
  return { base, months: splitPeriod(base, 'month').map((p) => ({ start: p.start, end: p.end })) };
}

describe('Refresh', () => {
  test('Refresh all: the cost first, then every block rebuilt in place and the FIN formulas recalculated', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await insert(h, 'Balance sheet', 'Last quarter', 'One period');
    const [first, second] = await h.gateway.listBindings();
    const income = [first, second].find((b) => b.parameters.statement === 'income_statement')!;
    const balance = [first, second].find((b) => b.parameters.statement === 'balance_sheet')!;

    // Someone types over the statement; an old refresh time is recorded.
    const block = blockAt(h.gateway, income.address);
    const netRow = block.rowOf('Net income');
    await h.gateway.writeGrid({ kind: 'anchor', sheet: block.sheet, cell: `B${netRow + 1}` }, { values: [[12345]] });
    await h.gateway.saveBinding({ ...income, refreshedAt: '2020-01-01T00:00:00.000Z' });

    await openTab(h, 'Refresh');
    const list = await screen.findByRole('list', { name: 'Blocks' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const staleItem = items.find((i) => i.textContent!.includes('Income statement'))!;
    expect(staleItem.textContent).toMatch(/Over a day old/);
    expect(staleItem.textContent).toContain(income.address);
    expect(items.find((i) => i.textContent!.includes('Balance sheet'))!.textContent).toMatch(/Refreshed just now/);

    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Refresh all' }));
    // The cost, before anything is spent; focus on the confirming button.
    expect(await screen.findByText('This will spend 4 calls to rebuild 2 blocks.')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Refresh' });
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    expect(await sb.usage(company())).toBe(before);

    await h.user.click(confirm);
    const result = await screen.findByText(/^Refreshed 2 blocks/, {}, { timeout: 30000 });
    expect(result.textContent).toContain('Spent 4 calls.');
    expect(await sb.usage(company())).toBe(before + 4);
    expect(h.recalculations()).toBe(1);

    const after = await h.gateway.listBindings();
    const rebuilt = after.find((b) => b.id === income.id)!;
    expect(rebuilt.address).toBe(income.address);
    expect(Date.now() - Date.parse(rebuilt.refreshedAt)).toBeLessThan(60_000);
    expect(blockAt(h.gateway, income.address).cell(netRow, 1).value).not.toBe(12345);
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, rebuilt, lastQuarterMonths().months);
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, after.find((b) => b.id === balance.id)!, [{ date: lastQuarterMonths().base.end }]);
    await waitFor(() => expect(screen.queryByText(/Stale/)).toBeNull());
    h.unmount();
  });

  test('the ribbon Refresh all opens the pane at Refresh with the cost shown, spending nothing until confirmed', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last month', 'One period');
    const before = await sb.usage(company());
    const showAsTaskpane = jest.fn(async () => undefined);
    (globalThis as any).Office = { addin: { showAsTaskpane } };
    const event = { completed: jest.fn() };
    try {
      // The command runs outside React (a ribbon click); act() lets the pane's updates settle as in Office.
      await act(() => ribbonRefreshAll(event as unknown as Office.AddinCommands.Event));
    } finally {
      delete (globalThis as any).Office;
    }
    expect(showAsTaskpane).toHaveBeenCalled();
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('This will spend 1 call to rebuild 1 block.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Refresh' }).getAttribute('aria-selected')).toBe('true');
    expect(await sb.usage(company())).toBe(before);
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refreshed 1 block/, {}, { timeout: 30000 })).textContent).toContain('Spent 1 call.');
    expect(await sb.usage(company())).toBe(before + 1);
    h.unmount();
  });

  test('Refresh this block: its own cost, fetched again even though cached, the other block untouched', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Cash flow', 'Last quarter', 'Against the prior period');
    await insert(h, 'Income statement', 'Last month', 'One period');
    const bindings = await h.gateway.listBindings();
    const cash = bindings.find((b) => b.parameters.statement === 'cash_flow')!;
    const income = bindings.find((b) => b.parameters.statement === 'income_statement')!;
    await h.gateway.saveBinding({ ...income, refreshedAt: '2020-01-01T00:00:00.000Z' });

    await openTab(h, 'Refresh');
    const list = await screen.findByRole('list', { name: 'Blocks' });
    const item = within(list)
      .getAllByRole('listitem')
      .find((i) => i.textContent!.includes('Cash flow'))!;
    const before = await sb.usage(company());
    await h.user.click(within(item).getByRole('button', { name: 'Refresh this block' }));
    expect(await screen.findByText('This will spend 2 calls to rebuild this block.')).toBeTruthy();
    expect(await sb.usage(company())).toBe(before);
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    const result = await screen.findByText(/^Refreshed the block at /, {}, { timeout: 30000 });
    expect(result.textContent).toContain(cash.address);
    expect(result.textContent).toContain('Spent 2 calls.');
    expect(await sb.usage(company())).toBe(before + 2);
    const after = await h.gateway.listBindings();
    expect(after.find((b) => b.id === income.id)!.refreshedAt).toBe('2020-01-01T00:00:00.000Z');
    expect(Date.now() - Date.parse(after.find((b) => b.id === cash.id)!.refreshedAt)).toBeLessThan(60_000);
    h.unmount();
  });

  // Issue 13, item 9: the progress said "0 of 0" while the formulas recalculated, then counted more
  // reports than the estimate announced calls.
  test('Refresh all says what it is doing: the formulas first, then the reports the blocks read, and why that is more than the calls', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await choose(h, 'Units', 'Thousands');
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    await h.user.click(screen.getByRole('button', { name: 'Refresh all' }));
    // The two blocks read the same three months: three calls.
    expect(await screen.findByText('This will spend 3 calls to rebuild 2 blocks.')).toBeTruthy();
    const seen = new Set<string>();
    const watch = new MutationObserver(() => {
      const field = screen.queryByText(/^Recalculating|reports? read/);
      if (field?.textContent) seen.add(field.textContent);
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    await sb.control('control', { latency_ms: 200 });
    try {
      await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
      expect((await screen.findByText(/^Refreshed 2 blocks/, {}, { timeout: 30000 })).textContent).toContain('Spent 3 calls.');
    } finally {
      watch.disconnect();
      await sb.control('control', { latency_ms: 0 });
    }
    const lines = [...seen];
    expect(lines[0]).toBe('Recalculating the FIN formulas…');
    const counts = lines.slice(1);
    expect(counts.length).toBeGreaterThan(0);
    for (const line of counts) expect(line).toMatch(/^\d of 6 reports read \(3 of them fetched, the others read from the cache\)$/);
    expect(lines.some((l) => /\b0 of 0\b/.test(l))).toBe(false);
    h.unmount();
  });

  test('Cancel spends nothing; Forget stops tracking a block and leaves its cells', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last month', 'One period');
    const [binding] = await h.gateway.listBindings();
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Refresh all' }));
    await screen.findByText(/^This will spend/);
    await h.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(/^This will spend/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refresh all' }));
    await h.user.click(screen.getByRole('button', { name: 'Forget' }));
    await screen.findByText(/^Stopped tracking/);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Blocks in this workbook' })));
    expect(await h.gateway.listBindings()).toEqual([]);
    expect(blockAt(h.gateway, binding.address).cell(0, 0).value).toBe('Northwind Analytics');
    expect(await screen.findByText(/No statements inserted yet/)).toBeTruthy();
    expect(await sb.usage(company())).toBe(before);
    h.unmount();
  });

  test('blocks where they are now: one moved, one damaged (Badge, why, only Forget), one from an earlier version with a note', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last month', 'One period');
    await insert(h, 'Balance sheet', 'Last month', 'One period');
    await insert(h, 'Cash flow', 'Last month', 'One period');
    const bindings = await h.gateway.listBindings();
    const income = bindings.find((b) => b.parameters.statement === 'income_statement')!;
    const balance = bindings.find((b) => b.parameters.statement === 'balance_sheet')!;
    const cash = bindings.find((b) => b.parameters.statement === 'cash_flow')!;
    // The user inserts rows above the income statement, deletes rows inside the balance sheet, and the
    // cash flow was recorded by an earlier version (no name).
    const incomeBlock = blockAt(h.gateway, income.address);
    h.gateway.insertSheetRows(incomeBlock.sheet, 1, 4);
    const moved = qualify(incomeBlock.sheet, { row: incomeBlock.row + 4, col: incomeBlock.col, rows: incomeBlock.rows, cols: incomeBlock.cols });
    const balanceSheet = blockAt(h.gateway, balance.address).sheet;
    h.gateway.deleteSheetRows(balanceSheet, 8, 3);
    const balanceCells = await h.gateway.readRange(`'${balanceSheet}'!A1:F80`);
    await h.gateway.deleteName(cash.name!);
    const { name: _gone, ...legacy } = cash;
    await h.gateway.saveBinding(legacy);

    await openTab(h, 'Refresh');
    const list = await screen.findByRole('list', { name: 'Blocks' });
    const item = (label: string) => within(list).getAllByRole('listitem').find((i) => i.textContent!.startsWith(label))!;
    await waitFor(() => expect(item('Income statement').textContent).toContain(moved));
    expect(within(item('Income statement')).getByText('Current', { selector: '.fui-Badge' })).toBeTruthy();
    const damaged = item('Balance sheet');
    expect(within(damaged).getByText('Damaged', { selector: '.fui-Badge' })).toBeTruthy();
    expect(damaged.textContent).toMatch(/rows were deleted inside it .*Forget it, then insert it again\./);
    expect(within(damaged).queryByRole('button', { name: 'Refresh this block' })).toBeNull();
    expect(item('Cash flow').textContent).toMatch(/Found at the address an earlier version recorded/);

    // Refresh all rebuilds the two others and names the damaged one. Its cached answer is no block's now, so
    // it counts among what FIN formulas might fetch again (an upper bound, as for a forgotten block's).
    await h.user.click(screen.getByRole('button', { name: 'Refresh all' }));
    expect(await screen.findByText('This will spend up to 3 calls: 2 calls to rebuild 2 blocks and up to 1 for FIN formulas.')).toBeTruthy();
    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText(/^Refreshed 2 of 3 blocks\. Not refreshed, its previous figures kept: Balance sheet/, {}, { timeout: 30000 });
    expect(screen.getByRole('group', { name: 'Error: Block damaged' })).toBeTruthy();
    expect(await sb.usage(company())).toBe(before + 2);
    expect(await h.gateway.readRange(`'${balanceSheet}'!A1:F80`)).toEqual(balanceCells);
    await waitFor(() => expect(screen.queryByText(/Found at the address an earlier version recorded/)).toBeNull());

    await h.user.click(within(item('Balance sheet')).getByRole('button', { name: 'Forget' }));
    await screen.findByText(/^Stopped tracking/);
    expect((await h.gateway.listBindings()).map((b) => b.id).sort()).toEqual([income.id, cash.id].sort());
    expect(h.gateway.definedNames().map((n) => n.name).sort()).toEqual([income.name, (await h.gateway.listBindings()).find((b) => b.id === cash.id)!.name].sort());
    expect(await h.gateway.readRange(`'${balanceSheet}'!A1:F80`)).toEqual(balanceCells);
    h.unmount();
  });

  test('Refresh all at the monthly cap: no block rewritten, the reset date shown; then refused up front', async () => {
    const h = renderPane(sb);
    await connected(h, sb, 'formation-admin', 'formation');
    await insert(h, 'Income statement', 'Last month', 'One period');
    const [binding] = await h.gateway.listBindings();
    // Another tool spends the rest of the cap.
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 10 });
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    await h.user.click(screen.getByRole('button', { name: 'Refresh all' }));
    await h.user.click(await screen.findByRole('button', { name: 'Refresh' }));
    const error = await screen.findByRole('group', { name: 'Error: Monthly API limit reached' }, { timeout: 30000 });
    expect(error.textContent).toMatch(/resets on \d{4}-\d{2}-01 at 00:00 Pacific Time/);
    const [after] = await h.gateway.listBindings();
    expect(after.refreshedAt).toBe(binding.refreshedAt);
    // The block that failed is named, where it is, and marked in the list with why.
    expect(screen.getByText(new RegExp(`^Refreshed 0 of 1 blocks\\. Not refreshed, its previous figures kept: Income statement, .* at ${after.address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. Spent 0 calls\\.`))).toBeTruthy();
    expect(screen.getByText('Refresh failed', { selector: '.fui-Badge' })).toBeTruthy();
    // The client now knows the cap is spent: the next attempt is refused before anything is cleared.
    await h.user.click(screen.getByRole('button', { name: 'Refresh this block' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Error: Monthly API limit reached' }).textContent).toMatch(/Nothing can be fetched until the limit resets on \d{4}-\d{2}-01/),
    );
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    h.unmount();
  });
});
