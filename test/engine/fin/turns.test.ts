// How FIN evaluations take turns on the main thread (src/engine/fin/turns.ts): attempts run in slices and
// yield to the host between them, an attempt that waits (a Pending) comes back when what it waits for is
// ready and before the evaluations not started yet, every evaluation settles once -- its value, its error
// as a FinError (or the cell's own error), or "No answer within ..." at the time limit -- and FinActivity
// counts each while it runs. The clock and the host's "later task" are the test's.
import { FinActivity } from '../../../src/engine/fin/activity';
import { FinError } from '../../../src/engine/fin/errors';
import { Pending, settle } from '../../../src/engine/fin/pending';
import type { EvalContext, Evaluation } from '../../../src/engine/fin/reads';
import { Turns } from '../../../src/engine/fin/turns';

/** A clock the attempts advance, and the host's later tasks, run when the test says. */
function rig(options: { sliceMs?: number; limitMs?: number } = {}) {
  let now = 0;
  const later: (() => void)[] = [];
  // Batches end at once: the time-limit test counts the timers left.
  const activity = new FinActivity(0);
  const turns = new Turns(activity, { unit: 'parts' }, { sliceMs: options.sliceMs ?? 8, limitMs: options.limitMs, now: () => now, yieldToHost: (resume: () => void) => later.push(resume) });
  return {
    turns,
    /** An attempt that needs neither the parts nor arguments. */
    run: <T>(ctx: EvalContext, attempt: () => T | Promise<T>): Promise<T> => turns.run(ctx, attempt, undefined),
    activity,
    advance: (ms: number) => {
      now += ms;
    },
    /** Runs the host's tasks (and the microtasks between them) until none is left. */
    async drain(): Promise<number> {
      let tasks = 0;
      // As a host does: what is due in microtasks runs before the next task.
      await new Promise((resolve) => setImmediate(resolve));
      while (later.length) {
        tasks += 1;
        later.shift()!();
        await new Promise((resolve) => setImmediate(resolve));
      }
      return tasks;
    },
    later,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Turns', () => {
  it('runs a burst of attempts in slices, yielding to the host between them; all settle with their values', async () => {
    const { turns, run, advance, drain } = rig({ sliceMs: 8 });
    const settled = Array.from({ length: 100 }, (_, i) =>
      run({}, () => {
        advance(1); // each attempt takes 1 ms
        return i * 2;
      }),
    );
    const tasks = await drain();
    expect(await Promise.all(settled)).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    // 100 ms of work in 8 ms slices: the first slice, then one per yield.
    expect(tasks).toBe(12);
    expect(turns.sliceCount).toBe(13);
    expect(turns.waiting).toBe(0);
  });

  it('hands every attempt the parts, its arguments and its evaluation', async () => {
    const { turns } = rig();
    const seen: string[] = [];
    const attempt = (parts: { unit: string }, args: { n: number }, ev: Evaluation) => {
      seen.push(`${parts.unit} ${args.n} ${ev.preview}`);
      return args.n * 10;
    };
    expect(await Promise.all([turns.run({}, attempt, { n: 1 }), turns.run({ preview: true }, attempt, { n: 2 })])).toEqual([10, 20]);
    expect(seen).toEqual(['parts 1 false', 'parts 2 true']);
  });

  it("a burst whose slice went on the host's own calls yields before its first attempt", async () => {
    const { run, advance, drain, later } = rig({ sliceMs: 8 });
    let attempts = 0;
    const settled = Array.from({ length: 3 }, () => run({}, () => ++attempts));
    advance(10); // Excel's loop of calls took the slice
    await Promise.resolve();
    expect([attempts, later.length]).toEqual([0, 1]);
    await drain();
    expect(await Promise.all(settled)).toEqual([1, 2, 3]);
  });

  it('a burst that fits in a slice does not yield', async () => {
    const { run, later } = rig();
    expect(await Promise.all([run({}, () => 'a'), run({}, () => 'b')])).toEqual(['a', 'b']);
    expect(later).toHaveLength(0);
  });

  it('an attempt that waits is attempted again once ready, ahead of evaluations not started yet', async () => {
    const { run, advance, drain } = rig({ sliceMs: 3 });
    let release!: () => void;
    const ready = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answer: string | undefined;
    const order: string[] = [];
    const waiting = run({}, () => {
      order.push('waiter');
      if (answer === undefined) throw new Pending(ready.then(() => (answer = 'fetched')));
      return answer;
    });
    const others = Array.from({ length: 9 }, (_, i) =>
      run({}, () => {
        advance(1);
        order.push(`cell ${i}`);
        if (i === 1) release();
        return i;
      }),
    );
    await drain();
    expect(await waiting).toBe('fetched');
    await Promise.all(others);
    // Released during the first slice (cells 0-2): the waiter comes back first in the next slice.
    expect(order).toEqual(['waiter', 'cell 0', 'cell 1', 'cell 2', 'waiter', 'cell 3', 'cell 4', 'cell 5', 'cell 6', 'cell 7', 'cell 8']);
  });

  it('failures settle as FinErrors, or as what the context makes of them; so does what a Pending waited for', async () => {
    const { run, drain } = rig();
    const failure = (p: Promise<unknown>) => p.then(() => 'settled with a value', (e: unknown) => e);
    const cellError = (e: FinError) => ({ cell: e.kind, message: e.message });
    const thrown = failure(
      run({}, () => {
        throw new FinError('value', 'Unknown category "Rnt"');
      }),
    );
    const unexpected = failure(
      run({}, () => {
        throw new Error('boom');
      }),
    );
    const waitedFailed = failure(
      run({ failure: cellError }, () => {
        throw new Pending(Promise.reject(new FinError('na', 'The API failed (500); recalculate to try again', 'server')));
      }),
    );
    const asyncList = failure(
      run({ failure: cellError }, async () => {
        await tick();
        throw new FinError('value', 'Bad status');
      }),
    );
    await drain();
    expect(await thrown).toMatchObject({ kind: 'value', message: 'Unknown category "Rnt"' });
    expect(await unexpected).toMatchObject({ kind: 'na', code: 'internal', message: 'Unexpected error: boom' });
    expect(await waitedFailed).toEqual({ cell: 'na', message: 'The API failed (500); recalculate to try again' });
    expect(await asyncList).toEqual({ cell: 'value', message: 'Bad status' });
  });

  it('an evaluation that outlives the time limit fails with "No answer", once, and what it waited for no longer matters', async () => {
    jest.useFakeTimers();
    try {
      const { run, activity, advance } = rig({ limitMs: 1000 });
      let release!: () => void;
      const never = new Promise<void>((resolve) => {
        release = resolve;
      });
      const mark = activity.mark();
      const stuck = run({}, () => {
        throw new Pending(never);
      });
      const outcome = stuck.then(
        () => 'settled',
        (e: FinError) => `${e.code}: ${e.message}`,
      );
      const quick = run({}, () => 1);
      await jest.advanceTimersByTimeAsync(0);
      await expect(quick).resolves.toBe(1);
      advance(1000);
      await jest.advanceTimersByTimeAsync(1000);
      expect(await outcome).toBe('timeout: No answer within 1 s; recalculate to try again');
      release();
      await jest.advanceTimersByTimeAsync(0);
      expect(await outcome).toBe('timeout: No answer within 1 s; recalculate to try again');
      expect(activity.mark() - mark).toBe(2);
      await jest.advanceTimersByTimeAsync(1); // the activity's batch ends
      // Nothing running: no timer is left behind.
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts every evaluation in FinActivity while it runs', async () => {
    const { run, activity, drain } = rig();
    const since = activity.mark();
    let release!: () => void;
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ready = false;
    const running = run({}, () => {
      if (!ready) throw new Pending(later.then(() => (ready = true)));
      return 'done';
    });
    await drain();
    // Still running: not settled, however quiet.
    expect(await activity.whenSettled(since, { evaluations: 1 }, { quietMs: 5, timeoutMs: 50, pollMs: 5 })).toBe(false);
    release();
    await drain();
    await running;
    expect(await activity.whenSettled(since, { evaluations: 1 }, { quietMs: 5, timeoutMs: 50, pollMs: 5 })).toBe(true);
  });
});

describe('settle', () => {
  it('attempts again after each Pending, and passes the value or the failure on', async () => {
    let step = 0;
    const value = await settle(() => {
      step += 1;
      if (step < 3) throw new Pending(tick());
      return step;
    });
    expect(value).toBe(3);
    await expect(settle(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(
      settle(() => {
        throw new Pending(Promise.reject(new Error('waited')));
      }),
    ).rejects.toThrow('waited');
  });
});
