import { buildTree, nodesAtPath, nodesNamed, normalizeName, normalizePath, pathSegments, type TreeItem } from '../../src/engine/tree';

const items: TreeItem[] = [
  { id: 'd_root', name: 'Company', parent_id: null },
  { id: 'd_cs', name: 'Customer Success', parent_id: 'd_root' },
  { id: 'd_cs_ops', name: 'Operations', parent_id: 'd_cs' },
  { id: 'd_fin', name: 'Finance', parent_id: 'd_root' },
  { id: 'd_fin_ops', name: 'Operations', parent_id: 'd_fin' },
];

describe('names and paths', () => {
  it('compare without case, spacing or Unicode form', () => {
    expect(normalizeName('  Sales   EAST ')).toBe('sales east');
    expect(normalizeName('Cafe\u0301')).toBe(normalizeName('Café'));
    expect(pathSegments('Co>Finance >  OPERATIONS')).toEqual(['co', 'finance', 'operations']);
    expect(normalizePath(' a>b ')).toBe('a > b');
  });

  it('keep a missing name visible as an empty segment', () => {
    expect(pathSegments('a >> b')).toEqual(['a', '', 'b']);
    expect(normalizePath('a >')).toBe('a > ');
    expect(normalizePath('>')).toBe(' > ');
  });
});

describe('lookups', () => {
  const tree = buildTree(items, 'department');

  it('carry full paths and normalised names on every node', () => {
    const node = tree.byId.get('d_fin_ops')!;
    expect(node.path).toBe('Company > Finance > Operations');
    expect(node.normalizedNames).toEqual(['company', 'finance', 'operations']);
  });

  it('find every node of a name, in tree order', () => {
    expect(nodesNamed(tree, ' operations ').map((n) => n.id)).toEqual(['d_cs_ops', 'd_fin_ops']);
    expect(nodesNamed(tree, 'Nope')).toEqual([]);
  });

  it('find nodes by the tail of their path, or by the full path', () => {
    expect(nodesAtPath(tree, pathSegments('finance > operations')).map((n) => n.id)).toEqual(['d_fin_ops']);
    expect(nodesAtPath(tree, pathSegments('Company > Customer Success > Operations')).map((n) => n.id)).toEqual(['d_cs_ops']);
    expect(nodesAtPath(tree, pathSegments('Finance > Customer Success'))).toEqual([]);
  });
});
