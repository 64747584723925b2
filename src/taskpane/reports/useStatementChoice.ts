// What the Reports tab's form has chosen of a statement block: the statement, the period (fixed, or relative
// to the reporting period), the layout (a Total column, Variance columns, by department, against a kept
// budget) and the units; and the block's spec when the choice makes one.

import { useMemo, useState } from 'react';
import type { KeptBudget } from '../../engine/budgets';
import type { Period } from '../../engine/dates';
import type { Scale } from '../../engine/render';
import type { ReportingPeriod } from '../../engine/reporting/period';
import type { LayoutKey, PeriodChoice, PeriodRelation, StatementKind, StatementSpec } from '../../engine/statements';
import { columnsFor, fail, isWholeMonths, LAYOUTS, offersLayout, offersTotal, offersVariance, ok, relativePeriod, resolvePeriod } from '../../runtime/screenKit';

export interface StatementChoiceInput {
  today: string;
  reporting: ReportingPeriod | null;
  budgets: KeptBudget[];
  /** The chosen company's. */
  fiscalYearStartMonth: number;
}

export function useStatementChoice({ today, reporting, budgets, fiscalYearStartMonth }: StatementChoiceInput) {
  const [statement, setStatement] = useState<StatementKind>('income_statement');
  const [periodChoice, setPeriodChoice] = useState<PeriodChoice>('last_month');
  /** Set when the period follows the reporting period; periodChoice is then not used. */
  const [relation, setRelation] = useState<PeriodRelation | null>(null);
  const [customStart, setCustomStart] = useState('');
  const [customEnd, setCustomEnd] = useState('');
  const [layoutChoice, setLayout] = useState<LayoutKey>('single');
  /** By department: the department whose children are the columns (null: the top tier; undefined: not chosen yet). */
  const [departmentsUnder, setDepartmentsUnder] = useState<string | null | undefined>(undefined);
  const [total, setTotal] = useState(false);
  // A comparison is read by its variance: offered, and on unless the user turns it off.
  const [variance, setVariance] = useState(true);
  const [scale, setScale] = useState<Scale>('units');
  const [budgetName, setBudgetName] = useState('');
  const layouts = LAYOUTS.filter((l) => offersLayout(statement, l.key) && (l.key !== 'budget' || budgets.length > 0));
  // A layout no longer offered (another statement chosen, the budget forgotten) falls back to one period.
  const layout = layouts.some((l) => l.key === layoutChoice) ? layoutChoice : 'single';
  const budget = layout === 'budget' ? (budgets.find((b) => b.name === budgetName) ?? budgets[0]) : undefined;

  const period = useMemo(() => {
    if (!relation) return resolvePeriod(periodChoice, { today, fiscalYearStartMonth, customStart, customEnd });
    if (reporting?.state !== 'set') return fail<Period>('Set the reporting period above first.');
    return ok(relativePeriod(relation, reporting.month, fiscalYearStartMonth));
  }, [relation, reporting, periodChoice, today, fiscalYearStartMonth, customStart, customEnd]);
  // A budget is kept by month: a period that ends today (this month so far) has no budget to set against it.
  const budgetError = budget && period.ok && !isWholeMonths(period.value) ? 'A budget is kept by month: choose whole months (last month, a quarter, or a period of the reporting period).' : undefined;
  const canTotal = offersTotal({ statement, layout });
  const canVariance = offersVariance({ layout });
  const spec: StatementSpec | null = useMemo(
    () =>
      period.ok && (layout !== 'budget' || (budget && !budgetError))
        ? {
            statement,
            period: relation ? 'custom' : periodChoice,
            start: period.value.start,
            end: period.value.end,
            layout,
            scale,
            fiscalYearStartMonth,
            ...(canTotal && total ? { total: true } : {}),
            ...(canVariance && variance ? { variance: true } : {}),
            ...(relation ? { relation } : {}),
            ...(layout === 'by_department' && departmentsUnder ? { departmentsUnder } : {}),
            ...(layout === 'budget' && budget ? { budget: budget.name } : {}),
          }
        : null,
    [period, statement, periodChoice, relation, layout, scale, fiscalYearStartMonth, canTotal, total, canVariance, variance, departmentsUnder, budget, budgetError],
  );

  // The year to date differs from the period picked: say which two spans are compared.
  const ytdHint = useMemo(() => {
    if (!spec || spec.layout !== 'prior_ytd' || spec.statement === 'balance_sheet') return undefined;
    const [actual, prior] = columnsFor(spec);
    return `${actual.start} to ${actual.end} against ${prior.start} to ${prior.end}`;
  }, [spec]);

  return {
    statement,
    setStatement,
    periodChoice,
    setPeriodChoice,
    relation,
    setRelation,
    customStart,
    setCustomStart,
    customEnd,
    setCustomEnd,
    layouts,
    layout,
    setLayout,
    departmentsUnder,
    setDepartmentsUnder,
    total,
    setTotal,
    variance,
    setVariance,
    scale,
    setScale,
    budget,
    setBudgetName,
    budgetError,
    period,
    canTotal,
    canVariance,
    spec,
    ytdHint,
  };
}

export type StatementChoice = ReturnType<typeof useStatementChoice>;
