import { parseMaxRows, parseScale, parseStatus, optionalText, isMissing } from '../../../src/engine/fin/args';
import { FinError } from '../../../src/engine/fin/errors';
import { resolveInTree } from '../../../src/engine/fin/resolve';
import { buildTree, subtreeIds, suggestions, type TreeItem } from '../../../src/engine/tree';

// A department-like tree with the repeated leaf names the seeded Growth company has ("Operations" under
// Customer Success and under Finance) and a category-like chart.
const departments: TreeItem[] = [
  { id: 'dept_root', name: 'Company', parent_id: null },
  { id: 'dept_gtm', name: 'Go-to-Market', parent_id: 'dept_root' },
  { id: 'dept_cs', name: 'Customer Success', parent_id: 'dept_gtm' },
  { id: 'dept_cs_ops', name: 'Operations', parent_id: 'dept_cs' },
  { id: 'dept_gna', name: 'G&A', parent_id: 'dept_root' },
  { id: 'dept_fin', name: 'Finance', parent_id: 'dept_gna' },
  { id: 'dept_fin_ops', name: 'Operations', parent_id: 'dept_fin' },
  { id: 'dept_ops', name: 'Ops', parent_id: 'dept_root' },
  { id: 'dept_ops_ops', name: 'Operations', parent_id: 'dept_ops' },
];

const categories: TreeItem[] = [
  { id: 'cat_exp', name: 'Operating Expenses', parent_id: null, position: 2 },
  { id: 'cat_rev', name: 'Revenue', parent_id: null, position: 1 },
  { id: 'cat_ga', name: 'General & Administrative', parent_id: 'cat_exp', position: 1 },
  { id: 'cat_sw', name: 'Software Subscriptions', parent_id: 'cat_ga', position: 2 },
  { id: 'cat_rent', name: 'Rent', parent_id: 'cat_ga', position: 1 },
  { id: 'cat_sub', name: 'Subscription Revenue', parent_id: 'cat_rev', position: 1 },
];

function err(result: ReturnType<typeof resolveInTree>): FinError {
  if (result.ok) throw new Error(`expected a failure, got ${result.node.path}`);
  return result.error;
}

