// Inserting a consolidated statement (issue 16, item 4): each company's report for the period through its
// own connection's cached reader (one call per company per period, nothing for a report already cached),
// consolidated by name path (consolidate.ts) and written on a new sheet as one block with a column per
// company and the total. It is written as values with its stamp; it is not recorded for Refresh: insert it
// again to bring it up to date (each company's report comes from the cache when nothing changed).

import type { CachedReader, CallCost } from '../reader/cachedReader';
import type { WorkbookGateway, WrittenRange } from '../ports/workbook';
import { renderStatement } from '../render/statementGrid';
import { columnsFor, fetchColumns, type ReportsClient } from '../statements/columns';
import { toGridWrite } from '../statements/blocks';
import { sheetNameFor } from '../statements/spec';
import type { StatementSpec } from '../statements/spec';
import { consolidate } from './consolidate';

/** One company of the consolidation: its connection's name, reader and client. */
export interface Member {
  name: string;
  reader: CachedReader;
  client: ReportsClient;
}

/** One period of one statement (the layouts with several columns are the companies here). */
export type ConsolidatedSpec = Omit<StatementSpec, 'layout' | 'total' | 'variance'>;

const single = (spec: ConsolidatedSpec): StatementSpec => ({ ...spec, layout: 'single' });

/** What inserting it costs, company by company (the cache of each asked, no call). */
export async function consolidatedCost(members: readonly Member[], spec: ConsolidatedSpec): Promise<{ calls: number; perCompany: { name: string; cost: CallCost }[] }> {
  const [column] = columnsFor(single(spec));
  const perCompany = await Promise.all(members.map(async (m) => ({ name: m.name, cost: await m.reader.cost([column.request]) })));
  return { calls: perCompany.reduce((n, c) => n + c.cost.calls, 0), perCompany };
}

export interface ConsolidatedDeps {
  gateway: WorkbookGateway;
  /** The user's time zone, for the stamp. */
  timeZone?: string;
  /** What the block is titled: the group's name. */
  title: string;
}

export async function insertConsolidated(deps: ConsolidatedDeps, members: readonly Member[], spec: ConsolidatedSpec): Promise<WrittenRange> {
  const columns = columnsFor(single(spec));
  const fetched = await Promise.all(members.map((m) => fetchColumns(columns, { reader: m.reader, client: m.client })));
  const consolidated = consolidate(members.map((m, i) => ({ company: m.name, report: fetched[i].reports[0] })));
  const grid = renderStatement({
    reports: consolidated.reports,
    periodLabels: consolidated.labels,
    description: consolidated.description,
    total: true,
    companyName: deps.title,
    refreshedAt: new Date(Math.min(...fetched.map((f) => f.fetchedAt))),
    timeZone: deps.timeZone,
    scale: spec.scale,
    fiscalYearStartMonth: spec.fiscalYearStartMonth,
  });
  // The workbook makes the name unique, as for any new sheet.
  return deps.gateway.writeGrid({ kind: 'newSheet', name: `Group ${sheetNameFor(single(spec))}`.slice(0, 31) }, toGridWrite(grid));
}
