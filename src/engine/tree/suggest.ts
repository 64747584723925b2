// "Did you mean": names of a tree close to one that matched nothing.

import { pathSegments } from './names';
import type { Tree, TreeItem } from './tree';

/** Levenshtein distance, small strings only (names). */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Up to three names close to what was typed (typos, missing words, a part of a longer name); only the
 * last segment of a typed path counts. A name that repeats in the tree is offered as its full path.
 */
export function suggestions<T extends TreeItem>(tree: Tree<T>, typed: string, max = 3): string[] {
  const q = pathSegments(typed).pop() ?? '';
  if (!q) return [];
  const scored: { label: string; score: number; seq: number }[] = [];
  tree.ordered.forEach((node, seq) => {
    const n = node.normalizedNames[node.depth];
    let score: number;
    if (n.includes(q) || q.includes(n)) score = 0.3 - Math.min(n.length, q.length) / Math.max(n.length, q.length) / 10;
    else score = distance(n, q) / Math.max(n.length, q.length);
    if (score <= 0.45) scored.push({ label: (tree.byName.get(n)?.length ?? 0) > 1 ? node.path : node.name, score, seq });
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
