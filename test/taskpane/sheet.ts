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

const FIGURES: Record<string, { label: string; cents: (r: any) => number }[]> = {
  income_statement: [
    { label: 'Total revenue', cents: (r) => r.revenue.total_cents },
    { label: 'Total expenses', cents: (r) => r.expenses.total_cents },
    { label: 'Operating income', cents: (r) => r.operating_income_cents },
    { label: 'Net income', cents: (r) => r.net_income_cents },
  ],
  balance_sheet: [
    { label: 'Total assets', cents: (r) => r.assets.total_cents },
    { label: 'Total liabilities', cents: (r) => r.liabilities.total_cents },
    { label: 'Total equity', cents: (r) => r.equity.total_cents },
    { label: 'Total liabilities and equity', cents: (r) => r.liabilities_and_equity_cents },
  ],
  cash_flow: [
    { label: 'Net cash from operating activities', cents: (r) => r.operating_activities.total_cents },
    { label: 'Net change in cash', cents: (r) => r.change_in_cash_cents },
  ],
};

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
  expect(block.cols).toBe(1 + expectedColumns.length);
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
    if (kind === 'balance_sheet') expect(h.value).toBe(expectedColumns[c - 1].date);
  }
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
  }
}
