import { Button, Text } from '@fluentui/react-components';
import { useEffect, useId } from 'react';
import type { Department } from '../../api/types';
import type { Tree } from '../../engine/tree';
import { ChoiceField } from '../shared/ChoiceField';
import { useScreenStyles } from '../shared/styles';
import type { Departments } from '../shared/useDepartments';
import { defaultDepartmentsUnder } from '../../runtime/screenKit';

// Which departments a P&L by department puts side by side: the top tier of the tree, or the children of a
// department the user picks (each column with everything under it). The tree comes through the cache; until
// it is known the field offers to load it and says what that costs. With a tree of one top department (the
// company itself), its children are the first choice: one column of everything says nothing.

const TOP_TIER = '';

/** The departments that have departments under them, as choices by full path. */
function parents(tree: Tree<Department>): { key: string; label: string }[] {
  const heads = tree.ordered.filter((n) => n.parent === null);
  return [
    { key: TOP_TIER, label: `Top tier: ${heads.map((n) => n.name).join(', ') || 'none'}` },
    ...tree.ordered.filter((n) => n.children.length > 0).map((n) => ({ key: n.id, label: `Under ${n.path}: ${n.children.map((c) => c.name).join(', ')}` })),
  ];
}

export interface DepartmentsFieldProps {
  departments: Departments;
  /** The department whose children are the columns; null for the top tier; undefined until chosen. */
  value: string | null | undefined;
  onChange(parent: string | null): void;
  disabled?: boolean;
}

export function DepartmentsField({ departments, value, onChange, disabled }: DepartmentsFieldProps) {
  const styles = useScreenStyles();
  const costId = useId();
  const { tree } = departments;
  // The first choice, once the tree is known: what an accountant reads the company by.
  useEffect(() => {
    if (tree && value === undefined) onChange(defaultDepartmentsUnder(tree));
  }, [tree, value, onChange]);

  if (!tree) {
    if (!departments.checked) return null;
    return (
      <div role="group" aria-label="Departments" className={styles.row}>
        <Text>Departments</Text>
        <Button size="small" onClick={() => void departments.load()} disabled={disabled || departments.loading} aria-describedby={costId}>
          Load departments
        </Button>
        <Text id={costId} className={styles.note}>
          to choose which go side by side (costs 1 call)
        </Text>
      </div>
    );
  }
  return (
    <ChoiceField
      label="Departments side by side"
      hint="Each with the departments under it, then Unassigned and the statement's Total."
      // Until the effect above has handed the default up, show it rather than the top tier for a render.
      value={(value === undefined ? defaultDepartmentsUnder(tree) : value) ?? TOP_TIER}
      choices={parents(tree)}
      onChange={(key) => onChange(key === TOP_TIER ? null : key)}
      disabled={disabled}
    />
  );
}
