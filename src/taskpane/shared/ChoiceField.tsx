import { Field, Select } from '@fluentui/react-components';

/** One choice: its key, and what the user reads. */
export interface Choice<K extends string> {
  key: K;
  label: string;
}

/** Choices under a heading of the list ("Fixed dates"). */
export interface ChoiceGroup<K extends string> {
  group: string;
  choices: readonly Choice<K>[];
}

/**
 * The pane's one drop-down: a labelled list of fixed choices, some under headings. `error` says what is wrong
 * with the choice, under the field, and marks it invalid.
 */
export function ChoiceField<K extends string>({
  label,
  hint,
  error,
  value,
  choices,
  onChange,
  disabled,
}: {
  label: string;
  hint?: string;
  error?: string;
  value: K;
  choices: readonly (Choice<K> | ChoiceGroup<K>)[];
  onChange: (key: K) => void;
  disabled?: boolean;
}) {
  const option = (c: Choice<K>) => (
    <option key={c.key} value={c.key}>
      {c.label}
    </option>
  );
  return (
    <Field label={label} hint={hint} validationState={error ? 'error' : 'none'} validationMessage={error}>
      <Select value={value} onChange={(_, d) => onChange(d.value as K)} disabled={disabled}>
        {choices.map((c) =>
          'group' in c ? (
            <optgroup key={c.group} label={c.group}>
              {c.choices.map(option)}
            </optgroup>
          ) : (
            option(c)
          ),
        )}
      </Select>
    </Field>
  );
}
