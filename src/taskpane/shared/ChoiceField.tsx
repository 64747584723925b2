import { Field, Select } from '@fluentui/react-components';

/** A labelled drop-down of fixed choices, each a key and what the user reads. */
export function ChoiceField<K extends string>({
  label,
  hint,
  value,
  choices,
  onChange,
  disabled,
}: {
  label: string;
  hint?: string;
  value: K;
  choices: readonly { key: K; label: string }[];
  onChange: (key: K) => void;
  disabled?: boolean;
}) {
  return (
    <Field label={label} hint={hint}>
      <Select value={value} onChange={(_, d) => onChange(d.value as K)} disabled={disabled}>
        {choices.map((c) => (
          <option key={c.key} value={c.key}>
            {c.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
