/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Several companies in one workbook (issue 16.1), in the pane: the Connection tab adds a company under a
// short name with its own key, keeps the default, lists the others with Make default and Disconnect, and
// offers to connect a company a formula asks for by name. Against the sandbox's two Growth companies.
import { act } from '@testing-library/react';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type TestSandbox } from './harness';
import { apiKeySecret, getConnection, getFinService } from '../../src/runtime';
import { lastFullYear, monthsOf } from '../engine/fin/finHarness';
import { expectBlockMatchesApi } from './sheet';
import * as runtime from '../../src/runtime';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const month = monthsOf(lastFullYear())[3].start.slice(0, 7);

async function addCompany(h: ReturnType<typeof renderPane>, label: string, name: string): Promise<void> {
  await h.user.click(screen.getByRole('button', { name: 'Add a company' }));
  const form = screen.getByRole('region', { name: 'Add a company' });
  const field = within(form).getByLabelText('Short name');
  await h.user.clear(field);
  if (name) await h.user.type(field, name);
  await h.user.type(within(form).getByLabelText('API key'), sb.keys[label]);
  await h.user.click(within(form).getByRole('button', { name: 'Connect' }));
}

describe('Connection: several companies', () => {
  test('adds a second company under a short name: the default stays, each key kept apart, one call to validate it', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    const a = sb.companies['growth-admin'];
    const b = sb.companies['growth2-admin'];
    await openTab(h, 'Connection');
    const usageB = await sb.usage(b);
    await addCompany(h, 'growth2-admin', 'Westbrook');
    const list = await screen.findByRole('list', { name: 'Other companies' });
    expect(within(list).getByRole('listitem', { name: 'Westbrook' }).textContent).toContain(b);
    expect(screen.getByText(/Connected to/).textContent).toContain(a); // the default stays
    expect(await h.secrets.get(apiKeySecret(a))).toBe(sb.keys['growth-admin']);
    expect(await h.secrets.get(apiKeySecret(b))).toBe(sb.keys['growth2-admin']);
    expect((await getConnection('Westbrook'))?.companyId).toBe(b);
    expect((await getConnection())?.companyId).toBe(a);
    expect((await sb.usage(b)) - usageB).toBe(1);
    expect(document.body.innerHTML).not.toContain(sb.keys['growth2-admin']);
    // Usage shows each other company's count against its own cap.
    await openTab(h, 'Usage');
    const usage = await screen.findByLabelText("Other companies' calls this month");
    await waitFor(() => expect(usage.textContent).toBe('Westbrook1 call of 30,000 (Growth plan)'));
    h.unmount();
  });

  test('Make default switches the default; Disconnect forgets that company only', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    const a = sb.companies['growth-admin'];
    const b = sb.companies['growth2-admin'];
    await openTab(h, 'Connection');
    await addCompany(h, 'growth2-admin', '');
    // No name given: the company's name.
    const item = await screen.findByRole('listitem', { name: /Westbrook/ });
    await h.user.click(within(item).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(screen.getByText(/Connected to/).textContent).toContain(b));
    expect((await getConnection())?.companyId).toBe(b);

    const other = await screen.findByRole('listitem', { name: /./ });
    await h.user.click(within(other).getByRole('button', { name: /^Disconnect / }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Other companies' })).toBeNull());
    expect(await h.secrets.get(apiKeySecret(a))).toBeUndefined();
    expect(await h.secrets.get(apiKeySecret(b))).toBe(sb.keys['growth2-admin']);
    expect(screen.getByRole('tab', { name: 'Reports' })).toBeTruthy(); // still connected
    h.unmount();
  });

  test('a formula naming a company not connected here: the pane offers to connect it by that name', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await openTab(h, 'Connection');
    // The evaluation tells the pane (a state change outside a user event).
    await act(async () => {
      const cell = runtime.evaluateFin({ name: 'PNL', args: ['Net Income', month, null, 'Subsidiary'], company: 'Subsidiary' }, {});
      await expect(cell).rejects.toMatchObject({ message: 'Connect "Subsidiary" to fetch' });
    });
    const offer = await screen.findByRole('group', { name: 'Not connected: Subsidiary' });
    await h.user.click(within(offer).getByRole('button', { name: 'Connect "Subsidiary"' }));
    const form = screen.getByRole('region', { name: 'Add a company' });
    expect((within(form).getByLabelText('Short name') as HTMLInputElement).value).toBe('Subsidiary');
    await h.user.type(within(form).getByLabelText('API key'), sb.keys['growth2-admin']);
    await h.user.click(within(form).getByRole('button', { name: 'Connect' }));
    await screen.findByRole('listitem', { name: 'Subsidiary' });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Not connected: Subsidiary' })).toBeNull());
    expect(await getFinService('Subsidiary')).not.toBeNull();
    h.unmount();
  });
});

