// What fits when a block does not (issue 13, item 2): months or quarters side by side can be inserted for
// their leading periods, the rest after the reset (the block's own refresh then costs only those). Other
// layouts are one or two reports the user cannot split: a shorter period is theirs to choose.

import type { ReadRequest } from '../reader/requestCache';
import type { CallCost } from '../reader/cachedReader';
import { columnsFor } from './columns';
import type { StatementSpec } from './spec';

export interface FittingBlock {
  spec: StatementSpec;
  /** Periods of the original block it keeps, and their cost. */
  periods: number;
  of: number;
  calls: number;
}

/**
 * The longest run of leading periods of `spec` that costs at most `left` calls (cached periods are free),
 * or null when the layout cannot be split or not even its first period fits. Never calls the API.
 */
export async function leadingPeriodsWithin(
  spec: StatementSpec,
  left: number,
  cost: (requests: ReadRequest[]) => Promise<CallCost>,
): Promise<FittingBlock | null> {
  if (spec.layout !== 'months' && spec.layout !== 'quarters') return null;
  const columns = columnsFor(spec);
  let best: FittingBlock | null = null;
  for (let k = 1; k < columns.length; k++) {
    const { calls } = await cost(columns.slice(0, k).map((c) => c.request));
    if (calls > left) break;
    const end = columns[k - 1].end ?? columns[k - 1].date!;
    best = { spec: { ...spec, period: 'custom', end }, periods: k, of: columns.length, calls };
  }
  return best;
}
