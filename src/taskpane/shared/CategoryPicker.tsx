import { Button, Combobox, Field, Option, Text } from '@fluentui/react-components';
import { useId, useMemo, useState } from 'react';
import { useScreenStyles } from './styles';
import { filterCategories, type Categories } from './useCategories';

// A category chosen the way an accountant names it: type any words of its name or path ("soft sub",
// "rent") and pick it from the chart of accounts; the id behind it is the pane's business. Until the chart
// is known (cached, or loaded on the user's word), the picker offers to load it and says what that costs.

export interface CategoryPickerProps {
  label: string;
  /** The chart of accounts of the screen (useCategories), shared by its pickers. */
  categories: Categories;
  /** The chosen category's id; '' for none. */
  value: string;
  onChange(categoryId: string): void;
  /** What no choice means here ("Any category"). */
  placeholder: string;
  disabled?: boolean;
}

export function CategoryPicker({ label, categories, value, onChange, placeholder, disabled }: CategoryPickerProps) {
  const styles = useScreenStyles();
  const costId = useId();
  const { tree } = categories;
  /** What the user is typing; null when the box shows the chosen category. */
  const [query, setQuery] = useState<string | null>(null);
  const shown = useMemo(() => (tree ? filterCategories(tree, query ?? '') : []), [tree, query]);
  const chosen = tree && value ? tree.byId.get(value) : undefined;

  if (!tree) {
    if (!categories.checked) return null;
    return (
      <div role="group" aria-label={label} className={styles.row}>
        <Text>{label}</Text>
        <Button size="small" onClick={() => void categories.load()} disabled={disabled || categories.loading} aria-describedby={costId}>
          Load categories
        </Button>
        <Text id={costId} className={styles.note}>
          to choose by name (costs 1 call)
        </Text>
      </div>
    );
  }

  return (
    <Field label={label} hint={query !== null && query.trim() ? `${shown.length} of ${tree.ordered.length} categories match` : undefined}>
      <Combobox
        value={query ?? chosen?.path ?? ''}
        selectedOptions={value ? [value] : []}
        placeholder={placeholder}
        clearable
        disabled={disabled}
        onChange={(e) => {
          setQuery(e.target.value);
          // Emptied: no category any more.
          if (!e.target.value.trim()) onChange('');
        }}
        onOptionSelect={(_, d) => {
          setQuery(null);
          onChange(d.optionValue ?? '');
        }}
        // Left without picking: the box shows the chosen category again, not half-typed words.
        onOpenChange={(_, d) => {
          if (!d.open) setQuery(null);
        }}
      >
        {shown.map((node) => (
          <Option key={node.id} value={node.id} text={node.path}>
            {node.path}
          </Option>
        ))}
      </Combobox>
    </Field>
  );
}
