/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 16.3 in the pane: a workbook holding a table of a second company (Westbrook, connected beside the
// default one). Review and Push on that table in the Transactions tab go to Westbrook only, with its key:
// the sandbox's per-company usage counters say so.

import { addMonths } from '../../src/engine/dates';
import { COL, createTransactionsEngine } from '../../src/engine/transactions';
import * as runtime from '../../src/runtime';
import { connectBehind, connected, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from '../taskpane/harness';
import { MemorySecretStore } from '../../src/excel/memoryGateway';

jest.setTimeout(120_000);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

test('Push on a table of the second company goes to that company only, with its key', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const a = sb.companies['growth-admin'];
  const b = sb.companies['growth2-admin'];
  await connectBehind(sb, 'growth2-admin', 'Westbrook');

  // Westbrook's table in the workbook (pulled on another computer, say), and an edit typed into it.
  const client = (await runtime.getClient('Westbrook'))!;
  const reader = (await runtime.getReader('Westbrook'))!;
  const fingerprint = (await runtime.getConnection('Westbrook'))!.keyFingerprint!;
  const theirs = createTransactionsEngine({
    client,
    reader,
    gateway: h.gateway,
    journal: new MemorySecretStore(),
    owner: { keyFingerprint: fingerprint, label: 'Westbrook' },
  });
  const today = sb.running.ctx.clock.today();
  const { table } = await theirs.pull({ start_date: addMonths(today, -3), end_date: addMonths(today, -2), transaction_type: 'standard' });
  const { data: departments } = await client.departments.list();
  const parents = new Set(departments.map((d) => d.parent_id));
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const rows = await h.gateway.readTable(table);
  const col = (n: string) => rows.columns.indexOf(n);
  const id = String(rows.rows[0][col(COL.pulledId)]);
  const before = await client.transactions.retrieve(id);
  const leaf = departments.find((d) => d.assignable && !parents.has(d.id) && d.id !== before.department_id)!;
  await h.gateway.updateRowsByKey(table, COL.pulledId, [{ key: id, values: { [COL.department]: pathOf(leaf.id) } }]);

  await openTab(h, 'Transactions');
  await waitFor(() => expect((screen.getByRole('combobox', { name: 'Table' }) as HTMLSelectElement).value).not.toBe(''));
  const usage = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(await screen.findByRole('button', { name: 'Review changes' }));
  const review = await screen.findByRole('region', { name: 'Changes to push' }, { timeout: 15_000 });
  expect(within(review).getByText('1 group to send (1 row)')).toBeTruthy();
  await h.user.click(screen.getByRole('button', { name: 'Push' }));
  await screen.findByText(/^Pushed: 1 row updated, 0 pending/, {}, { timeout: 30_000 });

  expect(await sb.usage(a)).toBe(usage[0]); // nothing with the default company's key
  const spentB = (await sb.usage(b)) - usage[1];
  expect(spentB).toBeGreaterThan(0);
  expect((await client.transactions.retrieve(id)).department_id).toBe(leaf.id);
  // The usage log puts the review and the push on Westbrook's lines, with what its meter counted.
  const lines = h.services.actions.entries(b).filter((e) => e.action === 'Review changes' || e.action === 'Push changes');
  expect(lines.map((e) => e.action)).toEqual(['Push changes', 'Review changes']);
  expect(lines[0].calls + lines[1].calls).toBe(spentB);
  expect(h.services.actions.entries(a).some((e) => e.action === 'Push changes')).toBe(false);
  h.unmount();
});
