// Refresh of the statement blocks: where each recorded block is now (placement.ts), what rebuilding them
// will cost, and doing it. A damaged block is shown as such, costs nothing and is not written. Refresh
// all first lets the shared runtime clear the company's cached answers and recalculate the FIN cells (its
// own refresh all), then rebuilds every statement block through the cached reader, so a report that a
// block and a formula both need is one call. Refresh this block fetches the block's reports again and
// keeps the new answers in the cache, so FIN cells of the same periods read the same figures.

import type { RefreshReport } from '../fin';
import type { RefreshKindStamp } from '../render/statementGrid';
import { canonicalKey, type ReadRequest } from '../reader/requestCache';
import { plural } from '../text/plural';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import { failureOf, markFailed, refreshStatement, type BlockDeps } from './blocks';
import { blockRequests } from './columns';
import { isDamage, isInactive, placeBlock, type Placement } from './placement';
import type { YearMonth } from '../dates';
import { readReportingPeriod } from '../reporting/period';
import { budgetEdited } from '../budgets/column';
import { comparesBudget, rollBinding, specFromBinding, type StatementSpec } from './spec';

/** A block is shown as old when its data is older than this. */
export const OLD_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RefreshBlock {
  binding: BindingRecord;
  spec: StatementSpec;
  /** Canonical keys of the block's distinct requests. */
  keys: string[];
  /** Those of its requests known to have changed since the block was written (a push, a shift). */
  changed: string[];
  /** What rebuilding it from the cache spends now: its requests due for a refresh (planRefresh fills it). */
  changedCalls: number;
  /** What fetching all its requests again spends (Refresh this block): one call each, a walk its pages. */
  calls: number;
  /** Its requests within closed books: kept by every refresh but Refresh this block. */
  frozen: number;
  /** Where it is now, or that it is damaged (as of the plan). */
  placement: Placement;
  /** The reporting period moved since it was written: `binding` carries its new dates (relative.ts). */
  rolled: boolean;
  /** Against a budget: the budget's figures for its period were edited since it was written (engine/budgets). */
  budgetChanged?: boolean;
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
  /** What refreshing only what is known to have changed spends: the changed blocks' stale requests and
   * the stale answers beyond them (at most what FIN formulas fetch again). */
  changedCalls: { blocks: number; blockCalls: number; formulaCalls: number };
}

/** When the block was last written: a change known after it leaves the block behind. */
function writtenAt(binding: BindingRecord): number {
  return Date.parse(binding.writtenAt ?? binding.refreshedAt);
}

/** A block as the workbook has it: its binding (rolled to the reporting period), requests and place; not yet priced. */
async function blockOf(
  gateway: WorkbookGateway,
  recorded: BindingRecord,
  companyId: string,
  month: YearMonth | null,
  facts: CacheFacts,
): Promise<RefreshBlock | null> {
  const rolledBinding = month && recorded.company === companyId ? rollBinding(recorded, month) : null;
  const binding = rolledBinding ?? recorded;
  const spec = specFromBinding(binding);
  if (!spec || binding.company !== companyId) return null;
  const requests = [...new Map(blockRequests(spec).map((r) => [canonicalKey(companyId, r), r])).values()];
  // A cash flow whose cash comes from the balance sheets changes when they do (reader/cashFlowCash.ts).
  const keys = [...new Set((facts.withDependents?.(requests) ?? requests).map((r) => canonicalKey(companyId, r)))];
  const budgetChanged = comparesBudget(spec) && spec.budget ? await budgetEdited(gateway, { ...spec, budget: spec.budget }, binding.parameters.budgetFingerprint) : false;
  return {
    binding,
    spec,
    keys,
    changed: [],
    changedCalls: 0,
    calls: keys.length,
    frozen: 0,
    placement: await placeBlock(gateway, binding, spec),
    rolled: rolledBinding !== null,
    ...(budgetChanged ? { budgetChanged } : {}),
  };
}

/** The month every relative block follows, when the workbook has a reporting period. */
async function reportingMonth(gateway: WorkbookGateway): Promise<YearMonth | null> {
  const period = await orNone(() => readReportingPeriod(gateway), { state: 'none' } as const);
  return period.state === 'set' ? period.month : null;
}

function isWritable(block: RefreshBlock): boolean {
  return block.placement.kind !== 'damaged';
}

