// "Did you mean": names of a tree close to one that matched nothing.

import { editDistance } from './editDistance';
import { pathSegments } from './names';
import type { Tree, TreeItem } from './tree';

/**
 * Characters of each name compared. Names of categories and departments are far shorter (the demo chart's
 * longest has 28), and two names that agree on their first 64 are close by any measure; past it the work
 * no longer grows with what was typed (a cell holds 32,767 characters) or with a name the API sent.
 */
export const MAX_COMPARED_LENGTH = 64;

/**
 * Up to three names close to what was typed (typos, missing words, a part of a longer name); only the
 * last segment of a typed path counts. A name that repeats in the tree is offered as its full path.
 */
export function suggestions<T extends TreeItem>(tree: Tree<T>, typed: string, max = 3): string[] {
  const q = (pathSegments(typed).pop() ?? '').slice(0, MAX_COMPARED_LENGTH);
  if (!q) return [];
  const scored: { label: string; score: number; seq: number }[] = [];
  tree.ordered.forEach((node, seq) => {
    const name = node.normalizedNames[node.depth];
    const n = name.slice(0, MAX_COMPARED_LENGTH);
    let score: number;
    if (n.includes(q) || q.includes(n)) score = 0.3 - Math.min(n.length, q.length) / Math.max(n.length, q.length) / 10;
    else score = editDistance(n, q) / Math.max(n.length, q.length);
    if (score <= 0.45) scored.push({ label: (tree.byName.get(name)?.length ?? 0) > 1 ? node.path : node.name, score, seq });
  });
  scored.sort((a, b) => a.score - b.score || a.seq - b.seq);
  // Only names about as close as the closest one: a clear typo gets one answer, not three.
  const best = scored.length > 0 ? scored[0].score : 0;
  const out: string[] = [];
  for (const s of scored.filter((x) => x.score <= best + 0.15)) {
    if (!out.includes(s.label)) out.push(s.label);
    if (out.length >= max) break;
  }
  return out;
}
