// A refresh of the selection or of the active sheet (issue 14, item 1): what lies in it -- the statement
// blocks, the consolidated blocks (each company's report, on its own connection), the transactions tables
// and the FIN cells -- is fetched again, nothing else. Its cost is exact
// before it spends: the distinct requests the blocks and the cells read (a request a block and a cell share is
// one call), less those within closed books and the reference lists (categories, departments, the company:
// no refresh of figures needs them again unless asked), plus a page per transactions table. The requests are
// marked due, the FIN cells in the scope recalculated (and only they), the blocks rebuilt from the cache, so
// each request is fetched once. The sync watermark is not touched: what changed elsewhere still arrives with
// the next Refresh changes.

import type { FinCell, RefreshReport } from '../fin';
import { MAX_COLS, MAX_ROWS, parseBox, parseQualified, WHOLE_SHEET, type Box } from '../ports/address';
import type { BindingRecord, WorkbookGateway } from '../ports/workbook';
import { consolidatedRequest, type ConsolidatedDeps } from '../consolidation/insert';
import { connectedBlocks, rebuildConsolidated, type ConnectedBlock, type MembersOf } from '../consolidation/refreshBlocks';
import type { CachedReader } from '../reader/cachedReader';
import { isReferenceRead } from '../reader/reference';
import { canonicalKey, type ReadRequest } from '../reader/requestCache';
import type { RefreshBlock, RefreshOutcome, RefreshPlan, StatementsEngine } from '../statements';
import { plural } from '../text/plural';
import type { TransactionsEngine, TransactionsTableInfo } from '../transactions';

export type ScopeKind = 'selection' | 'sheet';

export interface ScopeArea {
  kind: ScopeKind;
  sheet: string;
  box: Box;
  /** "the selection Sheet1!B2:D9", "the sheet P&L": what the pane and the report call it. */
  label: string;
}

/** How the engine finds the FIN cells and what they read: the host finds them, the runtime knows what each read. */
export interface ScopeCells {
  finCellsIn(sheet: string, box: Box): Promise<FinCell[]>;
  /** What the cells read of the reader's company; `elsewhere`: calls that read another company. */
  requestsOf(cells: readonly FinCell[]): { requests: ReadRequest[]; unknown: number; elsewhere: number };
}

export interface ScopeRefreshDeps {
  gateway: Pick<WorkbookGateway, 'getSelection'>;
  statements: Pick<StatementsEngine, 'plan' | 'refreshAll'>;
  tables?: Pick<TransactionsEngine, 'tables' | 'refresh'>;
  reader: CachedReader;
  /** Absent where the host cannot pick out formulas: then the FIN cells are left out, and the plan says so. */
  cells?: ScopeCells;
  meter: { count(): Promise<number> };
  /** The workbook's consolidated blocks and their companies' connections (absent: none is refreshed here). */
  consolidated?: Omit<ConsolidatedDeps, 'title'> & { membersOf: MembersOf };
}

/** A consolidated block's report of one company, fetched again by the scope's refresh. */
interface GroupRead {
  reader: CachedReader;
  key: string;
}

export interface ScopePlan {
  area: ScopeArea;
  /** The statements' refresh plan cut to the blocks in the scope: what the refresh rebuilds, as planned here. */
  blockPlan: RefreshPlan;
  blocks: RefreshBlock[];
  tables: TransactionsTableInfo[];
  cells: FinCell[];
  /** FIN cells with no record of what they read (not calculated since the add-in started). */
  unknownCells: number;
  /** FIN calls in the scope that read another company: left out (Refresh all refreshes every company). */
  otherCompanyCalls: number;
  /** Whether the FIN cells could be looked at (false: the host cannot pick out formulas). */
  cellsKnown: boolean;
  /** Canonical keys of the requests fetched again, each once. */
  keys: string[];
  /** Consolidated blocks in the scope, with their companies: each company's report fetched again. */
  groups: ConnectedBlock[];
  /** Consolidated blocks in the scope with a company not connected here: left as they are, and said. */
  unconnectedGroups: { binding: BindingRecord; missing: string[] }[];
  /** The groups' reports of the other companies (the default company's are among `keys`), each once. */
  groupReads: GroupRead[];
  /** Requests in the scope kept because they lie within closed books. */
  frozen: number;
  /** Exactly what it spends (tables at a page each, their least). */
  calls: number;
}

