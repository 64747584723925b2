// Trees of {id, name, parent_id}: the chart of accounts and the departments. Names repeat under different
// parents ("Operations" under Customer Success and under Finance), so every node carries its full path
// ("Company > Go-to-Market > Sales > Sales East") and its names normalised once, for lookups.

import { normalizeName, PATH_SEPARATOR } from './names';

export interface TreeItem {
  readonly id: string;
  readonly name: string;
  readonly parent_id: string | null;
  readonly position?: number;
}

export interface TreeNode<T extends TreeItem> {
  readonly item: T;
  readonly id: string;
  readonly name: string;
  /** Names from the root down to this node. */
  readonly names: readonly string[];
  /** The same names, normalised (normalizeName). */
  readonly normalizedNames: readonly string[];
  /** "Operating Expenses > General & Administrative > Rent". */
  readonly path: string;
  readonly depth: number;
  readonly parent: TreeNode<T> | null;
  readonly children: TreeNode<T>[];
}

export interface Tree<T extends TreeItem> {
  /** What the items are, for messages: 'category', 'department'. */
  readonly noun: string;
  /** Depth-first, parents before children, siblings by position (then as listed). */
  readonly ordered: readonly TreeNode<T>[];
  readonly byId: ReadonlyMap<string, TreeNode<T>>;
  /** Nodes by normalised own name, each list in `ordered` order. */
  readonly byName: ReadonlyMap<string, readonly TreeNode<T>[]>;
}

export function buildTree<T extends TreeItem>(items: readonly T[], noun: string): Tree<T> {
  const byIdItem = new Map<string, { item: T; seq: number }>();
  items.forEach((item, seq) => {
    if (typeof item?.id === 'string' && !byIdItem.has(item.id)) byIdItem.set(item.id, { item, seq });
  });
  const kids = new Map<string | null, { item: T; seq: number }[]>();
  for (const entry of byIdItem.values()) {
    const p = entry.item.parent_id;
    const parent = p !== null && p !== entry.item.id && byIdItem.has(p) ? p : null;
    const list = kids.get(parent) ?? [];
    list.push(entry);
    kids.set(parent, list);
  }
  const order = (a: { item: T; seq: number }, b: { item: T; seq: number }): number =>
    (a.item.position ?? Number.MAX_SAFE_INTEGER) - (b.item.position ?? Number.MAX_SAFE_INTEGER) || a.seq - b.seq;
  for (const list of kids.values()) list.sort(order);

  const ordered: TreeNode<T>[] = [];
  const byId = new Map<string, TreeNode<T>>();
  const byName = new Map<string, TreeNode<T>[]>();
  const visit = (entry: { item: T; seq: number }, parent: TreeNode<T> | null): void => {
    if (byId.has(entry.item.id)) return;
    const name = typeof entry.item.name === 'string' ? entry.item.name : entry.item.id;
    const names = parent ? [...parent.names, name] : [name];
    const key = normalizeName(name);
    const node: TreeNode<T> = {
      item: entry.item,
      id: entry.item.id,
      name,
      names,
      normalizedNames: parent ? [...parent.normalizedNames, key] : [key],
      path: names.join(PATH_SEPARATOR),
      depth: names.length - 1,
      parent,
      children: [],
    };
    byId.set(node.id, node);
    ordered.push(node);
    const named = byName.get(key);
    if (named) named.push(node);
    else byName.set(key, [node]);
    parent?.children.push(node);
    for (const kid of kids.get(node.id) ?? []) visit(kid, node);
  };
  for (const root of kids.get(null) ?? []) visit(root, null);
  // Items caught in a parent cycle hang from no root: list them as roots rather than lose them.
  for (const entry of [...byIdItem.values()].sort((a, b) => a.seq - b.seq)) visit(entry, null);
  return { noun, ordered, byId, byName };
}

/** The node and its descendants. */
export function subtreeIds<T extends TreeItem>(node: TreeNode<T>): string[] {
  const out: string[] = [];
  const walk = (n: TreeNode<T>): void => {
    out.push(n.id);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}
