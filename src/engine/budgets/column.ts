// The Budget column of a statement block "against budget": the kept budget read from its cells when the block is
// written or rebuilt (before any call: a budget that cannot answer for the period is refused first), matched to
// the chart of accounts (read through the cache like every answer, so it is in the block's cost), and turned
// into one more income statement for the renderer, which adds the Variance columns as it does for any comparison.
// A rolled block reads the months of its new period; an edited budget changes what the block shows at its next
// rebuild, and its fingerprint tells a refresh that it must rebuild it (statements/refresh.ts).

import type { CallOptions } from '../../api/transport';
import type { Category, FullList } from '../../api/types';
import { periodLabel } from '../dates';
import type { CachedReader } from '../reader/cachedReader';
import type { ReadRequest } from '../reader/requestCache';
import type { WorkbookGateway } from '../ports/workbook';
import type { IncomeStatementReport } from '../render/reportShapes';
import { Refusal } from '../refusal';
import { buildTree, type Tree } from '../tree';
import { readKeptBudget, type ReadBudget } from './kept';
import { matchBudget, type BudgetMatch } from './match';
import { centsOver, monthsOfPeriod } from './months';
import { budgetReport } from './report';

/** What reading the chart of accounts needs of the API client (createClient's result satisfies it). */
export interface CategoriesClient {
  readonly categories: { list(opts?: CallOptions): Promise<FullList<Category>> };
}

/** The request a block against budget makes besides its period's statement: the chart of accounts. */
export const CATEGORIES_REQUEST: ReadRequest = { path: '/categories' };

/** What a block compares with: a kept budget over the block's period. */
export interface BudgetChoice {
  readonly budget: string;
  readonly start: string;
  readonly end: string;
  readonly fiscalYearStartMonth: number;
}

/** The budget read for a block's period, before anything is fetched. */
export interface PreparedBudget extends ReadBudget {
  readonly positions: readonly number[];
}

export interface BudgetColumn {
  readonly report: IncomeStatementReport;
  readonly labels: readonly [string, string];
  readonly description: string;
  readonly match: BudgetMatch;
  /** Of the budget's figures the block shows: a refresh rebuilds the block when it differs (budgetChanged). */
  readonly fingerprint: string;
}

/** The kept budget over the block's period; refused (nothing fetched) when it cannot answer for it. */
export async function prepareBudget(gateway: WorkbookGateway, choice: BudgetChoice): Promise<PreparedBudget> {
  const read = await readKeptBudget(gateway, choice.budget);
  const positions = monthsOfPeriod(read.sheet, choice);
  if (!positions.ok) throw new Refusal('The budget does not cover the period', `${choice.budget}: ${positions.error}`, 'budget_months');
  return { ...read, positions: positions.value };
}

/** The chart of accounts through the cache (Refresh this block fetches it again, as its cost said). */
export async function chartOfAccounts(reader: CachedReader, client: CategoriesClient, fresh = false): Promise<Tree<Category>> {
  const answer = await reader.read<FullList<Category>>(CATEGORIES_REQUEST, (o) => client.categories.list(o), { fresh });
  if (answer.stale) throw answer.stale.error;
  return buildTree(Array.isArray(answer.value?.data) ? answer.value.data : [], 'category');
}

/** FNV-1a of the text: short, stable, and enough to notice an edit. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/** The budget's lines as a block of this period reads them: each label and its cents over the period. */
export function budgetFingerprint(prepared: Pick<PreparedBudget, 'sheet' | 'positions'>): string {
  return hash(JSON.stringify(prepared.sheet.lines.map((line) => [line.label, centsOver(line, prepared.positions)])));
}

/**
 * Whether the budget's figures for a block's period differ from those it was written with (its recorded
 * fingerprint); a budget that cannot be read now counts as edited, so the refresh tries it and says why.
 */
export async function budgetEdited(gateway: WorkbookGateway, choice: BudgetChoice, recorded: unknown): Promise<boolean> {
  try {
    return budgetFingerprint(await prepareBudget(gateway, choice)) !== recorded;
  } catch {
    return true;
  }
}

/** The Budget column beside the actual statement of the block's period. */
export function budgetColumn(prepared: PreparedBudget, tree: Tree<Category>, actual: IncomeStatementReport, choice: BudgetChoice): BudgetColumn {
  const match = matchBudget(prepared.sheet, tree);
  const left = match.unmatched.filter((u) => !u.subtotal);
  const leftOut = left.length === 0 ? '' : `; left out, matching no category: ${left.slice(0, 3).map((u) => `"${u.line.label}"`).join(', ')}${left.length > 3 ? ` and ${left.length - 3} more` : ''}`;
  let period: string;
  try {
    period = periodLabel(choice.start, choice.end, { fiscalYearStartMonth: choice.fiscalYearStartMonth });
  } catch {
    period = `${choice.start} to ${choice.end}`;
  }
  return {
    report: budgetReport(match, prepared.positions, actual),
    labels: ['Actual', 'Budget'],
    description: `${period} (${choice.start} to ${choice.end}) against the budget ${prepared.name}${leftOut}`,
    match,
    fingerprint: budgetFingerprint(prepared),
  };
}
