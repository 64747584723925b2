// The Total column of periods side by side: one more report, summed in cents from the columns' own reports
// (no call: the API's report for the whole range would give the same figures, the ledger being one), so
// the renderer lays it out, checks it and converts it like any other column.

import { RenderError, assertCents } from './money';
import type { CashFlowReport, IncomeStatementReport, ReportLine, ReportSection, StatementReport } from './reportShapes';

type PeriodicReport = IncomeStatementReport | CashFlowReport;

const SECTIONS: Readonly<Record<PeriodicReport['object'], readonly string[]>> = {
  income_statement: ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'],
  cash_flow: ['operating_activities', 'investing_activities', 'financing_activities'],
};

/** Figures that flow over a period: the total is their sum. */
const FLOWS: Readonly<Record<PeriodicReport['object'], readonly string[]>> = {
  income_statement: ['operating_income_cents', 'net_income_cents'],
  cash_flow: ['net_income_cents', 'change_in_cash_cents'],
};

function fieldOf(report: StatementReport, key: string): unknown {
  return (report as unknown as Record<string, unknown>)[key];
}

function sectionOf(report: StatementReport, key: string): ReportSection | undefined {
  const s = fieldOf(report, key);
  return s && typeof s === 'object' ? (s as ReportSection) : undefined;
}

/** A figure's cents, or undefined when the report does not give it. */
function centsOf(report: StatementReport, key: string): number | undefined {
  const v = fieldOf(report, key);
  if (v === undefined || v === null) return undefined;
  assertCents(v, `${report.object}.${key}`);
  return v;
}

/** The section summed line by line (a line a period leaves out had no activity there); undefined when no period has it. */
function sumSection(sections: readonly (ReportSection | undefined)[]): ReportSection | undefined {
  const present = sections.filter((s): s is ReportSection => s !== undefined);
  if (present.length === 0) return undefined;
  const lines = new Map<string, { line: ReportLine; cents: number }>();
  let total = 0;
  for (const section of present) {
    assertCents(section.total_cents, 'total_cents');
    total += section.total_cents;
    for (const line of section.categories) {
      const cents = line.amount_cents;
      assertCents(cents, `amount_cents of ${line.category_id}`);
      const known = lines.get(line.category_id);
      if (known) known.cents += cents;
      else lines.set(line.category_id, { line, cents });
    }
  }
  return { total_cents: total, categories: [...lines.values()].map(({ line, cents }) => ({ ...line, amount_cents: cents })) };
}

/** Sums, or undefined as soon as one period lacks the figure (a partial sum would pass for the total). */
function sumFigure(reports: readonly StatementReport[], key: string): number | undefined {
  let total = 0;
  for (const r of reports) {
    const cents = centsOf(r, key);
    if (cents === undefined) return undefined;
    total += cents;
  }
  return total;
}

/**
 * The report of the columns' whole range: lines, section totals and flows summed; beginning cash from the
 * first column and ending cash from the last (balances, not flows). A balance sheet has no total: its
 * columns are points in time.
 */
export function totalReport(reports: readonly StatementReport[]): PeriodicReport {
  if (reports.length === 0) throw new RenderError('no report to total');
  const kind = reports[0].object;
  if (kind === 'balance_sheet') throw new RenderError('a balance sheet has no total column: its columns are points in time');
  const periods = reports as readonly PeriodicReport[];
  const first = periods[0];
  const last = periods[periods.length - 1];
  const out: Record<string, unknown> = {
    object: kind,
    start_date: periods.reduce((m, p) => (p.start_date < m ? p.start_date : m), first.start_date),
    end_date: periods.reduce((m, p) => (p.end_date > m ? p.end_date : m), first.end_date),
    currency: first.currency,
    refreshed_at: periods.every((p) => typeof p.refreshed_at === 'number') ? Math.max(...periods.map((p) => p.refreshed_at as number)) : null,
  };
  for (const key of SECTIONS[kind]) {
    const section = sumSection(periods.map((p) => sectionOf(p, key)));
    if (section) out[key] = section;
  }
  for (const key of FLOWS[kind]) {
    const cents = sumFigure(periods, key);
    if (cents !== undefined) out[key] = cents;
  }
  if (kind === 'cash_flow') {
    const beginning = centsOf(first, 'beginning_cash_cents');
    const ending = centsOf(last, 'ending_cash_cents');
    if (beginning !== undefined) out.beginning_cash_cents = beginning;
    if (ending !== undefined) out.ending_cash_cents = ending;
  }
  return out as unknown as PeriodicReport;
}
