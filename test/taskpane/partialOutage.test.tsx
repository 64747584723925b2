/** @jest-environment ./test/support/jsdom-with-fetch.js */
// A partial outage stops only what fails (issue 25, item 7): with only the income statement endpoint
// answering 500, a Full refresh of an income statement block, a balance sheet block and a FIN formula on
// each refreshes the balance sheet and its formula, marks only the income statement block as failed, spends
// a few calls on the failing endpoint (the sandbox's own count of them), and names that endpoint and what it
// answered, not the whole API.
import { addMonths, calendarDateAt, endOfMonth, namedPeriod } from '../../src/engine/dates';
import { evaluateFin, type RuntimeHost } from '../../src/runtime';
import { connected, openTab, renderPane, screen, startSandbox, waitFor, within, type PaneHarness, type TestSandbox } from './harness';
import { blockAt } from './sheet';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const FAILING = '/reports/income_statement';
/** More than any refresh here sends: what is left of it tells how many requests the fault answered. */
const FAULT_COUNT = 1000;

async function choose(h: PaneHarness, name: string, option: string): Promise<void> {
  await h.user.selectOptions(screen.getByRole('combobox', { name }), screen.getByRole('option', { name: option }));
}

async function insert(h: PaneHarness, statement: string, period: string, layout: string): Promise<void> {
  await choose(h, 'Statement', statement);
  await choose(h, 'Period', period);
  await choose(h, 'Layout', layout);
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  await screen.findByText(/^Costs 0 calls/);
}

/**
 * Two FIN cells, one on each report: revenue of the quarter's first month (a month of the block) and cash at
 * the end of the quarter before (a balance sheet the block does not read, so the block's own is asked for
 * after the income statement failed). What each shows, and the host's recalculation (it evaluates them again).
 */
function finCells(quarter: { start: string; end: string }) {
  const cells = [
    { name: 'PNL', args: ['Revenue', quarter.start.slice(0, 7), null], shows: undefined as undefined | { value: number } | { error: string } },
    { name: 'BALANCE', args: ['Cash', endOfMonth(addMonths(quarter.start, -1)), null], shows: undefined as undefined | { value: number } | { error: string } },
  ];
  const evaluate = (cell: (typeof cells)[number]) =>
    evaluateFin<number>({ name: cell.name, args: cell.args }, {}).then(
      (value) => {
        cell.shows = { value };
      },
      (error: Error) => {
        cell.shows = { error: error.message };
      },
    );
  let evaluating: Promise<unknown> = Promise.resolve();
  const recalculate: RuntimeHost['recalculate'] = async () => {
    evaluating = Promise.all(cells.map(evaluate));
    return { evaluations: cells.length };
  };
  return { cells, recalculate, evaluateAll: () => Promise.all(cells.map(evaluate)), settled: () => evaluating };
}

/** How many requests the fault on FAILING has answered so far (the sandbox counts each as a call). */
async function failingCalls(): Promise<number> {
  const state = (await sb.control('control', {})) as { faults: { path?: string; count: number }[] };
  return FAULT_COUNT - (state.faults.find((f) => f.path === FAILING)?.count ?? 0);
}

test('only the income statement endpoint fails: the balance sheet is refreshed, only the income statement block is marked, and the endpoint is named', async () => {
  const quarter = namedPeriod('last_quarter', { today: calendarDateAt(Date.now()) });
  const fin = finCells(quarter);
  const h = renderPane(sb, { recalculate: fin.recalculate });
  await connected(h, sb);
  await insert(h, 'Income statement', 'Last quarter', 'Months side by side');
  await insert(h, 'Balance sheet', 'Last quarter', 'One period');
  await fin.evaluateAll();
  const figures = fin.cells.map((c) => c.shows);
  expect(figures.every((s) => s && 'value' in s)).toBe(true);
  const bindings = await h.gateway.listBindings();
  const income = bindings.find((b) => b.parameters.statement === 'income_statement')!;
  const balance = bindings.find((b) => b.parameters.statement === 'balance_sheet')!;
  const incomeBefore = (await h.gateway.readRange(income.address)).values;

  await openTab(h, 'Refresh');
  await screen.findByRole('list', { name: 'Blocks' });
  await h.user.click(screen.getByRole('button', { name: 'Full refresh' }));
  await screen.findByText(/^This will spend (up to )?\d+ calls/);
  const company = sb.companies['growth-admin'];
  const usage0 = await sb.usage(company);
  await sb.control('control', { faults: [{ kind: 'error500', count: FAULT_COUNT, path: FAILING }] });
  let failing: number;
  try {
    await h.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText(/^Refreshed everything\./, {}, { timeout: 30000 });
    await fin.settled();
    failing = await failingCalls();
  } finally {
    await sb.control('control', { clear_faults: true });
  }
  const spent = (await sb.usage(company)) - usage0;
  console.log(`Full refresh with only ${FAILING} failing: ${failing} calls on it, ${spent} in all`);

  // The balance sheet block is rebuilt; only the income statement block is marked, its figures intact.
  const result = screen.getByText(/^Refreshed everything\./).textContent!;
  expect(result).toMatch(new RegExp(`^Refreshed everything\\. Rebuilt 1 block; 1 block not refreshed\\. Spent ${spent} calls\\. Recorded where \\d+ transactions post \\(40 calls\\), so Refresh changes can place what changes\\. Not refreshed, previous figures kept: Income statement, .* at ${income.address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`));
  const after = await h.gateway.listBindings();
  expect(after.find((b) => b.id === balance.id)!.parameters.lastFailure).toBeUndefined();
  expect(Date.parse(after.find((b) => b.id === balance.id)!.refreshedAt)).toBeGreaterThan(Date.parse(balance.refreshedAt));
  expect(String(blockAt(h.gateway, balance.address).cell(3, 0).value)).toMatch(/^Refreshed /);
  expect((after.find((b) => b.id === income.id)!.parameters.lastFailure as { message: string }).message).toMatch(/^The API's income statement endpoint answered 500 three times in a row \(each a counted call\); nothing more is asked of it for the next \d+ seconds$/);
  expect((await h.gateway.readRange(income.address)).values.filter((_, r) => r !== 3)).toEqual(incomeBefore.filter((_, r) => r !== 3));
  const items = within(screen.getByRole('list', { name: 'Blocks' })).getAllByRole('listitem');
  await waitFor(() => expect(items.filter((i) => i.textContent!.includes('Refresh failed')).map((i) => i.textContent!.slice(0, 16))).toEqual(['Income statement']));

  // Both FIN cells show their figures: the balance fetched again, the income statement's kept.
  expect(fin.cells.map((c) => c.shows)).toEqual(figures);

  // A few calls on the failing endpoint: the breaker of that endpoint opens at its third failure in a row
  // (the FIN cell's request and its two retries); the block's three months are then not sent.
  expect(failing).toBe(3);

  // The message names the endpoint and what it answered, not the whole API.
  const error = await screen.findByRole('group', { name: "Error: The API's income statement endpoint is failing" });
  expect(error.textContent).toMatch(/The API's income statement endpoint answered 500 three times in a row/);
  expect(screen.queryByText(/not answering/)).toBeNull();
  h.unmount();
});
