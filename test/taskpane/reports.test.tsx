/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { act } from 'react';
import { calendarDateAt, namedPeriod, periodLabel, priorPeriod, samePeriodLastYear, splitPeriod, startOfMonth, yearToDate, type NamedPeriodKey } from '../../src/engine/dates';
import { errorText, connected, renderPane, screen, startSandbox, waitFor, type PaneHarness, type TestSandbox } from './harness';
import { apiReport, blockAt, expectBlockMatchesApi, expectVariance, lineCents, VARIANCE_HEADERS } from './sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const STATEMENT_LABEL = { income_statement: 'Income statement', balance_sheet: 'Balance sheet', cash_flow: 'Cash flow' } as const;
const LAYOUT_LABEL = {
  single: 'One period',
  months: 'Months side by side',
  quarters: 'Quarters side by side',
  prior_period: 'Against the prior period',
  prior_year: 'Against the same period last year',
  prior_ytd: 'Against the prior year to date',
} as const;
const COMPARISONS: readonly string[] = ['prior_period', 'prior_year', 'prior_ytd'];
const PERIOD_LABEL: Record<NamedPeriodKey, string> = {
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  last_quarter: 'Last quarter',
  year_to_date: 'Year to date',
  last_year: 'Last year',
  trailing_twelve_months: 'Trailing twelve months',
};

type Kind = keyof typeof STATEMENT_LABEL;
type Layout = keyof typeof LAYOUT_LABEL;

/** The columns a layout should produce, computed here from the period algebra. */
function expectedColumns(kind: Kind, layout: Layout, periodKey: NamedPeriodKey) {
  const today = calendarDateAt(Date.now());
  const base = namedPeriod(periodKey, { today });
  const periods =
    layout === 'months'
      ? splitPeriod(base, 'month')
      : layout === 'quarters'
        ? splitPeriod(base, 'quarter')
        : layout === 'prior_period'
          ? [base, priorPeriod(base)]
          : layout === 'prior_year'
            ? [base, samePeriodLastYear(base)]
            : layout === 'prior_ytd'
              ? [yearToDate(base.end), samePeriodLastYear(yearToDate(base.end))]
              : [base];
  return periods.map((p) => (kind === 'balance_sheet' ? { date: p.end } : { start: p.start, end: p.end }));
}

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

async function insertAndWait(h: PaneHarness): Promise<string> {
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  const done = await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  return done.textContent ?? '';
}

// Each statement in each layout, with the period that makes the layout meaningful and a mix of units.
const CASES: { layout: Layout; period: NamedPeriodKey; scale: 'Units' | 'Thousands' | 'Millions'; columns: number }[] = [
  { layout: 'single', period: 'last_month', scale: 'Units', columns: 1 },
  { layout: 'months', period: 'last_quarter', scale: 'Thousands', columns: 3 },
  { layout: 'quarters', period: 'last_year', scale: 'Thousands', columns: 4 },
  { layout: 'prior_period', period: 'last_quarter', scale: 'Millions', columns: 2 },
  { layout: 'prior_year', period: 'last_quarter', scale: 'Units', columns: 2 },
  { layout: 'prior_ytd', period: 'last_month', scale: 'Thousands', columns: 2 },
];

describe.each(Object.keys(STATEMENT_LABEL) as Kind[])('Reports: %s', (kind) => {
  test('inserted in every layout on new sheets; numbers equal the API, text stays text; a binding per block', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await choose(h, 'Statement', STATEMENT_LABEL[kind]);
    for (const c of CASES) {
      await choose(h, 'Period', PERIOD_LABEL[c.period]);
      await choose(h, 'Layout', LAYOUT_LABEL[c.layout]);
      await choose(h, 'Units', c.scale);
      // The cost is shown before anything is spent.
      await waitFor(() => expect(screen.getByText(/^Costs \d+ calls? \(\d+ cached\)/)).toBeTruthy());
      const costLine = screen.getByText(/^Costs \d+ calls? \(\d+ cached\)/).textContent!;
      const [, calls, cached] = /^Costs (\d+) calls? \((\d+) cached\)/.exec(costLine)!.map(Number);
      // Periods of several months the cached months decide are derived from them (reader/derive.ts).
      const derived = Number(/, and (\d+) from the monthly statements at no call/.exec(costLine)?.[1] ?? 0);
      expect(calls + cached + derived).toBe(c.columns);
      const before = await sb.usage(sb.companies['growth-admin']);
      const message = await insertAndWait(h);
      // The same block again costs nothing.
      await waitFor(() => expect(screen.getByText(`Costs 0 calls (${c.columns} cached)`)).toBeTruthy());
      expect(await sb.usage(sb.companies['growth-admin'])).toBe(before + calls);
      expect(message).toContain(`Spent ${calls} call`);

      const bindings = await h.gateway.listBindings();
      const binding = bindings.find((b) => message.includes(b.address))!;
      expect(binding).toBeDefined();
      expect(binding).toMatchObject({ kind: 'statement', company: sb.companies['growth-admin'] });
      expect(binding.parameters).toMatchObject({ statement: kind, layout: c.layout, scale: c.scale.toLowerCase(), period: c.period });
      // Issue 15: a comparison gets its Variance columns unless they are turned off (checked against the API below).
      expect(binding.parameters.variance === true).toBe(COMPARISONS.includes(c.layout));
      expect(Date.now() - Date.parse(binding.refreshedAt)).toBeLessThan(60_000);
      await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, binding, expectedColumns(kind, c.layout, c.period));
    }
    expect((await h.gateway.listBindings()).length).toBe(CASES.length);
    h.unmount();
  });
});

