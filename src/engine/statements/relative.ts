// Blocks relative to the reporting period: a block records how its period follows FIN_PERIOD (the month of it,
// its quarter, its year to date, the same month last year, the twelve months to it), not only the dates it
// was last written with, so that moving the reporting period rolls the block forward. A block without a
// relation keeps its dates, as every block written before relations did.

import { periodOfMonth, shiftMonth, type Period, type YearMonth } from '../dates';

export type PeriodRelation = 'month' | 'quarter' | 'ytd' | 'last_year' | 'ttm';

/** The pane's choices, in display order. */
export const RELATIONS: readonly { readonly key: PeriodRelation; readonly label: string }[] = [
  { key: 'month', label: 'Month of the reporting period' },
  { key: 'quarter', label: 'Quarter of the reporting period' },
  { key: 'ytd', label: 'Year to date of the reporting period' },
  { key: 'last_year', label: 'Same month last year' },
  { key: 'ttm', label: 'Trailing 12 months to the reporting period' },
];

export function isRelation(value: unknown): value is PeriodRelation {
  return RELATIONS.some((r) => r.key === value);
}

export function relationLabel(relation: PeriodRelation): string {
  return RELATIONS.find((r) => r.key === relation)?.label ?? relation;
}

/** The period a relation names for a reporting month, under the company's fiscal year. */
export function relativePeriod(relation: PeriodRelation, month: YearMonth, fiscalYearStartMonth: number): Period {
  if (relation === 'last_year') return periodOfMonth(shiftMonth(month, -12), 'month', fiscalYearStartMonth);
  return periodOfMonth(month, relation === 'quarter' ? 'quarter' : relation, fiscalYearStartMonth);
}

interface Relative {
  readonly relation?: PeriodRelation;
  readonly start: string;
  readonly end: string;
  readonly fiscalYearStartMonth: number;
}

/** The spec with the dates its relation names for this reporting month; a spec without one, as it is. */
export function rollSpec<T extends Relative>(spec: T, month: YearMonth): T {
  if (!spec.relation) return spec;
  const p = relativePeriod(spec.relation, month, spec.fiscalYearStartMonth);
  return { ...spec, start: p.start, end: p.end };
}
