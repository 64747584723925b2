// FIN cells at the scale of a real model (issue 17): the model of test/support/finModel.ts (10,000 FIN.PNL,
// 2,000 FIN.TOTAL and 500 FIN.BALANCE cells) evaluated through the wiring that ships -- the custom-function
// wrappers of src/functions/functions.ts on the page's shared runtime (src/runtime/shared.ts) over memory
// stores -- against a fresh sandbox with 50 ms added per request, served from a worker thread (the sandbox
// stands for the remote API: its work is not the add-in's, and must not count in the main thread's figures).
//
// Excel hands a recalculation over as a batch of invocations: every cell's function is called in one go, and
// each answers when its promise settles. "All at once" does that (one synchronous loop of 12,500 calls);
// "one at a time" awaits each cell before calling the next.
//
// Figures: coldCalls (the sandbox's own counter) against the floor (distinct requests); coldMs and
// firstValueMs (from the start of a cold recalculation to all cells / the first cell settled);
// cachedUsPerCell (the median over warm recalculations of their time divided by the cells, all at once);
// longestTaskMs (the longest stretch the main thread ran without yielding, over the cold and the warm
// recalculations: see taskMonitor); handOver*Ms (Excel's loop alone, which the add-in cannot slice: the floor
// of longestTaskMs).
import * as fin from '../src/functions/functions';
import { configureRuntime } from '../src/runtime/shared';
import { calendarDateAt } from '../src/engine/dates';
import { cellInvocation } from '../test/support/customFunctions';
import { defineFinModel, type FinModel, type ModelCell } from '../test/support/finModel';
import { pageRuntime, testRuntime } from '../test/support/runtime';
import { LATENCY_MS } from './pack';
import { startSandboxThread, type ThreadSandbox } from './sandboxThread';
import { median } from './stats';

const WARM_RUNS = 7;
const SEQUENTIAL_RUNS = 3;

export interface FinCellsFigures {
  transactionsSeeded: number;
  latencyMs: number;
  year: number;
  cells: Record<string, number>;
  evaluations: number;
  floor: number;
  floorParts: Record<string, number>;
  coldCalls: number;
  coldSent: number;
  coldMs: number;
  firstValueMs: number;
  /** Calls of the warm recalculations (all of them): 0 expected. */
  recalcCalls: number;
  cachedUsPerCell: number;
  cachedRunsMs: number[];
  /** One cell at a time, cache warm: median over runs of time / cells. */
  sequentialUsPerCell: number;
  longestTaskMs: number;
  longestTaskColdMs: number;
  longestTaskWarmMs: number;
  /** The hand-over alone (Excel's loop calling every cell's function), cold and the longest warm one. */
  handOverColdMs: number;
  handOverWarmMs: number;
}

/**
 * Watches the main thread: the longest time between two turns of the event loop, seen by a callback that
 * asks for every turn (setImmediate). A 1 ms timer, as this was until 2026-11-24, merges two tasks into one
 * stretch: Node runs the immediates queued by a task before that turn's timers, so Excel's hand-over and the
 * add-in's first slice after it (a task of its own, after a yield) read as one. Browsers run input between
 * such tasks; this reads each task as its own stretch (everything a turn of the loop runs at most).
 */
