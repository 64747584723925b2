// A statement block in the workbook: fetched through the cached reader, rendered by the engine (the one
// place cents become units) and written through the workbook port under a defined name that Excel moves
// with its cells, recorded as a binding so Refresh can rebuild it where it is now (placement.ts).

import { followBlockCharts } from '../charts/blockCharts';
import { budgetColumn, chartOfAccounts, prepareBudget, type BudgetColumn, type CategoriesClient } from '../budgets/column';
import { renderStatement, type StatementGrid } from '../render';
import type { IncomeStatementReport } from '../render/reportShapes';
import { formatRefreshedAt, STAMP_ROW, type RefreshKindStamp } from '../render/statementGrid';
import type { CachedReader } from '../reader/cachedReader';
import { cellA1, parseQualified } from '../ports/address';
import type { BindingRecord, GridWrite, WorkbookGateway, WriteGridOptions, WriteTarget, WrittenRange } from '../ports/workbook';
import { columnsFor, fetchColumns, type Fetched, type ReportsClient } from './columns';
import { fetchByDepartment, type DepartmentsClient } from '../departments/block';
import { blockName, checkRoom, placeBlock } from './placement';
import { columnLabels, comparesBudget, drillParameters, sheetNameFor, specFromBinding, specsOf, specToParameters, STATEMENT_BINDING_KIND, type StatementSpec } from './spec';

export interface BlockDeps {
  gateway: WorkbookGateway;
  reader: CachedReader;
  /** The reports, the departments a block by department reads, and the chart of accounts a block against budget matches the budget's lines to. */
  client: ReportsClient & DepartmentsClient & CategoriesClient;
  companyName: string;
  now: () => number;
  /** The user's IANA time zone, for the refresh time written on the sheet; default UTC. */
  timeZone?: string;
}

export interface BlockResult {
  written: WrittenRange;
  binding: BindingRecord;
}

/** The engine's rendering of a block; against a budget, its Budget column beside the actual one. */
export function renderSpec(spec: StatementSpec, fetched: Fetched, companyName: string, timeZone?: string, refreshKind?: RefreshKindStamp, budget?: BudgetColumn): StatementGrid {
  return renderStatement({
    reports: budget ? [...fetched.reports, budget.report] : fetched.reports,
    periodLabels: budget ? budget.labels : (fetched.labels ?? columnLabels(spec, columnsFor(spec))),
    description: budget?.description ?? fetched.description,
    companyName,
    refreshedAt: new Date(fetched.fetchedAt),
    timeZone,
    refreshKind,
    scale: spec.scale,
    total: spec.total,
    variance: spec.variance || budget !== undefined,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
  });
}

/**
 * What a block shows, fetched: its reports through the cache (by department, its columns' from the journal:
 * src/engine/departments) and, against a budget, the Budget column. The budget is read from the workbook
 * first, so one that cannot answer for the period is refused before any call.
 */
async function fetchBlock(
  deps: BlockDeps,
  spec: StatementSpec,
  options: { fresh?: boolean; onProgress?: (done: number, total: number) => void },
): Promise<{ fetched: Fetched; budget?: BudgetColumn }> {
  const read = { reader: deps.reader, client: deps.client, fresh: options.fresh, onProgress: options.onProgress };
  if (spec.layout === 'by_department') return { fetched: await fetchByDepartment({ start: spec.start, end: spec.end, parent: spec.departmentsUnder }, read) };
  const choice = comparesBudget(spec) && spec.budget ? { budget: spec.budget, start: spec.start, end: spec.end, fiscalYearStartMonth: spec.fiscalYearStartMonth } : null;
  const prepared = choice ? await prepareBudget(deps.gateway, choice) : null;
  const chart = prepared ? await chartOfAccounts(deps.reader, deps.client, options.fresh) : null;
  const fetched = await fetchColumns(columnsFor(spec), read);
  if (!choice || !prepared || !chart) return { fetched };
  return { fetched, budget: budgetColumn(prepared, chart, fetched.reports[0] as IncomeStatementReport, choice) };
}

