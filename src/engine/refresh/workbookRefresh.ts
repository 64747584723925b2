// The one refresh of a workbook (issue 14, item 4): the FIN cells, the statement blocks and the
// transactions tables share one model of what is stale -- the cached answers' marks (reader/requestCache.ts)
// -- and one of two kinds of refresh:
//  - changed: one sync run asks what changed since the last refresh (sync/changeFeed.ts); only the cached
//    answers those changes touch, and those the add-in's own pushes touched, are fetched again; a table
//    takes the run's watermark when none of the changes is in it. Nothing changed: 1 call.
//  - full: the record of where each transaction posts first (a sync run, 1 call, when it holds them all;
//    else a mirror, updated_after=0, pages of 500, bounded), so nothing that changes meanwhile is lost, then
//    every answer not within closed books is fetched again and every table refreshed.
// A changed refresh with nothing to go on (no watermark yet, more changes than a full refresh costs) runs as
// a full one, and says so. The runtime runs it (src/runtime/workspace.ts): it starts the company's refresh
// here, refreshes the FIN cells itself, then finishes it here; the engine never calls back up.

import type { RefreshReport } from '../fin';
import type { CachedReader } from '../reader/cachedReader';
import { isReferenceRead } from '../reader/reference';
import { changedOnly, type RefreshOutcome, type RefreshPlan, type StatementsEngine } from '../statements';
import { settleRefresh, startMirror, syncChanges, type FeedDeps, type FeedResult } from '../sync/changeFeed';
import { mirrorPagesFor, storedPlacements } from '../sync/placements';
import { describeReferenceChanges, referenceChanges } from '../sync/referenceChanges';
import { plural } from '../text/plural';
import type { TransactionsEngine } from '../transactions';

export type RefreshKind = 'changed' | 'full';

export interface WorkbookRefreshDeps {
  statements: StatementsEngine;
  /** The workbook's transactions tables; absent where the host has none. */
  tables?: Pick<TransactionsEngine, 'tables' | 'catchUp' | 'refresh'>;
  reader: CachedReader;
  feed: FeedDeps;
  /** The client's call meter: what the refresh spent. */
  meter: { count(): Promise<number> };
  /** Turns derivation off for the company, persisted, saying why (a full refresh found a derived figure wrong). */
  derivationOff?: (because: string) => Promise<void>;
}

export interface TableRefresh {
  bindingId: string;
  table: string;
  outcome: 'unchanged' | 'refreshed' | 'failed';
  error?: unknown;
}

export interface WorkbookRefreshResult {
  /** What ran: a changed refresh with nothing to go on runs as a full one. */
  ran: RefreshKind;
  feed: FeedResult | null;
  blocks: RefreshOutcome;
  tables: TableRefresh[];
  calls: number;
  message: string;
}

/**
 * A company's refresh under way: what changed is known (or a new watermark started) and its tables are
 * refreshing. The caller refreshes the FIN cells now -- all the answers due on a full refresh, the changed ones
 * otherwise (`formulas`) -- then finishes: the blocks are rebuilt through the cache, so a report a cell and a
 * block share is fetched once.
 */
export interface StartedRefresh {
  ran: RefreshKind;
  /** What the FIN cells' refresh is to do: mark every answer due and recalculate, or recalculate only. */
  formulas: 'all' | 'changed';
  finish(formulas: RefreshReport | undefined, onProgress?: (done: number, total: number, fetched: number) => void): Promise<WorkbookRefreshResult>;
}

