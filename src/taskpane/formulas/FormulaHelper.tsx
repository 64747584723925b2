import { Badge, Button, Field, Input, Listbox, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useId, useMemo, useState, type CSSProperties } from 'react';
import { ErrorMessage } from '../shared/ErrorMessage';
import { budgetFormula, checkPeriod, departmentFormula, lastQuarterText, totalFormula } from './formula';
import { ChoiceField } from '../shared/ChoiceField';
import { useBudgets } from '../shared/useBudgets';
import { useDepartments } from '../shared/useDepartments';
import { useToday } from '../shared/hooks';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { filterCategories, useCategories } from '../shared/useCategories';
import type { Tree } from '../../engine/tree';
import type { Category } from '../../api/types';

// The formula helper: pick a category from the chart of accounts (type to filter), give a period, and put
// the matching FIN.TOTAL formula into the selected cell; with a department, the FIN.PNL of that department
// (and those under it); with a budget kept in the workbook, FIN.BUDGET or FIN.BUDGET_VARIANCE of it instead.
// The categories and departments come through the shared cache, so each list costs one call once (and
// nothing when the FIN functions already fetched it).

const useHelperStyles = makeStyles({
  categories: {
    maxHeight: '240px',
    overflowY: 'auto',
  },
  /** A category indented by its depth in the tree, which each option gives as --fin-tree-depth. */
  indented: {
    paddingLeft: `calc(var(--fin-tree-depth) * ${tokens.spacingHorizontalM})`,
  },
});

/** The one value the indent needs from the option: its depth (the style itself is in makeStyles). */
function depthVariable(depth: number): CSSProperties {
  return { '--fin-tree-depth': depth } as CSSProperties;
}

/** The chart of accounts as a list to pick from, filtered as the user types. */
interface CategoryListProps {
  tree: Tree<Category>;
  filter: string;
  setFilter: (filter: string) => void;
  shown: ReturnType<typeof filterCategories>;
  selectedId: string | null;
  setSelectedId: (id: string | null) => void;
}

function CategoryList({ tree, filter, setFilter, shown, selectedId, setSelectedId }: CategoryListProps) {
  const styles = useScreenStyles();
  const helperStyles = useHelperStyles();
  const listLabel = useId();
  return (
    <>
      <Field label="Filter categories">
        <Input type="search" value={filter} onChange={(_, d) => setFilter(d.value)} spellCheck={false} />
      </Field>
      <Text id={listLabel}>Categories</Text>
      <Text role="status" aria-live="polite" className={styles.note}>
        {filter ? `${shown.length} of ${tree.ordered.length} categories match` : `${tree.ordered.length} categories`}
      </Text>
      {/* Keyed by the filter: a new list starts with its first (or the selected) option active, so
          Enter picks it right after Tab from the filter box. */}
      <Listbox
        key={filter}
        aria-labelledby={listLabel}
        selectedOptions={selectedId ? [selectedId] : []}
        onOptionSelect={(_, d) => setSelectedId(d.optionValue ?? null)}
        className={helperStyles.categories}
      >
        {shown.map((node) => (
          <Option key={node.id} value={node.id} text={node.path}>
            <span aria-hidden="true" className={helperStyles.indented} style={depthVariable(node.depth)}>
              {filter ? node.path : node.name}
            </span>
            <span className={styles.visuallyHidden}>{node.path}</span>
          </Option>
        ))}
      </Listbox>
    </>
  );
}

