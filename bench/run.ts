// `npm run bench`: measured figures, printed as one table per section and written as JSON under bench/results/.
// Timed figures are the median of repeated runs; counts are exact.
//   Sandbox     raw latency of the sandbox at two sizes (no added latency), and seeding time.
//   Board pack  the reference board pack (design.md) through the engine and MemoryGateway, against a fresh
//               sandbox with 50 ms added per request: calls per scenario, cold-refresh wall time.
//   Excel       the 50,000 x 15 transactions table written through OfficeGateway on the fake Excel.
//   Write-back  calls of pushing 25 and 5,000 edits (sandbox usage counter deltas).
//   FIN cells   a model of 12,500 FIN cells evaluated through the custom functions, cold and warm (issue 17).
//   Gateway     the team gateway's added latency per request, and a team of five refreshing one pack (issue 38).
//               Alone: BENCH_ONLY=gateway npm run bench (or npm run bench:gateway), written to results/gateway.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boardPackBench } from './boardPack';
import { excelBench } from './excel';
import { finCellsBench } from './finCells';
import { gatewayBench, type GatewayFigures } from './gateway';
import { sandboxBench } from './sandbox';

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const ratio = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : '-');

function printGateway(g: GatewayFigures): void {
  console.log('\nGateway: added latency per request (the same GET /categories direct and through the gateway, interleaved; no-cache: relayed and counted)');
  console.table(
    g.latency.map((l) => ({
      store: l.store,
      requests: l.requests,
      'direct median / p99 (ms)': `${l.directMedianMs.toFixed(2)} / ${l.directP99Ms.toFixed(2)}`,
      'gateway median / p99 (ms)': `${l.gatewayMedianMs.toFixed(2)} / ${l.gatewayP99Ms.toFixed(2)}`,
      'added median (ms)': l.addedMedianMs.toFixed(2),
      'added p99 (ms)': l.addedP99Ms.toFixed(2),
      'team-cache hit median / p99 (ms)': `${l.hitMedianMs.toFixed(2)} / ${l.hitP99Ms.toFixed(2)}`,
    })),
  );
  const t = g.team;
  console.log(`Gateway: a team of five refreshing the same pack (${t.requestsPerMember} requests each, max-age; calls from the sandbox counter)`);
  console.table([
    { scenario: 'one member', calls: t.oneMemberCalls },
    { scenario: 'five members through the gateway', calls: t.fiveMembersCalls, 'each member after the first': t.perExtraMember },
    { scenario: 'five members straight to the API', calls: t.withoutGateway },
  ]);
}

