// Refresh of the statement blocks: where each recorded block is now (placement.ts), what rebuilding them
// will cost, and doing it. A damaged block is shown as such, costs nothing and is not written. Refresh
// all first lets the shared runtime clear the company's cached answers and recalculate the FIN cells (its
// own refresh all), then rebuilds every statement block through the cached reader, so a report that a
// block and a formula both need is one call. Refresh this block fetches the block's reports again and
// keeps the new answers in the cache, so FIN cells of the same periods read the same figures.

import type { RefreshReport } from '../fin';
import { canonicalKey } from '../reader/requestCache';
import { plural } from '../text/plural';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import { failureOf, markFailed, refreshStatement, type BlockDeps } from './blocks';
import { columnsFor, distinctRequests } from './columns';
import { isDamage, placeBlock, type Placement } from './placement';
import { specFromBinding, type StatementSpec } from './spec';

/** A block is shown as stale when its data is older than this. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RefreshBlock {
  binding: BindingRecord;
  spec: StatementSpec;
  /** Canonical keys of the block's distinct requests. */
  keys: string[];
  /** Where it is now, or that it is damaged (as of the plan). */
  placement: Placement;
}

export interface RefreshPlan {
  /** The company's statement blocks, in the order they are rebuilt. */
  blocks: RefreshBlock[];
  /** Blocks this pane does not rebuild (transactions tables, other companies). */
  others: BindingRecord[];
  /** Distinct requests across the blocks that are not damaged: what rebuilding them spends. */
  blockCalls: number;
  /** Answers cached for the company beyond the blocks': at most what the FIN formulas fetch again. */
  formulaCalls: number;
}

async function blockOf(gateway: WorkbookGateway, binding: BindingRecord, companyId: string): Promise<RefreshBlock | null> {
  const spec = specFromBinding(binding);
  if (!spec || binding.company !== companyId) return null;
  const keys = [...distinctRequests(columnsFor(spec)).values()].map((r) => canonicalKey(companyId, r));
  return { binding, spec, keys, placement: await placeBlock(gateway, binding, spec) };
}

function isWritable(block: RefreshBlock): boolean {
  return block.placement.kind !== 'damaged';
}

export async function planRefresh(
  gateway: WorkbookGateway,
  companyId: string,
  cachedKeys: () => Promise<string[]>,
): Promise<RefreshPlan> {
  const bindings = await gateway.listBindings();
  const blocks: RefreshBlock[] = [];
  const others: BindingRecord[] = [];
  for (const b of bindings) {
    const block = await blockOf(gateway, b, companyId);
    if (block) blocks.push(block);
    else others.push(b);
  }
  const blockKeys = new Set(blocks.filter(isWritable).flatMap((b) => b.keys));
  const prefix = canonicalKey(companyId, { path: '' });
  let cached: string[] = [];
  try {
    cached = (await cachedKeys()).filter((k) => k.startsWith(prefix));
  } catch {
    cached = [];
  }
  const formulaCalls = new Set(cached.filter((k) => !blockKeys.has(k))).size;
  return { blocks, others, blockCalls: blockKeys.size, formulaCalls };
}

export function refreshAllCostText(plan: RefreshPlan): string {
  const n = plan.blockCalls + plan.formulaCalls;
  const blocks = plural(plan.blocks.filter(isWritable).length, 'block');
  const calls = (c: number) => plural(c, 'call');
  if (plan.formulaCalls === 0) return `This will spend ${calls(n)} to rebuild ${blocks}.`;
  return `This will spend up to ${calls(n)}: ${calls(plan.blockCalls)} to rebuild ${blocks} and up to ${plan.formulaCalls} for FIN formulas.`;
}

export function blockCostText(block: RefreshBlock): string {
  const n = block.keys.length;
  return `This will spend ${plural(n, 'call')} to rebuild this block.`;
}

export interface BlockFailure {
  binding: BindingRecord;
  error: unknown;
}

export interface RefreshOutcome {
  refreshed: BindingRecord[];
  failed: BlockFailure[];
  /** The runtime's report on the FIN formulas, when it ran. */
  formulas?: RefreshReport;
}

function isMonthlyLimit(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'monthly_limit_exceeded';
}

/**
 * Refresh all. `refreshFormulas` is the runtime's refresh all (clears the cache, recalculates FIN cells);
 * without one, the cache is cleared here. A monthly-limit stop ends the run: nothing more can be fetched.
 */
export async function refreshAll(
  deps: BlockDeps,
  plan: RefreshPlan,
  options: { refreshFormulas?: () => Promise<RefreshReport>; onProgress?: (done: number, total: number) => void },
): Promise<RefreshOutcome> {
  let formulas: RefreshReport | undefined;
  if (options.refreshFormulas) {
    formulas = await options.refreshFormulas();
    // Under the cap nothing was cleared: every block keeps its figures, and nothing is sent.
    if (formulas.limited) await deps.reader.assertCanSpend('/reports');
  } else {
    await deps.reader.clear();
  }
  const writable = plan.blocks.filter(isWritable);
  const total = writable.reduce((n, b) => n + b.keys.length, 0);
  let before = 0;
  options.onProgress?.(0, total);
  const outcome: RefreshOutcome = { refreshed: [], failed: [], formulas };
  // Damaged as the plan found them: not tried, so nothing is spent beyond the cost shown.
  for (const block of plan.blocks) if (block.placement.kind === 'damaged') outcome.failed.push({ binding: block.binding, error: block.placement.refusal });
  for (const block of writable) {
    try {
      const { binding } = await refreshStatement(deps, block.binding, {
        fresh: false,
        onProgress: (done) => options.onProgress?.(before + done, total),
      });
      outcome.refreshed.push(binding);
    } catch (error) {
      // A block damaged since the plan is left as it is, binding and stamp included.
      const marked = isDamage(error) ? block.binding : await markFailed(deps, block.binding, errorText(error)).catch(() => block.binding);
      outcome.failed.push({ binding: marked, error });
      if (isMonthlyLimit(error)) break;
    }
    before += block.keys.length;
    options.onProgress?.(before, total);
  }
  return outcome;
}

/** Refresh this block: its reports fetched again (not from the cache), rewritten in place. */
export async function refreshBlock(
  deps: BlockDeps,
  block: RefreshBlock,
  onProgress?: (done: number, total: number) => void,
): Promise<BindingRecord> {
  try {
    return (await refreshStatement(deps, block.binding, { fresh: true, onProgress })).binding;
  } catch (error) {
    if (!isDamage(error)) await markFailed(deps, block.binding, errorText(error)).catch(() => undefined);
    throw error;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isStale(binding: BindingRecord, now: number): boolean {
  if (failureOf(binding)) return true;
  const at = Date.parse(binding.refreshedAt);
  return !Number.isFinite(at) || now - at > STALE_AFTER_MS;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(thenMs: number, now: number): string {
  if (!Number.isFinite(thenMs)) return 'at an unknown time';
  const s = Math.max(0, Math.round((now - thenMs) / 1000));
  if (s < 60) return 'just now';
  const unit = (n: number, word: string) => `${plural(n, word)} ago`;
  const m = Math.round(s / 60);
  if (m < 60) return unit(m, 'minute');
  const h = Math.round(m / 60);
  if (h < 48) return unit(h, 'hour');
  return unit(Math.round(h / 24), 'day');
}
