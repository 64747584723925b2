// Finds, in the texts a user reads, the examples they may copy: whole formulas (`=FIN.PNL("Revenue", A1)`)
// and argument examples (`"Operating Expenses > Rent"` for a category). Read from the files at test time,
// so a new example is checked the day it is written. Each finder says where an example came from.
import fs from 'node:fs';
import path from 'node:path';
import type { FunctionsJson } from '../support/finFunctions';

export const ROOT = path.resolve(__dirname, '../..');

/** The texts a user reads, besides the functions' help (functions.json): docs, pages, hints, placeholders. */
export function readByUsers(): { file: string; text: string }[] {
  const files = [
    'README.md',
    'manifest.xml',
    'scripts/start.js', // what `npm start` prints
    ...inDirectory('docs', /\.md$/, false),
    ...inDirectory('public', /\.html$/, false), // the help page shipped in dist/
    ...inDirectory('src/taskpane', /\.(tsx|html)$/, true),
    ...inDirectory('src/workbench', /\.(tsx|html)$/, true),
  ];
  return files.map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
}

function inDirectory(dir: string, name: RegExp, recursive: boolean): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive }) as string[])
    .filter((f) => name.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .sort();
}

/** An ellipsis marks the shape of a formula or an id (`=FIN.PNL(…, A1)`, `cat_...`), not something to type. */
export function isElided(text: string): boolean {
  return /\.\.\.|…/.test(text);
}

/** Text wrapped over lines (a markdown paragraph) reads as one line. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

export interface FoundFormula {
  formula: string;
  line: number;
}

// `=` then a name or reference in Excel's upper case, or a quoted sheet name; not part of
// ==, <=, != or => (after a markup tag's > it is: `<code>=FIN.VERSION()</code>`).
const FORMULA_START = /(?<![\w=!<])=(?=[A-Z$'])/g;
// What one types to list a namespace's functions ("type =FIN. in a cell"), not a formula.
const NAMESPACE_PREFIX = /^=[A-Z]+\.$/;
// Outside parentheses a formula goes on through references, names, numbers and operators only, so a
// sentence's space, comma or closing quote ends it.
const FORMULA_CHAR = /[A-Za-z0-9_.:$!#+\-*/&^<>=%]/;
// ...and a markup tag after it (`=FIN.VERSION()</code>`, JSX) is not a comparison.
const MARKUP_TAG = /^<[A-Za-z/]/;

/**
 * Whole formulas in a text: each from its `=` to where a formula can no longer go on (a space, comma, quote,
 * backtick or markup tag outside parentheses and strings), so `=SUM(B2:B5)-FIN.PNL("Rent", A1)` is one
 * formula and "=FIN.VERSION() in a cell" yields `=FIN.VERSION()`. A sentence's full stop is not part of it.
 */
export function findFormulas(text: string): FoundFormula[] {
  const found: FoundFormula[] = [];
  for (const match of text.matchAll(FORMULA_START)) {
    const start = match.index;
    let i = start + 1;
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"' || (c === "'" && (depth > 0 || /[=(,+\-*/&^<>]/.test(text[i - 1])))) {
        // A string, or a quoted sheet name; a doubled quote stays inside.
        const close = closingQuote(text, i);
        if (close < 0) break;
        i = close + 1;
        continue;
      }
      if (c === '(') depth += 1;
      else if (c === ')') {
        if (depth === 0) break;
        depth -= 1;
      } else if (depth === 0 && (!FORMULA_CHAR.test(c) || MARKUP_TAG.test(text.slice(i, i + 2)))) break;
      else if (depth > 0 && c === '`') break;
      i += 1;
    }
    const raw = text.slice(start, i);
    if (NAMESPACE_PREFIX.test(raw)) continue;
    found.push({ formula: oneLine(raw).replace(/[.,;:]+$/, ''), line: lineAt(text, start) });
  }
  return found;
}

function closingQuote(text: string, open: number): number {
  const q = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] !== q) continue;
    if (text[i + 1] === q) i += 1;
    else return i;
  }
  return -1;
}

/** An example of a value for one parameter of one FIN function. */
export interface ArgumentExample {
  /** Function id, as in functions.json: TOTAL, PNL... */
  fn: string;
  param: string;
  example: string;
  where: string;
}