/** What the cache knows, for planning; none of it calls the API. */
export interface CacheFacts {
  /** Keys of the company's cached answers. */
  cachedKeys: () => Promise<string[]>;
  /** Keys of the company's cached answers due for a refresh. */
  staleKeys: () => Promise<string[]>;
  /** When each request was last known to change. */
  changes: () => Promise<ReadonlyMap<string, number>>;
  /** Whether a request lies within closed books (its answer is kept by every refresh). */
  isFrozen: (key: string) => boolean;
  /** The requests reading these takes (CachedReader.withDependents); the requests themselves by default. */
  withDependents?: (requests: readonly ReadRequest[]) => ReadRequest[];
  /** What fetching each answer again spends (CachedReader.callsOf: a walk counts its pages); 1 each by default. */
  callsOf?: (keys: readonly string[]) => Promise<ReadonlyMap<string, number>>;
}

async function orNone<T>(read: () => Promise<T>, none: T): Promise<T> {
  try {
    return await read();
  } catch {
    return none; // storage unreadable: plan without it
  }
}

/**
 * The company's blocks and what refreshing them costs. The workbook is read here (every binding, every
 * block's place); what the cache knows (what changed, what is due, what is closed) is priced by reprice, which
 * a refresh runs again after it learned what changed, without reading the workbook a second time.
 */
export async function planRefresh(gateway: WorkbookGateway, companyId: string, facts: CacheFacts): Promise<RefreshPlan> {
  const bindings = await gateway.listBindings();
  // The period cell is read only when some block follows it: a workbook without one pays no round trip for it.
  const month = bindings.some((b) => specFromBinding(b)?.relation) ? await reportingMonth(gateway) : null;
  const blocks: RefreshBlock[] = [];
  const others: BindingRecord[] = [];
  for (const b of bindings) {
    const block = await blockOf(gateway, b, companyId, month, facts);
    if (block) blocks.push(block);
    else others.push(b);
  }
  return reprice({ blocks, others, blockCalls: 0, formulaCalls: 0, changedCalls: { blocks: 0, blockCalls: 0, formulaCalls: 0 } }, companyId, facts);
}

/** The plan's blocks priced by what the cache knows now: what changed since each was written, what is due, what is closed. */
export async function reprice(plan: RefreshPlan, companyId: string, facts: CacheFacts): Promise<RefreshPlan> {
  const changes = await orNone(facts.changes, new Map<string, number>());
  const prefix = canonicalKey(companyId, { path: '' });
  const cached = (await orNone(facts.cachedKeys, [])).filter((k) => k.startsWith(prefix) && !facts.isFrozen(k));
  const weights = await orNone(async () => (await facts.callsOf?.([...new Set([...plan.blocks.flatMap((b) => b.keys), ...cached])])) ?? new Map<string, number>(), new Map<string, number>());
  /** What fetching these answers again spends. */
  const calls = (keys: Iterable<string>): number => {
    let n = 0;
    for (const k of keys) n += weights.get(k) ?? 1;
    return n;
  };
  const blocks = plan.blocks.map((block): RefreshBlock => {
    const written = writtenAt(block.binding);
    // An unreadable time is not evidence of a change: the age badge covers it. A rolled block is behind in all of it.
    // A change inside closed books does not reopen them: only the user does (Refresh this block). New dates do.
    // An edited budget changes what the block shows, not what it fetches: rebuilt from the cache.
    const changed =
      block.rolled || block.budgetChanged
        ? block.keys
        : Number.isFinite(written)
          ? block.keys.filter((k) => (changes.get(k) ?? -Infinity) > written && !facts.isFrozen(k))
          : [];
    return { ...block, changed, changedCalls: 0, calls: calls(block.keys), frozen: block.keys.filter(facts.isFrozen).length };
  });
  const blockKeys = new Set(blocks.filter(isWritable).flatMap((b) => b.keys.filter((k) => !facts.isFrozen(k))));
  const formulaCalls = calls(new Set(cached.filter((k) => !blockKeys.has(k))));
  // A changed block refetches its changed requests only while they are stale: a formula may have fetched
  // one again since (the block is still behind, and rebuilds from the cache for nothing).
  const stale = new Set((await orNone(facts.staleKeys, [])).filter((k) => k.startsWith(prefix)));
  // A rolled block's new periods are due unless cached: last month's columns may be this month's prior ones.
  const cachedNow = new Set(cached);
  for (const b of blocks) if (b.rolled && isWritable(b)) for (const k of b.keys) if (!cachedNow.has(k) && !facts.isFrozen(k)) stale.add(k);
  for (const b of blocks) if (b.changed.length > 0) b.changedCalls = calls(b.keys.filter((k) => stale.has(k)));
  const changedBlocks = blocks.filter((b) => b.changed.length > 0 && isWritable(b));
  const changedBlockKeys = new Set(changedBlocks.flatMap((b) => b.keys));
  const changedCalls = {
    blocks: changedBlocks.length,
    blockCalls: calls([...changedBlockKeys].filter((k) => stale.has(k))),
    formulaCalls: calls([...stale].filter((k) => !changedBlockKeys.has(k))),
  };
  return { blocks, others: plan.others, blockCalls: calls(blockKeys), formulaCalls, changedCalls };
}