async function main(): Promise<void> {
  const started = Date.now();
  if (process.env.BENCH_ONLY === 'gateway') {
    const gateway = await gatewayBench();
    printGateway(gateway);
    const out = path.join(__dirname, 'results', 'gateway.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, gateway }, null, 2) + '\n');
    console.log(`written ${path.relative(process.cwd(), out)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return;
  }
  const sizes = (process.env.BENCH_SIZES ?? '20000,200000').split(',').map(Number);
  const sandbox = await sandboxBench(sizes);

  console.log('\nSandbox');
  console.table(
    sandbox.map((s) => ({
      'Growth transactions': s.transactions,
      'seed (s)': (s.seedMs / 1000).toFixed(1),
      '500-row page, median (ms)': s.page500Ms.toFixed(1),
      'deep 500-row page, median (ms)': s.deepPage500Ms.toFixed(1),
      'year income statement, median (ms)': s.incomeStatementYearMs.toFixed(1),
      'year-end balance sheet, median (ms)': s.balanceSheetMs.toFixed(1),
    })),
  );

  const { boardPack: bp, writeBack, sampleRows } = await boardPackBench(Number(process.env.BENCH_PACK_TRANSACTIONS ?? 20000));
  const p = bp.pack;
  console.log(
    `\nBoard pack (Growth demo, FY${bp.year}, ${bp.transactionsSeeded.toLocaleString('en-US')} seeded transactions, ${bp.latencyMs} ms added latency): ` +
      `${p.statementColumns} statement columns (12 IS months + 4 BS quarter ends + 1 CF year), ${p.formulas} FIN.TOTAL formulas ` +
      `(${p.formulasWithMerchant} with a merchant), ${p.tableRows.toLocaleString('en-US')}-row transactions table (${p.tablePages} pages of 500)`,
  );
  console.log(`floor = ${Object.entries(bp.floorParts).map(([k, v]) => `${v} ${k}`).join(' + ')} = ${bp.floor}`);
  console.log('naive = one call per formula cell per evaluation (+ one per statement column and the table\'s calls on a refresh)');
  const row = (scenario: string, c: { calls: number; sent: number; naive: number }, floor: number | string) => ({
    scenario,
    'calls (sandbox counter)': c.calls,
    'HTTP sent': c.sent,
    floor,
    naive: c.naive,
    'calls / naive': ratio(c.calls, c.naive),
  });
  console.table([
    row('cold refresh (empty cache)', bp.coldRefresh, bp.floor),
    row('recalculation (same runtime)', bp.recalculation, 0),
    row('reopen (new runtime, same stores)', bp.reopen, 0),
    // A refresh re-reads every report and total (the API cannot say "unchanged"), but the table only needs
    // its incremental page from the watermark and no reference calls.
    row('second refresh, no change (Refresh all + table refresh)', bp.secondRefresh, bp.floor - bp.floorParts['departments + company'] - bp.floorParts['transaction pages'] + 1),
    {
      scenario: `25 edits: push (${Object.entries(bp.edits25.pushParts).map(([k, v]) => `${v} ${k}`).join(', ')})`,
      'calls (sandbox counter)': bp.edits25.push,
      'HTTP sent': '-',
      floor: '-',
      naive: '-',
      'calls / naive': '-',
    },
    { scenario: '25 edits: then table refresh (incremental)', 'calls (sandbox counter)': bp.edits25.refresh, 'HTTP sent': '-', floor: '-', naive: '-', 'calls / naive': '-' },
  ]);
  const co = bp.changedOnly;
  console.log('\nRefresh changes against Full refresh (the workbook\'s one refresh, on a pack of its own; calls from the sandbox counter; against: the full refresh unless said)');
  console.table([
    { scenario: 'full refresh', calls: co.fullRefresh.calls, 'against': co.fullRefresh.calls },
    { scenario: 'refresh of changes, nothing changed', calls: co.nothingChanged.calls, 'against': co.fullRefresh.calls },
    { scenario: `refresh of changes after ${co.oneMonthEdits.edits} edits in ${co.oneMonthEdits.month}`, calls: co.oneMonthEdits.calls, 'against': co.oneMonthEdits.fullCalls },
    {
      scenario: `the same, books closed through ${co.closedThroughPriorQuarter.closedThrough} (against: open books)`,
      calls: co.closedThroughPriorQuarter.calls,
      'against': co.oneMonthEdits.calls,
    },
    {
      scenario: `month-end close of ${co.monthEndClose.month}: ${co.monthEndClose.recategorised} recategorised, ${co.monthEndClose.spread} spread over 12 months, ${co.monthEndClose.redated} accruals re-dated (ran: ${co.monthEndClose.ran})`,
      calls: co.monthEndClose.calls,
      'against': co.fullRefresh.calls,
    },
    {
      scenario: `a Startup month: ${co.startupMonth.days} daily refreshes of changes, ${co.startupMonth.changesPerDay} changes a day (cap ${co.startupMonth.cap})`,
      calls: co.startupMonth.calls,
      'against': co.startupMonth.fullDailyCalls,
    },
  ]);
  console.log(`  requests due again after the ${co.oneMonthEdits.month} edits (besides 1 sync page; totals without a merchant derived from the months at no call): ${co.oneMonthEdits.requests.join(', ')}`);
  console.log(`  with books closed through ${co.closedThroughPriorQuarter.closedThrough}: ${co.closedThroughPriorQuarter.requests.join(', ') || 'none'}`);
  const w = bp.wall;
  console.log(
    `Cold-refresh wall time against the critical path (R = ${w.requests} requests, C = ${bp.maxConcurrent} in flight, ${bp.maxPerSecond} req/s, L = ${bp.latencyMs} ms, ${p.tablePages} chained pages):\n` +
      `  critical path = max(ceil(R / C), 1 + pages) x L: every request in flight as early as the limiter allows; the ` +
      `transactions are one chain (the 2 reference calls, then each page waits for the previous page's cursor; the ` +
      `issue's 0.9 s).\n` +
      `  pages floor = max(ceil(R / C), pages) x L: since the first page goes out beside the reference calls, the chain is the pages alone.\n` +
      `  sequential bound = (ceil((R - pages) / C) + pages) x L: the other requests in waves of C, then the chain.\n` +
      `  ${w.requests <= bp.maxPerSecond ? `R <= ${bp.maxPerSecond}: the per-second limit does not bind` : `R > ${bp.maxPerSecond}: at least ${Math.ceil(w.requests / bp.maxPerSecond) - 1} s more for the per-second limit`}. ` +
      `Latency only: server and client time per request come on top (see "table pull alone": the chain by itself).`,
  );
  console.table([
    {
      'cold refresh, median (ms)': ms(w.coldRefreshMedianMs),
      'runs (ms)': w.coldRefreshMs.map(ms).join(' '),
      'critical path (ms)': w.criticalPathMs,
      'pages floor (ms)': w.pagesFloorMs,
      'sequential bound (ms)': w.sequentialBoundMs,
      'median / critical path': w.ratio.toFixed(2),
      'median / pages floor': (w.coldRefreshMedianMs / w.pagesFloorMs).toFixed(2),
      'table pull alone, median (ms)': ms(w.pullAloneMedianMs),
      'cold refresh, sandbox in this thread (ms)': ms(w.inProcessColdRefreshMedianMs),
    },
  ]);

  const excel = await excelBench(sampleRows);
  console.log(`\nExcel: ${excel.rows.toLocaleString('en-US')} x ${excel.columns} transaction rows, one createTable through OfficeGateway on the fake Excel (limit ${(excel.limitBytes / 1024 / 1024).toFixed(0)} MB per request)`);
  console.table([
    {
      syncs: excel.syncs,
      chunks: excel.chunks,
      'rows per chunk': excel.rowsPerChunk,
      'largest request (MB)': (excel.largestRequestBytes / 1e6).toFixed(2),
      'total sent (MB)': excel.totalRequestMB,
      'requests over limit': excel.overLimit,
      'halved retries': excel.retries,
      'write, median (ms)': ms(excel.writeMedianMs),
    },
  ]);

  console.log('\nWrite-back (transactions engine push on the board pack table; calls from the sandbox usage counter)');
  console.table(
    writeBack.map((x) => ({
      edits: x.edits,
      groups: x.groups.join(' + '),
      'bulk jobs': x.jobs,
      calls: x.calls,
      check: x.parts.check,
      patches: x.parts.patches,
      submissions: x.parts.submissions,
      polls: x.parts.polls,
      'read-back pages': x.parts.reread,
      'push (ms)': ms(x.pushMs),
    })),
  );

  const fc = await finCellsBench(Number(process.env.BENCH_PACK_TRANSACTIONS ?? 20000));
  console.log(
    `\nFIN cells (Growth demo, FY${fc.year}, ${fc.latencyMs} ms added latency): ${fc.evaluations.toLocaleString('en-US')} cells ` +
      `(${Object.entries(fc.cells).map(([k, v]) => `${v.toLocaleString('en-US')} ${k.toUpperCase()}`).join(', ')}) through the custom functions on the shared runtime`,
  );
  console.log(`floor = ${Object.entries(fc.floorParts).map(([k, v]) => `${v} ${k}`).join(' + ')} = ${fc.floor}`);
  console.table([
    {
      'cold calls': fc.coldCalls,
      floor: fc.floor,
      'cold (ms)': ms(fc.coldMs),
      'first value (ms)': ms(fc.firstValueMs),
      'recalc calls': fc.recalcCalls,
      'cached us/cell (all at once)': fc.cachedUsPerCell.toFixed(1),
      'cached us/cell (one at a time)': fc.sequentialUsPerCell.toFixed(1),
      'longest task (ms)': fc.longestTaskMs.toFixed(1),
      "of it Excel's hand-over (ms)": fc.handOverColdMs.toFixed(1),
    },
  ]);

  const gateway = await gatewayBench();
  printGateway(gateway);

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    sandbox,
    boardPack: bp,
    excel,
    writeBack,
    finCells: fc,
    gateway,
  };
  const out = path.join(__dirname, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`written ${path.relative(process.cwd(), out)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
