// Departments by full path. Names repeat across the tree ("Operations" under Customer Success and under
// Finance), so the table shows and the dropdown offers full paths ("Company > Go-to-Market > Sales >
// Sales East"), and a typed path is resolved back to its id here.

import type { Department } from '../../api';
import { normPath } from './columns';

export const PATH_SEPARATOR = ' > ';

export interface DepartmentRef {
  id: string;
  path: string;
  /** An assignable leaf: the only kind a transaction can take. */
  assignable: boolean;
}

/** Full paths in display order, with the assignable-leaf rule of the spec applied. */
export function departmentRefs(departments: Department[]): DepartmentRef[] {
  const byId = new Map(departments.map((d) => [d.id, d]));
  const parents = new Set(departments.map((d) => d.parent_id).filter((p): p is string => typeof p === 'string'));
  const pathOf = (d: Department): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let cur: Department | undefined = d; cur && !seen.has(cur.id); cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) {
      seen.add(cur.id);
      names.unshift(cur.name);
    }
    return names.join(PATH_SEPARATOR);
  };
  return departments.map((d) => ({ id: d.id, path: pathOf(d), assignable: d.assignable === true && !parents.has(d.id) }));
}

export class DepartmentDirectory {
  private readonly byId = new Map<string, DepartmentRef>();
  private readonly byPath = new Map<string, DepartmentRef>();

  constructor(readonly refs: readonly DepartmentRef[]) {
    for (const r of refs) {
      this.byId.set(r.id, r);
      const key = normPath(r.path);
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
    return this.byPath.get(normPath(text));
  }

  /** The dropdown's items: assignable leaves, by full path, in display order. */
  assignablePaths(): string[] {
    return this.refs.filter((r) => r.assignable).map((r) => r.path);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }
}
