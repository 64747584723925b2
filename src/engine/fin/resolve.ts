// Names that people type into formulas -> the ids the API takes. One resolver serves categories and
// departments (trees from engine/tree): a name must be unique to be used, and a path (`Finance >
// Operations`, names joined with '>' from the root, or the tail of that path as long as it is unique) or
// the id settles the rest. This module owns the FIN wording of every failure.

import { nodesAtPath, nodesNamed, pathSegments, suggestions, type Tree, type TreeItem, type TreeNode } from '../tree';
import { FinError } from './errors';

function quote(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return `"${shown}"`;
}

/** A long path cut from its start: its end is the name itself ("…Customer Success > Operations"). */
function quotePath(path: string): string {
  return `"${path.length > 60 ? `…${path.slice(-59)}` : path}"`;
}

function listing(texts: readonly string[], max = 3): string {
  const shown = texts.slice(0, max).map(quotePath);
  const rest = texts.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
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

  const byName = nodesNamed(tree, text);
  if (byName.length === 1) return { ok: true, node: byName[0] };

  let matches = byName;
  if (matches.length === 0 && text.includes('>')) {
    const segments = pathSegments(text);
    if (segments.some((s) => s === '')) {
      return fail(`Bad ${noun} path ${quote(text)}: a name is missing between the '>' signs`, `bad_${noun}`);
    }
    matches = nodesAtPath(tree, segments);
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
