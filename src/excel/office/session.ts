/**
 * One Excel.run of a gateway operation: counts its syncs and sends large work in chunks that each fit one
 * request, halving a chunk that Excel still finds too large.
 */
import { GatewayError, type ReadValue, type WriteStats } from '../../engine/ports/workbook';
import { isPayloadLimitError, jsonBytes, rowsThatFit } from '../payload';

export interface SessionOptions {
  budgetBytes: number;
  /** Whether the host has an API set ("ExcelApi", "1.9"): calling a missing API fails the whole batch. */
  supports(set: string, version: string): boolean;
}

export class Session {
  constructor(
    readonly ctx: Excel.RequestContext,
    readonly stats: WriteStats,
    readonly options: SessionOptions,
  ) {}

  async sync(): Promise<void> {
    this.stats.syncs++;
    await this.ctx.sync();
  }

  /**
   * Whether text can go as a typed String value (Range.valuesAsJson): the host has ExcelApi 1.16 and the
   * office.js loaded defines it (the CDN's does; the npm package's 1.1.110 predates it, and a property it
   * does not define would be set on the proxy and never sent).
   */
  get typedText(): boolean {
    return this.options.supports('ExcelApi', '1.16') && 'valuesAsJson' in Excel.Range.prototype;
  }

  /** A fresh proxy per batch: a proxy made in a batch that failed points at nothing. */
  sheet(name: string): Excel.Worksheet {
    return this.ctx.workbook.worksheets.getItem(name);
  }
}

/** A chunked write Excel stopped: the first `done` units went in whole before `reason`. */
export class WriteStopped extends Error {
  constructor(
    readonly done: number,
    readonly reason: unknown,
  ) {
    super('A chunked write stopped part way');
  }
}

/** Undoes what a stopped write left, as far as Excel lets it; false when Excel refused that too. */
export async function tryUndo(undo: () => Promise<void>): Promise<boolean> {
  try {
    await undo();
    return true;
  } catch {
    return false;
  }
}

export interface ChunkedWrite {
  /** Data rows to send. Zero still runs one batch (setup and finalize). */
  total: number;
  /** Estimated request bytes of each row (values, formats and the operations that carry them). */
  rowBytes: number[];
  /** Estimated bytes of setup() and finalize(). */
  fixedBytes?: number;
  /** Queued with the first chunk: it must be in place before any value lands (formats, new sheet). */
  setup?(ctx: Excel.RequestContext): void;
  chunk(ctx: Excel.RequestContext, start: number, count: number): void;
  /** Queued with the last chunk, so a one-chunk write is one sync. */
  finalize?(ctx: Excel.RequestContext): void;
}

/**
 * Sends a write in as few syncs as the budget allows. When it takes more than one, calculation is suspended
 * for all but the last batch, which recalculates what the others left dirty (only in automatic mode: a user
 * who chose manual calculation keeps it), and screen updating is suspended once, not per chunk (Microsoft
 * warns that repeating it makes the window flicker). A failure throws WriteStopped with the units done, so
 * the caller can undo or report what a request that failed half way left.
 */
export async function runChunked(session: Session, job: ChunkedWrite): Promise<void> {
  const { ctx, stats, options } = session;
  const app = ctx.workbook.application;
  const fixed = job.fixedBytes ?? 0;
  const totalBytes = fixed + job.rowBytes.reduce((a, b) => a + b, 0);
  // Suspending calculation (ExcelApi 1.6) and screen updating (1.9) is within the manifest's ExcelApi 1.10.
  const large = totalBytes > options.budgetBytes;
  let calculationMode: string | undefined;

  let start = 0;
  let maxRows = Number.POSITIVE_INFINITY;
  let first = true;
  for (;;) {
    const budget = Math.max(1, options.budgetBytes - fixed);
    const count = job.total === 0 ? 0 : rowsThatFit((i) => job.rowBytes[i], start, job.total, budget, maxRows);
    const last = start + count >= job.total;

    if (large && !last) app.suspendApiCalculationUntilNextSync();
    if (large && first) app.suspendScreenUpdatingUntilNextSync();
    if (first) {
      job.setup?.(ctx);
      if (large) app.load('calculationMode');
    }
    if (count > 0) job.chunk(ctx, start, count);
    if (last) {
      job.finalize?.(ctx);
      if (large && calculationMode === 'Automatic') app.calculate('Recalculate');
    }

    let bytes = first || last ? fixed : 0;
    for (let i = start; i < start + count; i++) bytes += job.rowBytes[i];
    try {
      await session.sync();
    } catch (error) {
      if (!isPayloadLimitError(error)) throw new WriteStopped(start, error);
      if (count <= 1) {
        throw new WriteStopped(start, new GatewayError('PayloadTooLarge', `One row is larger than Excel accepts in a request (about ${bytes} bytes)`));
      }
      maxRows = Math.floor(count / 2);
      stats.retries++;
      continue;
    }
    if (first && large) calculationMode = app.calculationMode;
    first = false;
    stats.chunks++;
    stats.rowsPerChunk = Math.max(stats.rowsPerChunk, count);
    stats.largestPayloadBytes = Math.max(stats.largestPayloadBytes, bytes);
    start += count;
    if (last) return;
  }
}

/** Average size of a read cell before we have measured one; refined from the first chunk. */
const GUESS_CELL_BYTES = 48;

/**
 * Reads `total` rows in chunks whose responses fit the budget (responses have the same 5 MB limit). The size
 * of each chunk is learnt from the previous one; a payload error halves it.
 */
export async function readChunked<T extends { values: ReadValue[][] }>(
  session: Session,
  total: number,
  cols: number,
  load: (ctx: Excel.RequestContext, start: number, count: number) => () => T,
): Promise<T[]> {
  const out: T[] = [];
  const budget = session.options.budgetBytes;
  let perRow = Math.max(1, cols) * GUESS_CELL_BYTES;
  let start = 0;
  while (start < total) {
    const count = Math.max(1, Math.min(total - start, Math.floor(budget / perRow)));
    const take = load(session.ctx, start, count);
    try {
      await session.sync();
    } catch (error) {
      if (!isPayloadLimitError(error) || count <= 1) throw error;
      perRow = Math.ceil(budget / Math.floor(count / 2));
      session.stats.retries++;
      continue;
    }
    const chunk = take();
    out.push(chunk);
    perRow = Math.max(1, Math.ceil((jsonBytes(chunk) / count) * 1.1));
    session.stats.chunks++;
    session.stats.rowsPerChunk = Math.max(session.stats.rowsPerChunk, count);
    start += count;
  }
  return out;
}