/** The plan of a refresh of only what is known to have changed. */
export function changedOnly(plan: RefreshPlan): RefreshPlan {
  const blocks = plan.blocks.filter((b) => b.changed.length > 0 && isWritable(b));
  return { ...plan, blocks, blockCalls: plan.changedCalls.blockCalls, formulaCalls: plan.changedCalls.formulaCalls };
}

/**
 * The plan as a refresh left it, from the plan it ran and what it wrote, without reading the workbook again:
 * a rebuilt block is where its new binding says, named, and nothing is known to have changed in it; a block
 * that failed carries its failure. The plan's costs are the refresh's last figures: for the list of blocks.
 */
export function planAfter(plan: RefreshPlan, outcome: RefreshOutcome): RefreshPlan {
  const rebuilt = new Map(outcome.refreshed.map((b) => [b.id, b]));
  const failed = new Map(outcome.failed.map((f) => [f.binding.id, f.binding]));
  const blocks = plan.blocks.map((block): RefreshBlock => {
    const binding = rebuilt.get(block.binding.id);
    if (binding) {
      const spec = specFromBinding(binding) ?? block.spec;
      return { ...block, binding, spec, changed: [], changedCalls: 0, rolled: false, budgetChanged: false, placement: { kind: 'named', address: binding.address } };
    }
    const marked = failed.get(block.binding.id);
    return marked ? { ...block, binding: marked } : block;
  });
  return { ...plan, blocks };
}

export function blockCostText(block: RefreshBlock): string {
  return `This will spend ${plural(block.calls, 'call')} to rebuild this block.`;
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
 * Refresh all, or of only what changed (`scope: 'changed'`, with the plan's changed blocks). `formulas` is
 * the report of the runtime's refresh of the FIN cells, run just before (for all, it marked the cache due);
 * without one, a full refresh marks the cache due here. A monthly-limit stop ends the run: nothing more can
 * be fetched; so does Excel refusing while another window is in front (isInactive).
 */
export async function refreshAll(
  deps: BlockDeps,
  plan: RefreshPlan,
  options: {
    formulas?: RefreshReport;
    onProgress?: (done: number, total: number) => void;
    scope?: 'all' | 'changed';
    /** What the blocks' stamps call the refresh; by default after its scope. */
    stamp?: RefreshKindStamp;
  },
): Promise<RefreshOutcome> {
  const { formulas } = options;
  if (formulas) {
    // Under the cap nothing was marked: every block keeps its figures, and nothing is sent.
    if (formulas.limited) await deps.reader.assertCanSpend('/reports');
  } else if (options.scope !== 'changed') {
    await deps.reader.markAllStale();
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
        kind: options.stamp ?? (options.scope === 'changed' ? 'changes' : 'full'),
        onProgress: (done) => options.onProgress?.(before + done, total),
      });
      outcome.refreshed.push(binding);
    } catch (error) {
      // A block damaged since the plan is left as it is, binding and stamp included.
      const marked = isDamage(error) ? block.binding : await markFailed(deps, block.binding, errorText(error)).catch(() => block.binding);
      outcome.failed.push({ binding: marked, error });
      if (isMonthlyLimit(error) || isInactive(error)) break;
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
    return (await refreshStatement(deps, block.binding, { fresh: true, kind: 'block', onProgress })).binding;
  } catch (error) {
    if (!isDamage(error)) await markFailed(deps, block.binding, errorText(error)).catch(() => undefined);
    throw error;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Older than a day, or its last refresh failed: worth a look, though nothing is known to have changed. */
export function isOld(binding: BindingRecord, now: number): boolean {
  if (failureOf(binding)) return true;
  const at = Date.parse(binding.refreshedAt);
  return !Number.isFinite(at) || now - at > OLD_AFTER_MS;
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
