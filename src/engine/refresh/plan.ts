// What the two kinds of workbook refresh cost, before anything is spent (issue 14: "each with its cost shown
// before it spends"). A full refresh is exact: a new watermark, every request of the blocks and formulas not
// within closed books (each once), and a sync page per transactions table (a table with filters that can
// change on a transaction is pulled again, at least a page). A changed-only refresh costs one sync call to
// ask, then what the changes touch -- known only after asking -- and never more than the full refresh.

import { storedWatermark } from '../sync/changeFeed';
import { mirrorPagesFor, storedPlacements } from '../sync/placements';
import type { CacheStore } from '../ports/storage';
import type { RefreshPlan } from '../statements';
import { plural } from '../text/plural';

export interface WorkbookPlan {
  blocks: RefreshPlan;
  /** The company's transactions tables. */
  tables: number;
  /** Whether a changed-only refresh has a watermark to ask from (otherwise it runs as a full one). */
  watermark: boolean;
  /** A full refresh, exactly (tables counted at one page each: their least). */
  fullCalls: number;
  /** Already known to be due without asking: what the add-in's own pushes changed. */
  knownCalls: number;
  /** Consolidated statements with a column of this company: their figures are among the cached answers. */
  consolidated: number;
  /**
   * Pages a full refresh may spend, once, to record where each transaction posts (sync/placements.ts; 0 when
   * the record holds them all): in the cost shown (fullRefreshAtMost), apart from fullCalls, the least it spends.
   */
  mirrorCalls?: number;
}

export async function planWorkbookRefresh(blocks: RefreshPlan, tables: number, store: CacheStore, companyId: string, consolidated = 0): Promise<WorkbookPlan> {
  const watermark = (await storedWatermark(store, companyId)) !== null;
  const fullCalls = 1 + blocks.blockCalls + blocks.formulaCalls + tables;
  const knownCalls = blocks.changedCalls.blockCalls + blocks.changedCalls.formulaCalls;
  const recorded = (await storedPlacements(store, companyId)).complete;
  return { blocks, tables, watermark, fullCalls, knownCalls, consolidated, mirrorCalls: recorded ? 0 : mirrorPagesFor(blocks.blockCalls + blocks.formulaCalls) };
}

/**
 * What a full refresh may spend at most: its figures and, the first time, the record of where each transaction
 * posts (bounded; a company with few transactions spends a page per 500). The cost shown is never below it.
 */
export function fullRefreshAtMost(plan: WorkbookPlan): number {
  return plan.fullCalls + (plan.mirrorCalls ?? 0);
}

export function changedRefreshText(plan: WorkbookPlan): string {
  if (!plan.watermark) {
    const upTo = plan.mirrorCalls ? 'up to ' : '';
    return `The first changed-only refresh has no record of what changed since the figures were fetched, so it refreshes everything (${upTo}${plural(fullRefreshAtMost(plan), 'call')}${mirrorPart(plan, ', ')}) and keeps that record from then on.`;
  }
  const known = plan.knownCalls > 0 ? `, including ${plural(plan.knownCalls, 'call')} for what your pushes changed` : '';
  return `This will spend 1 call to ask what changed since the last refresh, then only what the changes touch${known}: at most ${plural(plan.fullCalls, 'call')}.`;
}

export function fullRefreshText(plan: WorkbookPlan): string {
  const { blocks } = plan;
  const writable = blocks.blocks.filter((b) => b.placement.kind !== 'damaged').length;
  const parts = ['1 to start the record of what changes'];
  if (blocks.blockCalls > 0) parts.push(`${blocks.blockCalls} to rebuild ${plural(writable, 'block')}`);
  // The cached answers beyond the blocks': the FIN formulas', and the consolidated statements' (rebuilt last).
  const beyond = plan.consolidated > 0 ? `FIN formulas and ${plural(plan.consolidated, 'consolidated statement')}` : 'FIN formulas';
  if (blocks.formulaCalls > 0) parts.push(`up to ${blocks.formulaCalls} for ${beyond}`);
  if (plan.tables > 0) parts.push(`${plan.tables} for ${plural(plan.tables, 'transactions table')} (more if a table has grown past a page)`);
  const frozen = blocks.blocks.some((b) => b.frozen > 0) ? ' Figures within closed books are kept.' : '';
  const upTo = blocks.formulaCalls > 0 || plan.mirrorCalls ? 'up to ' : '';
  return `This will spend ${upTo}${plural(fullRefreshAtMost(plan), 'call')} to fetch everything again: ${parts.join(', ')}${mirrorPart(plan, ', and ')}.${frozen}`;
}

/** The once-only cost of recording where each transaction posts, in the cost shown before it is spent. */
function mirrorPart(plan: WorkbookPlan, joint: string): string {
  if (!plan.mirrorCalls) return '';
  return `${joint}this once, up to ${plan.mirrorCalls} to record where each transaction posts (1 per 500 transactions) so that Refresh changes can place every change`;
}

/** What a changed-only refresh cannot see, said beside it. */
export const CHANGED_ONLY_BLIND_SPOT =
  'It cannot see journal entries that come from no transaction (depreciation, accruals, a rebuild of the books): after those, use Full refresh.';
