// The Variance and Variance % columns of a comparison (a period against the prior period, the same period
// last year or the prior year to date): computed from the two columns' integer cents when the block is
// rendered, so they cost no call and never drift from the figures beside them.
//
// The sign is the accountant's: favourable positive, unfavourable in parentheses, as the headers say.
// Favourable means good for the owners, by the effect of the change on the statement's bottom line:
// - income statement: on net income. The API signs every line by that effect already (revenue and income
//   positive, expenses and taxes negative), so actual minus comparison is favourable on every line,
//   section total, operating income and net income: revenue up and expense down are both positive.
// - cash flow: on cash. Inflows are positive and outflows negative, so actual minus comparison again.
// - balance sheet: on net assets. Balances are natural-signed, so an asset or equity balance that grew is
//   favourable and a liability that grew is not. "Total liabilities and equity" mixes both directions (it is
//   total assets by another road) and gets no variance.
// Variance % is the variance over the comparison's size (its absolute value), so it carries the variance's
// sign; a zero comparison has no percentage and stays blank rather than show an error.

import { Cell, EMPTY, num } from './grid';
import { Scale, centsToDisplay } from './money';
import type { StatementKind } from './reportShapes';

export const VARIANCE_LABEL = 'Variance fav/(unfav)';
export const VARIANCE_PERCENT_LABEL = 'Variance % fav/(unfav)';

/** One decimal, unfavourable in parentheses like the accounting format beside it. */
export const PERCENT_FORMAT = '0.0%_);(0.0%);0.0%_)';

/** +1 when a larger figure is favourable, -1 when it is unfavourable, null when the row has no direction. */
export type Orientation = 1 | -1 | null;

/** What places a row: its section (`revenue`, `liabilities`...) or, for a figure, its report field. */
export interface RowPlace {
  readonly section?: string;
  readonly figure?: string;
}

const BALANCE_SHEET_SECTIONS: Readonly<Record<string, Orientation>> = { assets: 1, liabilities: -1, equity: 1 };

/** The orientation of a row of a statement (see the rule above). */
export function orientationOf(kind: StatementKind, place: RowPlace): Orientation {
  if (kind !== 'balance_sheet') return 1;
  if (place.section !== undefined) return BALANCE_SHEET_SECTIONS[place.section] ?? null;
  return null; // liabilities_and_equity_cents, the one figure of a balance sheet
}

/**
 * The variance, in cents, of `actual` against `comparison` with the row's orientation; undefined when
 * either figure is missing or the row has no direction.
 */
export function varianceCents(actual: number | undefined, comparison: number | undefined, orientation: Orientation): number | undefined {
  if (actual === undefined || comparison === undefined || orientation === null) return undefined;
  const v = orientation * (actual - comparison);
  return v === 0 ? 0 : v; // no -0
}

/** The variance as a share of the comparison; undefined for a zero comparison (no base to measure from). */
export function variancePercent(variance: number | undefined, comparison: number | undefined): number | undefined {
  if (variance === undefined || comparison === undefined || comparison === 0) return undefined;
  const ratio = variance / Math.abs(comparison);
  return ratio === 0 ? 0 : ratio;
}

/** The two cells a row gets: the variance in display units and its percentage, blank where there is none. */
export function varianceCells(actual: number | undefined, comparison: number | undefined, orientation: Orientation, scale: Scale): [Cell, Cell] {
  const variance = varianceCents(actual, comparison, orientation);
  const percent = variancePercent(variance, comparison);
  return [variance === undefined ? EMPTY : num(centsToDisplay(variance, scale)), percent === undefined ? EMPTY : num(percent)];
}
