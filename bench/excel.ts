// Excel cost of writing the transactions table: 50,000 rows x 15 columns through the production
// OfficeGateway on the fake Excel object model (test/excel/fakeExcel.ts), which queues until sync, counts
// syncs and measures each request's payload (and rejects anything over 5 MB, as Excel on the web does).
// The rows are the pulled Growth rows as the engine writes them, repeated with unique ids up to 50,000.
import { COL, TABLE_COLUMNS } from '../src/engine/transactions';
import type { WriteValue } from '../src/engine/ports/workbook';
import { EXCEL_PAYLOAD_LIMIT_BYTES } from '../src/excel/payload';
import { officeHarness } from '../test/excel/harnesses';
import { median } from './stats';

export interface ExcelFigures {
  rows: number;
  columns: number;
  /** context.sync() calls of the table write (the fake's own log). */
  syncs: number;
  largestRequestBytes: number;
  totalRequestMB: number;
  chunks: number;
  rowsPerChunk: number;
  retries: number;
  limitBytes: number;
  overLimit: number;
  writeMs: number[];
  writeMedianMs: number;
}

const REPEATS = 3;

export async function excelBench(sample: WriteValue[][], n = 50_000): Promise<ExcelFigures> {
  if (sample.length === 0) throw new Error('no sample rows');
  const idCol = TABLE_COLUMNS.findIndex((c) => c.name === COL.id);
  const rows = Array.from({ length: n }, (_, i) => {
    const row = [...sample[i % sample.length]];
    row[idCol] = `${String(row[idCol])}-${Math.floor(i / sample.length)}`;
    return row;
  });
  let figures: Omit<ExcelFigures, 'writeMs' | 'writeMedianMs'> | undefined;
  const writeMs: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const h = officeHarness();
    const t0 = performance.now();
    await h.office.createTable({ name: 'Transactions', columns: [...TABLE_COLUMNS], rows, target: { kind: 'newSheet', name: 'Transactions' }, style: 'TableStyleLight9' });
    writeMs.push(performance.now() - t0);
    const stats = h.office.lastWriteStats!;
    const syncs = h.fake.syncs;
    const counts = {
      rows: n,
      columns: TABLE_COLUMNS.length,
      syncs: syncs.length,
      largestRequestBytes: h.fake.largestRequestBytes,
      totalRequestMB: +(syncs.reduce((s, x) => s + x.requestBytes, 0) / 1e6).toFixed(1),
      chunks: stats.chunks,
      rowsPerChunk: stats.rowsPerChunk,
      retries: stats.retries,
      limitBytes: EXCEL_PAYLOAD_LIMIT_BYTES,
      overLimit: syncs.filter((s) => s.error || s.requestBytes > EXCEL_PAYLOAD_LIMIT_BYTES).length,
    };
    if (figures && JSON.stringify(figures) !== JSON.stringify(counts)) throw new Error('Excel counts differ between repeats');
    figures = counts;
  }
  return { ...figures!, writeMs, writeMedianMs: median(writeMs) };
}
