// Every test file starts at one pinned instant, so a result never depends on the day or the hour the
// suite runs. The sandbox seeds its demo history up to "today", the FIN functions resolve YTD and "last
// year" against "today", and the monthly cap resets at midnight Pacific: all of them read the clock.
//
// The pin moves the clock, it does not stop it: time flows from the pinned instant at real speed, so
// timeouts, backoff and "refreshed N s ago" behave as in use. Each test file starts again at the instant.
//
//   FIN_TEST_NOW=2028-02-29T20:00:00Z npm test   another instant (see scripts/test-clock.js for the list)
//   FIN_TEST_NOW=real npm test                   the real clock (what test/support/clock.ts calls realNow)
//
// Loaded by jest's setupFiles in every environment (node and jsdom), before any module of the test.
const RealDate = globalThis.Date;
const DEFAULT_PINNED_NOW = '2026-11-18T19:30:00Z';

const wanted = process.env.FIN_TEST_NOW || DEFAULT_PINNED_NOW;
const realNow = () => RealDate.now();
globalThis.__finRealNow = realNow;

if (wanted !== 'real') {
  const pinned = RealDate.parse(wanted);
  if (!Number.isFinite(pinned)) throw new Error(`FIN_TEST_NOW must be an ISO instant or "real", got ${wanted}`);
  const offset = pinned - RealDate.now();
  const now = () => RealDate.now() + offset;

  // A subclass keeps instanceof, Date.UTC, Date.parse and every method; only "now" moves.
  class PinnedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }

    static now() {
      return now();
    }
  }
  // Date() called without new returns today's string, as the real one does.
  const callable = new Proxy(PinnedDate, {
    apply: () => new RealDate(now()).toString(),
  });
  globalThis.Date = callable;
  globalThis.__finPinnedNow = wanted;
  globalThis.__finPinnedMs = pinned;
}
