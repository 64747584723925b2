/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { calendarDateAt, namedPeriod, splitPeriod } from '../../src/engine/dates';
import { connected, openTab, renderPane, tabShown, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { blockAt, expectBlockMatchesApi } from './sheet';
import { qualify } from '../../src/engine/ports/address';
import { act } from '@testing-library/react';
import { refreshAll as ribbonRefreshAll, refreshSelection as ribbonRefreshSelection, refreshSheet as ribbonRefreshSheet } from '../../src/commands/commands';
import { parseQualified } from '../../src/engine/ports/address';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = (label = 'growth-admin') => sb.companies[label];

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

/** Two blocks: last quarter's cash flow against the prior period, then last month's income statement (on the active sheet). */
async function cashFlowAndIncome(h: PaneHarness) {
  await insert(h, 'Cash flow', 'Last quarter', 'Against the prior period');
  await insert(h, 'Income statement', 'Last month', 'One period');
  const bindings = await h.gateway.listBindings();
  return {
    cash: bindings.find((b) => b.parameters.statement === 'cash_flow')!,
    income: bindings.find((b) => b.parameters.statement === 'income_statement')!,
  };
}

describe('Refresh', () => {
  test('Full refresh: the cost first, then every block rebuilt in place and the FIN formulas recalculated', async () => {
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
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    // The cost, before anything is spent (the 4 reports and 1 call to start the record of what changes);
    // focus on the confirming button.
    expect(await screen.findByText('This will spend up to 55 calls to fetch everything again: 1 to start the record of what changes, 4 to rebuild 2 blocks, and this once, up to 50 to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change.')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Refresh' });
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    expect(await sb.usage(company())).toBe(before);

    await h.user.click(confirm);
    const result = await screen.findByText(/^Refreshed everything\./, {}, { timeout: 30000 });
    // The first full refresh also records where each transaction posts (issue 34): 40 pages, instead of the 1 call of a new watermark.
    expect(result.textContent).toMatch(/^Refreshed everything\. Rebuilt 2 blocks\. Spent 44 calls\. Recorded where \d+ transactions post \(40 calls\)/);
    expect(await sb.usage(company())).toBe(before + 44);
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

  test('the ribbon Refresh opens the pane at Refresh changes with the cost shown; the first runs full, the next costs 1 call when nothing changed', async () => {
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
    expect(
      await screen.findByText(
        'The first changed-only refresh has no record of what changed since the figures were fetched, so it refreshes everything (up to 52 calls, this once, up to 50 to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change) and keeps that record from then on.',
      ),
    ).toBeTruthy();
    await tabShown('Refresh');
    expect(await sb.usage(company())).toBe(before);
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refreshed everything/, {}, { timeout: 30000 })).textContent).toMatch(
      /^Refreshed everything: no record yet of what changed since the figures were fetched\. Rebuilt 1 block\. Spent 42 calls\. Recorded where \d+ transactions post \(40 calls\)/,
    );
    expect(await sb.usage(company())).toBe(before + 42);

    // From then on a changes refresh asks first: nothing changed, so it spends that 1 call and rewrites nothing.
    const [written] = await h.gateway.listBindings();
    await h.user.click(screen.getByRole('button', { name: 'Refresh changes' }));
    expect(
      await screen.findByText('This will spend 1 call to ask what changed since the last refresh, then only what the changes touch: at most 2 calls.'),
    ).toBeTruthy();
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Nothing changed/, {}, { timeout: 30000 })).textContent).toBe('Nothing changed since the last refresh. Spent 1 call.');
    expect(await sb.usage(company())).toBe(before + 43);
    expect((await h.gateway.listBindings())[0].refreshedAt).toBe(written.refreshedAt);
    h.unmount();
  });

  test('the ribbon Refresh sheet: the cost of what is on the active sheet alone, then only that block rebuilt', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    const { cash, income } = await cashFlowAndIncome(h);
    // The income statement went to a new sheet, which is active.
    const sheet = parseQualified(income.address).sheet;
    expect(h.gateway.activeSheetName()).toBe(sheet);
    const before = await sb.usage(company());
    const ribbon = async (command: (e: Office.AddinCommands.Event) => Promise<void>) => {
      (globalThis as any).Office = { addin: { showAsTaskpane: jest.fn(async () => undefined) } };
      try {
        await act(() => command({ completed: jest.fn() } as unknown as Office.AddinCommands.Event));
      } finally {
        delete (globalThis as any).Office;
      }
    };
    await ribbon(ribbonRefreshSheet);
    // This host cannot pick out formulas (the harness has no finCellsIn): the cost says so.
    expect(
      await screen.findByText(
        `This will spend 1 call to refresh 1 block in the sheet ${sheet}: 1 distinct request. FIN formulas are left out: this version of Excel cannot pick them out.`,
      ),
    ).toBeTruthy();
    await tabShown('Refresh');
    expect(await sb.usage(company())).toBe(before);
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refresh of the sheet/, {}, { timeout: 30000 })).textContent).toBe(`Refresh of the sheet ${sheet}: rebuilt 1 block. Spent 1 call.`);
    expect(await sb.usage(company())).toBe(before + 1);
    const after = await h.gateway.listBindings();
    expect(after.find((b) => b.id === cash.id)!.refreshedAt).toBe(cash.refreshedAt);
    expect(after.find((b) => b.id === income.id)!.refreshedAt).not.toBe(income.refreshedAt);

    // A selection with nothing in it: said at once, nothing to confirm, nothing spent.
    h.gateway.select(sheet, 'Z100');
    await ribbon(ribbonRefreshSelection);
    expect(await screen.findByText(`Nothing to refresh in the selection ${qualify(sheet, { row: 99, col: 25, rows: 1, cols: 1 })}: no block, FIN cell or transactions table (this version of Excel cannot pick out FIN formulas: refresh the whole workbook for them).`)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Confirm refresh' })).toBeNull();
    expect(await sb.usage(company())).toBe(before + 1);
    h.unmount();
  });

  test('Refresh this block: its own cost, fetched again even though cached, the other block untouched', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    const { cash, income } = await cashFlowAndIncome(h);
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

  // Issue 14: books closed through a month end are kept by every refresh, in this workbook, reopened too.
  test('books closed through the last quarter: its block is Closed, a full refresh leaves it for 1 call, the close stays with the workbook', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    const quarterEnd = lastQuarterMonths().base.end;
    await choose(h, 'Books closed through', quarterEnd);
    expect(await screen.findByText(`Books closed through ${quarterEnd}: figures up to then are kept by every refresh.`)).toBeTruthy();
    expect(await h.gateway.readSetting(`fin.booksClosedThrough.${company()}`)).toBe(quarterEnd);
    const item = () => within(screen.getByRole('list', { name: 'Blocks' })).getAllByRole('listitem')[0];
    await waitFor(() => expect(within(item()).getByText('Closed', { selector: '.fui-Badge' })).toBeTruthy());

    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    expect(await screen.findByText('This will spend up to 51 calls to fetch everything again: 1 to start the record of what changes, and this once, up to 50 to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change. Figures within closed books are kept.')).toBeTruthy();
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refreshed everything/, {}, { timeout: 30000 })).textContent).toMatch(/Spent 40 calls\. Recorded where/);
    expect(await sb.usage(company())).toBe(before + 40);

    // Reopened on the same workbook: the runtime reads the close before any formula, the pane shows it.
    h.unmount();
    const again = renderPane(sb, { stores: h.stores });
    await screen.findByRole('tab', { name: 'Reports' }, { timeout: 15000 });
    await openTab(again, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    expect((screen.getByRole('combobox', { name: 'Books closed through' }) as HTMLSelectElement).value).toBe(quarterEnd);
    expect(within(item()).getByText('Closed', { selector: '.fui-Badge' })).toBeTruthy();

    // Refresh this block reopens it: its three months are fetched again.
    await again.user.click(within(item()).getByRole('button', { name: 'Refresh this block' }));
    expect(await screen.findByText('This will spend 3 calls to rebuild this block. It reopens its closed periods for this refresh.')).toBeTruthy();
    await again.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refreshed the block at /, {}, { timeout: 30000 })).textContent).toContain('Spent 3 calls.');
    // (before + 40: the full refresh above also recorded where each transaction posts, issue 34)
    expect(await sb.usage(company())).toBe(before + 40 + 3);
    const [reopened] = await again.gateway.listBindings();
    expect(String(blockAt(again.gateway, reopened.address).cell(3, 0).value)).toMatch(/ \(this block alone\)$/);

    await choose(again, 'Books closed through', 'Not closed');
    expect(await screen.findByText('Books not closed: every figure is refreshed as usual.')).toBeTruthy();
    expect(await again.gateway.readSetting(`fin.booksClosedThrough.${company()}`)).toBeUndefined();
    again.unmount();
  });

  // Issue 13, item 9: the progress said "0 of 0" while the formulas recalculated, then counted more
  // reports than the estimate announced calls.
  test('Full refresh says what it is doing: the formulas first, then the reports the blocks read, and why that is more than the calls', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await choose(h, 'Units', 'Thousands');
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    // The two blocks read the same three months: three calls, and one to start the record of what changes.
    expect(await screen.findByText('This will spend up to 54 calls to fetch everything again: 1 to start the record of what changes, 3 to rebuild 2 blocks, and this once, up to 50 to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change.')).toBeTruthy();
    const seen = new Set<string>();
    const watch = new MutationObserver(() => {
      const field = screen.queryByText(/^Recalculating|reports? read/);
      if (field?.textContent) seen.add(field.textContent);
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    await sb.control('control', { latency_ms: 200 });
    try {
      await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
      expect((await screen.findByText(/^Refreshed everything/, {}, { timeout: 30000 })).textContent).toContain('Rebuilt 2 blocks. Spent 43 calls.');
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
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    await screen.findByText(/^This will spend/);
    await h.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(/^This will spend/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Full refresh' }));
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

    // A full refresh rebuilds the two others and names the damaged one. Its cached answer is no block's now,
    // so it counts among what FIN formulas might fetch again (an upper bound, as for a forgotten block's).
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    expect(
      await screen.findByText('This will spend up to 54 calls to fetch everything again: 1 to start the record of what changes, 2 to rebuild 2 blocks, up to 1 for FIN formulas, and this once, up to 50 to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change.'),
    ).toBeTruthy();
    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    const done = await screen.findByText(/^Refreshed everything\. Rebuilt 2 blocks; 1 block not refreshed\. Spent \d+ calls\./, {}, { timeout: 30000 });
    expect(done.textContent).toMatch(/ Not refreshed, previous figures kept: Balance sheet/);
    expect(screen.getByRole('group', { name: 'Error: Block damaged' })).toBeTruthy();
    // The 2 blocks and the FIN formulas' 1, and 40 pages recording where each transaction posts (issue 34).
    expect(await sb.usage(company())).toBe(before + 3 + 40 - 1);
    expect(done.textContent).toContain(`Spent ${3 + 40 - 1} calls.`);
    expect(await h.gateway.readRange(`'${balanceSheet}'!A1:F80`)).toEqual(balanceCells);
    await waitFor(() => expect(screen.queryByText(/Found at the address an earlier version recorded/)).toBeNull());

    await h.user.click(within(item('Balance sheet')).getByRole('button', { name: 'Forget' }));
    await screen.findByText(/^Stopped tracking/);
    expect((await h.gateway.listBindings()).map((b) => b.id).sort()).toEqual([income.id, cash.id].sort());
    expect(h.gateway.definedNames().map((n) => n.name).sort()).toEqual([income.name, (await h.gateway.listBindings()).find((b) => b.id === cash.id)!.name].sort());
    expect(await h.gateway.readRange(`'${balanceSheet}'!A1:F80`)).toEqual(balanceCells);
    h.unmount();
  });

  // Issue 13, item 2: an action that cannot finish within what is left is not started.
  test('a full refresh that costs more than is left this month is not started; the block that fits is refreshed', async () => {
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 0 });
    const h = renderPane(sb);
    await connected(h, sb, 'formation-admin', 'formation');
    await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
    await insert(h, 'Cash flow', 'Last quarter', 'Months side by side');
    // 1 call connecting, 6 inserting: 3 left.
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    const refused = await screen.findByRole('group', { name: 'Error: Not started: too few calls left this month' });
    expect(refused.textContent).toMatch(/A full refresh costs 7 calls and only 3 calls are left this month on the Formation plan, so it is not started/);
    expect(refused.textContent).toMatch(/Refresh changes or Refresh this block cost less\./);
    expect(screen.queryByRole('group', { name: 'Confirm refresh' })).toBeNull();
    // The first changes refresh would run full: refused the same way.
    await h.user.click(screen.getByRole('button', { name: 'Refresh changes' }));
    await screen.findByRole('group', { name: 'Error: Not started: too few calls left this month' });
    expect(screen.queryByRole('group', { name: 'Confirm refresh' })).toBeNull();
    expect(await sb.usage(company('formation-admin'))).toBe(7);

    const item = within(screen.getByRole('list', { name: 'Blocks' }))
      .getAllByRole('listitem')
      .find((i) => i.textContent!.includes('Cash flow'))!;
    await h.user.click(within(item).getByRole('button', { name: 'Refresh this block' }));
    await h.user.click(await screen.findByRole('button', { name: 'Refresh' }));
    expect((await screen.findByText(/^Refreshed the block at /, {}, { timeout: 30000 })).textContent).toContain('Spent 3 calls.');
    expect(await sb.usage(company('formation-admin'))).toBe(10);
    h.unmount();
  });

  test('Full refresh at the monthly cap: no block rewritten, the reset date shown; then refused up front', async () => {
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 0 });
    const h = renderPane(sb);
    await connected(h, sb, 'formation-admin', 'formation');
    await insert(h, 'Income statement', 'Last month', 'One period');
    const [binding] = await h.gateway.listBindings();
    // Another tool spends the rest of the cap.
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 10 });
    await openTab(h, 'Refresh');
    await screen.findByRole('list', { name: 'Blocks' });
    const before = await sb.usage(company());
    await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
    await h.user.click(await screen.findByRole('button', { name: 'Refresh' }));
    const error = await screen.findByRole('group', { name: 'Error: Monthly API limit reached' }, { timeout: 30000 });
    expect(error.textContent).toMatch(/resets on \d{4}-\d{2}-01 at 00:00 Pacific Time/);
    const [after] = await h.gateway.listBindings();
    expect(after.refreshedAt).toBe(binding.refreshedAt);
    // The refresh stopped at its first call (the one that starts the record of what changes): no block was
    // touched and nothing more was spent.
    expect(screen.queryByText(/^Refreshed everything/)).toBeNull();
    expect(await sb.usage(company())).toBe(before);
    // The client now knows the cap is spent: the next attempt is refused before anything is cleared.
    await h.user.click(screen.getByRole('button', { name: 'Refresh this block' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Error: Monthly API limit reached' }).textContent).toMatch(/Nothing can be fetched until the limit resets on \d{4}-\d{2}-01/),
    );
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    h.unmount();
  });
});
