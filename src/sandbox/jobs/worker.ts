import type { SandboxContext } from '../context';
import { commitJob, startJob } from './run';
import { failJob, type JobRow } from './store';

// The background worker of bulk-update jobs: one job at a time, oldest first, on an unref'd setTimeout
// chain (so it never keeps a process alive) and on kick(). Whatever goes wrong inside a job fails that
// job with update_failed; nothing escapes into the server.

const IDLE_POLL_MS = 250;

export function startJobWorker(ctx: Omit<SandboxContext, 'kickWorker'>): { kick: () => void; stop: () => void } {
  const { db, clock, settings } = ctx;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;

  // A job left processing by a previous server never committed anything: freeze it again.
  db.prepare("UPDATE jobs SET status = 'queued', matched_count = NULL, targets = NULL, started_at = NULL WHERE status = 'processing'").run();

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void drain(), ms);
    timer.unref();
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      setTimeout(resolve, ms).unref();
    });

  const nextQueued = () => db.prepare("SELECT * FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1").get() as JobRow | undefined;

  async function runJob(job: JobRow): Promise<void> {
    try {
      if (!startJob(db, job, clock)) return;
      await wait(settings.jobProcessingDelayMs);
      if (!stopped) commitJob(db, job.id, clock);
    } catch (err) {
      if (stopped) return;
      console.error(`sandbox: bulk-update job ${job.id} failed unexpectedly:`, err);
      failJob(
        db,
        job.id,
        [{ type: 'api_error', code: 'update_failed', message: 'The update could not be applied; nothing was changed. Submit again with a new Idempotency-Key.', transaction_id: null }],
        clock.now(),
      );
    }
  }

  async function drain(): Promise<void> {
    if (running || stopped) return;
    running = true;
    try {
      for (let job = nextQueued(); job && !stopped && !settings.workerPaused; job = nextQueued()) await runJob(job);
    } catch (err) {
      if (!stopped) console.error('sandbox: bulk-update worker error:', err);
    } finally {
      running = false;
      schedule(IDLE_POLL_MS);
    }
  }

  schedule(0);
  return {
    kick: () => {
      if (!running) schedule(0);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
