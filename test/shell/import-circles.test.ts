// No import circles in src/ or bench/, type-only ones included: a circle of types still ties the modules into
// one knot that cannot be read, moved or tested apart, and eslint's no-cycle rules skip `import type`. The graph
// is built with TypeScript's own scanner (ts.preProcessFile), which sees every specifier a file names: imports,
// `import type`, `export ... from`, `import('./x').T`, import() and require().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

type Graph = Map<string, string[]>;

const SOURCE = /\.tsx?$/;
const RESOLVE_AS = ['', '.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** The graph of `dirs` under `base`: each file (relative, with /) to the files of those dirs it names. */
function importGraph(base: string, dirs: string[]): Graph {
  const files = dirs.flatMap((dir) => sourceFiles(path.join(base, dir)));
  const known = new Set(files);
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const target = path.resolve(path.dirname(from), specifier);
    return RESOLVE_AS.map((suffix) => target + suffix).find((candidate) => known.has(candidate));
  };
  const name = (file: string) => path.relative(base, file).split(path.sep).join('/');
  const graph: Graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((f) => resolve(file, f.fileName)).filter((t): t is string => t !== undefined);
    graph.set(name(file), [...new Set(targets.map(name))].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file, or of one file that imports itself (Tarjan). */
function knots(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The shortest way round from `start` back to it, inside `within`: [start, ..., start]. */
function shortestCircle(graph: Graph, start: string, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!within.has(next)) continue;
      if (next === start) {
        const chain = [node];
        while (chain[0] !== start) chain.unshift(cameFrom.get(chain[0])!);
        return [...chain, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  throw new Error(`${start} is in no circle`);
}

/** Each knot as readable chains (`a -> b -> a`): the shortest circle through each of its files, each once. */
function describeKnot(graph: Graph, knot: string[]): string[] {
  const within = new Set(knot);
  const chains = new Set<string>();
  for (const file of knot) {
    const circle = shortestCircle(graph, file, within);
    // Each circle once whichever file it was found from: told from its smallest file.
    const ring = circle.slice(0, -1);
    const first = ring.indexOf([...ring].sort()[0]);
    const rotated = [...ring.slice(first), ...ring.slice(0, first)];
    chains.add([...rotated, rotated[0]].join(' -> '));
  }
  return [...chains];
}


describe('the import graph of src/ and bench/', () => {
  const graph = importGraph(root, ['src', 'bench']);
  const found = knots(graph);

  test('has no circle', () => {
    expect(found.flatMap((knot) => describeKnot(graph, knot))).toEqual([]);
  });

  test('sees the files it checks', () => {
    expect(graph.get('src/engine/fin/service.ts')).toEqual(expect.arrayContaining(['src/engine/fin/calls.ts']));
    expect(graph.has('bench/run.ts')).toBe(true);
  });
});

describe('the circle check', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circles-'));
    const files: Record<string, string> = {
      // A circle of types only, closed by a re-export: what no-cycle lets through.
      'src/a.ts': "import type { B } from './b';\nexport type A = { b: B };\n",
      'src/b.ts': "export type { A } from './a';\nexport type B = number;\n",
      // A longer one through an index file and an import() type.
      'src/c/index.ts': "export * from './d';\n",
      'src/c/d.ts': "export type D = import('../e').E;\n",
      'src/e.ts': "import { type D } from './c';\nexport type E = D[];\n",
      // No circle: f uses g, g uses a package and a file outside the checked folders.
      'src/f.tsx': "import { g } from './g';\nexport const f = g;\n",
      'src/g.ts': "import React from 'react';\nimport { x } from '../outside/x';\nexport const g = [React, x];\n",
      'outside/x.ts': "import { g } from '../src/g';\nexport const x = g;\n",
      // A file that imports itself.
      'src/self.ts': "import type { S } from './self';\nexport type S = { next?: S };\n",
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('finds type-only circles, through re-exports, index files and import() types, as chains', () => {
    const graph = importGraph(dir, ['src']);
    expect(knots(graph).map((knot) => describeKnot(graph, knot))).toEqual([
      ['src/a.ts -> src/b.ts -> src/a.ts'],
      ['src/c/d.ts -> src/e.ts -> src/c/index.ts -> src/c/d.ts'],
      ['src/self.ts -> src/self.ts'],
    ]);
  });

  test('lists every circle of a knot', () => {
    const graph: Graph = new Map([
      ['x', ['y', 'z']],
      ['y', ['x']],
      ['z', ['x']],
    ]);
    expect(knots(graph)).toEqual([['x', 'y', 'z']]);
    expect(describeKnot(graph, ['x', 'y', 'z'])).toEqual(['x -> y -> x', 'x -> z -> x']);
  });
});
