// `npx ts-node --transpile-only bench/refreshChanges.ts`: the Refresh changes figures alone (issue 34), for
// when the whole `npm run bench` is more than is needed: the reference board pack on a fresh sandbox of
// BENCH_PACK_TRANSACTIONS (20,000) with no added latency (counts do not depend on it), Refresh changes
// against Full refresh (changedOnly.ts, the same scenarios as the whole bench), then the placement memory
// of 200,000 transactions saved and loaded through the webview's IndexedDB store (fake-indexeddb in Node,
// so the times are the engine's encoding plus a structured clone, not a browser's disk).
import 'fake-indexeddb/auto';
import { IndexedDbStore } from '../src/excel/indexedDbStore';
import { MAX_PLACEMENTS, PlacementMemory } from '../src/engine/sync/placements';
import { placementsApart } from '../src/runtime/storageRoom';
import { MemoryCacheStore } from '../test/support/memoryCacheStore';
import { startSandbox } from '../test/support/sandbox';
import { changedOnlyBench } from './changedOnly';
import { definePack } from './pack';
import { median } from './stats';

async function placementTimes(repeats = 5): Promise<{ fillMs: number; saveMs: number; loadMs: number; chars: number }> {
  const memory = PlacementMemory.empty();
  const t0 = performance.now();
  for (let i = 0; i < MAX_PLACEMENTS; i += 1) {
    const m = i % 72;
    const month = (n: number) => `${2020 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
    memory.set(`txn_${i.toString(36).padStart(12, '0')}`, { dateMonth: month(m), accountingMonth: month(m), spread: i % 7 ? null : { first: month(m), last: month(Math.min(71, m + 11)) } });
  }
  const fillMs = performance.now() - t0;
  const idb = new IndexedDbStore('fin-bench');
  const state = placementsApart(new MemoryCacheStore(), idb);
  const saves: number[] = [];
  const loads: number[] = [];
  for (let r = 0; r < repeats; r += 1) {
    let t = performance.now();
    await memory.save(state, 'cmp_bench', 1);
    saves.push(performance.now() - t);
    t = performance.now();
    const loaded = await PlacementMemory.load(state, 'cmp_bench', 1);
    loads.push(performance.now() - t);
    if (loaded.size !== MAX_PLACEMENTS) throw new Error(`loaded ${loaded.size}`);
  }
  const chars = (await idb.get('fin-sync:cmp_bench:placements'))?.length ?? 0;
  await idb.close();
  return { fillMs, saveMs: median(saves), loadMs: median(loads), chars };
}

async function main(): Promise<void> {
  const transactions = Number(process.env.BENCH_PACK_TRANSACTIONS ?? 20000);
  const sb = await startSandbox({ seed: 'fresh', transactions });
  try {
    const def = await definePack(sb);
    const co = await changedOnlyBench(sb, def);
    console.log(`\nRefresh changes against Full refresh (${transactions.toLocaleString('en-US')} seeded transactions; calls from the sandbox counter)`);
    console.table([
      { scenario: 'full refresh (the first: the record of where transactions post included)', calls: co.fullRefresh.calls },
      { scenario: 'refresh of changes, nothing changed', calls: co.nothingChanged.calls },
      { scenario: `refresh of changes after ${co.oneMonthEdits.edits} edits in ${co.oneMonthEdits.month}`, calls: co.oneMonthEdits.calls },
      { scenario: `the same, books closed through ${co.closedThroughPriorQuarter.closedThrough}`, calls: co.closedThroughPriorQuarter.calls },
      {
        scenario: `month-end close of ${co.monthEndClose.month} (${co.monthEndClose.recategorised} recategorised, ${co.monthEndClose.spread} spread, ${co.monthEndClose.redated} re-dated; ran ${co.monthEndClose.ran})`,
        calls: co.monthEndClose.calls,
      },
      { scenario: `a Startup month: ${co.startupMonth.days} daily refreshes of changes`, calls: co.startupMonth.calls },
    ]);
  } finally {
    await sb.close();
  }
  const p = await placementTimes();
  console.log(`\nPlacement memory of ${MAX_PLACEMENTS.toLocaleString('en-US')} transactions (${p.chars.toLocaleString('en-US')} characters) in IndexedDB (fake-indexeddb): built in ${p.fillMs.toFixed(0)} ms; save ${p.saveMs.toFixed(0)} ms, load ${p.loadMs.toFixed(0)} ms (median of 5)`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
