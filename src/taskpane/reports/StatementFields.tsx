// The Reports tab's fields of a statement block: statement, period (fixed dates, or relative to the reporting
// period for the default company), custom dates, layout, departments, budget, Total and Variance columns,
// units. Their state is useStatementChoice's.

import { Checkbox, Field, Input } from '@fluentui/react-components';
import type { KeptBudget } from '../../engine/budgets';
import type { PeriodChoice } from '../../engine/statements';
import { PERIOD_CHOICES, RELATIONS, SCALES, STATEMENTS } from '../../runtime/screenKit';
import { ChoiceField } from '../shared/ChoiceField';
import { useScreenStyles } from '../shared/styles';
import type { useDepartments } from '../shared/useDepartments';
import { DepartmentsField } from './DepartmentsField';
import type { StatementChoice } from './useStatementChoice';

export interface StatementFieldsProps {
  choice: StatementChoice;
  budgets: KeptBudget[];
  departments: ReturnType<typeof useDepartments>;
  /** The default company's block: relative periods are offered. */
  ofDefault: boolean;
  disabled: boolean;
}

export function StatementFields({ choice, budgets, departments, ofDefault, disabled: busy }: StatementFieldsProps) {
  const styles = useScreenStyles();
  const { statement, setStatement, period, relation, setRelation, periodChoice, setPeriodChoice, customStart, setCustomStart, customEnd, setCustomEnd } = choice;
  const { layout, layouts, setLayout, ytdHint, departmentsUnder, setDepartmentsUnder, budget, budgetError, setBudgetName, canTotal, total, setTotal, canVariance, variance, setVariance, scale, setScale } = choice;
  return (
    <>
      <ChoiceField label="Statement" value={statement} choices={STATEMENTS} onChange={setStatement} disabled={busy} />
      <ChoiceField<string>
        label="Period"
        hint={period.ok ? `${period.value.start} to ${period.value.end}${relation ? ', rolling forward with the reporting period' : ''}` : undefined}
        error={!period.ok && (relation || (periodChoice === 'custom' && customStart && customEnd)) ? period.error : undefined}
        value={relation ? `relative:${relation}` : periodChoice}
        choices={[
          { group: 'Fixed dates', choices: PERIOD_CHOICES },
          ...(ofDefault ? [{ group: 'Relative to the reporting period', choices: RELATIONS.map((r) => ({ key: `relative:${r.key}`, label: r.label })) }] : []),
        ]}
        onChange={(key) => {
          const chosen = RELATIONS.find((r) => `relative:${r.key}` === key);
          setRelation(chosen?.key ?? null);
          if (!chosen) setPeriodChoice(key as PeriodChoice);
        }}
        disabled={busy}
      />
      {!relation && periodChoice === 'custom' && (
        <div className={styles.twoColumns}>
          <Field label="Start date">
            <Input type="date" value={customStart} onChange={(_, d) => setCustomStart(d.value)} disabled={busy} />
          </Field>
          <Field label="End date">
            <Input type="date" value={customEnd} onChange={(_, d) => setCustomEnd(d.value)} disabled={busy} />
          </Field>
        </div>
      )}
      <ChoiceField
        label="Layout"
        hint={statement === 'balance_sheet' ? 'A balance sheet is taken at the end of each period.' : ytdHint}
        value={layout}
        choices={layouts}
        onChange={setLayout}
        disabled={busy}
      />
      {layout === 'by_department' && <DepartmentsField departments={departments} value={departmentsUnder} onChange={setDepartmentsUnder} disabled={busy} />}
      {layout === 'budget' && budget && (
        // Actual, Budget, Variance and Variance %: the budget is read from the workbook, for no call.
        <ChoiceField
          label="Budget"
          hint="Actual, Budget, Variance and Variance %, favourable positive. The budget is read from this workbook: no call."
          error={budgetError}
          value={budget.name}
          choices={budgets.map((b) => ({ key: b.name, label: b.address ? b.name : `${b.name} (not found)` }))}
          onChange={setBudgetName}
          disabled={busy}
        />
      )}
      {canTotal && (
        // Summed from the fetched periods' cents when the block is written: costs nothing more.
        <Checkbox label="Add a Total column (no extra call)" checked={total} onChange={(_, d) => setTotal(d.checked === true)} disabled={busy} />
      )}
      {canVariance && (
        // Computed from the two periods' cents when the block is written: costs nothing more.
        <Checkbox
          label="Add Variance and Variance % columns, favourable positive (no extra call)"
          checked={variance}
          onChange={(_, d) => setVariance(d.checked === true)}
          disabled={busy}
        />
      )}
      <ChoiceField label="Units" value={scale} choices={SCALES} onChange={setScale} disabled={busy} />
    </>
  );
}