/** StatementGrid -> the port's GridWrite: strings stay text, numbers numbers, empties blank. */
export function toGridWrite(grid: StatementGrid): GridWrite {
  return {
    values: grid.rows.map((row) => row.map((cell) => (cell.kind === 'empty' ? null : cell.value))),
    cellFormats: grid.numberFormats,
    boldRows: grid.rowInfo.flatMap((info, r) => (info.bold ? [r] : [])),
    indentLevels: grid.rowInfo.map((info) => info.indent),
    outlineLevels: grid.rowInfo.map((info) => info.outlineLevel),
    columnWidths: grid.columnWidths,
  };
}

/** The rows and columns a GridWrite covers once written (ragged rows padded). */
export function extentOf(grid: GridWrite): { rows: number; cols: number } {
  return { rows: grid.values.length, cols: Math.max(0, grid.columnWidths?.length ?? 0, ...grid.values.map((r) => r.length)) };
}

/**
 * What rewriting a block in place must undo of its outline: the row groups its last write made, or (recorded
 * by an earlier version) its depth. See WriteGridOptions.replace.
 */
export function replacing(binding: BindingRecord, address: string): NonNullable<WriteGridOptions['replace']> {
  return binding.rowGroups ? { address, rowGroups: binding.rowGroups } : { address, outlineDepth: binding.outlineDepth ?? 0 };
}

/** The outline a write leaves, for the block's binding: its row groups, none when it made none (no depth). */
export function outlineOf(written: WrittenRange): Pick<BindingRecord, 'rowGroups' | 'outlineDepth'> {
  return { rowGroups: written.rowGroups ?? [], outlineDepth: undefined };
}

let sequence = 0;
/** A binding id unique in the workbook: `kind` first, then the time, a counter and a random part. */
export function newBindingId(now: number, kind = 'statement'): string {
  sequence += 1;
  const random = typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `${kind}-${now.toString(36)}-${sequence}-${random}`;
}

/** Why a block's last refresh failed, kept in its binding until a refresh succeeds. */
export interface LastFailure {
  /** ISO time of the failed refresh. */
  at: string;
  message: string;
}

export function failureOf(binding: BindingRecord): LastFailure | null {
  const f = (binding.parameters as { lastFailure?: unknown }).lastFailure as Partial<LastFailure> | undefined;
  return f && typeof f.at === 'string' && typeof f.message === 'string' ? { at: f.at, message: f.message } : null;
}

/**
 * A refresh of the block failed: its figures stay as they are, its stamp in the sheet (where the block is
 * now; none on a damaged block, whose cells are not the add-in's to write) says they are those of the last
 * good refresh, and its binding keeps the failure for the Refresh list.
 */
export async function markFailed(deps: BlockDeps, binding: BindingRecord, message: string): Promise<BindingRecord> {
  const at = new Date(deps.now()).toISOString();
  const lastGood = binding.refreshedAt ? formatRefreshedAt(new Date(binding.refreshedAt), deps.timeZone) : 'an earlier refresh';
  try {
    const spec = specFromBinding(binding);
    const placement = spec ? await placeBlock(deps.gateway, binding, spec) : null;
    if (placement && placement.kind !== 'damaged') {
      const { sheet, box } = parseQualified(placement.address);
      await deps.gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(box.row + STAMP_ROW, box.col) }, { values: [[`Figures of ${lastGood}: refresh failed at ${formatRefreshedAt(new Date(at), deps.timeZone)}`]] });
    }
  } catch {
    // The sheet may be gone or locked: the Refresh list still names the block and its failure.
  }
  const next: BindingRecord = { ...binding, parameters: { ...binding.parameters, lastFailure: { at, message } } };
  await deps.gateway.saveBinding(next);
  return next;
}

/**
 * Saves the binding of a block just written, new or rebuilt: `base` says what it is (id, kind, company, the
 * spec's parameters), the write says what it shows and where (the figures' drill-down parameters, the
 * data's time, its address, name and outline depth).
 */
