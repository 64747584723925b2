/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { nextMonthlyReset } from '../../src/api';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

async function insert(h: PaneHarness): Promise<void> {
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  // Everything it needed is cached now: wait for the cost line to say so (it updates after the insert).
  await screen.findByText(/^Costs 0 calls/);
}

/** The value next to a term of the usage list. */
function usageValue(term: string): string {
  const dt = screen.getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent ?? '';
}

function actionRows(): string[][] {
  const table = screen.getByRole('table', { name: 'Recent actions' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((c) => c.textContent ?? ''));
}

describe('Usage', () => {
  test('after known actions the meter equals the server count; cap, reset and each action with its cost', async () => {
    const h = renderPane(sb);
    const company = sb.companies['startup-admin'];
    await connected(h, sb, 'startup-admin', 'startup');
    await choose(h, 'Statement', 'Income statement');
    await choose(h, 'Period', 'Last quarter');
    await choose(h, 'Layout', 'Months side by side');
    await insert(h); // 3 calls
    await insert(h); // cached: 0
    await openTab(h, 'Formulas');
    await h.user.click(await screen.findByRole('button', { name: 'Load categories' })); // 1
    await screen.findByRole('listbox', { name: 'Categories' });

    await openTab(h, 'Usage');
    const server = await sb.usage(company);
    expect(server).toBe(1 + 3 + 0 + 1);
    await waitFor(() => expect(usageValue('Calls this month')).toBe(String(server)));
    expect(usageValue('Monthly cap')).toBe('300 (Startup plan)');
    expect(usageValue('Next reset')).toBe(`${nextMonthlyReset(Date.now()).date} at 00:00 Pacific Time`);
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe(String(server));
    expect(bar.getAttribute('aria-valuemax')).toBe('300');

    const rows = actionRows();
    expect(rows.map((r) => [r[0].replace(/,.*/, ''), r[1]])).toEqual([
      ['Load categories', '1'],
      ['Insert Income statement', '0'],
      ['Insert Income statement', '3'],
      ['Connect', '1'],
    ]);
    expect(rows[1][0]).toMatch(/months side by side/);
    expect(rows[0][2]).toBe('just now');

    // Changing the plan changes the cap shown; the log survives reopening the pane.
    await openTab(h, 'Connection');
    await choose(h, 'Plan', 'Growth (30,000 calls a month)');
    await openTab(h, 'Usage');
    expect(usageValue('Monthly cap')).toBe('30,000 (Growth plan)');
    h.unmount();
    const again = renderPane(sb, { stores: h.stores });
    await screen.findByRole('tab', { name: 'Usage' });
    await openTab(again, 'Usage');
    await waitFor(() => expect(actionRows()).toHaveLength(4));
    await waitFor(() => expect(usageValue('Calls this month')).toBe(String(server)));
    expect(await sb.usage(company)).toBe(server);
    again.unmount();
  });

  test('cap reached: the usage screen says so with the reset date', async () => {
    const h = renderPane(sb);
    const company = sb.companies['formation-admin'];
    await connected(h, sb, 'formation-admin', 'formation');
    await choose(h, 'Period', 'Last year');
    await choose(h, 'Layout', 'Months side by side');
    await h.user.click(screen.getByRole('button', { name: 'Insert' }));
    const error = await screen.findByRole('group', { name: 'Error: Monthly API limit reached' }, { timeout: 30000 });
    const reset = nextMonthlyReset(Date.now()).date;
    expect(error.textContent).toContain(`The limit resets on ${reset} at 00:00 Pacific Time`);
    await screen.findByText(/^Costs 3 calls \(9 cached\)/);

    await openTab(h, 'Usage');
    await waitFor(() => expect(usageValue('Calls this month')).toBe('10'));
    expect(await sb.usage(company)).toBe(10);
    expect(usageValue('Monthly cap')).toBe('10 (Formation plan)');
    expect(screen.getByText(/Nothing more can be fetched until/).textContent).toContain(reset);
    const [last] = actionRows();
    expect(last[0]).toMatch(/^Insert Income statement.*\(failed\)$/);
    expect(last[1]).toBe('9');
    h.unmount();
  });
});