/** "Sheet1!B2:D9", "Sheet1!A:C" (whole columns), "Sheet1!3:5" (whole rows). */
export function areaOfAddress(address: string): { sheet: string; box: Box } {
  const bang = address.lastIndexOf('!');
  const ref = address.slice(bang + 1).replace(/\$/g, '');
  const columns = /^([A-Z]{1,3}):([A-Z]{1,3})$/i.exec(ref);
  const rows = /^(\d+):(\d+)$/.exec(ref);
  if (columns || rows) {
    const { sheet } = parseQualified(`${address.slice(0, bang)}!A1`);
    if (rows) {
      const [a, b] = [Number(rows[1]) - 1, Number(rows[2]) - 1].sort((x, y) => x - y);
      return { sheet, box: { row: a, col: 0, rows: b - a + 1, cols: MAX_COLS } };
    }
    const { col, cols } = parseBox(`${columns![1]}1:${columns![2]}1`);
    return { sheet, box: { row: 0, col, rows: MAX_ROWS, cols } };
  }
  return parseQualified(address);
}

function overlaps(a: Box, b: Box): boolean {
  return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

function inArea(address: string | undefined, area: ScopeArea): boolean {
  if (!address) return false;
  try {
    const at = areaOfAddress(address);
    return at.sheet.toLowerCase() === area.sheet.toLowerCase() && overlaps(at.box, area.box);
  } catch {
    return false; // an address we cannot read is not in any scope
  }
}

/** The scope as the workbook has it now: the selection, or the whole active sheet. */
export async function scopeArea(gateway: Pick<WorkbookGateway, 'getSelection'>, kind: ScopeKind): Promise<ScopeArea> {
  const selection = await gateway.getSelection();
  if (kind === 'sheet') return { kind, sheet: selection.sheet, box: WHOLE_SHEET, label: `the sheet ${selection.sheet}` };
  const { sheet, box } = areaOfAddress(selection.address);
  return { kind, sheet, box, label: `the selection ${selection.address}` };
}

export async function planScopeRefresh(deps: ScopeRefreshDeps, area: ScopeArea, options: { includeReference?: boolean } = {}): Promise<ScopePlan> {
  const company = await deps.reader.companyId();
  const whole = await deps.statements.plan();
  const blocks = whole.blocks.filter((b) => b.placement.kind !== 'damaged' && inArea(b.placement.address, area));
  const tables = ((await deps.tables?.tables()) ?? []).filter((t) => t.company === company && inArea(t.address, area));
  const cells = deps.cells ? await deps.cells.finCellsIn(area.sheet, area.box) : [];
  const read = deps.cells ? deps.cells.requestsOf(cells) : { requests: [], unknown: 0, elsewhere: 0 };
  const wanted = (req: ReadRequest) => options.includeReference === true || !isReferenceRead(req);
  const all = new Set<string>(blocks.flatMap((b) => b.keys));
  for (const req of read.requests) if (wanted(req)) all.add(canonicalKey(company, req));
  const found = deps.consolidated ? await connectedBlocks(deps.consolidated.gateway, deps.consolidated.membersOf) : { connected: [], unconnected: [] };
  const groups = found.connected.filter((g) => inArea(g.block.binding.address, area));
  const groupReads = new Map<string, GroupRead>();
  const groupFrozen = new Set<string>();
  for (const { block, members } of groups) {
    const request = consolidatedRequest(block.spec);
    for (const m of members) {
      const memberCompany = await m.reader.companyId();
      const key = canonicalKey(memberCompany, request);
      if (memberCompany === company) all.add(key);
      else if (m.reader.cache.isFrozen(key)) groupFrozen.add(key);
      else groupReads.set(key, { reader: m.reader, key });
    }
  }
  const frozen = [...all].filter((k) => deps.reader.cache.isFrozen(k));
  const keys = [...all].filter((k) => !deps.reader.cache.isFrozen(k));
  // One call a request, a walk its pages (reader/walks.ts).
  const keyCalls = [...(await deps.reader.callsOf(keys)).values()].reduce((n, c) => n + c, 0);
  return {
    area,
    blockPlan: { ...whole, blocks },
    blocks,
    tables,
    cells,
    unknownCells: read.unknown,
    otherCompanyCalls: read.elsewhere,
    cellsKnown: deps.cells !== undefined,
    keys,
    groups,
    unconnectedGroups: found.unconnected.filter((u) => inArea(u.binding.address, area)),
    groupReads: [...groupReads.values()],
    frozen: frozen.length + groupFrozen.size,
    calls: keyCalls + groupReads.size + tables.length,
  };
}

/** The cost, said before it spends. */
export function scopeCostText(plan: ScopePlan): string {
  const parts: string[] = [];
  if (plan.blocks.length) parts.push(plural(plan.blocks.length, 'block'));
  if (plan.groups.length) parts.push(plural(plan.groups.length, 'consolidated statement'));
  if (plan.cells.length) parts.push(plural(plan.cells.length, 'FIN cell'));
  if (plan.tables.length) parts.push(plural(plan.tables.length, 'transactions table'));
  if (parts.length === 0) {
    const cellsNote = plan.cellsKnown ? '' : ' (this version of Excel cannot pick out FIN formulas: refresh the whole workbook for them)';
    return `Nothing to refresh in ${plan.area.label}: no block, FIN cell or transactions table${cellsNote}.${unconnectedText(plan)}`;
  }
  const reports = plural(plan.keys.length, 'distinct request');
  const tables = plan.tables.length ? ` and ${plural(plan.tables.length, 'page')} for the ${plan.tables.length === 1 ? 'table' : 'tables'} (more if one has grown past a page)` : '';
  let text = `This will spend ${plural(plan.calls, 'call')} to refresh ${parts.join(', ')} in ${plan.area.label}: ${reports}${tables}.`;
  if (plan.frozen > 0) text += ` ${plural(plan.frozen, 'request')} within the closed books ${plan.frozen === 1 ? 'is' : 'are'} kept.`;
  if (plan.unknownCells > 0) {
    text += ` ${plural(plan.unknownCells, 'FIN cell')} ${plan.unknownCells === 1 ? 'has' : 'have'} not calculated since the add-in started: ${plan.unknownCells === 1 ? 'it is' : 'they are'} recalculated from the cache, and fetch only what the cache lacks.`;
  }
  if (plan.otherCompanyCalls > 0) {
    text += ` ${plural(plan.otherCompanyCalls, 'FIN call')} in it ${plan.otherCompanyCalls === 1 ? 'reads' : 'read'} another company: left out here, refreshed by Refresh changes or Full refresh.`;
  }
  if (!plan.cellsKnown) text += ' FIN formulas are left out: this version of Excel cannot pick them out.';
  return `${text}${unconnectedText(plan)}`;
}

function unconnectedText(plan: ScopePlan): string {
  return plan.unconnectedGroups.map((u) => ` The consolidated statement at ${u.binding.address} is left as it is: connect ${u.missing.join(' and ')} to refresh it.`).join('');
}

export interface ScopeRefreshResult {
  blocks: RefreshOutcome;
  tables: { bindingId: string; table: string; outcome: 'refreshed' | 'failed'; error?: unknown }[];
  calls: number;
  message: string;
}

/**
 * A refresh of the scope under way: its requests are marked due. The caller recalculates `cells` (the FIN
 * cells in the scope; none, nothing to recalculate) and then finishes: the blocks are rebuilt from the cache,
 * the tables refreshed, the consolidated blocks last.
 */
export interface StartedScopeRefresh {
  cells: readonly FinCell[];
  /** What the recalculation is called ("Refresh of the selection Sheet1!B2:D9"). */
  label: string;
  finish(formulas: RefreshReport | undefined, onProgress?: (done: number, total: number, fetched: number) => void): Promise<ScopeRefreshResult>;
}

export async function startScopeRefresh(deps: ScopeRefreshDeps, plan: ScopePlan): Promise<StartedScopeRefresh> {
  const before = await deps.meter.count();
  // The other companies of the consolidated blocks spend on their own meters.
  const others = [...new Map(plan.groups.flatMap((g) => g.members).map((m) => [m.reader, m.client.meter])).entries()].filter(([r]) => r !== deps.reader);
  const othersBefore = await Promise.all(others.map(([, meter]) => meter.count()));
  deps.reader.newRun();
  await deps.reader.assertCanSpend('/reports');
  // Due, not changed: a block outside the scope that shows one of these is not behind because of it.
  await deps.reader.markDue(plan.keys);
  for (const g of plan.groupReads) await g.reader.markDue([g.key]);
  // The monthly statements among them, fetched anyway, are what the others derived from them are read from
  // (the plan priced those at no call: reader/derivations.ts), whatever the order of reads.
  const unplan = deps.reader.derivations.planSources(plan.keys);
  const label = `Refresh of ${plan.area.label}`;
  return {
    cells: deps.cells ? plan.cells : [],
    label,
    finish: async (formulas, onProgress) => {
      // The plan the cost was shown from: reading every block's place in the workbook again would cost Office
      // round trips and nothing else (a block damaged since is found so when it is rebuilt).
      const blocks = await deps.statements.refreshAll(plan.blockPlan, {
        scope: 'changed',
        stamp: plan.area.kind,
        formulas,
        onProgress: (done, total) => onProgress?.(done, total, plan.keys.length),
      });
      const tables: ScopeRefreshResult['tables'] = [];
      for (const t of plan.tables) {
        try {
          await deps.tables!.refresh(t.bindingId);
          tables.push({ bindingId: t.bindingId, table: t.table, outcome: 'refreshed' });
        } catch (error) {
          tables.push({ bindingId: t.bindingId, table: t.table, outcome: 'failed', error });
        }
      }
      // Last, through the caches: a report of the default company a block or a cell shares is fetched once.
      const groups = plan.groups.length && deps.consolidated ? await rebuildConsolidated(deps.consolidated, plan.groups, plan.area.kind) : null;
      unplan();
      const othersAfter = await Promise.all(others.map(([, meter]) => meter.count()));
      const calls = Math.max(0, (await deps.meter.count()) - before) + othersAfter.reduce((n, c, i) => n + Math.max(0, c - othersBefore[i]), 0);
      const done: string[] = [];
      if (blocks.refreshed.length || blocks.failed.length) done.push(`rebuilt ${plural(blocks.refreshed.length, 'block')}${blocks.failed.length ? ` (${blocks.failed.length} not refreshed)` : ''}`);
      if (groups) done.push(`rebuilt ${plural(groups.refreshed.length, 'consolidated statement')}${groups.failed.length ? ` (${groups.failed.length} not refreshed)` : ''}`);
      if (plan.cells.length) done.push(`recalculated ${plural(plan.cells.length, 'FIN cell')}`);
      const refreshedTables = tables.filter((t) => t.outcome === 'refreshed').length;
      if (tables.length) done.push(`refreshed ${plural(refreshedTables, 'table')}${refreshedTables < tables.length ? ` (${tables.length - refreshedTables} failed)` : ''}`);
      const what = done.length ? `${done.join(', ')}. ` : 'Nothing to refresh. ';
      const outcome: RefreshOutcome = groups ? { ...blocks, refreshed: [...blocks.refreshed, ...groups.refreshed], failed: [...blocks.failed, ...groups.failed] } : blocks;
      return { blocks: outcome, tables, calls, message: `${label}: ${what}Spent ${plural(calls, 'call')}.` };
    },
  };
}
