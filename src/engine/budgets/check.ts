// What the pane shows of a budget before it is kept (and of a kept one, checked again): what it covers, which of
// its lines match a category and which do not (and why), which categories no line covers, and how its costs were
// typed. The budget is read from the workbook; only the chart of accounts is read through the cache.

import { monthIndexToYearMonth } from '../dates';
import { cellA1, parseQualified, quoteSheet } from '../ports/address';
import type { CachedReader, CallCost } from '../reader/cachedReader';
import type { WorkbookGateway } from '../ports/workbook';
import { CATEGORIES_REQUEST, chartOfAccounts, type CategoriesClient } from './column';
import { readBudgetAt } from './kept';
import { matchBudget, type CostSigns } from './match';
import { monthsCovered } from './sheet';

export interface BudgetCheck {
  readonly address: string;
  /** "Jan 2026 to Dec 2026". */
  readonly covers: string;
  readonly months: number;
  /** Columns headed by something other than a month, left out: the heading cell and what it says. */
  readonly skipped: readonly { readonly cell: string; readonly header: string }[];
  readonly matched: readonly { readonly label: string; readonly path: string }[];
  readonly unmatched: readonly { readonly label: string; readonly cell: string; readonly reason: string; readonly subtotal: boolean }[];
  /** Paths of the income-statement categories no line covers (each standing for its subcategories). */
  readonly unbudgeted: readonly string[];
  readonly costs: CostSigns;
  /** Cost lines typed with the other sign than the rest (BudgetMatch.againstSign): to correct before keeping. */
  readonly againstSign: readonly { readonly label: string; readonly cell: string }[];
  /** A name to keep it under: Budget_2026, or Budget_2025_2026 across two years. */
  readonly suggestedName: string;
}

/** What checking a budget spends: the chart of accounts, unless cached. */
export function checkCost(reader: CachedReader): Promise<CallCost> {
  return reader.cost([CATEGORIES_REQUEST]);
}

/** The budget at `address` read and matched to the company's chart of accounts. */
export async function checkBudget(gateway: WorkbookGateway, reader: CachedReader, client: CategoriesClient, address: string): Promise<BudgetCheck> {
  const sheet = await readBudgetAt(gateway, address);
  const match = matchBudget(sheet, await chartOfAccounts(reader, client));
  const { sheet: name, box } = parseQualified(address);
  const cell = (row: number, column: number) => `${quoteSheet(name)}!${cellA1(box.row + row, box.col + column)}`;
  const first = monthIndexToYearMonth(Math.min(...sheet.months)).year;
  const last = monthIndexToYearMonth(Math.max(...sheet.months)).year;
  return {
    address,
    covers: monthsCovered(sheet),
    months: sheet.months.length,
    skipped: sheet.skipped.map((s) => ({ cell: cell(0, s.column), header: s.header })),
    matched: match.matched.map((m) => ({ label: m.line.label, path: m.node.path })),
    unmatched: match.unmatched.map((u) => ({ label: u.line.label, cell: cell(u.line.row, 0), reason: u.reason, subtotal: u.subtotal })),
    unbudgeted: match.unbudgeted.map((n) => n.path),
    costs: match.costs,
    againstSign: match.againstSign.map((m) => ({ label: m.line.label, cell: cell(m.line.row, 0) })),
    suggestedName: first === last ? `Budget_${first}` : `Budget_${first}_${last}`,
  };
}