export async function startWorkbookRefresh(
  deps: WorkbookRefreshDeps,
  options: {
    kind: RefreshKind;
    /** The statements' plan, read once by whoever showed the refresh's cost. */
    plan: RefreshPlan;
    includeReference?: boolean;
    /** What the refresh is doing: asking what changed. */
    onPhase?: (phase: 'asking') => void;
  },
): Promise<StartedRefresh> {
  const before = await deps.meter.count();
  deps.reader.newRun();
  const company = await deps.reader.companyId();
  let ran: RefreshKind = options.kind;
  let feed: FeedResult | null = null;
  let reference = '';
  if (options.kind === 'changed') {
    options.onPhase?.('asking');
    // A sync longer than refreshing everything is not worth finishing.
    const everything = options.plan.blockCalls + options.plan.formulaCalls;
    feed = await syncChanges(deps.feed, { maxPages: Math.max(1, everything) });
    if (feed.kind === 'unknown') ran = 'full';
    if (options.includeReference) await deps.reader.markStale(isReferenceRead);
    else if (ran === 'changed') reference = await learnReferenceChanges(deps.feed, deps.reader);
  }
  // A full refresh keeps (or starts) the record of where each transaction posts, before it fetches anything.
  const recorded = ran === 'full' ? await keepPlacements(deps.feed, company, options.kind === 'full', options.plan.blockCalls + options.plan.formulaCalls) : '';

  // The tables first and beside the blocks and formulas, not after them: a table's pages wait one on the
  // other, and a re-pull is the longest chain of calls in the refresh (issue 14, item 5).
  const refreshingTables = refreshTables(deps, company, ran, feed);
  refreshingTables.catch(() => undefined); // met in finish, once the blocks are done
  // What the sync just marked is known now: the plan shown is priced again (the workbook is not read again).
  const priced = await deps.statements.reprice(options.plan);
  const plan = ran === 'full' ? priced : changedOnly(priced);
  // The blocks' monthly statements, which the refresh fetches anyway, are what the FIN cells' totals and
  // statements are derived from: a cell read before its block fetches them itself (reader/derivations.ts).
  const unplan = deps.reader.derivations.planSources(plan.blocks.filter((b) => b.placement.kind !== 'damaged').flatMap((b) => b.keys));
  return {
    ran,
    formulas: ran === 'full' ? 'all' : 'changed',
    finish: async (formulas, onProgress) => {
      const blocks = await deps.statements.refreshAll(plan, {
        scope: ran === 'full' ? 'all' : 'changed',
        formulas,
        onProgress: (done, total) => onProgress?.(done, total, plan.blockCalls),
      });
      unplan();
      const tables = await refreshingTables;
      const checked = ran === 'full' ? await checkDerivations(deps, company) : '';
      // What the refresh fetched is as of its sync; what is fetched from now on, as of later (changeFeed.ts).
      await settleRefresh(deps.feed.store, company, deps.reader.clock());
      const calls = Math.max(0, (await deps.meter.count()) - before);
      return { ran, feed, blocks, tables, calls, message: `${describe(options.kind, ran, feed, blocks, tables, calls)}${reference}${recorded}${checked}` };
    },
  };
}

/** The chart of accounts and the departments, read again when the cache holds them (1 call each). */
async function learnReferenceChanges(feed: FeedDeps, reader: CachedReader): Promise<string> {
  const { categories, departments } = feed.client;
  if (!categories || !departments) return '';
  return describeReferenceChanges(await referenceChanges(reader, { categories, departments }));
}

/**
 * The placement memory after a full refresh (sync/placements.ts): a whole one is carried on by a sync run
 * (1 call when nothing changed, as a new watermark costs); otherwise a mirror is read, at most what the
 * refresh itself costs (mirrorPagesFor: at least 50 pages, 25,000 transactions; at most 400, the 200,000 the
 * memory holds), so that the next Refresh changes can place what changes.
 */
async function keepPlacements(feed: FeedDeps, company: string, asked: boolean, budget: number): Promise<string> {
  const memory = await storedPlacements(feed.store, company);
  if (memory.complete) {
    if (!asked) return '';
    const run = await syncChanges(feed, { maxPages: Math.max(1, budget) });
    if (run.kind === 'synced' && run.mirrored) return '';
  }
  const mirror = await startMirror(feed, { maxPages: mirrorPagesFor(budget) });
  return mirror.complete
    ? ` Recorded where ${plural(mirror.placements, 'transaction')} post (${plural(mirror.calls, 'call')}), so Refresh changes can place what changes.`
    : ` Recorded where ${plural(mirror.placements, 'transaction')} post (${plural(mirror.calls, 'call')}); the rest did not fit, and a change to one of them makes Refresh changes refresh everything.`;
}

/**
 * After a full refresh, every answer the API gave that the monthly statements also decide is compared with
 * them (reader/derivations.ts, no call), and with derivation on one derived answer of each kind is fetched
 * from the API and compared (at most 3 calls, counted in what the refresh spent). A difference means this API breaks an identity the add-in relies on:
 * derivation is turned off for the company, and the refresh says so. With derivation off, the refresh says
 * what the check found either way (that is how a user learns whether it can be turned on).
 */
