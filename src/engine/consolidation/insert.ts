// Inserting a consolidated statement (issue 16, item 4): each company's report for the period through its
// own connection's cached reader (one call per company per period, nothing for a report already cached),
// consolidated by name path (consolidate.ts) and written on a new sheet as one block with a column per
// company and the total. It is recorded in the workbook (a binding of its own kind, with its companies), and
// written with a defined name: Refresh this block fetches each company's report again and rewrites it where
// it is now; a refresh of the workbook rebuilds it through the caches when a company's answer is due
// (refreshBlocks.ts).

import type { CachedReader, CallCost } from '../reader/cachedReader';
import type { BindingRecord, Json, WorkbookGateway, WrittenRange } from '../ports/workbook';
import type { ReadRequest } from '../reader/requestCache';
import { parseQualified, cellA1 } from '../ports/address';
import { renderStatement, type RefreshKindStamp } from '../render/statementGrid';
import { columnsFor, fetchColumns, type ReportsClient } from '../statements/columns';
import { extentOf, newBindingId, outlineOf, replacing, toGridWrite } from '../statements/blocks';
import { blockName, checkRoom, placeBlock } from '../statements/placement';
import { sheetNameFor } from '../statements/spec';
import type { StatementSpec } from '../statements/spec';
import { consolidate } from './consolidate';

/** One company of the consolidation: its connection's name, reader and client (whose meter counts its calls). */
export interface Member {
  name: string;
  reader: CachedReader;
  client: ReportsClient & { readonly meter: { count(): Promise<number> } };
}

/** The binding kind of a consolidated block. */
export const CONSOLIDATED_BINDING_KIND = 'consolidated';

/** A consolidated block as recorded: what it shows, and whose connections it reads. */
export interface ConsolidatedBlock {
  binding: BindingRecord;
  spec: ConsolidatedSpec;
  title: string;
  /**
   * The companies' ids, in the block's column order, each once, with the names their connections had when
   * recorded (for saying which to connect: the columns are headed by the connections' names now).
   */
  members: { name: string; companyId: string }[];
}

/** One period of one statement (the layouts with several columns are the companies here). */
export type ConsolidatedSpec = Omit<StatementSpec, 'layout' | 'total' | 'variance'>;

const single = (spec: ConsolidatedSpec): StatementSpec => ({ ...spec, layout: 'single' });

/** What the block reads of each of its companies: one report. */
export function consolidatedRequest(spec: ConsolidatedSpec): ReadRequest {
  return columnsFor(single(spec))[0].request;
}

/** What reading it costs now, company by company (the cache of each asked, no call): inserting it, or rebuilding it through the caches. */
export async function consolidatedCost(members: readonly Member[], spec: ConsolidatedSpec): Promise<{ calls: number; perCompany: { name: string; cost: CallCost }[] }> {
  const request = consolidatedRequest(spec);
  const perCompany = await Promise.all(members.map(async (m) => ({ name: m.name, cost: await m.reader.cost([request]) })));
  return { calls: perCompany.reduce((n, c) => n + c.cost.calls, 0), perCompany };
}

export interface ConsolidatedDeps {
  gateway: WorkbookGateway;
  /** The user's time zone, for the stamp. */
  timeZone?: string;
  /** What the block is titled: the group's name. */
  title: string;
  now?: () => number;
}

/** Each company's report, consolidated and rendered (`fresh`: fetched again whatever is cached; `refreshKind`: what the stamp says wrote it). */
async function consolidatedGrid(deps: ConsolidatedDeps, members: readonly Member[], spec: ConsolidatedSpec, fresh: boolean, refreshKind?: RefreshKindStamp) {
  const columns = columnsFor(single(spec));
  const fetched = await Promise.all(members.map((m) => fetchColumns(columns, { reader: m.reader, client: m.client, fresh })));
  const consolidated = consolidate(members.map((m, i) => ({ company: m.name, report: fetched[i].reports[0] })));
  const refreshedAt = Math.min(...fetched.map((f) => f.fetchedAt));
  const grid = renderStatement({
    reports: consolidated.reports,
    periodLabels: consolidated.labels,
    description: consolidated.description,
    total: true,
    totalOf: 'companies',
    companyName: deps.title,
    refreshedAt: new Date(refreshedAt),
    timeZone: deps.timeZone,
    scale: spec.scale,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
    refreshKind,
  });
  return { grid, refreshedAt };
}

function parametersOf(spec: ConsolidatedSpec, title: string, members: readonly { name: string; companyId: string }[]): { [key: string]: Json } {
  const { statement, start, end, scale, fiscalYearStartMonth } = spec;
  return { statement, start, end, scale, fiscalYearStartMonth: fiscalYearStartMonth ?? 1, title, members: members.map((m) => ({ name: m.name, companyId: m.companyId })) };
}

