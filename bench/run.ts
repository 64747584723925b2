// `npm run bench`: measured figures, printed as one table and written as JSON under bench/results/.
// Timed figures are the median of repeated runs; counts are exact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxBench } from './sandbox';

async function main(): Promise<void> {
  const started = Date.now();
  const sizes = (process.env.BENCH_SIZES ?? '20000,200000').split(',').map(Number);
  const sandbox = await sandboxBench(sizes);
  const result = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, sandbox };

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
  const out = path.join(__dirname, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`written ${path.relative(process.cwd(), out)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
