// Moving the reporting period: what it costs before anything is spent, then doing it. The blocks relative to
// the period get their new dates and are rebuilt through the cache, so a period already fetched (last month's
// columns are this month's prior ones) costs nothing; only what is not cached is fetched, nothing is marked
// due. The FIN cells that read FIN_PERIOD follow by recalculation when the cell is written, reading through
// the same cache. Blocks of fixed dates are not touched.

import type { YearMonth } from '../dates';
import type { CallCost, CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import { markFailed, refreshStatement, type BlockDeps } from '../statements/blocks';
import { blockRequests } from '../statements/columns';
import { isDamage, isInactive } from '../statements/placement';
import { rollBinding, specFromBinding, type StatementSpec } from '../statements/spec';
import { setReportingPeriod } from './period';

export interface RollBlock {
  /** The binding with its new dates (saved when the block is rebuilt). */
  binding: BindingRecord;
  spec: StatementSpec;
}

export interface RollPlan {
  month: YearMonth;
  /** The company's relative blocks whose dates move. */
  blocks: RollBlock[];
  /** Its relative blocks already at the month's dates. */
  unchanged: number;
  /** What the moved blocks and the other reads named (a template's formulas) fetch: the periods not cached. */
  cost: CallCost;
  /** The requests the cost was priced from: the roll follows their plan (reader/derivations.ts). */
  requests: ReadRequest[];
}

/**
 * What moving the reporting period to `month` spends; calls nothing. `formulaReads` are requests the FIN
 * cells that read FIN_PERIOD will make at the new month, where the caller knows them (the board pack's KPIs).
 */
export async function planRoll(gateway: WorkbookGateway, reader: CachedReader, month: YearMonth, formulaReads: readonly ReadRequest[] = []): Promise<RollPlan> {
  const company = await reader.companyId();
  const blocks: RollBlock[] = [];
  let unchanged = 0;
  for (const recorded of await gateway.listBindings()) {
    if (recorded.company !== company || !specFromBinding(recorded)?.relation) continue;
    const binding = rollBinding(recorded, month);
    if (!binding) {
      unchanged += 1;
      continue;
    }
    blocks.push({ binding, spec: specFromBinding(binding)! });
  }
  const requests = [...blocks.flatMap((b) => blockRequests(b.spec)), ...formulaReads];
  return { month, blocks, unchanged, requests, cost: await reader.cost(requests) };
}

export interface RollOutcome {
  /** Where the reporting period cell is. */
  address: string;
  rolled: BindingRecord[];
  failed: { binding: BindingRecord; error: unknown }[];
}

/**
 * Writes the month into FIN_PERIOD (its FIN cells recalculate), then rebuilds each moved block in place at its
 * new dates through the cache. A block that fails keeps its figures, marked failed, with its new dates
 * recorded, so the next refresh rebuilds it at them; a monthly-limit stop ends the run, and so does Excel
 * refusing while another window is in front.
 */
export async function rollForward(deps: BlockDeps, plan: RollPlan, onProgress?: (done: number, total: number) => void): Promise<RollOutcome> {
  const address = await setReportingPeriod(deps.gateway, plan.month);
  const outcome: RollOutcome = { address, rolled: [], failed: [] };
  const total = plan.blocks.length;
  onProgress?.(0, total);
  for (const [i, block] of plan.blocks.entries()) {
    try {
      outcome.rolled.push((await refreshStatement(deps, block.binding, { fresh: false, kind: 'roll' })).binding);
    } catch (error) {
      const marked = isDamage(error) ? block.binding : await markFailed(deps, block.binding, error instanceof Error ? error.message : String(error)).catch(() => block.binding);
      outcome.failed.push({ binding: marked, error });
      if ((error as { code?: unknown })?.code === 'monthly_limit_exceeded' || isInactive(error)) break;
    }
    onProgress?.(i + 1, total);
  }
  return outcome;
}
