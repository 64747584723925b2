/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Issue 16.4 in the pane: with the demo company and the second one connected, the Reports tab inserts a
// consolidated income statement for last quarter: its cost shown per company first (one call each), then a
// column per company and the total on a new sheet, a shared line equal to the two companies' API figures.
// Issue 25.6: a block's record naming one company twice, and the groups of companies a workbook brings
// (shown for review on opening, none added up before it is accepted).
import { CellError, cellInvocation } from '../support/customFunctions';
import * as fin from '../../src/functions/functions';
import { calendarDateAt, namedPeriod } from '../../src/engine/dates';
import * as runtime from '../../src/runtime';
import { connectBehind, connected, errorText, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from './harness';

jest.setTimeout(120_000);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

test('a consolidated income statement of two companies: the cost per company, then their columns and the total', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const [a, b] = [sb.companies['growth-admin'], sb.companies['growth2-admin']];
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
  const first = (await runtime.getConnection())!.name;

  const section = await screen.findByRole('region', { name: 'Consolidated statement' }, { timeout: 15_000 });
  expect(section).toBeTruthy();
  expect(await screen.findByText(new RegExp(`Costs 2 calls: ${first} 1 call, Westbrook 1 call`))).toBeTruthy();
  const usage = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(screen.getByRole('button', { name: 'Insert consolidated' }));
  const done = await screen.findByText(/^Inserted the consolidated statement at /, {}, { timeout: 30_000 });
  expect(done.textContent).toContain('2 companies and their total, no eliminations');
  // One call per company, each on its own company's count.
  expect([(await sb.usage(a)) - usage[0], (await sb.usage(b)) - usage[1]]).toEqual([1, 1]);
  // Each company's log has the line, with what it paid.
  for (const company of [a, b]) expect(h.services.actions.entries(company)[0]).toMatchObject({ action: 'Consolidated income statement', calls: 1 });

  const address = /at (.+): 2 companies/.exec(done.textContent!)![1];
  const grid = await h.gateway.readRange(address);
  const header = grid.values.find((row) => row[1] === first)!;
  expect(header.slice(1, 4)).toEqual([first, 'Westbrook', 'Total']);
  const revenueRow = grid.values.find((row) => row[0] === 'Total revenue')!;
  const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
  const api = await Promise.all(
    ['growth-admin', 'growth2-admin'].map(async (label) => {
      const rt = (await runtime.getClient(label === 'growth-admin' ? first : 'Westbrook'))!;
      return (await rt.reports.incomeStatement({ start_date: quarter.start, end_date: quarter.end })).revenue.total_cents;
    }),
  );
  expect(revenueRow.slice(1, 4).map((v) => Math.round(Number(v) * 100))).toEqual([api[0], api[1], api[0] + api[1]]);

  // The same two as a group saved in the workbook: a FIN line naming it adds up the two companies' figures.
  await h.user.clear(screen.getByRole('textbox', { name: 'Group name' }));
  await h.user.type(screen.getByRole('textbox', { name: 'Group name' }), 'Group');
  await h.user.click(screen.getByRole('button', { name: 'Save as a group' }));
  expect(await screen.findByText(/^Saved the group "Group" \(/)).toBeTruthy();
  expect(await h.gateway.readSetting('fin.groups')).toEqual({ Group: [first, 'Westbrook'] });
  const q = `${quarter.start.slice(0, 4)}-Q${Math.floor(Number(quarter.start.slice(5, 7)) / 3) + 1}`;
  const group = await fin.pnl('Revenue', q, undefined, 'Group', undefined, cellInvocation());
  expect(Math.round(group * 100)).toBe(api[0] + api[1]);
  // A category only the second company has counts where it exists; one neither has is an error; a list is refused.
  const grant = await fin.pnl('Grant Income', q, undefined, 'Westbrook', undefined, cellInvocation());
  expect(await fin.pnl('Grant Income', q, undefined, 'Group', undefined, cellInvocation())).toBe(grant);
  await expect(fin.pnl('No such line', q, undefined, 'Group', undefined, cellInvocation())).rejects.toMatchObject({ code: '#VALUE!', message: expect.stringMatching(/^.+: Unknown category "No such line"/) });
  await expect(fin.categories('Group', cellInvocation())).rejects.toEqual(
    new CellError('#VALUE!', '"Group" is a group: it adds up single figures (FIN.TOTAL, FIN.PNL, FIN.BALANCE, FIN.CASHFLOW), not lists or statements'),
  );
  h.unmount();
});

test('a consolidated block is listed and refreshed in place: one call per company, each figure the API gives after a change', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const [a, b] = [sb.companies['growth-admin'], sb.companies['growth2-admin']];
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
  const first = (await runtime.getConnection())!.name;
  await screen.findByText(new RegExp(`Costs \\d+ calls?: ${first} \\d+ calls?, Westbrook \\d+ calls?`), {}, { timeout: 15_000 });
  await h.user.click(screen.getByRole('button', { name: 'Insert consolidated' }));
  const done = await screen.findByText(/^Inserted the consolidated statement at /, {}, { timeout: 30_000 });
  const inserted = /at (.+): 2 companies/.exec(done.textContent!)![1];
  const list = await screen.findByRole('list', { name: 'Consolidated blocks' });
  const item = within(list).getByRole('listitem', { name: /^Northwind Analytics \+ Westbrook: Income statement, / });

  // One of Westbrook's revenue lines of the quarter moves out of it.
  const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
  const westbrook = (await runtime.getClient('Westbrook'))!;
  const revenue = new Set((await westbrook.categories.list()).data.filter((c) => c.account_type === 'revenue').map((c) => c.id));
  let moved = null;
  for await (const t of westbrook.transactions.iterate({ start_date: quarter.start, end_date: quarter.end })) {
    if (t.transaction_type === 'standard' && t.accounting_date === t.date && t.amount_cents > 0 && t.category_id && revenue.has(t.category_id)) {
      moved = t;
      break;
    }
  }
  expect(moved).not.toBeNull();
  await westbrook.transactions.update(moved!.id, { accounting_date: `${Number(quarter.start.slice(0, 4)) - 1}-06-15` });

  const revenueOf = async (address: string) => (await h.gateway.readRange(address)).values.find((row) => row[0] === 'Total revenue')!.slice(1, 4).map((v) => Math.round(Number(v) * 100));
  const before = await revenueOf(inserted);
  const usage = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(within(item).getByRole('button', { name: 'Refresh this block (2 calls, one per company)' }));
  const refreshed = await screen.findByText(/^Refreshed the consolidated statement at /, {}, { timeout: 30_000 });
  expect(refreshed.textContent).toMatch(/Spent 2 calls\.$/);
  expect([(await sb.usage(a)) - usage[0], (await sb.usage(b)) - usage[1]]).toEqual([1, 1]);
  // Rewritten where it was (the same block, the same place), each column the company's API figure.
  const [binding] = (await h.gateway.listBindings()).filter((x) => x.kind === 'consolidated');
  expect(binding.address).toBe(inserted);
  const after = await revenueOf(binding.address);
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([0, -moved!.amount_cents]);
  const api = await Promise.all(
    [first, 'Westbrook'].map(async (name) => (await (await runtime.getClient(name))!.reports.incomeStatement({ start_date: quarter.start, end_date: quarter.end })).revenue.total_cents),
  );
  expect(after).toEqual([api[0], api[1], api[0] + api[1]]);
  expect(h.services.actions.entries(b)[0]).toMatchObject({ action: 'Refresh consolidated income statement', calls: 1 });

  // Forget: the record goes, the cells stay.
  await h.user.click(within(item).getByRole('button', { name: 'Forget' }));
  await screen.findByText(/^Forgot the consolidated statement at /);
  expect((await h.gateway.listBindings()).filter((x) => x.kind === 'consolidated')).toEqual([]);
  expect(await revenueOf(binding.address)).toEqual(after);
  expect(screen.queryByRole('list', { name: 'Consolidated blocks' })).toBeNull();
  h.unmount();
});

