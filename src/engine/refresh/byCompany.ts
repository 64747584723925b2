// The refresh of a workbook that reads several companies (issue 16.3): each company's statement blocks,
// transactions tables and FIN answers are refreshed on its own connection (its key, its meter, its cap),
// one company after the other, and the results are told as one. A company's FIN refresh recalculates the
// workbook's FIN cells, but only its own answers are due: the other companies' cells read their cache and
// cost nothing. With one company this is that company's refresh as it always was. The consolidated blocks
// come last, through the caches the companies' refreshes marked.

import type { ConsolidatedRefreshOutcome } from '../consolidation/refreshBlocks';
import type { RefreshOutcome } from '../statements';
import { plural } from '../text/plural';
import type { RefreshKind, WorkbookRefreshResult } from './workbookRefresh';

/** One company's refresh as it ended, under its connection's short name. */
export interface CompanyRefreshResult {
  name: string;
  result: WorkbookRefreshResult;
}

/**
 * The companies' refreshes (each on its own connection, one after the other: the runtime runs them,
 * src/runtime/workspace.ts) and the consolidated blocks rebuilt last, told as one refresh.
 */
export function combineRefreshes(companies: readonly CompanyRefreshResult[], groups?: ConsolidatedRefreshOutcome): WorkbookRefreshResult {
  const results = companies.map((c) => c.result);
  const ran: RefreshKind = results.some((r) => r.ran === 'full') ? 'full' : 'changed';
  const blocks: RefreshOutcome = {
    refreshed: [...results.flatMap((r) => r.blocks.refreshed), ...(groups?.refreshed ?? [])],
    failed: [...results.flatMap((r) => r.blocks.failed), ...(groups?.failed ?? [])],
    formulas: results[0].blocks.formulas,
  };
  const told = companies.length === 1 ? results[0].message : companies.map((c) => `${c.name}: ${c.result.message}`).join(' ');
  return {
    ran,
    feed: results[0].feed,
    blocks,
    tables: results.flatMap((r) => r.tables),
    calls: results.reduce((n, r) => n + r.calls, 0) + (groups?.calls ?? 0),
    message: `${told}${groups ? consolidatedText(groups) : ''}`,
  };
}

/** What the consolidated blocks' part of a refresh did, after the companies' own messages ('' for nothing). */
function consolidatedText(c: ConsolidatedRefreshOutcome): string {
  const parts: string[] = [];
  if (c.refreshed.length) parts.push(`rebuilt ${plural(c.refreshed.length, 'consolidated statement')} (${plural(c.calls, 'call')})`);
  if (c.failed.length) parts.push(`${plural(c.failed.length, 'consolidated statement')} not refreshed, previous figures kept`);
  for (const u of c.unconnected) parts.push(`the consolidated statement at ${u.binding.address} not refreshed: connect ${u.missing.join(' and ')} to refresh it`);
  return parts.length ? ` Also ${parts.join('; ')}.` : '';
}

/** One company's part of what a refresh would cost: its plan's text, and the calls its own cap leaves. */
export interface CompanyCostText {
  name: string;
  text: string;
  /** Calls left this month on its plan, when known. */
  left?: { left: number; plan: string };
}

/** What a refresh that spans several companies costs, company by company (each spends from its own cap). */
export function companiesCostText(companies: CompanyCostText[]): string {
  if (companies.length === 1) return companies[0].text;
  return companies
    .map((c) => `${c.name}: ${c.text}${c.left ? ` (${plural(c.left.left, 'call')} left this month on its ${c.left.plan} plan)` : ''}`)
    .join(' ');
}
