// FIN cells at the scale of a real model (issue 17), through the wiring that ships: the custom-function
// wrappers of src/functions/functions.ts on the page's shared runtime, against the sandbox. The model
// (test/support/finModel.ts) holds 10,000 FIN.PNL, 2,000 FIN.TOTAL and 500 FIN.BALANCE cells; the value
// every cell must show is worked out from the API's own figures with a plain client, without the engine's
// FIN code. Timings are the bench's (bench/finCells.ts); this holds the calls and the values.
//
// Excel hands a recalculation over as one batch: every cell's function is called in one go and each cell
// shows its value when its promise settles. Every one of the 12,500 must settle, with its own value.
import * as fin from '../../../src/functions/functions';
import { configureRuntime } from '../../../src/runtime/shared';
import { cellInvocation } from '../../support/customFunctions';
import { defineFinModel, expectedValues, MODEL_SIZE, type FinModel, type ModelCell } from '../../support/finModel';
import { pageRuntime, testRuntime, type PageRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { lastFullYear } from './finHarness';

let sb: TestSandbox;
let company: string;
let model: FinModel;
let expected: number[];
let page: PageRuntime;

beforeAll(async () => {
  sb = await startSandbox();
  company = sb.companies['growth-admin'];
  const setup = await testRuntime(sb);
  model = await defineFinModel(setup.client, lastFullYear());
  expected = await expectedValues(setup.client, model);
  page = await pageRuntime(sb);
});
afterAll(async () => {
  configureRuntime(null);
  await sb.close();
});

type Shown = number | string;

function call(cell: ModelCell): Promise<number> {
  const a = cell.args as never[];
  const invocation = cellInvocation();
  if (cell.fn === 'pnl') return fin.pnl(a[0], a[1], a[2], undefined, undefined, invocation);
  if (cell.fn === 'total') return fin.total(a[0], a[1], a[2], a[3], undefined, undefined, invocation);
  return fin.balance(a[0], a[1], undefined, invocation);
}

/** What a cell shows: its number, or its error as "code message". */
const shown = (p: Promise<number>): Promise<Shown> => p.catch((e: { code?: string; message?: string }) => `${e.code} ${e.message}`);

/** Excel's batch: every cell called in one synchronous loop. */
function allAtOnce(): Promise<Shown[]> {
  const settled: Promise<Shown>[] = [];
  for (const cell of model.cells) settled.push(shown(call(cell)));
  return Promise.all(settled);
}

async function oneAtATime(): Promise<Shown[]> {
  const values: Shown[] = [];
  for (const cell of model.cells) values.push(await shown(call(cell)));
  return values;
}

/** The cells whose value differs from the API's figure, as "index: shown != expected" (at most 5). */
function differences(values: Shown[]): string[] {
  const out: string[] = [];
  values.forEach((v, i) => {
    if (v !== expected[i] && out.length < 5) out.push(`${i} ${JSON.stringify(model.cells[i].args)}: ${String(v)} != ${expected[i]}`);
  });
  return out;
}

test('the model holds 12,500 cells over 125 distinct requests', () => {
  expect(model.cells).toHaveLength(MODEL_SIZE.pnl + MODEL_SIZE.total + MODEL_SIZE.balance);
  expect(model.floorParts).toEqual({ 'categories list': 1, 'income statements': 12, 'balance sheets': 12, 'category totals': 100 });
  expect(model.floor).toBe(125);
  // Not a model of zeros: most cells have a figure to get right.
  expect(expected.filter((v) => v !== 0).length).toBeGreaterThan(model.cells.length / 2);
});

/**
 * The calls of a cold recalculation: one per distinct request, but the category totals without a merchant,
 * which the monthly income statements the FIN.PNL cells read decide (src/engine/reader/derive.ts).
 */
const derivable = () => [...model.totals.values()].filter((t) => !t.merchant).length;

test('a cold recalculation of the whole model: every cell settles with the API figure, one call per distinct request not derived from the monthly statements', async () => {
  const before = await sb.usage(company);
  const values = await allAtOnce();
  expect(values).toHaveLength(model.cells.length);
  expect(differences(values)).toEqual([]);
  expect(derivable()).toBe(80);
  expect((await sb.usage(company)) - before).toBe(model.floor - derivable());
  expect(page.sent()).toBe(model.floor - derivable());
});

test('recalculating again, all at once and one cell at a time: the same values, no call', async () => {
  const before = await sb.usage(company);
  expect(differences(await allAtOnce())).toEqual([]);
  expect(differences(await allAtOnce())).toEqual([]);
  expect(differences(await oneAtATime())).toEqual([]);
  expect((await sb.usage(company)) - before).toBe(0);
  expect(page.sent()).toBe(model.floor - derivable());
});