test('a consolidated block whose record names one company twice is refreshed as its companies, each once, headed by their connections now', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  const [a, b] = [sb.companies['growth-admin'], sb.companies['growth2-admin']];
  await connectBehind(sb, 'growth2-admin', 'Westbrook');
  const first = (await runtime.getConnection())!.name;
  await h.user.click(screen.getByRole('button', { name: 'Insert consolidated' }));
  await screen.findByText(/^Inserted the consolidated statement at /, {}, { timeout: 30_000 });

  // The record edited in the file: the first company twice, the names of another time.
  const [binding] = (await h.gateway.listBindings()).filter((x) => x.kind === 'consolidated');
  const members = [
    { name: 'Old North', companyId: a },
    { name: 'North again', companyId: a },
    { name: 'Old West', companyId: b },
  ];
  await h.gateway.saveBinding({ ...binding, parameters: { ...binding.parameters, members } });
  await openTab(h, 'Connection');
  await openTab(h, 'Reports');
  const list = await screen.findByRole('list', { name: 'Consolidated blocks' }, { timeout: 15_000 });
  const usage = [await sb.usage(a), await sb.usage(b)];
  await h.user.click(within(list).getByRole('button', { name: 'Refresh this block (2 calls, one per company)' }));
  await screen.findByText(/^Refreshed the consolidated statement at /, {}, { timeout: 30_000 });
  expect([(await sb.usage(a)) - usage[0], (await sb.usage(b)) - usage[1]]).toEqual([1, 1]);

  const grid = await h.gateway.readRange((await h.gateway.listBindings()).find((x) => x.id === binding.id)!.address);
  const header = grid.values.find((row) => row[1] === first)!;
  expect(header.slice(1)).toEqual([first, 'Westbrook', 'Total']);
  const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
  const api = await Promise.all(
    [first, 'Westbrook'].map(async (name) => (await (await runtime.getClient(name))!.reports.incomeStatement({ start_date: quarter.start, end_date: quarter.end })).revenue.total_cents),
  );
  const revenue = grid.values.find((row) => row[0] === 'Total revenue')!.slice(1).map((v) => Math.round(Number(v) * 100));
  expect(revenue).toEqual([api[0], api[1], api[0] + api[1]]);
  h.unmount();
});

