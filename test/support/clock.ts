// The clock of the test run (test/support/pinnedClock.js pins it for every test file).

declare global {
  var __finRealNow: (() => number) | undefined;
  var __finPinnedNow: string | undefined;
}

/** The machine's real wall clock, for the one test that seeds at the real today. */
export function realNow(): number {
  return (globalThis.__finRealNow ?? Date.now)();
}

/** The instant this test file started at, or undefined when the run uses the real clock. */
export function pinnedInstant(): string | undefined {
  return globalThis.__finPinnedNow;
}
