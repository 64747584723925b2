// The period text keyed on a month (the reporting period's grammar): shifts, views, fiscal years that start
// in another month, what FIN.PERIOD writes reading back as the same period, and everything else refused with
// the accepted forms named.
import { formatPeriodText, parseDateArgument, type Period, type PeriodView } from '../../../src/engine/dates';
import { error, value } from './results';

const TODAY = '2026-11-21';

function period(text: string, fiscalYearStartMonth?: number): Period {
  const arg = value(parseDateArgument(text, { today: TODAY, fiscalYearStartMonth }));
  if (arg.kind !== 'period') throw new Error(`${text} read as a date`);
  return arg.period;
}

const span = (p: Period) => `${p.start}..${p.end}`;

describe('period text keyed on a month', () => {
  test('shifts move the month by months, quarters or years, with or without a space, either case', () => {
    expect(span(period('2026-10-1M'))).toBe('2026-09-01..2026-09-30');
    expect(span(period('2026-10 -1m'))).toBe('2026-09-01..2026-09-30');
    expect(span(period('2026-10+3M'))).toBe('2027-01-01..2027-01-31');
    expect(span(period('2026-10-1Q'))).toBe('2026-07-01..2026-07-31');
    expect(span(period('2026-10-1Y'))).toBe('2025-10-01..2025-10-31');
    expect(span(period('2026-03-13M'))).toBe('2025-02-01..2025-02-28');
    expect(period('2026-10-1M').label).toBe('Sep 2026');
  });

  test('views under a January fiscal year', () => {
    expect(period('2026-10 QTR')).toEqual({ start: '2026-10-01', end: '2026-12-31', label: 'Q4 2026' });
    expect(period('2026-10 FY')).toEqual({ start: '2026-01-01', end: '2026-12-31', label: 'FY2026' });
    expect(period('2026-10 YTD')).toEqual({ start: '2026-01-01', end: '2026-10-31', label: 'YTD Oct 2026' });
    expect(period('2026-10 TTM')).toEqual({ start: '2025-11-01', end: '2026-10-31', label: 'TTM to Oct 2026' });
    // The shift moves the month first, the view then widens it.
    expect(period('2026-10-1Y YTD')).toEqual({ start: '2025-01-01', end: '2025-10-31', label: 'YTD Oct 2025' });
    expect(span(period('2026-10 -1Q QTR'))).toBe('2026-07-01..2026-09-30');
    expect(span(period('2026-01-1M YTD'))).toBe('2025-01-01..2025-12-31');
  });

  test('views under a fiscal year that starts in July (FY2027 runs July 2026 to June 2027)', () => {
    expect(period('2026-10 FY', 7)).toEqual({ start: '2026-07-01', end: '2027-06-30', label: 'FY2027' });
    expect(period('2026-10 YTD', 7)).toEqual({ start: '2026-07-01', end: '2026-10-31', label: 'FY2027 YTD Oct 2026' });
    expect(period('2026-10 QTR', 7)).toEqual({ start: '2026-10-01', end: '2026-12-31', label: 'FY2027 Q2' });
    expect(span(period('2026-06 YTD', 7))).toBe('2025-07-01..2026-06-30');
    expect(span(period('2026-07 YTD', 7))).toBe('2026-07-01..2026-07-31');
    expect(span(period('2026-10-1Y YTD', 7))).toBe('2025-07-01..2025-10-31');
    expect(span(period('2026-08 QTR', 7))).toBe('2026-07-01..2026-09-30');
    // A trailing twelve months ignores the fiscal year.
    expect(span(period('2026-10 TTM', 7))).toBe('2025-11-01..2026-10-31');
  });

  test('a fiscal year starting in February: January closes the year', () => {
    expect(span(period('2027-01 YTD', 2))).toBe('2026-02-01..2027-01-31');
    expect(span(period('2027-01 QTR', 2))).toBe('2026-11-01..2027-01-31');
    expect(period('2027-01 FY', 2).label).toBe('FY2027');
  });

  test('what formatPeriodText writes reads back as the same period, whatever the fiscal start', () => {
    const views: PeriodView[] = ['month', 'quarter', 'fy', 'ytd', 'ttm'];
    for (const fy of [1, 2, 4, 7, 10, 12]) {
      for (let m = 1; m <= 12; m++) {
        const month = { year: 2026, month: m };
        for (const view of views) {
          const text = formatPeriodText(month, view, fy);
          const keyed = `2026-${String(m).padStart(2, '0')}${view === 'month' ? '' : ` ${{ quarter: 'QTR', fy: 'FY', ytd: 'YTD', ttm: 'TTM' }[view]}`}`;
          expect(span(period(text, fy))).toBe(span(period(keyed, fy)));
        }
      }
    }
    expect(formatPeriodText({ year: 2026, month: 10 }, 'quarter', 1)).toBe('2026-Q4');
    expect(formatPeriodText({ year: 2026, month: 10 }, 'quarter', 7)).toBe('FY2027-Q2');
    expect(formatPeriodText({ year: 2026, month: 10 }, 'fy', 7)).toBe('FY2027');
    expect(formatPeriodText({ year: 2026, month: 9 }, 'ytd', 7)).toBe('2026-09 YTD');
    expect(formatPeriodText({ year: 2026, month: 9 }, 'ttm', 1)).toBe('2026-09 TTM');
  });

  test('anything else is refused with the accepted forms named', () => {
    const forms = 'use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD, TTM, 2026-07-1M or 2026-07 YTD';
    const parse = (text: string) => error(parseDateArgument(text, { today: TODAY }));
    expect(parse('2026-10 -1')).toBe(`Bad date "2026-10 -1": a shift needs its unit: M, Q or Y (2026-07-1M); ${forms}`);
    expect(parse('2026-10 MTD')).toBe(`Bad date "2026-10 MTD": after the month comes a shift (-1M, +1Q, -1Y), then a view (QTR, FY, YTD or TTM); ${forms}`);
    expect(parse('2026-10 YTD -1M')).toMatch(/after the month comes a shift/);
    expect(parse('2026-10-1D')).toMatch(/after the month comes a shift/);
    expect(parse('2026-13 YTD')).toBe(`Bad date "2026-13 YTD": month 13 does not exist; ${forms}`);
    expect(parse('prior year of 2026-10')).toBe(`Bad date "prior year of 2026-10": ${forms}`);
    expect(parse('2026-10YTD')).toMatch(/after the month comes a shift/);
    // A date is still a date, and a missing digit still says so.
    expect(value(parseDateArgument('2026-10-01', { today: TODAY }))).toEqual({ kind: 'date', date: '2026-10-01' });
    expect(parse('2026-10-1')).toMatch(/months and days need two digits/);
  });
});