function taskMonitor(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  let timer: ReturnType<typeof setImmediate>;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setImmediate(tick);
  };
  timer = setImmediate(tick);
  return {
    stop() {
      clearImmediate(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

type Invocation = CustomFunctions.Invocation;

/** The custom function a cell calls, with Excel's invocation object last. */
function call(cell: ModelCell, invocation: Invocation): Promise<number> {
  const a = cell.args as never[];
  if (cell.fn === 'pnl') return fin.pnl(a[0], a[1], a[2], undefined, undefined, invocation);
  if (cell.fn === 'total') return fin.total(a[0], a[1], a[2], a[3], undefined, undefined, invocation);
  return fin.balance(a[0], a[1], undefined, invocation);
}

interface Recalc {
  values: (number | string)[];
  ms: number;
  firstMs: number;
  /** Excel's loop over the cells alone: what no slicing of the add-in's can shorten. */
  handOverMs: number;
  longestTaskMs: number;
}

/** A cell's error as the bench compares it. */
const errorText = (e: { code?: string; message?: string }): string => `${e.code} ${e.message}`;

/**
 * Excel's batch: every cell called in one synchronous loop, each answer taken as it settles (a callback per
 * cell, as Excel's runtime has; no Promise.all, which Excel does not make); resolves when every one has.
 */
function allAtOnce(cells: ModelCell[], invocations: Invocation[]): Promise<Recalc> {
  return new Promise((done) => {
    const monitor = taskMonitor();
    const values: (number | string)[] = new Array<number | string>(cells.length);
    let left = cells.length;
    let firstMs = NaN;
    const t0 = performance.now();
    for (let i = 0; i < cells.length; i++) {
      const settle = (value: unknown): void => {
        values[i] = typeof value === 'number' ? value : errorText(value as { code?: string; message?: string });
        if (Number.isNaN(firstMs)) firstMs = performance.now() - t0;
        if (--left === 0) done({ values, ms: performance.now() - t0, firstMs, handOverMs, longestTaskMs: monitor.stop() });
      };
      call(cells[i], invocations[i]).then(settle, settle);
    }
    const handOverMs = performance.now() - t0;
  });
}

async function oneAtATime(cells: ModelCell[], invocations: Invocation[]): Promise<{ values: (number | string)[]; ms: number }> {
  const values: (number | string)[] = [];
  const t0 = performance.now();
  for (let i = 0; i < cells.length; i++) {
    values.push(await call(cells[i], invocations[i]).catch(errorText));
  }
  return { values, ms: performance.now() - t0 };
}

function sameValues(a: (number | string)[], b: (number | string)[], what: string): void {
  const i = a.findIndex((v, k) => v !== b[k]);
  if (i >= 0 || a.length !== b.length) throw new Error(`${what}: cell ${i} is ${String(b[i])}, was ${String(a[i])}`);
}

export async function finCellsBench(transactions = 20_000): Promise<FinCellsFigures> {
  const sb: ThreadSandbox = await startSandboxThread({ seed: 'fresh', transactions, latencyMs: LATENCY_MS });
  try {
    const year = Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
    const setup = await testRuntime(sb);
    const model: FinModel = await defineFinModel(setup.client, year);
    const company = sb.companies['growth-admin'];
    const cells = model.cells;
    // Each cell's address, as Excel gives it to the @requiresAddress functions: the runtime notes per cell what
    // it read (the refresh of a selection or a sheet needs it), and that is part of the hot path measured.
    const invocations = cells.map((_, i) => ({ ...cellInvocation(), address: `Model!B${i + 1}` }) as CustomFunctions.Invocation);

    // Cold: a new page runtime over empty stores, every cell at once.
    const page = await pageRuntime(sb);
    const before = await sb.usage(company);
    const cold = await allAtOnce(cells, invocations);
    const coldCalls = (await sb.usage(company)) - before;
    const coldSent = page.sent();
    const errors = cold.values.filter((v) => typeof v === 'string');
    if (errors.length) throw new Error(`${errors.length} cells failed, first: ${String(errors[0])}`);

    // Warm: the same recalculation again and again, then one cell at a time.
    const warm: Recalc[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const run = await allAtOnce(cells, invocations);
      sameValues(cold.values, run.values, 'warm recalculation');
      warm.push(run);
    }
    const sequentialMs: number[] = [];
    for (let i = 0; i < SEQUENTIAL_RUNS; i++) {
      const run = await oneAtATime(cells, invocations);
      sameValues(cold.values, run.values, 'one at a time');
      sequentialMs.push(run.ms);
    }
    const recalcCalls = (await sb.usage(company)) - before - coldCalls;

    const longestTaskWarmMs = Math.max(...warm.map((r) => r.longestTaskMs));
    return {
      transactionsSeeded: transactions,
      latencyMs: LATENCY_MS,
      year,
      cells: model.counts,
      evaluations: cells.length,
      floor: model.floor,
      floorParts: model.floorParts,
      coldCalls,
      coldSent,
      coldMs: cold.ms,
      firstValueMs: cold.firstMs,
      recalcCalls,
      cachedUsPerCell: (1000 * median(warm.map((r) => r.ms))) / cells.length,
      cachedRunsMs: warm.map((r) => r.ms),
      sequentialUsPerCell: (1000 * median(sequentialMs)) / cells.length,
      longestTaskMs: Math.max(cold.longestTaskMs, longestTaskWarmMs),
      longestTaskColdMs: cold.longestTaskMs,
      longestTaskWarmMs,
      handOverColdMs: cold.handOverMs,
      handOverWarmMs: Math.max(...warm.map((r) => r.handOverMs)),
    };
  } finally {
    configureRuntime(null);
    await sb.close();
  }
}
