// Whether the workbook holds its board pack: recorded when inserted, and only while its KPI sheet is there.
// The pane refuses a second pack beside it (both would follow the one reporting period), and moving the
// period prices the KPIs' reads; a pack whose sheets the user deleted no longer counts.
import { BOARD_PACK_SETTING, boardPackIn } from '../../../src/engine/reporting/boardPack';
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
