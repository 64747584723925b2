// When Refresh all takes the recalculation it started as settled (FinActivity.whenSettled): by the count of
// FIN evaluations the host expects, by the host's word that its calculation is done, and only without
// either by a quiet period.
import { FinActivity } from '../../../src/engine/fin/activity';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One evaluation running `runMs`, counted as the service's turns count it (started, then settled). */
function evaluation(activity: FinActivity, runMs: number): Promise<void> {
  activity.started();
  return sleep(runMs).then(() => activity.settled());
}

/** Starts `count` evaluations `afterMs` from now, each running `runMs`. */
function batch(activity: FinActivity, count: number, afterMs: number, runMs = 20): Promise<void> {
  return sleep(afterMs).then(() => Promise.all(Array.from({ length: count }, () => evaluation(activity, runMs))).then(() => undefined));
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await work;
  return { value, ms: Date.now() - t0 };
}

describe('FinActivity.whenSettled', () => {
  it('without signals, a quiet period decides: a batch Excel hands over after it is missed', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    const late = batch(activity, 3, 400);
    const { value } = await timed(activity.whenSettled(since, {}, { quietMs: 200, timeoutMs: 5_000 }));
    expect(value).toBe(true);
    expect(activity.mark() - since).toBe(0); // settled before the batch even started
    await late;
  });

  it('with the expected count, it waits for a late batch and ends as soon as the last evaluation settles', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    void batch(activity, 2, 50);
    void batch(activity, 3, 700); // later than the old half second of quiet
    const { value, ms } = await timed(activity.whenSettled(since, { evaluations: 5 }, { quietMs: 200, timeoutMs: 10_000 }));
    expect(value).toBe(true);
    expect(activity.mark() - since).toBe(5);
    expect(ms).toBeGreaterThanOrEqual(700);
    expect(ms).toBeLessThan(1_500); // not the quiet guard (10 x 200 ms after the last one)
  });

  it('a cell Excel never calls (error arguments) leaves the count short: the host saying done ends it', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    let excelDone = false;
    void batch(activity, 2, 50).then(() => {
      excelDone = true;
    });
    const polls: boolean[] = [];
    const calculationDone = async () => {
      polls.push(excelDone);
      return excelDone;
    };
    const { value, ms } = await timed(activity.whenSettled(since, { evaluations: 3, calculationDone }, { quietMs: 500, timeoutMs: 10_000, pollMs: 20 }));
    expect(value).toBe(true);
    expect(activity.mark() - since).toBe(2);
    expect(ms).toBeLessThan(1_000); // well before the quiet guard (5 s)
    expect(polls.filter((done) => done)).toHaveLength(2); // done twice in a row, nothing started between
  });

  it('the host saying done does not end it while an evaluation runs or one starts between two readings', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    const long = batch(activity, 1, 0, 300);
    const second = batch(activity, 1, 310, 100); // within one reading interval of the first one's end
    const { value, ms } = await timed(activity.whenSettled(since, { calculationDone: async () => true }, { quietMs: 1_000, timeoutMs: 10_000, pollMs: 40 }));
    await Promise.all([long, second]);
    expect(value).toBe(true);
    expect(activity.mark() - since).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(410);
  });

  it('a host that never says done and a count never reached: the quiet guard still ends it', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    void batch(activity, 1, 0);
    const { value, ms } = await timed(activity.whenSettled(since, { evaluations: 4, calculationDone: async () => false }, { quietMs: 30, timeoutMs: 10_000 }));
    expect(value).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(300); // 10 x the quiet period
  });

  it('no FIN cell in the workbook: settled at once', async () => {
    const activity = new FinActivity();
    const { value, ms } = await timed(activity.whenSettled(activity.mark(), { evaluations: 0 }, { quietMs: 500, timeoutMs: 5_000 }));
    expect(value).toBe(true);
    expect(ms).toBeLessThan(100);
  });

  it('gives up at the time limit with false', async () => {
    const activity = new FinActivity();
    const since = activity.mark();
    const stuck = evaluation(activity, 400);
    expect(await activity.whenSettled(since, { evaluations: 1 }, { quietMs: 20, timeoutMs: 100 })).toBe(false);
    await stuck;
  });
});

// The pane's usage log puts what each batch of evaluations spent on a line of its own (issue 13, item 8).
describe('FinActivity batches', () => {
  it('a batch ends once no evaluation has run for the quiet period; bursts closer than that are one batch', async () => {
    const activity = new FinActivity(100);
    const batches: number[] = [];
    activity.onBatch((b) => batches.push(b.evaluations));
    await batch(activity, 2, 0);
    await batch(activity, 3, 30); // a second burst of the same recalculation
    expect(batches).toEqual([]);
    await sleep(250);
    expect(batches).toEqual([5]);
    await batch(activity, 1, 0);
    await sleep(250);
    expect(batches).toEqual([5, 1]);
  });

  it('an evaluation still running keeps the batch open, and a listener that throws stops nothing', async () => {
    const activity = new FinActivity(50);
    const batches: number[] = [];
    activity.onBatch(() => {
      throw new Error('a broken listener');
    });
    const stop = activity.onBatch((b) => batches.push(b.evaluations));
    const slow = evaluation(activity, 300);
    await batch(activity, 1, 0);
    await sleep(150);
    expect(batches).toEqual([]);
    await slow;
    await sleep(150);
    expect(batches).toEqual([2]);
    stop();
    await batch(activity, 1, 0);
    await sleep(150);
    expect(batches).toEqual([2]);
  });
});