describe('Reports: where, custom periods, progress and failures', () => {
  test('at the selected cell, with a custom period from two date fields', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    act(() => h.gateway.select('Sheet1', 'C5'));
    await choose(h, 'Period', 'Custom');
    await h.user.type(screen.getByLabelText('Start date'), '2025-01-01');
    await h.user.type(screen.getByLabelText('End date'), '2025-06-30');
    await choose(h, 'Layout', 'Months side by side');
    await h.user.click(screen.getByRole('radio', { name: 'Selected cell' }));
    expect(await screen.findByText('Costs 6 calls (0 cached)')).toBeTruthy();
    const message = await insertAndWait(h);
    await screen.findByText('Costs 0 calls (6 cached)');
    expect(message).toContain('Sheet1!C5:');
    const [binding] = await h.gateway.listBindings();
    expect(binding.address.startsWith('Sheet1!C5:')).toBe(true);
    expect(binding.parameters).toMatchObject({ period: 'custom', start: '2025-01-01', end: '2025-06-30' });
    const columns = ['01', '02', '03', '04', '05', '06'].map((m) => ({ start: `2025-${m}-01`, end: `2025-${m}-${new Date(Date.UTC(2025, Number(m), 0)).getUTCDate()}` }));
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, binding, columns);
    expect(blockAt(h.gateway, binding.address).cell(6, 1).value).toBe('Jan 2025');
    h.unmount();
  });

  test('a custom period with the end before the start is refused in place, nothing to insert', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await choose(h, 'Period', 'Custom');
    await h.user.type(screen.getByLabelText('Start date'), '2025-06-01');
    await h.user.type(screen.getByLabelText('End date'), '2025-01-31');
    expect(await screen.findByText(/is after the end/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement).disabled).toBe(true);
    h.unmount();
  });

  test('a determinate progress bar while the periods are fetched', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await choose(h, 'Period', 'Last year');
    await choose(h, 'Layout', 'Months side by side');
    await sb.control('control', { latency_ms: 150 });
    try {
      await h.user.click(screen.getByRole('button', { name: 'Insert' }));
      const bar = await screen.findByRole('progressbar');
      expect(bar.getAttribute('aria-valuemax')).toBe('12');
      await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
      await screen.findByText('Costs 0 calls (12 cached)');
      expect(screen.queryByRole('progressbar')).toBeNull();
    } finally {
      await sb.control('control', { latency_ms: 0 });
    }
    h.unmount();
  });

  // Issue 13, item 2: Insert spent the 9 calls left, inserted nothing, then said the limit was reached.
  test('a block that costs more than is left is not started; the leading months that fit are offered and inserted', async () => {
    // The month starts afresh for each test of the Formation company (the sandbox is shared by the file).
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 0 });
    const h = renderPane(sb);
    await connected(h, sb, 'formation-admin', 'formation');
    await choose(h, 'Period', 'Last year');
    await choose(h, 'Layout', 'Months side by side');
    // 1 call spent connecting; 12 needed, 9 left.
    const status = await screen.findByText(/^Costs 12 calls \(0 cached\)/);
    expect(status.textContent).toMatch(
      /This block costs 12 calls and only 9 calls are left this month on the Formation plan, so it is not started: it would stop part way\. The limit resets on \d{4}-\d{2}-01 at 00:00 Pacific Time\./,
    );
    const insertButton = screen.getByRole('button', { name: 'Insert' });
    expect(insertButton.getAttribute('aria-disabled')).toBe('true');
    await h.user.click(insertButton);
    expect(await sb.usage(sb.companies['formation-admin'])).toBe(1);

    await h.user.click(screen.getByRole('button', { name: 'Insert the first 9 months (9 calls)' }));
    expect((await screen.findByText(/^Inserted the income statement/, {}, { timeout: 30000 })).textContent).toMatch(/Spent 9 calls\.$/);
    expect(await sb.usage(sb.companies['formation-admin'])).toBe(10);
    const [binding] = await h.gateway.listBindings();
    const year = Number(String(binding.parameters.start).slice(0, 4));
    expect([binding.parameters.start, binding.parameters.end]).toEqual([`${year}-01-01`, `${year}-09-30`]);
    h.unmount();
  });

  test('the cap reached by another tool during an insert: the message names the cap and the reset date, nothing is written, what was fetched is kept', async () => {
    // The month starts afresh for each test of the Formation company (the sandbox is shared by the file).
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 0 });
    const h = renderPane(sb);
    await connected(h, sb, 'formation-admin', 'formation');
    await choose(h, 'Period', 'Last quarter');
    await choose(h, 'Layout', 'Months side by side');
    await screen.findByText(/^Costs 3 calls \(0 cached\)/);
    // Another tool spends 7 of the month's calls: 2 are left, which this add-in cannot know.
    await sb.control('usage', { company_id: sb.companies['formation-admin'], count: 8 });
    await h.user.click(screen.getByRole('button', { name: 'Insert' }));
    const text = await errorText();
    expect(text).toMatch(/Monthly API limit reached/);
    expect(text).toMatch(/10 API calls/);
    expect(text).toMatch(/resets on \d{4}-\d{2}-01 at 00:00 Pacific Time/);
    // What was fetched before the cap stays cached and says so: trying again after the reset costs only the rest.
    expect(screen.getByText('2 periods fetched before the limit are kept: inserting this block again costs only the rest.')).toBeTruthy();
    expect(await screen.findByText(/^Costs 1 call \(2 cached\)/)).toBeTruthy();
    expect(await h.gateway.listBindings()).toEqual([]);
    expect(h.gateway.sheetNames()).toEqual(['Sheet1']);
    expect(await sb.usage(sb.companies['formation-admin'])).toBe(10);
    h.unmount();
  });

  test('a key revoked after connecting: the next insert says so', async () => {
    const h = renderPane(sb);
    await connected(h, sb, 'startup-admin', 'startup');
    await sb.control('members', { key: sb.keys['startup-admin'], permissions: { api_access: 'none' } });
    await h.user.click(screen.getByRole('button', { name: 'Insert' }));
    const text = await errorText();
    expect(text).toMatch(/API key not accepted/);
    expect(text).toMatch(/revoked or mistyped/);
    h.unmount();
  });

  test('a permission removed after connecting: the message names it', async () => {
    const h = renderPane(sb);
    await connected(h, sb, 'growth-readonly');
    await sb.control('members', { key: sb.keys['growth-readonly'], permissions: { reports: 'none' } });
    await h.user.click(screen.getByRole('button', { name: 'Insert' }));
    const text = await errorText();
    expect(text).toMatch(/Permission missing/);
    expect(text).toMatch(/Reports: View/);
    h.unmount();
  });

  // Issue 13, item 9: months side by side had no total; a copy was "P&L FY2025 (2)"; the stamp was UTC ISO.
  test('months side by side with a Total column: no extra call, the copy named by what differs, the time in the user zone', async () => {
    const h = renderPane(sb, { timeZone: 'America/New_York' });
    await connected(h, sb);
    await choose(h, 'Period', 'Last quarter');
    await choose(h, 'Layout', 'One period');
    expect(screen.queryByRole('checkbox', { name: /Total column/ })).toBeNull();
    await choose(h, 'Layout', 'Months side by side');
    await insertAndWait(h);
    await screen.findByText('Costs 0 calls (3 cached)');

    // The same months with a total: offered for periods side by side, and free (the months are cached).
    await h.user.click(screen.getByRole('checkbox', { name: 'Add a Total column (no extra call)' }));
    await screen.findByText('Costs 0 calls (3 cached)');
    const before = await sb.usage(sb.companies['growth-admin']);
    const message = await insertAndWait(h);
    expect(message).toContain('Spent 0 calls.');
    expect(await sb.usage(sb.companies['growth-admin'])).toBe(before);

    const [plain, totalled] = await h.gateway.listBindings();
    const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
    const label = periodLabel(quarter.start, quarter.end);
    expect(plain.address.startsWith(`'P&L ${label}'!`)).toBe(true);
    expect(totalled.address.startsWith(`'P&L ${label} (total)'!`)).toBe(true);
    expect(totalled.parameters).toMatchObject({ layout: 'months', total: true });
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, totalled, [
      ...expectedColumns('income_statement', 'months', 'last_quarter'),
      // The Total column: the same figures as the API's report for the whole quarter.
      { start: quarter.start, end: quarter.end },
    ]);
    const block = blockAt(h.gateway, totalled.address);
    expect(block.cell(6, 4).value).toBe('Total');
    // Refreshed in the user's zone, named.
    expect(String(block.cell(3, 0).value)).toMatch(/^Refreshed \d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T$/);
    h.unmount();
  });
});