describe('buildTree', () => {
  it('orders depth-first with siblings by position and builds full paths', () => {
    const tree = buildTree(categories, 'category');
    expect(tree.ordered.map((n) => n.path)).toEqual([
      'Revenue',
      'Revenue > Subscription Revenue',
      'Operating Expenses',
      'Operating Expenses > General & Administrative',
      'Operating Expenses > General & Administrative > Rent',
      'Operating Expenses > General & Administrative > Software Subscriptions',
    ]);
    expect(subtreeIds(tree.byId.get('cat_ga')!)).toEqual(['cat_ga', 'cat_rent', 'cat_sw']);
  });

  it('keeps items whose parent is missing or cyclic as roots', () => {
    const tree = buildTree(
      [
        { id: 'a', name: 'A', parent_id: 'b' },
        { id: 'b', name: 'B', parent_id: 'a' },
        { id: 'c', name: 'C', parent_id: 'nope' },
      ],
      'category',
    );
    expect(tree.ordered.map((n) => n.id).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('resolveInTree', () => {
  const cats = buildTree(categories, 'category');
  const depts = buildTree(departments, 'department');

  it('resolves ids, names (case and whitespace insensitive) and paths', () => {
    expect(resolveInTree(cats, 'cat_rent', 'cat_')).toMatchObject({ ok: true, node: { id: 'cat_rent' } });
    expect(resolveInTree(cats, '  software   SUBSCRIPTIONS ', 'cat_')).toMatchObject({ ok: true, node: { id: 'cat_sw' } });
    expect(resolveInTree(cats, 'Operating Expenses>General & Administrative >  Rent', 'cat_')).toMatchObject({ ok: true, node: { id: 'cat_rent' } });
    // A unique tail of the path is enough.
    expect(resolveInTree(cats, 'general & administrative > rent', 'cat_')).toMatchObject({ ok: true, node: { id: 'cat_rent' } });
  });

  it('takes a head and a tail of the path (the help\'s own "Operating Expenses > Rent"), and any names along it in order', () => {
    expect(resolveInTree(cats, 'Operating Expenses > Rent', 'cat_')).toMatchObject({ ok: true, node: { id: 'cat_rent' } });
    expect(resolveInTree(depts, 'Company > Finance > Operations', 'dept_')).toMatchObject({ ok: true, node: { id: 'dept_fin_ops' } });
    expect(resolveInTree(depts, 'G&A > Operations', 'dept_')).toMatchObject({ ok: true, node: { id: 'dept_fin_ops' } });
    // Out of order, or not ending at the node's own name: not a path of it.
    expect(err(resolveInTree(cats, 'Rent > Operating Expenses', 'cat_')).code).toBe('unknown_category');
    expect(err(resolveInTree(cats, 'Operating Expenses > General & Administrative > Nope', 'cat_')).code).toBe('unknown_category');
    // Still ambiguous where several paths run through the names given: the full paths are listed.
    expect(err(resolveInTree(depts, 'Company > Operations', 'dept_')).message).toBe(
      'Ambiguous department name "Company > Operations": matches "Company > Go-to-Market > Customer Success > Operations", ' +
        '"Company > G&A > Finance > Operations" and "Company > Ops > Operations"; use the path',
    );
  });

  it('refuses an ambiguous name, listing the full paths, and accepts the path', () => {
    const e = err(resolveInTree(depts, 'Operations', 'dept_'));
    expect(e.kind).toBe('value');
    expect(e.code).toBe('ambiguous_department');
    expect(e.message).toBe(
      'Ambiguous department name "Operations": matches "Company > Go-to-Market > Customer Success > Operations", ' +
        '"Company > G&A > Finance > Operations" and "Company > Ops > Operations"; use the path',
    );
    expect(resolveInTree(depts, 'Company > Ops > Operations', 'dept_')).toMatchObject({ ok: true, node: { id: 'dept_ops_ops' } });
    expect(resolveInTree(depts, 'Finance > Operations', 'dept_')).toMatchObject({ ok: true, node: { id: 'dept_fin_ops' } });
  });

  it('suggests close names for an unknown one', () => {
    const e = err(resolveInTree(cats, 'Sofware Subscriptions', 'cat_'));
    expect(e.code).toBe('unknown_category');
    expect(e.message).toBe('Unknown category "Sofware Subscriptions": did you mean "Software Subscriptions"? FIN.CATEGORIES() lists them');
    expect(suggestions(cats, 'rent')).toEqual(['Rent']);
    const none = err(resolveInTree(cats, 'Zebra crossings', 'cat_'));
    expect(none.message).toBe('Unknown category "Zebra crossings": FIN.CATEGORIES() lists every category (name, path or id)');
  });

  it('says what is wrong with ids, empty values and broken paths', () => {
    expect(err(resolveInTree(cats, 'cat_nope', 'cat_')).message).toBe('Unknown category id "cat_nope": FIN.CATEGORIES() lists them');
    expect(err(resolveInTree(cats, '', 'cat_')).code).toBe('missing_category');
    expect(err(resolveInTree(cats, null, 'cat_')).code).toBe('missing_category');
    expect(err(resolveInTree(cats, 42, 'cat_')).message).toBe('Bad category 42: give a category name, path or id as text');
    expect(err(resolveInTree(cats, 'Operating Expenses >> Rent', 'cat_')).code).toBe('bad_category');
  });

  it('suggests the id when even the full paths collide', () => {
    const twins = buildTree(
      [
        { id: 'cat_a', name: 'Travel', parent_id: null },
        { id: 'cat_b', name: 'Travel', parent_id: null },
      ],
      'category',
    );
    expect(err(resolveInTree(twins, 'travel', 'cat_')).message).toBe('Ambiguous category name "travel": matches "Travel" and "Travel"; use the id (cat_a, cat_b)');
  });
});

describe('argument parsers', () => {
  it('reads scales by name or divisor', () => {
    expect(parseScale(undefined)).toBe('units');
    expect(parseScale(null)).toBe('units');
    expect(parseScale('Thousands')).toBe('thousands');
    expect(parseScale(1000)).toBe('thousands');
    expect(parseScale('1,000,000')).toBe('millions');
    expect(() => parseScale('billions')).toThrow('Bad scale "billions": use "units", "thousands" or "millions" (or 1, 1000, 1000000)');
  });

  it('reads statuses and row caps', () => {
    expect(parseStatus('Pending')).toBe('pending');
    expect(parseStatus('')).toBeUndefined();
    expect(parseStatus('all')).toBeUndefined();
    expect(() => parseStatus('posted')).toThrow(FinError);
    expect(parseMaxRows(null)).toBe(1000);
    expect(parseMaxRows(10000)).toBe(10000);
    expect(() => parseMaxRows(10001)).toThrow('Bad max_rows 10001: use a whole number from 1 to 10000');
    expect(() => parseMaxRows(2.5)).toThrow(FinError);
  });

  it('treats empty text as omitted and keeps merchant text exactly', () => {
    expect(isMissing('  ')).toBe(true);
    expect(isMissing(0)).toBe(false);
    expect(optionalText(' Acme ', 'merchant')).toBe(' Acme ');
    expect(optionalText(7, 'merchant')).toBe('7');
  });
});

describe('long paths in a message (issue 36, item 9)', () => {
  it('are cut from their start, so the name itself is always shown', () => {
    const long: TreeItem[] = [
      { id: 'dept_co', name: 'Northwind Holdings International', parent_id: null },
      { id: 'dept_gtm', name: 'Go-to-Market and Revenue Operations', parent_id: 'dept_co' },
      { id: 'dept_cs', name: 'Customer Success', parent_id: 'dept_gtm' },
      { id: 'dept_cs_ops', name: 'Operations', parent_id: 'dept_cs' },
      { id: 'dept_ops', name: 'Operations', parent_id: 'dept_co' },
    ];
    const message = err(resolveInTree(buildTree(long, 'department'), 'Operations', 'dept_')).message;
    expect(message).toBe('Ambiguous department name "Operations": matches "…rket and Revenue Operations > Customer Success > Operations" and "Northwind Holdings International > Operations"; use the path');
  });
});
