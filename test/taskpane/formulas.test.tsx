/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { act } from 'react';
import { getFinService } from '../../src/runtime';
import { connected, openTab, renderPane, reportsSettled, screen, startSandbox, waitFor, within, type TestSandbox } from './harness';
import { apiReport } from './sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const SOFTWARE = 'Operating Expenses > General & Administrative > Software Subscriptions';

describe('Formula helper', () => {
  test('pick a category by typing, give a period, and the FIN.TOTAL formula lands in the selected cell', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await openTab(h, 'Formulas');
    // Loading the chart of accounts is offered with its cost, not done behind the user's back.
    const load = await screen.findByRole('button', { name: 'Load categories' });
    expect(screen.getByText('Costs 1 call')).toBeTruthy();
    const before = await sb.usage(sb.companies['growth-admin']);
    await h.user.click(load);
    const list = await screen.findByRole('listbox', { name: 'Categories' });
    expect(await sb.usage(sb.companies['growth-admin'])).toBe(before + 1);
    expect(within(list).getAllByRole('option').length).toBe(62);

    await h.user.type(screen.getByLabelText('Filter categories'), 'software');
    const listbox = () => screen.getByRole('listbox', { name: 'Categories' });
    await waitFor(() => expect(within(listbox()).getAllByRole('option').length).toBe(2));
    expect(screen.getByText('2 of 62 categories match')).toBeTruthy();
    await h.user.click(within(listbox()).getByRole('option', { name: SOFTWARE }));

    const period = screen.getByLabelText('Formula period');
    await h.user.clear(period);
    await h.user.type(period, 'FY2025');
    const formula = `=FIN.TOTAL("${SOFTWARE}","FY2025")`;
    await waitFor(() => expect((screen.getByLabelText('Formula') as HTMLInputElement).value).toBe(formula));
    expect(screen.getByText('2025-01-01 to 2025-12-31')).toBeTruthy();

    act(() => h.gateway.select('Sheet1', 'B4'));
    await h.user.click(screen.getByRole('button', { name: 'Insert formula' }));
    expect(await screen.findByText(`Inserted ${formula} in Sheet1!B4.`)).toBeTruthy();
    expect(h.gateway.cell('Sheet1', 'B4').formula).toBe(formula);

    // The formula is one the FIN functions understand: same total as the API's for that category and year.
    const fin = (await getFinService())!;
    const value = await fin.total({ category: SOFTWARE, start: 'FY2025' });
    const categories = await apiReport(sb, 'growth-admin', '/categories', {});
    const id = categories.data.find((c: any) => c.name === 'Software Subscriptions').id;
    const total = await apiReport(sb, 'growth-admin', '/aggregations/total', { category_id: id, start_date: '2025-01-01', end_date: '2025-12-31' });
    expect(value).toBeCloseTo(total.total_cents / 100, 9);
    h.unmount();
  });

  test('categories already cached are shown at no cost; a bad period is explained and blocks Insert', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await openTab(h, 'Formulas');
    await h.user.click(await screen.findByRole('button', { name: 'Load categories' }));
    await screen.findByRole('listbox', { name: 'Categories' });
    await openTab(h, 'Reports');
    await reportsSettled();
    const before = await sb.usage(sb.companies['growth-admin']);
    await openTab(h, 'Formulas');
    await screen.findByRole('listbox', { name: 'Categories' });
    expect(screen.queryByRole('button', { name: 'Load categories' })).toBeNull();
    expect(await sb.usage(sb.companies['growth-admin'])).toBe(before);

    await h.user.type(screen.getByLabelText('Filter categories'), 'cash');
    await h.user.click(within(screen.getByRole('listbox', { name: 'Categories' })).getByRole('option', { name: 'Assets > Current Assets > Cash' }));
    expect(screen.getByText(/Cash is a balance/)).toBeTruthy();
    const period = screen.getByLabelText('Formula period');
    await h.user.clear(period);
    await h.user.type(period, '2025-13');
    expect(await screen.findByText(/month 13 does not exist/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Insert formula' }) as HTMLButtonElement).disabled).toBe(true);
    await h.user.clear(period);
    await h.user.type(period, '2025-06');
    await waitFor(() =>
      expect((screen.getByLabelText('Formula') as HTMLInputElement).value).toBe('=FIN.TOTAL("Assets > Current Assets > Cash","2025-06")'),
    );
    h.unmount();
  });

  test('the list works from the keyboard', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await openTab(h, 'Formulas');
    await h.user.click(await screen.findByRole('button', { name: 'Load categories' }));
    await screen.findByRole('listbox', { name: 'Categories' });
    await h.user.type(screen.getByLabelText('Filter categories'), 'rent');
    await waitFor(() => expect(within(screen.getByRole('listbox', { name: 'Categories' })).getAllByRole('option').length).toBe(1));
    const list = screen.getByRole('listbox', { name: 'Categories' });
    for (let i = 0; i < 3 && document.activeElement !== list; i++) await h.user.tab();
    expect(document.activeElement).toBe(list);
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect((screen.getByLabelText('Formula') as HTMLInputElement).value).toMatch(/^=FIN\.TOTAL\("Operating Expenses > General & Administrative > Rent",/));
    h.unmount();
  });
});