export async function insertConsolidated(deps: ConsolidatedDeps, members: readonly Member[], spec: ConsolidatedSpec): Promise<{ written: WrittenRange; binding: BindingRecord }> {
  const now = deps.now ?? Date.now;
  const companyIds = await Promise.all(members.map((m) => m.reader.companyId()));
  const { grid, refreshedAt } = await consolidatedGrid(deps, members, spec, false);
  const id = newBindingId(now(), CONSOLIDATED_BINDING_KIND);
  const name = blockName(id);
  // The workbook makes the sheet's name unique, as for any new sheet.
  const written = await deps.gateway.writeGrid({ kind: 'newSheet', name: `Group ${sheetNameFor(single(spec))}`.slice(0, 31) }, toGridWrite(grid), { name });
  const binding: BindingRecord = {
    id,
    kind: CONSOLIDATED_BINDING_KIND,
    parameters: parametersOf(spec, deps.title, members.map((m, i) => ({ name: m.name, companyId: companyIds[i] }))),
    company: companyIds[0],
    refreshedAt: new Date(refreshedAt).toISOString(),
    writtenAt: new Date(now()).toISOString(),
    address: written.address,
    name,
    ...outlineOf(written),
  };
  await deps.gateway.saveBinding(binding);
  return { written, binding };
}

/** The consolidated blocks recorded in the workbook (a binding of another shape is left out). */
export async function consolidatedBlocks(gateway: WorkbookGateway): Promise<ConsolidatedBlock[]> {
  const out: ConsolidatedBlock[] = [];
  for (const binding of await gateway.listBindings()) {
    if (binding.kind !== CONSOLIDATED_BINDING_KIND) continue;
    const p = binding.parameters as Record<string, unknown>;
    const listed = Array.isArray(p.members)
      ? p.members.filter((m): m is { name: string; companyId: string } => !!m && typeof m === 'object' && typeof (m as { name?: unknown }).name === 'string' && typeof (m as { companyId?: unknown }).companyId === 'string')
      : [];
    // Members are companies: one recorded twice (an edited record) is one column, counted once.
    const members = listed.filter((m, i) => listed.findIndex((o) => o.companyId === m.companyId) === i);
    const statement = p.statement;
    if (members.length < 2 || typeof p.start !== 'string' || typeof p.end !== 'string' || (statement !== 'income_statement' && statement !== 'balance_sheet' && statement !== 'cash_flow')) continue;
    const spec: ConsolidatedSpec = {
      statement,
      period: 'custom',
      start: p.start,
      end: p.end,
      scale: p.scale === 'thousands' || p.scale === 'millions' ? p.scale : 'units',
      fiscalYearStartMonth: typeof p.fiscalYearStartMonth === 'number' ? p.fiscalYearStartMonth : 1,
    };
    out.push({ binding, spec, title: typeof p.title === 'string' ? p.title : members.map((m) => m.name).join(' + '), members });
  }
  return out;
}

/** How many consolidated blocks have a column of this company (none when the workbook cannot be read). */
export async function consolidatedWith(gateway: WorkbookGateway, companyId: string): Promise<number> {
  const blocks = await consolidatedBlocks(gateway).catch(() => []);
  return blocks.filter((b) => b.members.some((m) => m.companyId === companyId)).length;
}

/**
 * Refresh this block: each company's report fetched again (one call each, on its own connection) and the
 * block rewritten where it is now, under its name; a damaged block is refused before anything is fetched,
 * one that grew into the user's cells before anything is written (as a statement block's refresh). `members` are the block's companies in its order.
 * A refresh of the workbook rebuilds it through the caches instead (`fresh: false`, its kind on the stamp).
 */
export async function refreshConsolidated(
  deps: ConsolidatedDeps,
  block: ConsolidatedBlock,
  members: readonly Member[],
  options: { fresh?: boolean; kind?: RefreshKindStamp } = {},
): Promise<{ written: WrittenRange; binding: BindingRecord }> {
  const now = deps.now ?? Date.now;
  const { binding, spec } = block;
  const placement = await placeBlock(deps.gateway, binding, single(spec));
  if (placement.kind === 'damaged') throw placement.refusal;
  const { grid, refreshedAt } = await consolidatedGrid(deps, members, spec, options.fresh ?? true, options.kind ?? 'block');
  const gridWrite = toGridWrite(grid);
  await checkRoom(deps.gateway, single(spec), placement.address, extentOf(gridWrite));
  const { sheet, box } = parseQualified(placement.address);
  const name = binding.name ?? blockName(binding.id);
  const written = await deps.gateway.writeGrid({ kind: 'anchor', sheet, cell: cellA1(box.row, box.col) }, gridWrite, {
    replace: replacing(binding, placement.address),
    name,
  });
  const next: BindingRecord = {
    ...binding,
    refreshedAt: new Date(refreshedAt).toISOString(),
    writtenAt: new Date(now()).toISOString(),
    address: written.address,
    name,
    ...outlineOf(written),
  };
  await deps.gateway.saveBinding(next);
  return { written, binding: next };
}
