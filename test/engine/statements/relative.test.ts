// A block's relation to the reporting period: the periods it names (fiscal years starting in another month
// included), kept in the binding and read back, a sheet name that does not date, and rolling a binding.
import { relativePeriod, sheetNameFor, specFromBinding, specToParameters, describeSpec, type StatementSpec } from '../../../src/engine/statements';
import { rollBinding } from '../../../src/engine/statements/spec';
import type { BindingRecord } from '../../../src/engine/ports/workbook';

const OCT = { year: 2026, month: 10 };
const span = (p: { start: string; end: string }) => `${p.start}..${p.end}`;

describe('relations to the reporting period', () => {
  test('the period each names, January and July fiscal starts', () => {
    expect(span(relativePeriod('month', OCT, 1))).toBe('2026-10-01..2026-10-31');
    expect(span(relativePeriod('quarter', OCT, 1))).toBe('2026-10-01..2026-12-31');
    expect(span(relativePeriod('ytd', OCT, 1))).toBe('2026-01-01..2026-10-31');
    expect(span(relativePeriod('last_year', OCT, 1))).toBe('2025-10-01..2025-10-31');
    expect(span(relativePeriod('ttm', OCT, 1))).toBe('2025-11-01..2026-10-31');
    expect(span(relativePeriod('ytd', OCT, 7))).toBe('2026-07-01..2026-10-31');
    expect(span(relativePeriod('quarter', OCT, 7))).toBe('2026-10-01..2026-12-31');
    expect(span(relativePeriod('quarter', { year: 2026, month: 8 }, 7))).toBe('2026-07-01..2026-09-30');
    expect(span(relativePeriod('ytd', { year: 2026, month: 6 }, 7))).toBe('2025-07-01..2026-06-30');
  });

  const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: '2026-01-01', end: '2026-10-31', layout: 'months', scale: 'units', fiscalYearStartMonth: 1, relation: 'ytd' };
  const binding = (s: StatementSpec): BindingRecord => ({ id: 'b1', kind: 'statement', parameters: specToParameters(s), company: 'comp_1', refreshedAt: '2026-11-01T00:00:00Z', address: "'P&L YTD'!A1:K40" });

  test('kept in the binding and read back; a block without one (written before relations) has none', () => {
    expect(specToParameters(spec)).toMatchObject({ relation: 'ytd' });
    expect(specFromBinding(binding(spec))).toEqual(spec);
    const { relation: _none, ...fixed } = spec;
    expect(specToParameters(fixed)).not.toHaveProperty('relation');
    expect(specFromBinding(binding(fixed))).toEqual(fixed);
    expect(specFromBinding({ ...binding(spec), parameters: { ...binding(spec).parameters, relation: 'next_week' } })).toEqual(fixed);
  });

  test('named by its relation, not by the dates it was first written with', () => {
    expect(sheetNameFor(spec)).toBe('P&L YTD');
    expect(sheetNameFor({ ...spec, layout: 'single' }, [spec])).toBe('P&L YTD (one period)');
    expect(sheetNameFor({ ...spec, relation: 'month', start: '2026-10-01' })).toBe('P&L month');
    expect(describeSpec(spec)).toBe('Income statement, Jan 2026 to Oct 2026 (year to date of the reporting period), months side by side');
  });

  test('a binding rolls to a month: new dates, the rest kept; none when already there or fixed', () => {
    const rolled = rollBinding(binding(spec), { year: 2026, month: 11 })!;
    expect(rolled.parameters).toMatchObject({ start: '2026-01-01', end: '2026-11-30', relation: 'ytd', layout: 'months' });
    expect(rolled.address).toBe(binding(spec).address);
    expect(rollBinding(binding(spec), OCT)).toBeNull();
    const { relation: _none, ...fixed } = spec;
    expect(rollBinding(binding(fixed), { year: 2026, month: 11 })).toBeNull();
  });
});
