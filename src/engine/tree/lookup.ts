// Finding nodes by what someone typed: an own name, or a path given by its last segments. Ids are
// looked up in Tree.byId directly. Each returns every match in tree order; deciding what an ambiguous or
// missing match means (and saying so) is the caller's business.

import { normalizeName } from './names';
import type { Tree, TreeItem, TreeNode } from './tree';

const NONE: readonly never[] = [];

/** Nodes whose own name is `text` (normalised). */
export function nodesNamed<T extends TreeItem>(tree: Tree<T>, text: string): readonly TreeNode<T>[] {
  return tree.byName.get(normalizeName(text)) ?? NONE;
}

/**
 * Nodes whose path ends with these normalised segments (pathSegments): ["finance", "operations"] finds
 * "Company > G&A > Finance > Operations"; a full path from the root finds its node.
 */
export function nodesAtPath<T extends TreeItem>(tree: Tree<T>, segments: readonly string[]): TreeNode<T>[] {
  return tree.ordered.filter((n) => endsWith(n.normalizedNames, segments));
}

function endsWith(names: readonly string[], segments: readonly string[]): boolean {
  if (names.length < segments.length) return false;
  const offset = names.length - segments.length;
  return segments.every((s, i) => names[offset + i] === s);
}
