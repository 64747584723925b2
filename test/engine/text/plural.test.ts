import { plural, pluralGrouped, pluralNoun } from '../../../src/engine/text/plural';

describe('plural', () => {
  test('the singular is for exactly one; zero and many take the plural', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(0, 'call')).toBe('0 calls');
    expect(plural(2, 'call')).toBe('2 calls');
    expect(plural(1500, 'row')).toBe('1500 rows');
  });

  test('minus one is singular too (an accounting shift of -1 month)', () => {
    expect(plural(-1, 'month')).toBe('-1 month');
    expect(plural(-3, 'month')).toBe('-3 months');
  });

  test('irregular plurals are given', () => {
    expect(plural(1, 'PATCH', 'PATCHes')).toBe('1 PATCH');
    expect(plural(2, 'PATCH', 'PATCHes')).toBe('2 PATCHes');
    expect(plural(3, 'single-row update')).toBe('3 single-row updates');
  });

  test('the noun alone, for sentences that place the count themselves', () => {
    expect(pluralNoun(1, 'its', 'their')).toBe('its');
    expect(pluralNoun(2, 'its', 'their')).toBe('their');
    expect(pluralNoun(0, 'block')).toBe('blocks');
  });

  test('grouped: thousands separators for counts of rows', () => {
    expect(pluralGrouped(12345, 'transaction')).toBe('12,345 transactions');
    expect(pluralGrouped(1, 'journal line')).toBe('1 journal line');
    expect(pluralGrouped(999, 'row')).toBe('999 rows');
  });
});
