import {
  periodLabel,
} from '../../../src/engine/dates';

describe('labels', () => {
  test.each([
    ['2026-07-01', '2026-07-31', undefined, 'Jul 2026'],
    ['2026-07-01', '2026-09-30', undefined, 'Q3 2026'],
    ['2026-07-01', '2026-09-30', 7, 'FY2027 Q1'],
    ['2026-02-01', '2026-04-30', 2, 'FY2027 Q1'],
    ['2026-08-01', '2026-10-31', 2, 'FY2027 Q3'],
    ['2026-07-01', '2026-09-30', 2, 'Q3 2026'],
    ['2026-01-01', '2026-12-31', undefined, 'FY2026'],
    ['2025-07-01', '2026-06-30', 7, 'FY2026'],
    ['2025-07-01', '2026-06-30', undefined, 'Jul 2025 to Jun 2026'],
    ['2026-01-01', '2026-02-28', undefined, 'Jan 2026 to Feb 2026'],
    ['2026-07-04', '2026-07-04', undefined, '2026-07-04'],
    ['2026-07-04', '2026-07-31', undefined, '2026-07-04 to 2026-07-31'],
  ])('%s..%s (fiscal start %p) is %p', (start, end, fy, label) => {
    expect(periodLabel(start, end, { fiscalYearStartMonth: fy })).toBe(label);
  });
});
