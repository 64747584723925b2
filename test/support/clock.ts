// The clock of the test run (test/support/pinnedClock.js pins it for every test file).

import { Clock } from '../../src/sandbox/clock';

declare global {
  var __finRealNow: (() => number) | undefined;
  var __finPinnedNow: string | undefined;
  var __finPinnedMs: number | undefined;
}

/** The machine's real wall clock, for the one test that seeds at the real today. */
export function realNow(): number {
  return (globalThis.__finRealNow ?? Date.now)();
}

/** The instant this test file started at, or undefined when the run uses the real clock. */
export function pinnedInstant(): string | undefined {
  return globalThis.__finPinnedNow;
}

/**
 * The clock the shared template database is seeded with: the pinned instant itself, however late in its
 * test file the seeding happens. Every test file starts at that instant, so none of them runs "before" a
 * seeded timestamp (an incremental sync would otherwise miss rows created in its future). With the real
 * clock, seeding comes before every file that waits for it, which keeps the same order.
 */
export function seedClock(): Clock | undefined {
  const pinned = globalThis.__finPinnedMs;
  return pinned === undefined ? undefined : new Clock(() => pinned);
}
