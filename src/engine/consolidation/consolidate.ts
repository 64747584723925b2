// A consolidated statement (issue 16, item 4): one company's report per column and a total, for one period.
// Companies keep their own charts of accounts, so their lines cannot be matched by category id: a line is
// matched by its category's name path within its section (names compared without case or spaces, so
// "Cost of Revenue > Cloud Hosting" meets "cost of revenue > cloud  hosting"). A line that only some of the
// companies have is kept, marked with the companies that have it. Amounts add up as reported: no
// eliminations of business between the companies (the header says so), and no currency conversion (the API
// converts nothing, so companies reporting in different currencies are refused).
//
// The reports are re-keyed by path and handed to the one statement renderer (render/statementGrid.ts) with
// the companies as its columns and its Total column: cents stay cents until that one place.

import { Refusal } from '../refusal';
import type { ReportLine, ReportSection, StatementReport } from '../render/reportShapes';

export interface CompanyReport {
  /** What the column is headed: the connection's name. */
  readonly company: string;
  readonly report: StatementReport;
}

export interface Consolidated {
  /** The reports re-keyed by name path, in the companies' order: one column each. */
  readonly reports: StatementReport[];
  readonly labels: string[];
  /** The third title line: the period, the companies, and that nothing is eliminated. */
  readonly description: string;
  /** Lines some companies do not have: their (displayed) name -> the companies that have them. */
  readonly partial: ReadonlyMap<string, readonly string[]>;
}

/** Section names of each statement kind whose lines are matched by path. */
const SECTIONS: Record<StatementReport['object'], readonly string[]> = {
  income_statement: ['revenue', 'expenses', 'non_operating_income', 'uncategorized_income', 'uncategorized_expenses', 'taxes'],
  balance_sheet: ['assets', 'liabilities', 'equity'],
  cash_flow: ['operating_activities', 'investing_activities', 'financing_activities'],
};

/** Names compared as the issue asks: case and spaces do not matter. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}

const GROUP_PREFIX = 'grp_';

interface Keyed {
  key: string;
  line: ReportLine;
}

/** Each line of a section with its path key (its ancestors' names, then its own). */
function keyedLines(section: ReportSection, sectionName: string): Keyed[] {
  const byId = new Map(section.categories.map((l) => [l.category_id, l]));
  const keyOf = (line: ReportLine, seen: Set<string>): string => {
    const parent = line.parent_category_id ? byId.get(line.parent_category_id) : undefined;
    // A parent the section does not list, or a loop: the line is rooted where it is.
    const up = parent && !seen.has(parent.category_id) ? `${keyOf(parent, new Set([...seen, line.category_id]))}>` : `${sectionName}:`;
    return `${up}${nameKey(line.name)}`;
  };
  return section.categories.map((line) => ({ key: keyOf(line, new Set([line.category_id])), line }));
}

function periodOf(report: StatementReport): string {
  if (report.object === 'balance_sheet') return `As of ${report.date}`;
  return `For the period ${report.start_date} to ${report.end_date}`;
}

/**
 * The companies' reports ready to render side by side. Refused (with what to do) when there are fewer than
 * two, when they are not the same statement for the same period, or when their currencies differ.
 */
export function consolidate(companies: readonly CompanyReport[]): Consolidated {
  if (companies.length < 2) throw new Refusal('Consolidation needs two companies', 'Choose at least two connections to consolidate.', 'consolidation_companies');
  const [first] = companies;
  for (const c of companies) {
    if (c.report.object !== first.report.object || periodOf(c.report) !== periodOf(first.report)) {
      throw new Refusal('Not the same statement', `${c.company}'s report is not the same statement for the same period as ${first.company}'s.`, 'consolidation_mismatch');
    }
  }
  const currencies = new Set(companies.map((c) => c.report.currency));
  if (currencies.size > 1) {
    const listed = companies.map((c) => `${c.company} reports in ${c.report.currency}`).join(', ');
    throw new Refusal(
      'Different currencies',
      `${listed}. A consolidation adds amounts in one currency, and neither the API nor the add-in converts them: consolidate companies that report in the same currency.`,
      'consolidation_currency',
    );
  }

  const kind = first.report.object;
  const keyedPerCompany = companies.map((c) => {
    const perSection = new Map<string, Keyed[]>();
    for (const name of SECTIONS[kind]) {
      const section = (c.report as unknown as Record<string, ReportSection | null | undefined>)[name];
      if (section?.categories) perSection.set(name, keyedLines(section, name));
    }
    return perSection;
  });

  // Which companies have each line, and the name it is shown with (the first company's spelling).
  const holders = new Map<string, string[]>();
  const shownName = new Map<string, string>();
  keyedPerCompany.forEach((perSection, i) => {
    for (const lines of perSection.values()) {
      for (const { key, line } of lines) {
        const who = holders.get(key) ?? [];
        if (!who.includes(companies[i].company)) who.push(companies[i].company);
        holders.set(key, who);
        if (!shownName.has(key)) shownName.set(key, line.name);
      }
    }
  });
  const partial = new Map<string, string[]>();
  const nameFor = (key: string): string => {
    const who = holders.get(key) ?? [];
    const name = shownName.get(key) ?? key;
    if (who.length === companies.length) return name;
    const marked = `${name} (only ${who.join(', ')})`;
    partial.set(marked, who);
    return marked;
  };

  const reports = companies.map((c, i) => {
    const copy: Record<string, unknown> = { ...c.report };
    for (const [sectionName, lines] of keyedPerCompany[i]) {
      const section = (c.report as unknown as Record<string, ReportSection>)[sectionName];
      // Two categories of one company on the same path (a duplicate name) become one line: their sum.
      const merged = new Map<string, ReportLine>();
      for (const { key, line } of lines) {
        const parent = line.parent_category_id ? lines.find((l) => l.line.category_id === line.parent_category_id) : undefined;
        const isGroup = line.category_id.startsWith(GROUP_PREFIX);
        const id = `${isGroup ? GROUP_PREFIX : 'path_'}${key}`;
        const parentId = parent ? `${parent.line.category_id.startsWith(GROUP_PREFIX) ? GROUP_PREFIX : 'path_'}${parent.key}` : null;
        const before = merged.get(id);
        merged.set(id, {
          ...line,
          category_id: id,
          parent_category_id: parentId,
          name: nameFor(key),
          ...(line.amount_cents !== undefined ? { amount_cents: (before?.amount_cents ?? 0) + line.amount_cents } : {}),
          ...(line.balance_cents !== undefined ? { balance_cents: (before?.balance_cents ?? 0) + line.balance_cents } : {}),
        });
      }
      copy[sectionName] = { ...section, categories: [...merged.values()] };
    }
    return copy as unknown as StatementReport;
  });

  const names = companies.map((c) => c.company);
  return {
    reports,
    labels: names,
    description: `${periodOf(first.report)}, consolidated: ${names.join(' + ')}; no eliminations`,
    partial,
  };
}
