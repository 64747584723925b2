// A budget as a controller types it into a sheet of the workbook: months across the top (as text, 2026-01),
// category names or paths down the side, figures in units (costs as positive amounts, as budgets are usually
// kept). The figures are the test's own, so what a block or a formula shows can be checked against them.
import { monthIndexToYearMonth, formatYearMonth, monthIndex } from '../../src/engine/dates';
import type { MemoryGateway } from '../../src/excel/memoryGateway';

export interface TypedLine {
  label: string;
  /** Units per month, in the budget's month order. */
  units: number[];
}

export interface TypedBudget {
  /** Sheet-qualified address of the whole budget, header row and label column included. */
  address: string;
  /** ISO month of each column: "2026-01". */
  months: string[];
  lines: TypedLine[];
}

/** `count` months from the month of `firstIso`. */
export function monthsFrom(firstIso: string, count: number): string[] {
  const first = monthIndex(firstIso);
  return Array.from({ length: count }, (_, i) => {
    const { year, month } = monthIndexToYearMonth(first + i);
    return formatYearMonth(year, month);
  });
}

/** Writes the budget on a new sheet `sheet` at A1 (as the user would type it) and says where it is. */
export async function typeBudget(gateway: MemoryGateway, sheet: string, months: string[], lines: TypedLine[], extraRows: (string | number | null)[][] = []): Promise<TypedBudget> {
  const values: (string | number | null)[][] = [['Category', ...months], ...lines.map((l) => [l.label, ...l.units]), ...extraRows];
  const written = await gateway.writeGrid({ kind: 'newSheet', name: sheet }, { values });
  return { address: written.address, months, lines };
}

/** A line's units over the months of [start, end] (ISO dates of whole months), in cents. */
export function typedCents(budget: TypedBudget, label: string, start: string, end: string): number {
  const line = budget.lines.find((l) => l.label === label);
  if (!line) throw new Error(`no line ${label}`);
  return budget.months.reduce((sum, m, i) => (m >= start.slice(0, 7) && m <= end.slice(0, 7) ? sum + Math.round(line.units[i] * 100) : sum), 0);
}
