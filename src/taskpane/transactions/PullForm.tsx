import { Button, Field, Input, Text, Title3 } from '@fluentui/react-components';
import { useMemo, useState, type ReactNode } from 'react';
import type { TransactionFilters } from '../../engine/transactions';
import { CategoryPicker } from '../shared/CategoryPicker';
import { ChoiceField } from '../shared/ChoiceField';
import { useScreenStyles } from '../shared/styles';
import type { Categories } from '../shared/useCategories';
import { filtersNote } from './messages';
import type { TransactionsActions } from './useTransactionsActions';
import { normalizeFilters } from '../../runtime/screenKit';

// Pull: the GET /transactions filters, checked as they are typed, with what a pull costs and how the
// table will refresh; Pull writes the matching transactions into a new table. The category is picked by
// name or path from the chart of accounts.

type FilterForm = Record<keyof TransactionFilters, string>;

const EMPTY_FORM: FilterForm = {
  start_date: '',
  end_date: '',
  status: '',
  transaction_type: '',
  categorized: '',
  category_id: '',
  merchant: '',
  source_vendor: '',
  source_type: '',
};

const ANY = { key: '', label: 'Any' };
const STATUSES = [ANY, { key: 'approved', label: 'Approved' }, { key: 'pending', label: 'Pending' }];
const TYPES = [ANY, { key: 'standard', label: 'Standard' }, { key: 'transfer', label: 'Transfer' }, { key: 'split', label: 'Split' }];
const CATEGORIZED = [ANY, { key: 'true', label: 'Categorized' }, { key: 'false', label: 'Uncategorized' }];
const SOURCE_TYPES = [ANY, { key: 'bank', label: 'Bank' }, { key: 'credit', label: 'Credit' }, { key: 'reimbursement', label: 'Reimbursement' }];

export interface PullFormProps {
  actions: TransactionsActions;
  categories: Categories;
  today: string;
  /** The action's progress and result, under the Pull button. */
  status: ReactNode;
}

export function PullForm({ actions, categories, today, status }: PullFormProps) {
  const styles = useScreenStyles();
  const [form, setForm] = useState<FilterForm>(EMPTY_FORM);
  const checked = useMemo(() => normalizeFilters(form), [form]);
  const categoryPath = form.category_id ? categories.tree?.byId.get(form.category_id)?.path : undefined;
  const choose = (key: keyof FilterForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const set = (key: keyof FilterForm) => (_: unknown, d: { value: string }) => choose(key)(d.value);

  return (
    <>
      <Title3 as="h3">Pull</Title3>
      <div className={styles.twoColumns}>
        <Field label="From date">
          <Input value={form.start_date} onChange={set('start_date')} placeholder={`e.g. ${today.slice(0, 4)}-01-01`} />
        </Field>
        <Field label="To date">
          <Input value={form.end_date} onChange={set('end_date')} placeholder={today} />
        </Field>
      </div>
      <div className={styles.twoColumns}>
        <ChoiceField label="Status" value={form.status} choices={STATUSES} onChange={choose('status')} />
        <ChoiceField label="Type" value={form.transaction_type} choices={TYPES} onChange={choose('transaction_type')} />
      </div>
      <ChoiceField label="Categorized" value={form.categorized} choices={CATEGORIZED} onChange={choose('categorized')} />
      <CategoryPicker
        label="Category"
        categories={categories}
        value={form.category_id}
        onChange={(id) => setForm((f) => ({ ...f, category_id: id }))}
        placeholder="Any category: type a name or path"
      />
      <div className={styles.twoColumns}>
        <Field label="Merchant contains">
          <Input value={form.merchant} onChange={set('merchant')} />
        </Field>
        <Field label="Source vendor">
          <Input value={form.source_vendor} onChange={set('source_vendor')} />
        </Field>
      </div>
      <ChoiceField label="Source type" value={form.source_type} choices={SOURCE_TYPES} onChange={choose('source_type')} />
      <Text className={styles.note}>{checked.ok ? filtersNote(checked.value, categoryPath) : checked.error}</Text>
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => checked.ok && actions.pull(checked.value)} disabled={actions.busy !== null || !checked.ok}>
          Pull
        </Button>
      </div>
      {status}
    </>
  );
}
