/** @jest-environment ./test/support/jsdom-with-fetch.js */
// A workbook with a statement block of each of two companies (issue 16.2-3): before a full refresh the pane
// shows each company's cost and what its own cap leaves; the refresh rebuilds each block on its own
// connection, each company's calls on its own counter.
import { insertConsolidated, type Member } from '../../src/engine/consolidation/insert';
import { createStatementsEngine, type StatementSpec } from '../../src/engine/statements';
import * as runtime from '../../src/runtime';
import { lastFullYear } from '../engine/fin/finHarness';
import { connectBehind, connected, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from './harness';

jest.setTimeout(120_000);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const spec: StatementSpec = {
  statement: 'income_statement',
  period: 'custom',
  start: `${year}-01-01`,
  end: `${year}-02-28`,
  layout: 'months',
  scale: 'units',
  fiscalYearStartMonth: 1,
};

test("Full refresh of a two-company workbook: each company's cost shown first, each block refreshed with its own key", async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const a = sb.companies['growth-admin'];
  const b = sb.companies['growth2-admin'];
  await connectBehind(sb, 'growth2-admin', 'Westbrook');
  for (const company of [a, b]) {
    const [client, reader] = await Promise.all([runtime.getClient(company), runtime.getReader(company)]);
    await createStatementsEngine({ gateway: h.gateway, reader: reader!, client: client!, companyName: company }).insert(spec, 'newSheet');
  }

  await openTab(h, 'Refresh');
  await h.user.click(await screen.findByRole('button', { name: 'Full refresh' }));
  const confirm = await screen.findByRole('group', { name: 'Confirm refresh' });
  const text = confirm.textContent ?? '';
  const own = (await runtime.getConnection())!.name;
  expect(text).toMatch(new RegExp(`^${own}: .*Westbrook: .*\\(\\d+ calls left this month on its Growth plan\\)`));

  const before = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(within(confirm).getByRole('button', { name: 'Refresh' }));
  const status = await screen.findByRole('status');
  await waitFor(() => expect(status.textContent).toMatch(/Westbrook: Refreshed everything\./), { timeout: 60_000 });
  expect(status.textContent).toMatch(new RegExp(`^${own}: Refreshed everything\\.`));
  const after = [await sb.usage(a), await sb.usage(b)];
  // Each company: its block's two months (the FIN formulas read none here), and, in place of a new
  // watermark, the record of where each of its transactions posts (issue 34: 40 pages of 500, and 6).
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([2 + 40, 2 + 6]);
  h.unmount();
});

test('Full refresh rebuilds a consolidated statement through the companies\' caches: one call on each, said after the companies', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const a = sb.companies['growth-admin'];
  const b = sb.companies['growth2-admin'];
  await connectBehind(sb, 'growth2-admin', 'Westbrook');
  const members: Member[] = [];
  for (const [name, company] of [['Acme', a], ['Westbrook', b]] as const) {
    const [client, reader] = await Promise.all([runtime.getClient(company), runtime.getReader(company)]);
    members.push({ name, reader: reader!, client: client! });
  }
  const { binding } = await insertConsolidated({ gateway: h.gateway, title: 'Group' }, members, { ...spec, period: 'custom' });

  await openTab(h, 'Refresh');
  await h.user.click(await screen.findByRole('button', { name: 'Full refresh' }));
  const confirm = await screen.findByRole('group', { name: 'Confirm refresh' });
  // Each company's cost names the consolidated statement its cached figure is for.
  // (And, the first time, the record of where each transaction posts, bounded at 50 calls: in the cost shown.)
  expect(confirm.textContent).toMatch(/: This will spend up to 52 calls .*up to 1 for FIN formulas and 1 consolidated statement, and this once, up to 50 to record .*Westbrook: This will spend up to 52 calls .*up to 1 for FIN formulas and 1 consolidated statement, and this once, up to 50 to record /);
  const before = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(within(confirm).getByRole('button', { name: 'Refresh' }));
  const status = await screen.findByRole('status');
  await waitFor(() => expect(status.textContent).toMatch(/ Also rebuilt 1 consolidated statement \(2 calls\)\.$/), { timeout: 60_000 });
  const after = [await sb.usage(a), await sb.usage(b)];
  // Each company: its report in the consolidated block, and, in place of a new watermark, the record of
  // where each of its transactions posts (issue 34: 40 pages of 500, and 6).
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([1 + 40, 1 + 6]);
  const rewritten = (await h.gateway.listBindings()).find((x) => x.id === binding.id)!;
  expect(Date.parse(rewritten.writtenAt!)).toBeGreaterThan(Date.parse(binding.writtenAt!));
  h.unmount();
});