/** `"quoted"` texts: how help, docs and messages write the text a user types into an argument. */
export function quoted(text: string): string[] {
  return [...oneLine(text).matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((t) => !isElided(t));
}

/** The `@param` descriptions of the functions' help (what Excel shows): each quoted example, for that parameter. */
export function helpArgumentExamples(json: FunctionsJson): ArgumentExample[] {
  return json.functions.flatMap((f) =>
    f.parameters.flatMap((p) => quoted(p.description ?? '').map((example) => ({ fn: f.id, param: p.name, example, where: `FIN.${f.id}'s help, ${p.name}` }))),
  );
}

/** A table row that documents a function: `FIN.NAME(params)` signatures, then a description. */
export interface DocumentedRow {
  line: number;
  functions: { fn: string; params: string[] }[];
  description: string;
}

/** The rows of a markdown table whose first cell holds `FIN.…(…)` signatures. */
export function functionRows(markdown: string): DocumentedRow[] {
  const rows: DocumentedRow[] = [];
  markdown.split('\n').forEach((row, i) => {
    const cells = row.split(/(?<!\\)\|/).slice(1, -1);
    if (cells.length < 2) return;
    const functions = [...cells[0].matchAll(/FIN\.([A-Z_]+)\(([^)]*)\)/g)].map((m) => ({
      fn: m[1],
      params: m[2]
        .split(',')
        .map((p) => p.replace(/[[\]\s]/g, ''))
        .filter(Boolean),
    }));
    if (functions.length > 0) rows.push({ line: i + 1, functions, description: cells.slice(1).join('|') });
  });
  return rows;
}

/**
 * The quoted examples of a documented row (`"Net Income"` in backticks), each for the parameter the
 * description names last before it ("a category, `"Net Income"`": category), in every function of the
 * row that has that parameter. An example after no parameter name is returned with param null: the
 * sentence should say which argument it is an example of.
 */
export function rowArgumentExamples(file: string, row: DocumentedRow): (Omit<ArgumentExample, 'param'> & { param: string | null })[] {
  const out: (Omit<ArgumentExample, 'param'> & { param: string | null })[] = [];
  for (const m of row.description.matchAll(/`"([^"`]+)"`/g)) {
    const before = row.description.slice(0, m.index);
    const example = m[1];
    if (isElided(example)) continue;
    let placed = false;
    for (const { fn, params } of row.functions) {
      const param = lastNamed(before, params);
      if (!param) continue;
      out.push({ fn, param, example, where: `${file}:${row.line}` });
      placed = true;
    }
    if (!placed) out.push({ fn: row.functions.map((f) => f.fn).join('/'), param: null, example, where: `${file}:${row.line}` });
  }
  return out;
}

function lastNamed(text: string, names: string[]): string | null {
  let best: { name: string; at: number } | null = null;
  for (const name of names) {
    const re = new RegExp(`\\b${name.replace(/_/g, '[_ ]')}\\b`, 'gi');
    for (const m of text.matchAll(re)) if (!best || m.index > best.at) best = { name, at: m.index };
  }
  return best?.name ?? null;
}

/** The `code` spans of the paragraph that starts with `opening` (null when no paragraph does). */
export function paragraphExamples(markdown: string, opening: string): { line: number; examples: string[] } | null {
  let offset = 0;
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    const at = markdown.indexOf(paragraph, offset);
    offset = at + paragraph.length;
    if (!paragraph.trimStart().startsWith(opening)) continue;
    const examples = [...oneLine(paragraph).matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((t) => !isElided(t));
    return { line: lineAt(markdown, at + paragraph.length - paragraph.trimStart().length), examples };
  }
  return null;
}

/**
 * The examples in a field's hint of a .tsx screen: the hint text of the field labelled `label`, and in it
 * what is written in parentheses ("A month (2026-07)") and the words in capitals (YTD, TTM).
 */
export function hintExamples(tsx: string, label: string): { line: number; examples: string[] } | null {
  const at = tsx.indexOf(`label="${label}"`);
  if (at < 0) return null;
  const hint = /hint=\{[^}]*?(['"])(.*?)\1[^}]*\}|hint=(["'])(.*?)\3/s.exec(tsx.slice(at, at + 400));
  if (!hint) return null;
  const text = hint[2] ?? hint[4];
  const inParentheses = [...text.matchAll(/\(([^()]+)\)/g)].map((m) => m[1].trim());
  const capitals = [...text.replace(/\([^()]*\)/g, '').matchAll(/\b[A-Z]{2,}\b/g)].map((m) => m[0]);
  return { line: lineAt(tsx, at), examples: [...inParentheses, ...capitals] };
}

/**
 * The forms a message lists, separated by commas, "or" and parentheses, that are written without a space:
 * "use a date (a date cell or 2026-07-31), 2026-07, YTD or TTM" lists 2026-07-31, 2026-07, YTD and TTM.
 */
export function listedForms(text: string): string[] {
  return text
    .split(/[(),;:]|\bor\b/)
    .map((t) => t.trim())
    .filter((t) => t !== '' && !/[\s"]/.test(t));
}
