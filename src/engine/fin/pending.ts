// A FIN evaluation is a synchronous attempt over what is in memory: its arguments, read once and kept
// (inputs.ts), and the answers the cache holds (reads.ts). When something is not there yet -- an answer to
// fetch or to load, the workbook's date system to ask the host for -- the attempt throws a Pending, and the
// evaluation is attempted again once it is ready. A recalculation of a cached model is then thousands of
// plain function calls rather than thousands of chains of promises (most of what it used to cost was
// making and collecting those), and the main thread can be handed back between any two of them (turns.ts).

/** Thrown by an attempt that needs what `ready` brings; `ready` rejects with the error the cell shows. */
export class Pending {
  constructor(readonly ready: Promise<unknown>) {}
}

/** Attempts `attempt` until nothing it needs is pending (for async code, such as the paged lists). */
export async function settle<T>(attempt: () => T): Promise<T> {
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof Pending)) throw error;
      await error.ready;
    }
  }
}
