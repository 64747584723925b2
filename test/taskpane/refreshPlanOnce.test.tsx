/** @jest-environment ./test/support/jsdom-with-fetch.js */
// A refresh reads the blocks' places in the workbook once (issue 29, item 1): when its cost is asked. The
// refresh itself works from that plan, priced again from the cache once the sync says what changed, and the
// list of blocks after it comes from what it wrote. In Excel each block's place is a round trip; before, a
// Refresh changes read every block's place three times (at the ask, inside the refresh, at the reload after).
import { connected, openTab, renderPane, screen, startSandbox, type TestSandbox } from './harness';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

test('Refresh changes reads each block\'s place once, from the ask to the list of blocks after it', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const { workspace } = h.services.session.connected()!;
  const spec = { period: 'custom', start: '2025-07-01', end: '2025-07-31', layout: 'single', scale: 'units', fiscalYearStartMonth: 1 } as const;
  await workspace.statements.insert({ ...spec, statement: 'income_statement' }, 'newSheet');
  await workspace.statements.insert({ ...spec, statement: 'balance_sheet' }, 'newSheet');

  await openTab(h, 'Refresh');
  // The first one runs full and starts the record of what changes.
  await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
  await h.user.click(await screen.findByRole('button', { name: 'Refresh' }));
  await screen.findByText(/^Refreshed everything/, {}, { timeout: 30000 });

  let located = 0;
  const locate = h.gateway.locateBlock.bind(h.gateway);
  h.gateway.locateBlock = (name) => {
    located += 1;
    return locate(name);
  };
  await h.user.click(screen.getByRole('button', { name: 'Refresh changes' }));
  await h.user.click(await screen.findByRole('button', { name: 'Refresh' }));
  expect((await screen.findByText(/^Nothing changed/, {}, { timeout: 30000 })).textContent).toBe('Nothing changed since the last refresh. Spent 1 call.');
  // Both blocks are still listed, as the refresh left them.
  expect(screen.getAllByRole('button', { name: 'Refresh this block' })).toHaveLength(2);
  expect(located).toBe(2);
  h.unmount();
});
