// Whether the workbook holds its board pack: recorded when inserted, and only while its KPI sheet is there.
// The pane refuses a second pack beside it (both would follow the one reporting period), and moving the
// period prices the KPIs' reads; a pack whose sheets the user deleted no longer counts.
import { chartReads } from '../../../src/engine/reporting/boardCharts';
import { BOARD_PACK_SETTING, boardPackIn, kpiReads, packFormulaReads } from '../../../src/engine/reporting/boardPack';
import { MemoryGateway } from '../../../src/excel/memoryGateway';

test('a pack counts while its recorded KPI sheet exists', async () => {
  const book = new MemoryGateway({ sheets: ['Sheet1', 'Board KPIs (2)'] });
  expect(await boardPackIn(book)).toBeNull(); // never inserted
  await book.writeSetting(BOARD_PACK_SETTING, { kpiSheet: 'Board KPIs (2)', insertedFor: '2026-09' });
  expect(await boardPackIn(book)).toEqual({ kpiSheet: 'Board KPIs (2)' });
  book.deleteSheet('Board KPIs (2)');
  expect(await boardPackIn(book)).toBeNull();
  // A setting edited into something else is no pack.
  await book.writeSetting(BOARD_PACK_SETTING, ['Board KPIs']);
  expect(await boardPackIn(book)).toBeNull();
});

test("a pack's charts are priced while their sheet exists, under the fiscal year they were written for", async () => {
  const book = new MemoryGateway({ sheets: ['Board KPIs', 'Board charts'] });
  await book.writeSetting(BOARD_PACK_SETTING, { kpiSheet: 'Board KPIs', chartSheet: 'Board charts', fiscalYearStartMonth: 7, insertedFor: '2026-09' });
  const pack = (await boardPackIn(book))!;
  expect(pack).toEqual({ kpiSheet: 'Board KPIs', chartSheet: 'Board charts', fiscalYearStartMonth: 7 });
  // September is the third month of a July year: the charts read July to September, and a year before each.
  const month = { year: 2026, month: 9 };
  const reads = packFormulaReads(pack, month);
  expect(reads).toEqual(expect.arrayContaining([...kpiReads(month), ...chartReads(month, 7)]));
  expect(reads.some((r) => r.query?.start_date === '2025-07-01')).toBe(true);
  expect(reads.some((r) => r.query?.start_date === '2026-06-01')).toBe(false);
  // The charts' sheet deleted: the KPIs still roll, priced alone.
  book.deleteSheet('Board charts');
  const left = (await boardPackIn(book))!;
  expect(left).toEqual({ kpiSheet: 'Board KPIs' });
  expect(packFormulaReads(left, month)).toEqual(kpiReads(month));
});