/** Westbrook connected as the pane's Connection tab connects a further company: its company's name known to the pane. */
async function westbrookBehind(h: ReturnType<typeof renderPane>): Promise<void> {
  await h.paneStorage.set(`company:${sb.companies['growth2-admin']}`, JSON.stringify({ name: 'Westbrook Software', plan: 'growth' }));
  await connectBehind(sb, 'growth2-admin', 'Westbrook');
}

describe('groups of companies the workbook brings', () => {
  test('are shown for review on opening, with the companies they add up; none adds up before it is accepted', async () => {
    const h = renderPane(sb);
    const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
    const q = `${quarter.start.slice(0, 4)}-Q${Math.floor(Number(quarter.start.slice(5, 7)) / 3) + 1}`;
    await h.gateway.writeSetting('fin.groups', { 'Bluebird Robotics': ['Westbrook'], Both: ['northwind analytics', 'Westbrook'] });
    await connected(h, sb);
    await westbrookBehind(h);
    const first = (await runtime.getConnection())!.name;

    const review = await screen.findByRole('list', { name: 'Groups to review' }, { timeout: 15_000 });
    const bluebird = within(review).getByRole('listitem', { name: 'Group Bluebird Robotics' });
    expect(within(bluebird).getByText('"Bluebird Robotics" adds up Westbrook (Westbrook Software)')).toBeTruthy();
    expect(within(review).getByText(`"Both" adds up ${first} + Westbrook (Westbrook Software)`)).toBeTruthy();
    // Not accepted: the cell names the company that is not connected, and no call is spent for it.
    const usage = await sb.usage(sb.companies['growth2-admin']);
    await expect(fin.pnl('Revenue', q, undefined, 'Bluebird Robotics', undefined, cellInvocation())).rejects.toMatchObject({ code: '#N/A', message: expect.stringMatching(/^Connect "Bluebird Robotics" to fetch\./) });
    expect(await sb.usage(sb.companies['growth2-admin'])).toBe(usage);

    // Removed: gone from the workbook and from the review; the cell still asks to connect Bluebird Robotics.
    await h.user.click(within(bluebird).getByRole('button', { name: 'Remove from this workbook' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Groups to review' })).queryByRole('listitem', { name: 'Group Bluebird Robotics' })).toBeNull());
    expect(await h.gateway.readSetting('fin.groups')).toEqual({ Both: ['northwind analytics', 'Westbrook'] });
    await expect(fin.pnl('Revenue', q, undefined, 'Bluebird Robotics', undefined, cellInvocation())).rejects.toMatchObject({ message: 'Connect "Bluebird Robotics" to fetch' });

    // Accepted: its figure is the two companies' added up, and the review is done.
    await h.user.click(within(screen.getByRole('listitem', { name: 'Group Both' })).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Groups to review' })).toBeNull());
    const each = await Promise.all([first, 'Westbrook'].map((name) => fin.pnl('Revenue', q, undefined, name, undefined, cellInvocation())));
    expect(Math.round((await fin.pnl('Revenue', q, undefined, 'Both', undefined, cellInvocation())) * 100)).toBe(Math.round(each[0] * 100) + Math.round(each[1] * 100));
    h.unmount();
  });

  test('a group named like a connected company cannot be accepted or saved', async () => {
    const h = renderPane(sb);
    await h.gateway.writeSetting('fin.groups', { 'Westbrook Software': ['Northwind Analytics'] });
    await connected(h, sb);
    await westbrookBehind(h);
    const item = await screen.findByRole('listitem', { name: 'Group Westbrook Software' }, { timeout: 15_000 });
    expect(within(item).getByText('"Westbrook Software" is the name of the company Westbrook Software (connection Westbrook): give the group another name.')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Accept' }).getAttribute('aria-disabled')).toBe('true');

    await h.user.clear(screen.getByRole('textbox', { name: 'Group name' }));
    await h.user.type(screen.getByRole('textbox', { name: 'Group name' }), 'westbrook software');
    await h.user.click(screen.getByRole('button', { name: 'Save as a group' }));
    expect(await errorText()).toContain('"westbrook software" is the name of the company Westbrook Software (connection Westbrook): give the group another name.');
    expect(await h.gateway.readSetting('fin.groups')).toEqual({ 'Westbrook Software': ['Northwind Analytics'] });
    h.unmount();
  });
});
