#!/usr/bin/env node
// Runs the jest suite once per pinned instant (test/support/pinnedClock.js), to prove that no test depends
// on the day or the hour it runs: month starts and ends, both DST changes, the last evening of a year,
// 29 February, the hours where the UTC date is already the next day in Pacific terms, and the real clock.
//
//   npm run test:clock                      every instant, the whole suite
//   npm run test:clock -- test/functions    every instant, only these test paths (jest arguments)
//   FIN_CLOCKS=2028-02-29T20:00:00Z,real npm run test:clock
const { spawnSync } = require('node:child_process');

const INSTANTS = [
  ['2027-03-01T08:30:00Z', 'first half hour of a month (Pacific), after a 28-day February'],
  ['2026-12-01T04:00:00Z', 'last evening of November in Pacific time, already December in UTC'],
  ['2026-03-08T10:30:00Z', 'the morning clocks spring forward (PST to PDT)'],
  ['2026-11-01T09:30:00Z', 'the night clocks fall back (PDT to PST)'],
  ['2027-01-01T07:30:00Z', 'New Year\'s Eve 23:30 in Pacific time, already January in UTC'],
  ['2028-02-29T20:00:00Z', '29 February of a leap year'],
  ['real', 'the real clock, now'],
];

const chosen = process.env.FIN_CLOCKS
  ? process.env.FIN_CLOCKS.split(',').map((s) => [s.trim(), 'from FIN_CLOCKS'])
  : INSTANTS;
const jestArgs = process.argv.slice(2);
const results = [];
for (const [instant, why] of chosen) {
  console.log(`\n=== FIN_TEST_NOW=${instant}: ${why}`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), ...jestArgs], {
    stdio: 'inherit',
    env: { ...process.env, FIN_TEST_NOW: instant },
  });
  results.push({ instant, why, ok: run.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}
console.log('\nSummary');
for (const r of results) console.log(`${r.ok ? 'pass' : 'FAIL'}  ${r.instant.padEnd(22)} ${String(r.seconds).padStart(4)} s  ${r.why}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
