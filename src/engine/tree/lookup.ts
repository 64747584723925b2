// Finding nodes by what someone typed: an own name, or a path given by some of its segments. Ids are
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
 * Nodes a typed path names (normalised segments, see pathSegments), ending at the node itself: its last
 * segments ("finance > operations" finds "Company > G&A > Finance > Operations"), a full path from the root,
 * or any names along its path in order -- a head and a tail ("operating expenses > rent" finds "Operating
 * Expenses > General & Administrative > Rent"). Nodes whose path ends with the segments come first and win:
 * a shorter path someone already typed never becomes ambiguous because of a looser match elsewhere.
 */
export function nodesAtPath<T extends TreeItem>(tree: Tree<T>, segments: readonly string[]): TreeNode<T>[] {
  const tails = tree.ordered.filter((n) => endsWith(n.normalizedNames, segments));
  if (tails.length > 0) return tails;
  return tree.ordered.filter((n) => runsAlong(n.normalizedNames, segments));
}

function endsWith(names: readonly string[], segments: readonly string[]): boolean {
  if (names.length < segments.length) return false;
  const offset = names.length - segments.length;
  return segments.every((s, i) => names[offset + i] === s);
}

/** The segments appear in order along the path, the last one being the node's own name. */
export function runsAlong(names: readonly string[], segments: readonly string[]): boolean {
  if (segments.length === 0 || names.length < segments.length) return false;
  if (names[names.length - 1] !== segments[segments.length - 1]) return false;
  let at = 0;
  for (const s of segments.slice(0, -1)) {
    while (at < names.length - 1 && names[at] !== s) at += 1;
    if (at >= names.length - 1) return false;
    at += 1;
  }
  return true;
}
