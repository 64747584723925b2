/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { createClient } from '../../src/api';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, type PaneHarness, type TestSandbox } from './harness';
import { startGatewayProcess, type GatewayProcess } from '../support/gatewayProcess';

// The pane through the team's gateway (real sandbox, real gateway, real HTTP): the Usage tab shows the team's
// count, equal to what the API counted for the company, and the "not started" rule holds the pane to what
// the whole team has left, not to what this add-in alone spent.

let sb: TestSandbox;
let gw: GatewayProcess;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});
beforeEach(async () => {
  gw = await startGatewayProcess(sb.baseUrl);
});
afterEach(async () => {
  await gw?.close();
});

/** The sandbox as the pane sees it: its API at the gateway's address. */
const throughGateway = (): TestSandbox => ({ ...sb, baseUrl: gw.baseUrl });

/** A colleague's add-in (or any tool) on a key of the same company, through the same gateway. */
function colleague(label: string) {
  return createClient({ baseUrl: gw.baseUrl, apiKey: sb.keys[label] });
}

function usageValue(term: string): string {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent ?? '';
}

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

test("Usage shows the team's count through the gateway, equal to the API's counter, and this add-in's share", async () => {
  const company = sb.companies['growth-admin'];
  await sb.control('usage', { company_id: company, count: 0 });
  const h = renderPane(throughGateway());
  await connected(h, throughGateway(), 'growth-admin', 'growth');
  // Another accountant of the company (another key) spends 3 calls through the gateway.
  const other = colleague('growth-readonly');
  await other.ensureCompanyId();
  await other.accounts.list();
  await other.reports.balanceSheet({ date: '2026-06-30' });
  // This add-in's next answer carries the team's count.
  await openTab(h, 'Formulas');
  await h.user.click(await screen.findByRole('button', { name: 'Load categories' }));
  await screen.findByRole('listbox', { name: 'Categories' });

  await openTab(h, 'Usage');
  const server = await sb.usage(company);
  const own = await (await h.services.runtime.getClient())!.meter.count();
  expect(own).toBeLessThan(server);
  await waitFor(() => expect(screen.getByTestId('usage-team').textContent).toBe(`Your team, through the gateway: ${server} of 30,000 this month`));
  expect(usageValue('Calls this month')).toBe(String(server));
  expect(usageValue('Of them by this add-in')).toBe(String(own));
  expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe(String(server));
  h.unmount();
});

test('an action the team has too few calls left for is not started, though this add-in alone spent little', async () => {
  const company = sb.companies['formation-admin'];
  await sb.control('usage', { company_id: company, count: 0 });
  const h = renderPane(throughGateway());
  await connected(h, throughGateway(), 'formation-admin', 'formation');
  // The same key in another workbook spends 6 of the month's 10 calls (distinct requests: each counts).
  const other = colleague('formation-admin');
  for (let month = 1; month <= 6; month++) await other.reports.incomeStatement({ start_date: `2025-0${month}-01`, end_date: `2025-0${month}-28` });
  // One answer to this pane brings the team's count.
  await openTab(h, 'Formulas');
  await h.user.click(await screen.findByRole('button', { name: 'Load categories' }));
  await screen.findByRole('listbox', { name: 'Categories' });
  const spent = await sb.usage(company);
  const client = (await h.services.runtime.getClient())!;
  // Alone, this add-in would think 3 calls cost less than what it has left.
  expect(10 - (await client.meter.count())).toBeGreaterThanOrEqual(3);
  expect(10 - spent).toBeLessThan(3);

  await openTab(h, 'Reports');
  await choose(h, 'Statement', 'Income statement');
  await choose(h, 'Period', 'Last quarter');
  await choose(h, 'Layout', 'Months side by side');
  const left = 10 - spent;
  // The cost line says it before anything is spent, and offers what fits.
  await screen.findByText(new RegExp(`This block costs 3 calls and only ${left} calls? (is|are) left this month on the Formation plan, so it is not started`), {}, { timeout: 15000 });
  await screen.findByRole('button', { name: `Insert the first ${left} month${left === 1 ? '' : 's'} (${left} call${left === 1 ? '' : 's'})` });
  const insert = screen.getByRole('button', { name: 'Insert' });
  expect(insert.hasAttribute('disabled') || insert.getAttribute('aria-disabled') === 'true').toBe(true);
  expect(await sb.usage(company)).toBe(spent);
  h.unmount();
});
