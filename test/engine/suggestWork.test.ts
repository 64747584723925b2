import * as distance from '../../src/engine/tree/editDistance';
import { MAX_COMPARED_LENGTH, suggestions } from '../../src/engine/tree/suggest';
import { buildTree, type TreeItem } from '../../src/engine/tree';

// The did-you-mean search runs in the shared runtime on every evaluation of a formula with an unknown
// name, so its work must not grow with what was typed (a cell holds up to 32,767 characters) nor with a
// name the API sent. Work is counted, not timed: the cells of every edit-distance table filled.

const NAMES = ['Revenue', 'Product Revenue', 'Services Revenue', 'Operating Expenses', 'Rent', 'Payroll', 'Software & Subscriptions', 'Travel', 'Meals & Entertainment', 'Legal & Professional Fees', 'Cash', 'Accounts Receivable'];
const items: TreeItem[] = NAMES.map((name, i) => ({ id: `cat_${i}`, name, parent_id: null }));
const tree = buildTree(items, 'category');

/** Cells of the edit-distance tables `run` filled. */
function work(run: () => unknown): number {
  const spy = jest.spyOn(distance, 'editDistance');
  try {
    run();
    return spy.mock.calls.reduce((sum, [a, b]) => sum + a.length * b.length, 0);
  } finally {
    spy.mockRestore();
  }
}

const bound = (nodes: number) => nodes * MAX_COMPARED_LENGTH * MAX_COMPARED_LENGTH;

describe('did-you-mean work', () => {
  it('is the same for a 32,767-character name as for one just past the cap', () => {
    const longest = 'Zq'.repeat(16_383) + 'Z';
    expect(longest).toHaveLength(32_767);
    const atCap = work(() => suggestions(tree, longest.slice(0, MAX_COMPARED_LENGTH + 1)));
    const full = work(() => suggestions(tree, longest));
    expect(full).toBe(atCap);
    expect(full).toBeGreaterThan(0);
    expect(full).toBeLessThanOrEqual(bound(NAMES.length));
  });

  it('is bounded for a huge name sent by the API too', () => {
    const huge = buildTree([...items, { id: 'cat_huge', name: 'Q'.repeat(32_767), parent_id: null }], 'category');
    expect(work(() => suggestions(huge, 'x'.repeat(32_767)))).toBeLessThanOrEqual(bound(NAMES.length + 1));
  });

  it('still finds a typo and a name inside a longer text', () => {
    expect(suggestions(tree, 'Travle')).toEqual(['Travel']);
    expect(suggestions(tree, 'Payrol')).toEqual(['Payroll']);
    expect(suggestions(tree, `Payroll ${'x'.repeat(40_000)}`)).toContain('Payroll');
  });
});
