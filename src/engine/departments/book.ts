// A period's income statement split by department: the journal activity (activity.ts) laid over the
// statement's own lines. A statement line is its category and every category under it (the chart's
// subtree: "parents contain subtotals of children"), a section total the sum of its root lines, operating and
// net income the sums the spec defines. Any set of departments gets a statement of the same shape, so the
// renderer puts them side by side like periods.
//
// Before any figure is given, the lines of every department together must come to the statement, line by
// line, to the cent. The entries' fields and date filter are not shown in the spec, and a signed amount read
// the wrong way round, or entries the walk did not get, would otherwise give figures that look right: such
// an answer is refused, as a drill-down refuses lines that do not explain their figure.

import type { Category, IncomeStatement } from '../../api/types';
import { Refusal } from '../refusal';
import { centsToDisplay } from '../render/money';
import { subtreeIds, type Tree } from '../tree';
import type { DepartmentActivity } from './activity';

const SECTIONS = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'] as const;
type SectionKey = (typeof SECTIONS)[number];
const OPERATING: readonly SectionKey[] = ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses'];

/** Which lines count: by the line's department (null: none). */
export type DepartmentFilter = (departmentId: string | null) => boolean;

interface Entry {
  readonly category_id: string;
  readonly name: string;
  readonly amount_cents: number;
  readonly parent_category_id: string | null;
}

function sectionOf(report: IncomeStatement, key: SectionKey): { total_cents: number; categories: readonly Entry[] } | undefined {
  const s = (report as unknown as Record<string, unknown>)[key];
  return s && typeof s === 'object' && Array.isArray((s as { categories?: unknown }).categories) ? (s as { total_cents: number; categories: readonly Entry[] }) : undefined;
}

const units = (cents: number): string => centsToDisplay(cents, 'units').toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export class DepartmentBook {
  /** Each category and the categories under it, by the chart. */
  private readonly subtrees = new Map<string, readonly string[]>();
  /** Each department filter's lines by category, by the caller's name for the filter (a FIN cell's department). */
  private readonly owned = new Map<string, Map<string, number>>();

  constructor(
    readonly statement: IncomeStatement,
    readonly activity: DepartmentActivity,
    private readonly chart: Tree<Category>,
  ) {
    this.check();
  }

  /** A statement of the period for the lines `includes` says yes to, shaped as the API's (same sections and lines). */
  report(includes: DepartmentFilter): IncomeStatement {
    const own = this.own(includes);
    const out: Record<string, unknown> = { ...this.statement };
    const totals = new Map<SectionKey, number>();
    for (const key of SECTIONS) {
      const section = sectionOf(this.statement, key);
      if (!section) continue;
      const ids = new Set(section.categories.map((c) => c.category_id));
      const categories = section.categories.map((c) => ({ ...c, amount_cents: this.rolled(c.category_id, own) }));
      const total = categories.reduce((n, c) => (c.parent_category_id === null || !ids.has(c.parent_category_id) ? n + c.amount_cents : n), 0);
      totals.set(key, total);
      out[key] = { ...section, total_cents: total, categories };
    }
    const sum = (keys: readonly SectionKey[]) => keys.reduce((n, k) => n + (totals.get(k) ?? 0), 0);
    out.operating_income_cents = sum(OPERATING);
    out.net_income_cents = sum(SECTIONS);
    return out as unknown as IncomeStatement;
  }

  /**
   * One statement line (a category and its subtree) for the lines `includes` says yes to; `name` names the
   * filter, so a model's thousands of cells of a few departments add each department's lines up once.
   */
  line(categoryId: string, includes: DepartmentFilter, name: string): number {
    let own = this.owned.get(name);
    if (!own) {
      own = this.own(includes);
      this.owned.set(name, own);
    }
    return this.rolled(categoryId, own);
  }

  /** Whether the period has any line of a statement category where `includes` says yes. */
  has(includes: DepartmentFilter): boolean {
    const report = this.report(includes);
    return SECTIONS.some((key) => sectionOf(report, key)?.categories.some((c) => c.amount_cents !== 0));
  }

  private own(includes: DepartmentFilter): Map<string, number> {
    const own = new Map<string, number>();
    for (const [category, department, cents] of this.activity.lines) {
      if (includes(department)) own.set(category, (own.get(category) ?? 0) + cents);
    }
    return own;
  }

  private rolled(categoryId: string, own: ReadonlyMap<string, number>): number {
    let ids = this.subtrees.get(categoryId);
    if (!ids) {
      const node = this.chart.byId.get(categoryId);
      ids = node ? subtreeIds(node) : [categoryId];
      this.subtrees.set(categoryId, ids);
    }
    let n = 0;
    for (const id of ids) n += own.get(id) ?? 0;
    return n;
  }

  /** Every department together must be the statement: each line, each section total, operating and net income. */
  private check(): void {
    const all = this.report(() => true);
    const period = `${this.statement.start_date} to ${this.statement.end_date}`;
    const mismatch = (what: string, lines: number, statement: number): never => {
      const why = this.activity.signed
        ? ' The API gives each journal line one signed amount, read as debit positive; if it signs credits positive, that explains it.'
        : '';
      throw new Refusal(
        'The departments do not add up to the statement',
        `The journal lines of ${what} for ${period} add up to ${units(lines)} across the departments, but the income statement says ${units(statement)}. ` +
          `Nothing was written: figures by department that do not add up to the statement would mislead.${why} A Full refresh reads both again.`,
        'departments_mismatch',
      );
    };
    for (const key of SECTIONS) {
      const given = sectionOf(this.statement, key);
      const split = sectionOf(all, key);
      if (!given || !split) continue;
      given.categories.forEach((c, i) => {
        if (split.categories[i].amount_cents !== c.amount_cents) mismatch(c.name, split.categories[i].amount_cents, c.amount_cents);
      });
      if (split.total_cents !== given.total_cents) mismatch(`the ${key.replace(/_/g, ' ')} section`, split.total_cents, given.total_cents);
    }
    if (all.operating_income_cents !== this.statement.operating_income_cents) mismatch('operating income', all.operating_income_cents, this.statement.operating_income_cents);
    if (all.net_income_cents !== this.statement.net_income_cents) mismatch('net income', all.net_income_cents, this.statement.net_income_cents);
  }
}
