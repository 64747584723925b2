import { collapseToLevel, hiddenRows, maxLevel, outlineGroups } from '../../src/workbench/outline';

describe('row outline', () => {
  // rows:    0  1  2  3  4  5  6  7
  const levels = [0, 1, 2, 2, 1, 0, 1, 0];
  const groups = outlineGroups(levels);

  it('finds nested groups with their summary row below', () => {
    expect(groups).toEqual([
      { level: 1, start: 1, end: 4, summaryRow: 5 },
      { level: 1, start: 6, end: 6, summaryRow: 7 },
      { level: 2, start: 2, end: 3, summaryRow: 4 },
    ]);
    expect(maxLevel(groups)).toBe(2);
  });

  it('hides collapsed groups and shows a level', () => {
    expect([...hiddenRows(groups, new Set(['2:2']))]).toEqual([2, 3]);
    expect([...hiddenRows(groups, collapseToLevel(groups, 1))].sort()).toEqual([1, 2, 3, 4, 6]);
    expect([...hiddenRows(groups, collapseToLevel(groups, 2))]).toEqual([2, 3]);
    expect(hiddenRows(groups, collapseToLevel(groups, 3)).size).toBe(0);
  });
});
