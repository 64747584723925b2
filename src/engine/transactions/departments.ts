// Departments by full path. Names repeat across the tree ("Operations" under Customer Success and under
// Finance), so the table shows and the dropdown offers full paths ("Company > Go-to-Market > Sales >
// Sales East"), and a typed path is resolved back to its id here. The refs are stored with the table, so
// the directory works from them alone (no parent ids): paths compare as engine/tree normalises them.

import type { Department } from '../../api';
import { buildTree, normalizePath } from '../tree';

export interface DepartmentRef {
  id: string;
  path: string;
  /** An assignable leaf: the only kind a transaction can take. */
  assignable: boolean;
}

/** Full paths in the API's order, with the assignable-leaf rule of the spec applied. */
export function departmentRefs(departments: Department[]): DepartmentRef[] {
  const tree = buildTree(departments, 'department');
  return departments.map((d) => {
    const node = tree.byId.get(d.id);
    return { id: d.id, path: node?.path ?? d.name, assignable: d.assignable === true && (node?.children.length ?? 0) === 0 };
  });
}

export class DepartmentDirectory {
  private readonly byId = new Map<string, DepartmentRef>();
  private readonly byPath = new Map<string, DepartmentRef>();

  constructor(readonly refs: readonly DepartmentRef[]) {
    for (const r of refs) {
      this.byId.set(r.id, r);
      const key = normalizePath(r.path);
      // Two departments with the same full path cannot be told apart by text: keep the assignable one.
      const prev = this.byPath.get(key);
      if (!prev || (!prev.assignable && r.assignable)) this.byPath.set(key, r);
    }
  }

  pathOf(id: string): string | undefined {
    return this.byId.get(id)?.path;
  }

  byIdOf(id: string): DepartmentRef | undefined {
    return this.byId.get(id);
  }

  lookup(text: string): DepartmentRef | undefined {
    return this.byPath.get(normalizePath(text));
  }

  /** The dropdown's items: assignable leaves, by full path, in display order. */
  assignablePaths(): string[] {
    return this.refs.filter((r) => r.assignable).map((r) => r.path);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }
}