async function checkDerivations(deps: WorkbookRefreshDeps, company: string): Promise<string> {
  const { derivations } = deps.reader;
  const none = { checked: 0, differed: [] as string[], keys: new Set<string>() };
  // With derivation on, the figures were derived, not fetched: a sample is fetched to compare (at most 3 calls).
  const sample = derivations.enabled ? await derivations.verifySample(company).catch(() => none) : none;
  const found = await derivations.check(company, sample.keys).catch(() => none);
  const checked = sample.checked + found.checked;
  const differed = [...sample.differed, ...found.differed];
  if (differed.length > 0) {
    const because = `${plural(differed.length, 'figure')} of the API differed from the sum of its monthly statements (${differed.slice(0, 2).join('; ')}${differed.length > 2 ? '; ...' : ''})`;
    derivations.setEnabled(false);
    await deps.derivationOff?.(because).catch(() => undefined);
    return ` Derivation from the monthly statements is now off for this company: ${because}. Every figure is fetched from the API.`;
  }
  // Identities found not to hold for this company (reader/balanceIdentities.ts): said at every full refresh.
  const notes = (await derivations.identities.notes(company).catch(() => [] as string[])).map((n) => ` ${n[0].toUpperCase()}${n.slice(1)}.`).join('');
  if (!derivations.enabled && checked > 0) return ` ${plural(checked, 'figure')} of the API matched the sum of the monthly statements: derivation from them can be turned on (Connection).${notes}`;
  return notes;
}

/** The company's tables one after another: caught up from the feed on a changed refresh, refreshed on a full one. */
async function refreshTables(deps: WorkbookRefreshDeps, company: string, ran: RefreshKind, feed: FeedResult | null): Promise<TableRefresh[]> {
  const tables: TableRefresh[] = [];
  for (const t of (await deps.tables?.tables()) ?? []) {
    if (t.company !== company) continue;
    try {
      if (ran === 'changed' && feed?.kind === 'synced' && feed.from !== null) {
        const caught = await deps.tables!.catchUp(t.bindingId, { from: feed.from, to: feed.to, seen: feed.seen });
        tables.push({ bindingId: t.bindingId, table: t.table, outcome: caught.kind });
      } else {
        await deps.tables!.refresh(t.bindingId);
        tables.push({ bindingId: t.bindingId, table: t.table, outcome: 'refreshed' });
      }
    } catch (error) {
      tables.push({ bindingId: t.bindingId, table: t.table, outcome: 'failed', error });
    }
  }
  return tables;
}

function describe(asked: RefreshKind, ran: RefreshKind, feed: FeedResult | null, blocks: RefreshOutcome, tables: TableRefresh[], calls: number): string {
  const spent = `Spent ${plural(calls, 'call')}.`;
  const parts: string[] = [];
  if (asked === 'changed' && ran === 'full') parts.push(`Refreshed everything: ${feed?.reason ?? 'nothing was known about what changed'}.`);
  else if (ran === 'full') parts.push('Refreshed everything.');
  else {
    const others = feed!.seen.filter((c) => c.ownFrom === null).length;
    const own = feed!.seen.length - others;
    const changed = others + own === 0 ? 'Nothing changed since the last refresh' : `${plural(others + own, 'transaction')} changed since the last refresh${own ? ` (${own} by your pushes)` : ''}`;
    parts.push(`${changed}.`);
  }
  const rebuilt = blocks.refreshed.length;
  if (rebuilt || blocks.failed.length) parts.push(`Rebuilt ${plural(rebuilt, 'block')}${blocks.failed.length ? `; ${plural(blocks.failed.length, 'block')} not refreshed` : ''}.`);
  const refreshedTables = tables.filter((t) => t.outcome === 'refreshed').length;
  const failedTables = tables.filter((t) => t.outcome === 'failed').length;
  if (tables.length) parts.push(`${plural(refreshedTables, 'table')} refreshed${failedTables ? `, ${failedTables} failed` : ''}, ${tables.length - refreshedTables - failedTables} unchanged.`);
  parts.push(spent);
  return parts.join(' ');
}
