// Which column of a P&L by department each journal line falls in. The columns are departments of one level
// of the tree -- the top tier, or a chosen parent's children -- each with all its descendants (a parent
// department means it and everything under it). Every line lands in exactly one column, so the columns add
// up to the statement:
//  - a department in a column's subtree: that column;
//  - the chosen parent itself (only leaves are assignable today, but lines keep the department they had):
//    "<parent> itself";
//  - a department outside the chosen parent: "Other departments";
//  - no department: "Unassigned";
//  - a department the list does not name (deleted since, or a list cached before it was added):
//    "Departments not listed".
// The department columns and Unassigned are always shown; the others only when the period has lines there.

import type { Department } from '../../api/types';
import type { Tree, TreeNode } from '../tree';

export type ColumnKind = 'department' | 'parent' | 'other' | 'unassigned' | 'unlisted';

export interface SplitColumn {
  readonly kind: ColumnKind;
  readonly label: string;
  /** The department whose subtree the column is (kind department and parent); null otherwise. */
  readonly departmentId: string | null;
  /** Shown even when the period has nothing there. */
  readonly always: boolean;
}

export const UNASSIGNED_LABEL = 'Unassigned';
export const OTHER_LABEL = 'Other departments';
export const UNLISTED_LABEL = 'Departments not listed';

export interface DepartmentSplit {
  /** Every possible column, in order (the caller drops those neither always shown nor used). */
  readonly columns: readonly SplitColumn[];
  /** The column index of a line's department. */
  columnOf(departmentId: string | null): number;
  /** "the top tier of departments", "the departments under Go-to-Market". */
  readonly described: string;
}

/** The split under `parentId` (null: the tree's top tier); a parent the tree does not have is refused by the caller. */
export function splitUnder(tree: Tree<Department>, parentId: string | null): DepartmentSplit {
  const parent: TreeNode<Department> | null = parentId === null ? null : (tree.byId.get(parentId) ?? null);
  if (parentId !== null && !parent) throw new Error(`No department ${parentId} in the department list`);
  const heads = parent ? parent.children : tree.ordered.filter((n) => n.parent === null);
  const columns: SplitColumn[] = heads.map((n) => ({ kind: 'department', label: n.name, departmentId: n.id, always: true }));
  const columnByDepartment = new Map<string, number>();
  heads.forEach((head, i) => {
    const walk = (n: TreeNode<Department>): void => {
      columnByDepartment.set(n.id, i);
      n.children.forEach(walk);
    };
    walk(head);
  });
  const add = (column: SplitColumn): number => columns.push(column) - 1;
  const self = parent ? add({ kind: 'parent', label: `${parent.name} itself`, departmentId: parent.id, always: false }) : -1;
  const other = parent ? add({ kind: 'other', label: OTHER_LABEL, departmentId: null, always: false }) : -1;
  const unassigned = add({ kind: 'unassigned', label: UNASSIGNED_LABEL, departmentId: null, always: true });
  const unlisted = add({ kind: 'unlisted', label: UNLISTED_LABEL, departmentId: null, always: false });
  if (parent) columnByDepartment.set(parent.id, self);
  return {
    columns,
    columnOf: (departmentId) => {
      if (departmentId === null) return unassigned;
      const column = columnByDepartment.get(departmentId);
      if (column !== undefined) return column;
      return tree.byId.has(departmentId) ? other : unlisted;
    },
    described: parent ? `the departments under ${parent.path}` : 'the top tier of departments',
  };
}

/** The department a split is under by default: the sole top department when the tree has one, else the top tier. */
export function defaultParent(tree: Tree<Department>): string | null {
  const roots = tree.ordered.filter((n) => n.parent === null);
  return roots.length === 1 && roots[0].children.length > 0 ? roots[0].id : null;
}
