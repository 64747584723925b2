// FIN cells evaluated before connecting show "Not connected"; connecting recalculates them (issue 13.5),
// spending only what they need, and asks first when that is more than a few calls. The runtime is the one
// the add-in ships (createRuntime), its host a small stand-in for Excel: a sheet of FIN cells, each showing
// its last answer or error, whose recalculation (Refresh all's "recalculate") evaluates again the cells it
// picks, after calculate() has returned, as Excel does.
import { MemoryMeterStore } from '../../src/api';
import { AUTOMATIC_RECALCULATION_CALLS, type FinCall, type RecalculateOptions } from '../../src/engine/fin';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { createRuntime, type Runtime } from '../../src/runtime/runtime';
import { lastFullYear, monthsOf } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';

let sb: TestSandbox;
let company: string;
const year = lastFullYear();
const months = monthsOf(year).map((p) => p.start.slice(0, 7));

beforeAll(async () => {
  sb = await startSandbox();
  company = sb.companies['growth-admin'];
});
afterAll(async () => {
  await sb.close();
});

/** A FIN cell: what it calls, and what it shows. */
interface Cell {
  call: FinCall;
  shows?: { value: number } | { error: { code?: string; message: string } };
}

const pnl = (line: string, start: string): Cell => ({ call: { name: 'PNL', args: [line, start, null] } });

interface Sheet {
  runtime: Runtime;
  cells: Cell[];
  /** Every cell evaluated once (typing them, or opening the workbook), settled. */
  evaluateAll(): Promise<void>;
  /** What each host recalculation was asked for. */
  recalculations: RecalculateOptions[];
  sent(): number;
}

function sheet(cells: Cell[]): Sheet {
  let sent = 0;
  const recalculations: RecalculateOptions[] = [];
  const evaluate = (cell: Cell): Promise<void> =>
    runtime.evaluateFin<number>(cell.call, {}).then(
      (value) => {
        cell.shows = { value };
      },
      (error: { code?: string; message: string }) => {
        cell.shows = { error };
      },
    );
  const runtime: Runtime = createRuntime({
    cacheStore: new MemoryCacheStore(),
    meterStore: new MemoryMeterStore(),
    secrets: new MemorySecretStore(),
    dateSystem: async () => 1900,
    // Excel: calculate() returns, then the picked cells are handed over; the host counts their FIN calls.
    recalculate: async (options = {}) => {
      recalculations.push(options);
      const picked = cells.filter((c) => !options.errorsOnly || (c.shows !== undefined && 'error' in c.shows));
      setTimeout(() => picked.forEach((c) => void evaluate(c)), 20);
      return { evaluations: picked.length };
    },
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
    clientOptions: { backoffBaseMs: 10, backoffCapMs: 50 },
  });
  return {
    runtime,
    cells,
    recalculations,
    sent: () => sent,
    evaluateAll: async () => {
      await Promise.all(cells.map(evaluate));
    },
  };
}

const connect = (runtime: Runtime) => runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: company });

const notConnectedCells = (s: Sheet) => s.cells.filter((c) => c.shows && 'error' in c.shows && c.shows.error.code === 'not_connected').length;
const valueCells = (s: Sheet) => s.cells.filter((c) => c.shows && 'value' in c.shows).length;

