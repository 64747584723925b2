// The FIN formulas that name the reporting period recalculate when it moves. What they will read at the new
// month is known only once Excel has calculated them (a formula may shift the period, add " YTD", or pick
// among several), but what they read now is known: moved a month, the same formulas read as many requests
// again, of periods mostly not fetched yet. So moving the period counts them at that, said as "about".

import type { FinCell } from '../fin';
import { WHOLE_SHEET, type Box } from '../ports/address';
import { isReferenceRead } from '../reader/reference';
import { canonicalKey, type ReadRequest } from '../reader/requestCache';

/** How the FIN cells are found and what each read is known (the host and the runtime, as for a scope refresh). */
export interface PeriodCellsDeps {
  sheets(): Promise<string[]>;
  finCellsIn(sheet: string, box: Box): Promise<FinCell[]>;
  /** What the cells read of the company when last calculated; `unknown`: cells with no record yet. */
  requestsOf(cells: readonly FinCell[]): { requests: ReadRequest[]; unknown: number };
}

export interface PeriodFormulas {
  /** FIN cells whose formula names FIN_PERIOD (outside the sheets left out). */
  cells: number;
  /** About what they spend when the period moves: the distinct figures they read now (reference lists and what is priced exactly aside). */
  calls: number;
  /** Of the cells, those not calculated since the add-in started: what they read is not known, nor counted. */
  unknown: number;
}

/**
 * `skipSheets`: sheets whose formulas are priced exactly elsewhere (the board pack's KPIs and charts).
 * `covered`: what the reads priced exactly (the pack's formulas, the relative blocks) read at the period now.
 * A figure of the user's formulas among them is not counted: moved with the period, it is what those reads
 * read then, already in the cost (the charts read every month of the year to date, a year back too).
 */
export async function periodFormulas(deps: PeriodCellsDeps, skipSheets: readonly string[] = [], covered: readonly ReadRequest[] = []): Promise<PeriodFormulas> {
  const skipped = new Set(skipSheets.map((s) => s.toLowerCase()));
  const cells: FinCell[] = [];
  for (const sheet of await deps.sheets()) {
    if (skipped.has(sheet.toLowerCase())) continue;
    cells.push(...(await deps.finCellsIn(sheet, WHOLE_SHEET)).filter((c) => c.readsPeriod === true));
  }
  if (cells.length === 0) return { cells: 0, calls: 0, unknown: 0 };
  const read = deps.requestsOf(cells);
  const priced = new Set(covered.map((r) => canonicalKey('', r)));
  const figures = new Set(read.requests.filter((r) => !isReferenceRead(r)).map((r) => canonicalKey('', r)).filter((key) => !priced.has(key)));
  return { cells: cells.length, calls: figures.size, unknown: read.unknown };
}