async function recordWritten(
  deps: BlockDeps,
  base: Pick<BindingRecord, 'id' | 'kind' | 'company' | 'parameters'> & Partial<BindingRecord>,
  block: { grid: StatementGrid; fetched: Fetched; written: WrittenRange; name: string; spec: StatementSpec; budget?: BudgetColumn },
): Promise<BlockResult> {
  const binding: BindingRecord = {
    ...base,
    parameters: {
      ...base.parameters,
      ...drillParameters(block.grid, block.spec),
      ...block.fetched.parameters,
      ...(block.budget ? { budgetFingerprint: block.budget.fingerprint } : {}),
    },
    refreshedAt: new Date(block.fetched.fetchedAt).toISOString(),
    writtenAt: new Date(deps.now()).toISOString(),
    address: block.written.address,
    name: block.name,
    ...outlineOf(block.written),
  };
  await deps.gateway.saveBinding(binding);
  return { written: block.written, binding };
}

/** Fetches, renders and writes a new block (on a new sheet, at the selected cell or at a given target) and records it. */
export async function insertStatement(
  deps: BlockDeps,
  spec: StatementSpec,
  where: 'newSheet' | 'selection' | WriteTarget,
  onProgress?: (done: number, total: number) => void,
): Promise<BlockResult> {
  const { fetched, budget } = await fetchBlock(deps, spec, { onProgress });
  const grid = renderSpec(spec, fetched, deps.companyName, deps.timeZone, undefined, budget);
  let target: WriteTarget;
  if (where === 'selection') {
    const cell = await deps.gateway.getSelectedCell();
    target = { kind: 'anchor', sheet: cell.sheet, cell: cell.cell };
  } else if (where === 'newSheet') {
    target = { kind: 'newSheet', name: sheetNameFor(spec, specsOf(await deps.gateway.listBindings())) };
  } else {
    target = where;
  }
  const id = newBindingId(deps.now());
  const name = blockName(id);
  const written = await deps.gateway.writeGrid(target, toGridWrite(grid), { name });
  const company = await deps.reader.companyId();
  return recordWritten(deps, { id, kind: STATEMENT_BINDING_KIND, company, parameters: specToParameters(spec) }, { grid, fetched, written, name, spec, budget });
}

/**
 * Rebuilds a block in place: same periods, new data, written over the old block where it is now (cleared
 * and ungrouped first), its name pointed at the new extent, and the binding updated. A damaged block is
 * refused before anything is fetched; a block that grows is refused when what it needs holds the user's
 * content. A binding from before names is refreshed at its recorded address and named by this refresh.
 * `fresh` fetches again whatever is cached (Refresh this block); Refresh all has cleared the cache already
 * and goes through it, so blocks sharing a report share one call.
 */
export async function refreshStatement(
  deps: BlockDeps,
  binding: BindingRecord,
  options: { fresh: boolean; kind: RefreshKindStamp; onProgress?: (done: number, total: number) => void },
): Promise<BlockResult> {
  const spec = specFromBinding(binding);
  if (!spec) throw new Error(`Block ${binding.id} is not a statement this pane can rebuild`);
  const placement = await placeBlock(deps.gateway, binding, spec);
  if (placement.kind === 'damaged') throw placement.refusal;
  const { fetched, budget } = await fetchBlock(deps, spec, { fresh: options.fresh, onProgress: options.onProgress });
  const grid = renderSpec(spec, fetched, deps.companyName, deps.timeZone, options.kind, budget);
  const gridWrite = toGridWrite(grid);
  await checkRoom(deps.gateway, spec, placement.address, extentOf(gridWrite));
  const { sheet, box } = parseQualified(placement.address);
  const name = binding.name ?? blockName(binding.id);
  const written = await deps.gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(box.row, box.col) }, gridWrite, {
    replace: replacing(binding, placement.address),
    name,
  });
  const { lastFailure: _cleared, ...parameters } = binding.parameters as { lastFailure?: unknown } & BindingRecord['parameters'];
  const result = await recordWritten(deps, { ...binding, parameters }, { grid, fetched, written, name, spec, budget });
  // The block's charts, pointed at the rows their lines are on now (a line may have come or gone above them).
  return { ...result, binding: await followBlockCharts(deps.gateway, result.binding, gridWrite.values, formatRefreshedAt(new Date(deps.now()), deps.timeZone)) };
}

/** The name first: were the binding to go first and the name not, nothing would remember the name. */
export async function forgetBlock(gateway: WorkbookGateway, binding: BindingRecord): Promise<void> {
  if (binding.name) await gateway.deleteName(binding.name);
  await gateway.removeBinding(binding.id);
}
