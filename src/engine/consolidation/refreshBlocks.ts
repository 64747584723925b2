// The consolidated blocks in a refresh of the workbook. Each company's own refresh (engine/refresh) marks its
// cached answers due -- all of them on a full refresh (but what closed books keep), those its changes touch on
// a refresh of changes -- and a consolidated block reads its companies' answers through their caches. So,
// after the companies' refreshes, a block is rebuilt when any of its companies' answers is due, and costs
// just those (one call per company at most); a block none of whose answers moved is left as it is, not
// rewritten. A block with a company not connected here is left too, and named.

import type { BindingRecord } from '../ports/workbook';
import type { RefreshKindStamp } from '../render/statementGrid';
import { consolidatedBlocks, consolidatedCost, refreshConsolidated, type ConsolidatedBlock, type ConsolidatedDeps, type Member } from './insert';

export interface ConsolidatedRefreshOutcome {
  refreshed: BindingRecord[];
  failed: { binding: BindingRecord; error: unknown }[];
  /** Blocks none of whose companies' answers was due: not rewritten. */
  unchanged: number;
  /** Blocks with a company not connected here, by the names of the companies missing. */
  unconnected: { binding: BindingRecord; missing: string[] }[];
  /** What the rebuilds spent, on all their companies' meters. */
  calls: number;
}

/** A block's companies as connected here, in its order; or the names of those that are not. */
export type MembersOf = (block: ConsolidatedBlock) => Promise<{ members: Member[] } | { missing: string[] }>;

/** A consolidated block with its companies as connected here. */
export interface ConnectedBlock {
  block: ConsolidatedBlock;
  members: Member[];
}

/** The workbook's consolidated blocks, each with its companies connected here, or named as not connected. */
export async function connectedBlocks(gateway: ConsolidatedDeps['gateway'], membersOf: MembersOf): Promise<{ connected: ConnectedBlock[]; unconnected: ConsolidatedRefreshOutcome['unconnected'] }> {
  const connected: ConnectedBlock[] = [];
  const unconnected: ConsolidatedRefreshOutcome['unconnected'] = [];
  for (const block of await consolidatedBlocks(gateway)) {
    const found = await membersOf(block);
    if ('missing' in found) unconnected.push({ binding: block.binding, missing: found.missing });
    else connected.push({ block, members: found.members });
  }
  return { connected, unconnected };
}

export async function refreshConsolidatedBlocks(
  deps: Omit<ConsolidatedDeps, 'title'>,
  membersOf: MembersOf,
  kind: Extract<RefreshKindStamp, 'full' | 'changes'>,
): Promise<ConsolidatedRefreshOutcome> {
  const { connected, unconnected } = await connectedBlocks(deps.gateway, membersOf);
  return { ...(await rebuildConsolidated(deps, connected, kind)), unconnected };
}

/**
 * Rebuilds each block through its companies' caches when any of their answers is due (the caller marked
 * them), counting what that spends on the companies' meters; the others are left as they are.
 */
export async function rebuildConsolidated(
  deps: Omit<ConsolidatedDeps, 'title'>,
  blocks: readonly ConnectedBlock[],
  kind: RefreshKindStamp,
): Promise<ConsolidatedRefreshOutcome> {
  const outcome: ConsolidatedRefreshOutcome = { refreshed: [], failed: [], unchanged: 0, unconnected: [], calls: 0 };
  for (const { block, members } of blocks) {
    if ((await consolidatedCost(members, block.spec)).calls === 0) {
      outcome.unchanged++;
      continue;
    }
    const count = () => Promise.all(members.map((m) => m.client.meter.count()));
    const before = await count();
    try {
      const { binding } = await refreshConsolidated({ ...deps, title: block.title }, block, members, { fresh: false, kind });
      outcome.refreshed.push(binding);
    } catch (error) {
      outcome.failed.push({ binding: block.binding, error });
    } finally {
      const after = await count();
      outcome.calls += after.reduce((n, c, i) => n + Math.max(0, c - before[i]), 0);
    }
  }
  return outcome;
}
