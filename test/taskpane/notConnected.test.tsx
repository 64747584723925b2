/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Right after Connect, the pane says what became of the FIN formulas that showed "Not connected" (issue
// 13.5): a few were recalculated at once and it says what that spent; more wait for the button, with what
// they may cost, or for Not now. The host's recalculation stands in for Excel: it evaluates again the cells
// that show an error, after calculate() has returned.
import { connected, renderPane, screen, startSandbox, waitFor, type PaneHarness, type TestSandbox } from './harness';
import { evaluateFin, type RuntimeHost } from '../../src/runtime';
import { lastFullYear, monthsOf } from '../engine/fin/finHarness';

let sb: TestSandbox;
let company: string;
const months = monthsOf(lastFullYear()).map((p) => p.start.slice(0, 7));

beforeAll(async () => {
  sb = await startSandbox();
  company = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb?.close();
});

/** FIN.PNL cells and what each shows. */
function workbook(lines: string[], periods: string[]) {
  const cells = lines.flatMap((line) => periods.map((start) => ({ line, start, shows: undefined as undefined | { value: number } | { error: string } })));
  const evaluate = (cell: (typeof cells)[number]) =>
    evaluateFin<number>({ name: 'PNL', args: [cell.line, cell.start, null] }, {}).then(
      (value) => {
        cell.shows = { value };
      },
      (error: Error) => {
        cell.shows = { error: error.message };
      },
    );
  const recalculate: RuntimeHost['recalculate'] = async (options = {}) => {
    const picked = cells.filter((c) => !options.errorsOnly || (c.shows && 'error' in c.shows));
    setTimeout(() => picked.forEach((c) => void evaluate(c)), 20);
    return { evaluations: picked.length };
  };
  return {
    cells,
    recalculate,
    evaluateAll: () => Promise.all(cells.map(evaluate)),
    showing: (what: 'value' | 'error') => cells.filter((c) => c.shows && what in c.shows).length,
  };
}

async function typedBeforeConnecting(lines: string[], periods: string[]): Promise<{ h: PaneHarness; book: ReturnType<typeof workbook> }> {
  const book = workbook(lines, periods);
  const h = renderPane(sb, { recalculate: book.recalculate });
  // The pane settles on Not connected (its connect form) before the cells are evaluated, not while they are.
  await screen.findByLabelText('API key');
  await book.evaluateAll();
  expect(book.cells.every((c) => c.shows && 'error' in c.shows && /^Not connected/.test(c.shows.error))).toBe(true);
  return { h, book };
}

describe('formulas that showed Not connected, right after Connect', () => {
  it('many: the pane asks first, with what they may cost; the button spends it and says so', async () => {
    const { h, book } = await typedBeforeConnecting(['Rent', 'Advertising'], months);
    const usage = await sb.usage(company);
    await connected(h, sb);
    await screen.findByText('24 formulas showed Not connected.');
    const button = screen.getByRole('button', { name: 'Recalculate them (up to 13 calls)' });
    expect(screen.getByRole('button', { name: 'Not now' })).toBeTruthy();
    // Only the GET /company that validated the key so far.
    expect((await sb.usage(company)) - usage).toBe(1);
    expect(book.showing('error')).toBe(24);

    await h.user.click(button);
    // The button goes with the question: focus stays on the notice, which says what is happening.
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Formulas that showed Not connected' }));
    await screen.findByText('Recalculated 24 formulas that showed Not connected, spending 13 calls', undefined, { timeout: 15000 });
    expect(book.showing('value')).toBe(24);
    expect((await sb.usage(company)) - usage).toBe(1 + 13);
    await h.user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/showed Not connected/)).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Insert a statement'));
    h.unmount();
  });

  it('a few: recalculated at once, and the pane says what that spent', async () => {
    const { h, book } = await typedBeforeConnecting(['Rent', 'Travel'], [months[9]]);
    const usage = await sb.usage(company);
    await connected(h, sb);
    await screen.findByText('Recalculated 2 formulas that showed Not connected, spending 2 calls', undefined, { timeout: 15000 });
    expect(screen.queryByRole('button', { name: /Recalculate/ })).toBeNull();
    expect(book.showing('value')).toBe(2);
    expect((await sb.usage(company)) - usage).toBe(1 + 2);
    h.unmount();
  });

  it('Not now: nothing spent, the question goes, the cells keep waiting for Refresh all', async () => {
    const { h, book } = await typedBeforeConnecting(['Travel'], months);
    const usage = await sb.usage(company);
    await connected(h, sb);
    await screen.findByText('12 formulas showed Not connected.');
    await h.user.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByText(/showed Not connected/)).toBeNull());
    expect(h.recalculations()).toBe(0);
    expect((await sb.usage(company)) - usage).toBe(1);
    expect(book.showing('error')).toBe(12);
    h.unmount();
  });

  it('nothing showed Not connected: nothing is said', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    expect(screen.queryByText(/showed Not connected/)).toBeNull();
    expect(h.recalculations()).toBe(0);
    h.unmount();
  });
});
