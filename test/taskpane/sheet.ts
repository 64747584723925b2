// Reading a rendered statement back out of the MemoryGateway and checking it against the API's own answers.
import { parseQualified } from '../../src/engine/ports/address';
import type { BindingRecord } from '../../src/engine/ports/workbook';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { cellA1 } from '../../src/engine/ports/address';
import { call, type TestSandbox } from '../support/sandbox';

export const DIVISOR = { units: 1, thousands: 1_000, millions: 1_000_000 } as const;

export interface SheetBlock {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  cell(r: number, c: number): { value: string | number | boolean; numberFormat: string; formula?: string };
  /** The row whose label (first column) is exactly `label`, or -1. */
  rowOf(label: string, from?: number): number;
}

export function blockAt(gateway: MemoryGateway, address: string): SheetBlock {
  const { sheet, box } = parseQualified(address);
  const cell = (r: number, c: number) => gateway.cell(sheet, cellA1(box.row + r, box.col + c));
  return {
    sheet,
    ...box,
    cell,
    rowOf(label, from = 0) {
      for (let r = from; r < box.rows; r++) if (cell(r, 0).value === label) return r;
      return -1;
    },
  };
}

/** GET a report the way a user of the API would, with the same key: the oracle the sheet must match. */
export async function apiReport(sb: TestSandbox, label: string, path: string, query: Record<string, string>): Promise<any> {
  const qs = new URLSearchParams(query).toString();
  const res = await call(sb, sb.keys[label], 'GET', `${path}?${qs}`);
  if (res.status !== 200) throw new Error(`${path}?${qs}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * `favourable`: the sign a larger figure gets in a Variance column (issue 15): +1 when more is better for the
 * owners (more income, less cost, more cash, more net assets), -1 for liabilities, null for a total with no
 * direction (no variance shown).
 */
type Figure = { label: string; cents: (r: any) => number; favourable: 1 | -1 | null };

const FIGURES: Record<string, Figure[]> = {
  income_statement: [
    { label: 'Total revenue', cents: (r) => r.revenue.total_cents, favourable: 1 },
    { label: 'Total expenses', cents: (r) => r.expenses.total_cents, favourable: 1 },
    { label: 'Operating income', cents: (r) => r.operating_income_cents, favourable: 1 },
    { label: 'Net income', cents: (r) => r.net_income_cents, favourable: 1 },
  ],
  balance_sheet: [
    { label: 'Total assets', cents: (r) => r.assets.total_cents, favourable: 1 },
    { label: 'Total liabilities', cents: (r) => r.liabilities.total_cents, favourable: -1 },
    { label: 'Total equity', cents: (r) => r.equity.total_cents, favourable: 1 },
    { label: 'Total liabilities and equity', cents: (r) => r.liabilities_and_equity_cents, favourable: null },
  ],
  cash_flow: [
    { label: 'Net cash from operating activities', cents: (r) => r.operating_activities.total_cents, favourable: 1 },
    { label: 'Net change in cash', cents: (r) => r.change_in_cash_cents, favourable: 1 },
  ],
};

export const VARIANCE_HEADERS = ['Variance fav/(unfav)', 'Variance % fav/(unfav)'];

/**
 * The Variance and Variance % cells of block row `r` (after the two period columns) against the API's cents
 * of the row in the two reports: the difference with the row's sign, in the block's units, and that over
 * the comparison's size; blank on a zero comparison, and both blank for a row with no direction.
 */
export function expectVariance(block: SheetBlock, r: number, actual: number, comparison: number, favourable: 1 | -1 | null, divisor: number): void {
  const amount = block.cell(r, 3);
  const percent = block.cell(r, 4);
  if (favourable === null) {
    expect([amount.value, percent.value]).toEqual(['', '']);
    return;
  }
  const variance = favourable * (actual - comparison);
  expect(amount.value as number).toBeCloseTo(variance / 100 / divisor, 9);
  expect(amount.numberFormat).toBe(block.cell(r, 1).numberFormat);
  if (comparison === 0) expect(percent.value).toBe('');
  else expect(percent.value as number).toBeCloseTo(variance / Math.abs(comparison), 12);
  expect(percent.numberFormat).toMatch(/%/);
}

const FIRST_SECTION: Record<string, { heading: string; key: string; field: string }> = {
  income_statement: { heading: 'Revenue', key: 'revenue', field: 'amount_cents' },
  balance_sheet: { heading: 'Assets', key: 'assets', field: 'balance_cents' },
  cash_flow: { heading: 'Operating activities', key: 'operating_activities', field: 'amount_cents' },
};

/**
 * Checks a written statement block against the API: every key figure and every line of the first section
 * in every column equals the API's cents / 100 / scale; labels and column headers are text cells.
 */
export async function expectBlockMatchesApi(
  sb: TestSandbox,
  label: string,
  gateway: MemoryGateway,
  binding: BindingRecord,
  expectedColumns: { start?: string; end?: string; date?: string }[],
): Promise<void> {
  const p = binding.parameters as Record<string, any>;
  const kind = p.statement as string;
  const divisor = DIVISOR[p.scale as keyof typeof DIVISOR];
  const block = blockAt(gateway, binding.address);
  const variance = p.variance === true;
  expect(block.cols).toBe(1 + expectedColumns.length + (variance ? 2 : 0));
  const reports = [];
  for (const c of expectedColumns) {
    reports.push(
      kind === 'balance_sheet'
        ? await apiReport(sb, label, '/reports/balance_sheet', { date: c.date! })
        : await apiReport(sb, label, `/reports/${kind}`, { start_date: c.start!, end_date: c.end! }),
    );
  }
  // Title block and column headers: text.
  expect(block.cell(0, 0)).toMatchObject({ numberFormat: '@' });
  expect(typeof block.cell(0, 0).value).toBe('string');
  const header = 6;
  for (let c = 1; c < block.cols; c++) {
    const h = block.cell(header, c);
    expect(typeof h.value).toBe('string');
    expect(h.numberFormat).toBe('@');
    if (kind === 'balance_sheet' && c <= expectedColumns.length) expect(h.value).toBe(expectedColumns[c - 1].date);
  }
  if (variance) expect([block.cell(header, 3).value, block.cell(header, 4).value]).toEqual(VARIANCE_HEADERS);
  // Key figures, every column.
  for (const f of FIGURES[kind]) {
    const r = block.rowOf(f.label);
    expect(r).toBeGreaterThan(header);
    expect(block.cell(r, 0).numberFormat).toBe('@');
    reports.forEach((report, i) => {
      const v = block.cell(r, 1 + i).value;
      expect(typeof v).toBe('number');
      expect(v as number).toBeCloseTo(f.cents(report) / 100 / divisor, 9);
    });
    if (variance) expectVariance(block, r, f.cents(reports[0]), f.cents(reports[1]), f.favourable, divisor);
  }
  // Every line of the first section (names unique within it), every column.
  const section = FIRST_SECTION[kind];
  const top = block.rowOf(section.heading);
  expect(top).toBeGreaterThan(header);
  const lines = reports[0][section.key].categories as any[];
  expect(lines.length).toBeGreaterThan(0);
  const names = lines.map((l) => l.name);
  for (const line of lines) {
    if (names.filter((n) => n === line.name).length > 1) continue;
    const r = block.rowOf(line.name, top + 1);
    expect(r).toBeGreaterThan(top);
    expect(block.cell(r, 0)).toMatchObject({ value: line.name, numberFormat: '@' });
    reports.forEach((report, i) => {
      const match = (report[section.key].categories as any[]).find((l) => l.category_id === line.category_id);
      const v = block.cell(r, 1 + i).value;
      if (!match) return;
      expect(v as number).toBeCloseTo(match[section.field] / 100 / divisor, 9);
    });
    // The first section of each statement is one where more is favourable: revenue, assets, operating cash.
    if (variance) expectVariance(block, r, lineCents(reports[0], section, line.category_id), lineCents(reports[1], section, line.category_id), 1, divisor);
  }
}

/** A line's cents in a report's section; 0 when the report does not list it (no activity). */
export function lineCents(report: any, section: { key: string; field: string }, categoryId: string): number {
  const match = ((report[section.key]?.categories ?? []) as any[]).find((l) => l.category_id === categoryId);
  return match ? match[section.field] : 0;
}