// Issue 15, item 3: comparative layouts with variance columns.
describe('Reports: against the prior year to date, with Variance columns', () => {
  test('favourable positive on revenue and expense lines, checked against the API two reports; no call beyond the two periods', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await choose(h, 'Period', 'Last month');
    await choose(h, 'Layout', 'Months side by side');
    expect(screen.queryByRole('checkbox', { name: /Variance/ })).toBeNull();
    await choose(h, 'Layout', 'Against the prior year to date');
    const today = calendarDateAt(Date.now());
    const ytd = yearToDate(namedPeriod('last_month', { today }).end);
    const prior = samePeriodLastYear(ytd);
    // The spans compared are said before anything is spent.
    expect(await screen.findByText(`${ytd.start} to ${ytd.end} against ${prior.start} to ${prior.end}`)).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: 'Add Variance and Variance % columns, favourable positive (no extra call)' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    const costLine = (await screen.findByText(/^Costs \d+ calls? \(\d+ cached\)/)).textContent!;
    const [, calls, cached] = /^Costs (\d+) calls? \((\d+) cached\)/.exec(costLine)!.map(Number);
    const derived = Number(/, and (\d+) from the monthly statements at no call/.exec(costLine)?.[1] ?? 0);
    expect(calls + cached + derived).toBe(2);
    const before = await sb.usage(sb.companies['growth-admin']);
    const message = await insertAndWait(h);
    expect(message).toContain(`Spent ${calls} call`);
    expect(await sb.usage(sb.companies['growth-admin'])).toBe(before + calls);

    const [binding] = await h.gateway.listBindings();
    expect(binding.parameters).toMatchObject({ layout: 'prior_ytd', variance: true, start: namedPeriod('last_month', { today }).start });
    expect(binding.parameters.columnPeriods).toEqual([{ start: ytd.start, end: ytd.end }, { start: prior.start, end: prior.end }, null, null]);
    // Key figures (revenue, expenses, operating and net income) and every revenue line, variance included.
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, binding, [ytd, prior].map((p) => ({ start: p.start, end: p.end })));

    // Every expense line too: a cost that grew is unfavourable (negative), one that shrank favourable.
    const [actualReport, priorReport] = await Promise.all(
      [ytd, prior].map((p) => apiReport(sb, 'growth-admin', '/reports/income_statement', { start_date: p.start, end_date: p.end })),
    );
    const block = blockAt(h.gateway, binding.address);
    expect([block.cell(6, 3).value, block.cell(6, 4).value]).toEqual(VARIANCE_HEADERS);
    // Headed by the years to date, not their months' range.
    expect([block.cell(6, 1).value, block.cell(6, 2).value]).toEqual([`YTD ${periodLabel(startOfMonth(ytd.end), ytd.end)}`, `YTD ${periodLabel(startOfMonth(prior.end), prior.end)}`]);
    const expenses = { key: 'expenses', field: 'amount_cents' };
    const top = block.rowOf('Expenses');
    const names = (actualReport.expenses.categories as any[]).map((l) => l.name);
    const seen = { grew: 0, shrank: 0 };
    for (const line of actualReport.expenses.categories as any[]) {
      if (names.filter((n) => n === line.name).length > 1) continue;
      const r = block.rowOf(line.name, top + 1);
      const a = line.amount_cents as number;
      const b = lineCents(priorReport, expenses, line.category_id);
      expectVariance(block, r, a, b, 1, 1);
      if (a < b) {
        expect(block.cell(r, 3).value as number).toBeLessThan(0);
        seen.grew += 1;
      } else if (a > b) {
        expect(block.cell(r, 3).value as number).toBeGreaterThan(0);
        seen.shrank += 1;
      }
    }
    expect(seen.grew + seen.shrank).toBeGreaterThan(0);
    h.unmount();
  });

  test('turned off, the same comparison is its two periods only, from the cache, on a sheet named for the difference', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await choose(h, 'Period', 'Last quarter');
    await choose(h, 'Layout', 'Against the prior period');
    await insertAndWait(h);
    await h.user.click(screen.getByRole('checkbox', { name: /Add Variance and Variance % columns/ }));
    await screen.findByText('Costs 0 calls (2 cached)');
    expect(await insertAndWait(h)).toContain('Spent 0 calls.');
    const [withVariance, without] = await h.gateway.listBindings();
    expect(withVariance.parameters.variance).toBe(true);
    expect(without.parameters).not.toHaveProperty('variance');
    expect(without.address).toMatch(/\(no variance\)'!/);
    const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
    await expectBlockMatchesApi(sb, 'growth-admin', h.gateway, without, [quarter, priorPeriod(quarter)].map((p) => ({ start: p.start, end: p.end })));
    h.unmount();
  });
});
