// Names that people type into formulas -> the ids the API takes. One resolver serves categories and
// departments: both are trees of {id, name, parent_id}, both have names that repeat under different
// parents ("Operations" under Customer Success and under Finance), so a name must be unique to be used,
// and a path (`Finance > Operations`, names joined with '>' from the root, or the tail of that path as
// long as it is unique) or the id settles the rest.

import { FinError } from './errors';

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
}

export const PATH_SEPARATOR = ' > ';

/** Case-insensitive, whitespace-insensitive form of a name or path segment. */
export function normalizeName(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
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
  const visit = (entry: { item: T; seq: number }, parent: TreeNode<T> | null): void => {
    if (byId.has(entry.item.id)) return;
    const name = typeof entry.item.name === 'string' ? entry.item.name : entry.item.id;
    const names = parent ? [...parent.names, name] : [name];
    const node: TreeNode<T> = {
      item: entry.item,
      id: entry.item.id,
      name,
      names,
      path: names.join(PATH_SEPARATOR),
      depth: names.length - 1,
      parent,
      children: [],
    };
    byId.set(node.id, node);
    ordered.push(node);
    parent?.children.push(node);
    for (const kid of kids.get(node.id) ?? []) visit(kid, node);
  };
  for (const root of kids.get(null) ?? []) visit(root, null);
  // Items caught in a parent cycle hang from no root: list them as roots rather than lose them.
  for (const entry of [...byIdItem.values()].sort((a, b) => a.seq - b.seq)) visit(entry, null);
  return { noun, ordered, byId };
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

function quote(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return `"${shown}"`;
}

function listing(texts: readonly string[], max = 3): string {
  const shown = texts.slice(0, max).map(quote);
  const rest = texts.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

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

/** Up to three names close to what was typed (typos, missing words, a part of a longer name). */
export function suggestions<T extends TreeItem>(tree: Tree<T>, typed: string, max = 3): string[] {
  const q = normalizeName(typed.split('>').pop() ?? typed);
  if (!q) return [];
  const scored: { label: string; score: number; seq: number }[] = [];
  const nameCount = new Map<string, number>();
  for (const node of tree.ordered) nameCount.set(normalizeName(node.name), (nameCount.get(normalizeName(node.name)) ?? 0) + 1);
  tree.ordered.forEach((node, seq) => {
    const n = normalizeName(node.name);
    let score: number;
    if (n.includes(q) || q.includes(n)) score = 0.3 - Math.min(n.length, q.length) / Math.max(n.length, q.length) / 10;
    else score = distance(n, q) / Math.max(n.length, q.length);
    if (score <= 0.45) scored.push({ label: (nameCount.get(n) ?? 0) > 1 ? node.path : node.name, score, seq });
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

export type Resolution<T extends TreeItem> = { ok: true; node: TreeNode<T> } | { ok: false; error: FinError };

/**
 * Resolves what a user typed: an id (exact), a name (case- and whitespace-insensitive, must be unique),
 * or a path (`A > B > C`, from the root or any unique tail). `idPrefix` is `cat_` or `dept_`.
 */
export function resolveInTree<T extends TreeItem>(tree: Tree<T>, input: unknown, idPrefix: string): Resolution<T> {
  const noun = tree.noun;
  const fail = (message: string, code: string): Resolution<T> => ({ ok: false, error: new FinError('value', message, code) });
  if (typeof input !== 'string' || input.trim() === '') {
    if (typeof input === 'number' || typeof input === 'boolean') {
      return fail(`Bad ${noun} ${String(input)}: give a ${noun} name, path or id as text`, `bad_${noun}`);
    }
    return fail(`Missing ${noun}: give a ${noun} name (e.g. "Rent"), a path ("Operating Expenses > Rent") or an id`, `missing_${noun}`);
  }
  const text = input.trim();

  if (text.startsWith(idPrefix)) {
    const node = tree.byId.get(text);
    if (node) return { ok: true, node };
    return fail(`Unknown ${noun} id ${quote(text)}: FIN.${noun === 'category' ? 'CATEGORIES' : 'DEPARTMENTS'}() lists them`, `unknown_${noun}`);
  }

  const wanted = normalizeName(text);
  const byName = tree.ordered.filter((n) => normalizeName(n.name) === wanted);
  if (byName.length === 1) return { ok: true, node: byName[0] };

  let matches = byName;
  if (matches.length === 0 && text.includes('>')) {
    const segments = text.split('>').map(normalizeName);
    if (segments.some((s) => s === '')) {
      return fail(`Bad ${noun} path ${quote(text)}: a name is missing between the '>' signs`, `bad_${noun}`);
    }
    matches = tree.ordered.filter((n) => {
      if (n.names.length < segments.length) return false;
      const tail = n.names.slice(n.names.length - segments.length).map(normalizeName);
      return tail.every((name, i) => name === segments[i]);
    });
    if (matches.length === 1) return { ok: true, node: matches[0] };
  }

  if (matches.length > 1) {
    const paths = matches.map((n) => n.path);
    const samePaths = new Set(paths).size < paths.length;
    const hint = samePaths ? `use the id (${matches.slice(0, 3).map((n) => n.id).join(', ')})` : 'use the path';
    return fail(`Ambiguous ${noun} name ${quote(text)}: matches ${listing(paths)}; ${hint}`, `ambiguous_${noun}`);
  }

  const near = suggestions(tree, text);
  const list = noun === 'category' ? 'FIN.CATEGORIES()' : 'FIN.DEPARTMENTS()';
  return fail(
    near.length > 0
      ? `Unknown ${noun} ${quote(text)}: did you mean ${near.map(quote).join(' or ')}? ${list} lists them`
      : `Unknown ${noun} ${quote(text)}: ${list} lists every ${noun} (name, path or id)`,
    `unknown_${noun}`,
  );
}