export function FormulaHelper({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const categories = useCategories(services, connection);
  const { tree, checked, loading } = categories;
  const [filter, setFilter] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [periodText, setPeriodText] = useState(() => lastQuarterText(today));
  const departments = useDepartments(services, connection);
  const [departmentId, setDepartmentId] = useState('');
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const budgets = useBudgets(connection.workspace, 0);
  const [fn, setFn] = useState<'TOTAL' | 'BUDGET' | 'BUDGET_VARIANCE'>('TOTAL');
  const [budgetName, setBudgetName] = useState('');
  const budget = budgets.find((b) => b.name === budgetName) ?? budgets[0];
  const chosenFn = budget ? fn : 'TOTAL';

  const shown = useMemo(() => (tree ? filterCategories(tree, filter) : []), [tree, filter]);
  const selected = tree && selectedId ? (tree.byId.get(selectedId) ?? null) : null;
  const period = checkPeriod(periodText, { today, fiscalYearStartMonth: connection.fiscalYearStartMonth });
  const department = departments.tree && departmentId ? (departments.tree.byId.get(departmentId) ?? null) : null;
  // Departments are on income and expense lines: a balance's formula takes none. A budget is kept by category alone.
  const byDepartment = department !== null && selected !== null && !selected.item.point_in_time && chosenFn === 'TOTAL';
  const formula =
    tree && selected && period.ok
      ? chosenFn !== 'TOTAL' && budget
        ? budgetFormula(chosenFn, budget.name, tree, selected, periodText)
        : byDepartment && departments.tree
          ? departmentFormula(tree, selected, periodText, departments.tree, department)
          : totalFormula(tree, selected, periodText)
      : '';
  const periodHint = period.ok
    ? period.value.kind === 'period'
      ? `${period.value.period.start} to ${period.value.period.end}`
      : period.value.date
    : undefined;

  const insert = async () => {
    setError(null);
    setResult('');
    try {
      const cell = await services.actions.track('Insert formula', async () => {
        const at = await services.gateway.getSelectedCell();
        await services.gateway.writeFormula(at, formula);
        return at;
      });
      setResult(`Inserted ${formula} in ${cell.address}.`);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div className={styles.screen}>
      <Text>
        Put a FIN.TOTAL formula for a category into the selected cell, or with a department a FIN.PNL of that department's share. It recalculates from the cache and refreshes with the Refresh
        tab's Refresh changes.
      </Text>
      {!tree && checked && (
        <div className={styles.row}>
          <Button onClick={() => void categories.load()} disabled={loading}>
            Load categories
          </Button>
          <Text className={styles.note}>Costs 1 call</Text>
        </div>
      )}
      {tree && (
        <>
          <CategoryList tree={tree} filter={filter} setFilter={setFilter} shown={shown} selectedId={selectedId} setSelectedId={setSelectedId} />
          {selected?.item.point_in_time && (
            <Text>
              <Badge appearance="tint" shape="rounded" color="informative">
                Balance
              </Badge>{' '}
              {selected.name} is a balance: it is read at the end of the period.
            </Text>
          )}
          {budgets.length > 0 && (
            <>
              <ChoiceField
                label="Function"
                value={chosenFn}
                choices={[
                  { key: 'TOTAL', label: 'FIN.TOTAL: the category’s total' },
                  { key: 'BUDGET', label: 'FIN.BUDGET: the budget' },
                  { key: 'BUDGET_VARIANCE', label: 'FIN.BUDGET_VARIANCE: actual less budget' },
                ]}
                onChange={setFn}
              />
              {chosenFn !== 'TOTAL' && budget && (
                <ChoiceField label="Budget" value={budget.name} choices={budgets.map((b) => ({ key: b.name, label: b.name }))} onChange={setBudgetName} />
              )}
            </>
          )}
          <Field
            label="Formula period"
            hint={periodHint ?? 'A month (2026-07), quarter (2026-Q3), year (FY2026), YTD, TTM or a date.'}
            validationState={period.ok ? 'none' : 'error'}
            validationMessage={period.ok ? undefined : period.error}
          >
            <Input value={periodText} onChange={(_, d) => setPeriodText(d.value)} spellCheck={false} />
          </Field>
          {chosenFn !== 'TOTAL' ? null : departments.tree ? (
            <ChoiceField
              label="Department"
              hint={
                department && selected?.item.point_in_time
                  ? `${selected.name} is a balance, which has no department: the formula reads the whole company.`
                  : department
                    ? `${department.name} and the departments under it, from the period's journal entries (1 call per 500 entries).`
                    : undefined
              }
              value={departmentId}
              choices={[{ key: '', label: 'Every department (the whole company)' }, ...departments.tree.ordered.map((n) => ({ key: n.id, label: n.path }))]}
              onChange={setDepartmentId}
            />
          ) : (
            departments.checked && (
              <div className={styles.row}>
                <Button size="small" onClick={() => void departments.load()} disabled={departments.loading}>
                  Load departments
                </Button>
                <Text className={styles.note}>for a department's figure (costs 1 call)</Text>
              </div>
            )
          )}
          <Field label="Formula">
            <Input readOnly value={formula} placeholder="Pick a category" />
          </Field>
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void insert()} disabled={!formula}>
              Insert formula
            </Button>
          </div>
        </>
      )}
      <div role="status" aria-live="polite">
        {result}
      </div>
      <ErrorMessage error={error ?? categories.error ?? departments.error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </div>
  );
}
