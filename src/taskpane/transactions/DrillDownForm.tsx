import { Button, Field, Input, Text, Title3 } from '@fluentui/react-components';
import { useState, type ReactNode } from 'react';
import { CategoryPicker } from '../shared/CategoryPicker';
import { useScreenStyles } from '../shared/styles';
import type { Categories } from '../shared/useCategories';
import type { TransactionsActions } from './useTransactionsActions';

// Show the entries behind a number: the journal lines of a category and its subcategories in a period, on
// a new sheet, from the selected cell (a statement number or a FIN formula) or from a category picked by
// name or path and a period.

export interface DrillDownFormProps {
  actions: TransactionsActions;
  categories: Categories;
  /** The action's progress and result, under the buttons. */
  status: ReactNode;
}

export function DrillDownForm({ actions, categories, status }: DrillDownFormProps) {
  const styles = useScreenStyles();
  const [categoryId, setCategoryId] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const disabled = actions.busy !== null;
  const request = { categoryId: categoryId.trim(), start: start.trim(), end: end.trim() };

  return (
    <>
      <Title3 as="h3">Show the entries behind a number</Title3>
      <Text className={styles.note}>
        The journal lines of a category and its subcategories in a period, on a new sheet. They add up to the statement line (transactions alone would not: pending
        ones post nothing, spreads and depreciation have no transaction).
      </Text>
      <Text className={styles.note}>
        Select a number in a statement block inserted from the Reports tab, or a cell with a FIN.TOTAL, FIN.PNL or FIN.BALANCE formula, then:
      </Text>
      <div className={styles.row}>
        <Button appearance="primary" onClick={actions.drillDownCell} disabled={disabled}>
          Show what&apos;s behind this cell
        </Button>
      </div>
      <Text className={styles.note}>Or pick a category and a period:</Text>
      <CategoryPicker
        label="Category to drill into"
        categories={categories}
        value={categoryId}
        onChange={setCategoryId}
        placeholder="Type a name or path"
        disabled={disabled}
      />
      <div className={styles.twoColumns}>
        <Field label="Period from">
          <Input value={start} onChange={(_, d) => setStart(d.value)} placeholder="YYYY-MM-DD" />
        </Field>
        <Field label="Period to">
          <Input value={end} onChange={(_, d) => setEnd(d.value)} placeholder="YYYY-MM-DD" />
        </Field>
      </div>
      <div className={styles.row}>
        <Button onClick={() => actions.drillDown(request)} disabled={disabled || !request.categoryId || !request.start || !request.end}>
          Show entries
        </Button>
      </div>
      {status}
    </>
  );
}