describe('formulas that showed Not connected, on connecting', () => {
  it('a few: recalculated at once, each fetching only what it needs, and the outcome says what it spent', async () => {
    // Two lines of July and one of August: the category list and two income statements.
    const s = sheet([pnl('Rent', months[6]), pnl('Travel', months[6]), pnl('Rent', months[7])]);
    await s.evaluateAll();
    expect(notConnectedCells(s)).toBe(3);
    expect(s.sent()).toBe(0);
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'none' });

    const usage = await sb.usage(company);
    await connect(s.runtime);
    // At most: the category list once, and the statement of each of the cells' periods.
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'recalculating', formulas: 3, calls: 3 });
    const done = await s.runtime.recalculateNotConnected();
    expect(done).toEqual({ status: 'done', formulas: 3, spent: 3, failed: false, message: 'Recalculated 3 formulas that showed Not connected, spending 3 calls' });
    expect(valueCells(s)).toBe(3);
    expect((await sb.usage(company)) - usage).toBe(3);
    expect(s.sent()).toBe(3);
    // Only the cells showing an error were asked for: one showing a figure may have no answer cached here.
    expect(s.recalculations).toEqual([{ errorsOnly: true }]);

    // The same figures as a fresh evaluation, which costs nothing now; and nothing more is pending.
    const again = await Promise.all(s.cells.map((c) => s.runtime.evaluateFin<number>(c.call, {})));
    expect(again).toEqual(s.cells.map((c) => (c.shows as { value: number }).value));
    expect(s.sent()).toBe(3);
    s.runtime.dismissNotConnected();
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'none' });
  });

  it('answers already cached cost nothing: a reconnect with the same key recalculates for free', async () => {
    const s = sheet([pnl('Rent', months[2]), pnl('Travel', months[2])]);
    await connect(s.runtime);
    await s.evaluateAll();
    expect(valueCells(s)).toBe(2);
    const sent = s.sent();
    await s.runtime.disconnect();
    await s.evaluateAll();
    expect(notConnectedCells(s)).toBe(2);
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toMatchObject({ status: 'recalculating', calls: 0 });
    expect(await s.runtime.recalculateNotConnected()).toMatchObject({ status: 'done', spent: 0, failed: false });
    expect(valueCells(s)).toBe(2);
    expect(s.sent()).toBe(sent);
  });

  it('many: nothing is spent until the user says so, then exactly what the estimate said', async () => {
    // Two lines for each month of the year: 12 income statements and the category list.
    const s = sheet(months.flatMap((m) => [pnl('Rent', m), pnl('Advertising', m)]));
    await s.evaluateAll();
    const usage = await sb.usage(company);
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'asking', formulas: 24, calls: 13 });
    expect(13).toBeGreaterThan(AUTOMATIC_RECALCULATION_CALLS);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.sent()).toBe(0);
    expect(s.recalculations).toEqual([]);
    expect(notConnectedCells(s)).toBe(24);

    const done = await s.runtime.recalculateNotConnected();
    expect(done).toMatchObject({ status: 'done', formulas: 24, spent: 13, failed: false });
    expect(valueCells(s)).toBe(24);
    expect((await sb.usage(company)) - usage).toBe(13);
    expect(s.sent()).toBe(13);
  });

  it('"Not now" spends nothing and forgets them; they are not asked about again', async () => {
    const s = sheet(months.map((m) => pnl('Rent', m)));
    await s.evaluateAll();
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toMatchObject({ status: 'asking', formulas: 12 });
    s.runtime.dismissNotConnected();
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'none' });
    await s.runtime.disconnect();
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'none' });
    expect(s.sent()).toBe(0);
    expect(notConnectedCells(s)).toBe(12);
  });

  it('a disconnect while asking: asked again at the next connect', async () => {
    const s = sheet(months.map((m) => pnl('Travel', m)));
    await s.evaluateAll();
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toMatchObject({ status: 'asking', formulas: 12 });
    await s.runtime.disconnect();
    expect(s.runtime.notConnectedFormulas()).toEqual({ status: 'none' });
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toMatchObject({ status: 'asking', formulas: 12 });
    expect(s.sent()).toBe(0);
  });

  it('each typed again and answered while asking: the go-ahead spends nothing and the question goes', async () => {
    const s = sheet(months.map((m) => pnl('Rent', m)));
    await s.evaluateAll();
    await connect(s.runtime);
    expect(s.runtime.notConnectedFormulas()).toMatchObject({ status: 'asking', formulas: 12, calls: 13 });
    await s.evaluateAll();
    expect(valueCells(s)).toBe(12);
    const sent = s.sent();
    expect(await s.runtime.recalculateNotConnected()).toEqual({ status: 'none' });
    expect(s.recalculations).toEqual([]);
    expect(s.sent()).toBe(sent);
  });

  it('a recalculation the API fails says so, and the cells keep the reason', async () => {
    const s = sheet([pnl('Rent', months[4]), pnl('Rent', months[5])]);
    await s.evaluateAll();
    await sb.control('control', { faults: [{ kind: 'error500', count: 10_000, path: '/reports/' }] });
    try {
      await connect(s.runtime);
      const done = await s.runtime.recalculateNotConnected();
      expect(done).toMatchObject({ status: 'done', formulas: 2, failed: true });
      expect(done.status === 'done' && done.message).toMatch(/^Recalculated 2 formulas that showed Not connected, spending \d+ calls; 2 formulas could not get their figures: The API/);
      expect(s.cells.every((c) => c.shows && 'error' in c.shows && c.shows.error.code !== 'not_connected')).toBe(true);
    } finally {
      await sb.control('control', { clear_faults: true });
    }
  });

  it('the monthly cap stops it: the outcome says so, and the cell shows the cap', async () => {
    const formation = sb.companies['formation-admin'];
    const s = sheet([pnl('Rent', months[1])]);
    await s.evaluateAll();
    await sb.control('usage', { company_id: formation, count: 10 });
    await s.runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['formation-admin'], companyId: formation });
    const done = await s.runtime.recalculateNotConnected();
    expect(done).toMatchObject({ status: 'done', formulas: 1, failed: true });
    expect(done.status === 'done' && done.message).toMatch(/^The formulas that showed Not connected were not recalculated: Monthly API limit of 10 calls reached; resets \d{4}-\d{2}-01 \(Pacific time\)$/);
    expect(s.cells[0].shows).toMatchObject({ error: { code: 'monthly_limit' } });
    expect(await sb.usage(formation)).toBe(10);
  });
});