describe('Reports: a statement of another connected company', () => {
  test("fetched and recorded on that company's connection: its calls, its block, its line in the log", async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    const a = sb.companies['growth-admin'];
    const b = sb.companies['growth2-admin'];
    await openTab(h, 'Connection');
    await addCompany(h, 'growth2-admin', 'Westbrook');
    await screen.findByRole('list', { name: 'Other companies' });
    await openTab(h, 'Reports');
    const pick = async (name: string, option: string) => h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
    expect(screen.getByRole('option', { name: /\(default\)$/ })).toBeTruthy();
    // A block of the default company may follow the reporting period; another company's takes fixed dates
    // (Roll forward moves the default company's blocks).
    await pick('Period', 'Month of the reporting period');
    await pick('Company', 'Westbrook');
    expect(screen.queryByRole('option', { name: 'Month of the reporting period' })).toBeNull();
    expect((screen.getByRole('combobox', { name: 'Period' }) as HTMLSelectElement).value).toBe('last_month');
    await pick('Period', 'Custom');
    await h.user.type(screen.getByLabelText('Start date'), '2025-01-01');
    await h.user.type(screen.getByLabelText('End date'), '2025-03-31');
    await pick('Layout', 'Months side by side');
    // Priced on Westbrook's cache and cap: nothing of it cached yet.
    expect(await screen.findByText(/^Costs 3 calls \(0 cached\)/)).toBeTruthy();
    const [usageA, usageB] = [await sb.usage(a), await sb.usage(b)];
    const defaultLines = h.services.actions.entries(a).length;
    await h.user.click(screen.getByRole('button', { name: 'Insert' }));
    const done = await screen.findByText(/^Inserted the income statement of /, {}, { timeout: 30000 });
    expect(done.textContent).toMatch(/Spent 3 calls\.$/);
    expect([(await sb.usage(a)) - usageA, (await sb.usage(b)) - usageB]).toEqual([0, 3]);
    const [binding] = await h.gateway.listBindings();
    expect(binding.company).toBe(b);
    const months = [['01', '31'], ['02', '28'], ['03', '31']].map(([m, d]) => ({ start: `2025-${m}-01`, end: `2025-${m}-${d}` }));
    await expectBlockMatchesApi(sb, 'growth2-admin', h.gateway, binding, months);
    // The line is on Westbrook's log, with what Westbrook's meter counted; the default company's log has none.
    expect(h.services.actions.entries(b)[0]).toMatchObject({ action: expect.stringMatching(/^Insert /), calls: 3 });
    expect(h.services.actions.entries(a).length).toBe(defaultLines);
    // The same block again comes from Westbrook's cache.
    expect(await screen.findByText(/^Costs 0 calls \(3 cached\)/)).toBeTruthy();
    // Usage, Westbrook chosen: its count, and its lines adding up to it (the connection's call and the insert).
    await openTab(h, 'Usage');
    await pick('Company', 'Westbrook');
    const table = await screen.findByRole('table', { name: "What spent this month's calls" });
    await waitFor(() => expect(within(table).getByRole('row', { name: /^Insert .* 3 / })).toBeTruthy());
    expect(within(table).getByRole('row', { name: /^Connect 1 / })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('usage-count').textContent).toBe('4'));
    expect(within(table).getByRole('rowheader', { name: 'Total this month' }).parentElement!.textContent).toContain('4');
    // The other companies' counts list the default one now, not Westbrook.
    const others = [...screen.getByLabelText("Other companies' calls this month").querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(others).toEqual([h.services.session.connected()!.connections[0].name]);
    h.unmount();
  });
});
