// Refresh all while the API fails keeps the FIN cells' figures (issue 19, item 6): each cached answer is
// due for a refresh, the refetch fails, the breaker stops asking after a few failures, and every formula
// recalculated meanwhile gets its earlier figure back instead of an error. The report says so, and the next
// Refresh all, the API back, refreshes them all.
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { finHarness, lastFullYear, monthsOf } from './finHarness';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

test('FIN cells keep their figures through an outage during Refresh all, and the report names it', async () => {
  const h = await finHarness(sb, 'growth-admin');
  const months = monthsOf(lastFullYear());
  const board = () => Promise.all(months.map((p) => h.service.pnl({ line: 'Revenue', start: p.start, end: p.end })));
  const figures = await board();
  expect(figures.every((v) => typeof v === 'number')).toBe(true);
  const company = sb.companies['growth-admin'];

  await sb.control('control', { faults: [{ kind: 'error500', count: 10_000, path: '/reports/' }] });
  const usage0 = await sb.usage(company);
  let recalculated: Promise<unknown[]> | undefined;
  const report = await h.service.refreshAll({
    recalculate: async () => {
      recalculated = board();
    },
    quietMs: 100,
  });
  const spent = (await sb.usage(company)) - usage0;
  await sb.control('control', { clear_faults: true });

  expect(await recalculated).toEqual(figures);
  expect(report).toMatchObject({ due: 13, kept: 12, limited: false, spent });
  expect(report.message).toMatch(/the API failed for some formulas, which keep their figures of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC — refresh again later$/);
  // GET /categories (it answers) and the breaker's handful of failed reports, not 12 reports x 5 attempts:
  // the breaker opens at the third failure in a row, and what is then on the wire (8 at a time) finishes.
  expect(spent).toBeGreaterThanOrEqual(1 + 3);
  expect(spent).toBeLessThanOrEqual(1 + 10);

  // Still due: the next Refresh all, the API back, refreshes every one of them.
  const again = await h.service.refreshAll({
    recalculate: async () => {
      recalculated = board();
    },
    quietMs: 100,
  });
  expect(await recalculated).toEqual(figures);
  expect(again).toMatchObject({ kept: 0, message: 'Refresh all spent 13 calls' });
});
