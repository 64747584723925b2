// The Total column: one more report, summed in cents from the columns' own reports (no call), so the
// renderer lays it out, checks it and converts it like any other column. Of periods side by side, it is the
// report of their whole range (the API's report for it would give the same figures, the ledger being one):
// flows add up, balances are taken at the range's ends. Of companies side by side (a consolidation), it is
// their sum, every figure: the group's beginning cash is the companies' beginning cash added up.

import { RenderError, assertCents } from './money';
import type { CashFlowReport, IncomeStatementReport, ReportLine, ReportSection, StatementReport } from './reportShapes';

type PeriodicReport = IncomeStatementReport | CashFlowReport;

/** What the Total column adds up: periods of one company, or companies for one period. */
export type TotalOf = 'periods' | 'companies';

const SECTIONS: Readonly<Record<StatementReport['object'], readonly string[]>> = {
  income_statement: ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'],
  balance_sheet: ['assets', 'liabilities', 'equity'],
  cash_flow: ['operating_activities', 'investing_activities', 'financing_activities'],
};

const LINE_FIELD: Readonly<Record<StatementReport['object'], 'amount_cents' | 'balance_cents'>> = {
  income_statement: 'amount_cents',
  balance_sheet: 'balance_cents',
  cash_flow: 'amount_cents',
};

/** Figures that flow over a period: the total of periods is their sum. */
const FLOWS: Readonly<Record<PeriodicReport['object'], readonly string[]>> = {
  income_statement: ['operating_income_cents', 'net_income_cents'],
  cash_flow: ['net_income_cents', 'change_in_cash_cents'],
};

/** Every figure outside the sections: the total of companies is the sum of each, balances included. */
const FIGURES: Readonly<Record<StatementReport['object'], readonly string[]>> = {
  income_statement: ['operating_income_cents', 'net_income_cents'],
  balance_sheet: ['cash_cents', 'liabilities_and_equity_cents'],
  cash_flow: ['net_income_cents', 'change_in_cash_cents', 'beginning_cash_cents', 'ending_cash_cents'],
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

/** The section summed line by line (a line a column leaves out is 0 there); undefined when no column has it. */
function sumSection(sections: readonly (ReportSection | undefined)[], field: 'amount_cents' | 'balance_cents'): ReportSection | undefined {
  const present = sections.filter((s): s is ReportSection => s !== undefined);
  if (present.length === 0) return undefined;
  const lines = new Map<string, { line: ReportLine; cents: number }>();
  let total = 0;
  for (const section of present) {
    assertCents(section.total_cents, 'total_cents');
    total += section.total_cents;
    for (const line of section.categories) {
      const cents = line[field];
      assertCents(cents, `${field} of ${line.category_id}`);
      const known = lines.get(line.category_id);
      if (known) known.cents += cents;
      else lines.set(line.category_id, { line, cents });
    }
  }
  return { total_cents: total, categories: [...lines.values()].map(({ line, cents }) => ({ ...line, [field]: cents })) };
}

/** Sums, or undefined as soon as one column lacks the figure (a partial sum would pass for the total). */
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
 * The Total column's report. Of periods: the columns' whole range, lines, section totals and flows summed,
 * beginning cash from the first column and ending cash from the last (balances, not flows); a balance sheet
 * has none, its columns being points in time. Of companies: every line, section and figure summed, for the
 * one period (or date) they share.
 */
export function totalReport(reports: readonly StatementReport[], of: TotalOf = 'periods'): StatementReport {
  if (reports.length === 0) throw new RenderError('no report to total');
  const kind = reports[0].object;
  if (kind === 'balance_sheet' && of === 'periods') throw new RenderError('a balance sheet has no total column: its columns are points in time');
  const first = reports[0];
  const out: Record<string, unknown> = {
    object: kind,
    currency: first.currency,
    refreshed_at: reports.every((r) => typeof r.refreshed_at === 'number') ? Math.max(...reports.map((r) => r.refreshed_at as number)) : null,
  };
  if (first.object === 'balance_sheet') out.date = first.date;
  else {
    const periods = reports as readonly PeriodicReport[];
    out.start_date = periods.reduce((m, p) => (p.start_date < m ? p.start_date : m), first.start_date);
    out.end_date = periods.reduce((m, p) => (p.end_date > m ? p.end_date : m), first.end_date);
  }
  for (const key of SECTIONS[kind]) {
    const section = sumSection(reports.map((r) => sectionOf(r, key)), LINE_FIELD[kind]);
    if (section) out[key] = section;
  }
  const summed = of === 'companies' ? FIGURES[kind] : FLOWS[kind as PeriodicReport['object']];
  for (const key of summed) {
    const cents = sumFigure(reports, key);
    if (cents !== undefined) out[key] = cents;
  }
  if (kind === 'cash_flow' && of === 'periods') {
    const beginning = centsOf(first, 'beginning_cash_cents');
    const ending = centsOf(reports[reports.length - 1], 'ending_cash_cents');
    if (beginning !== undefined) out.beginning_cash_cents = beginning;
    if (ending !== undefined) out.ending_cash_cents = ending;
  }
  return out as unknown as StatementReport;
}
