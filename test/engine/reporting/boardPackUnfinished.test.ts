// Issue 35, item 6: a board pack refused part way (the P&L by department, its last block, refused by the API)
// had written 7 blocks on 5 sheets, no KPI sheet and no pack record, while the pane said "Nothing was
// written". Now the refusal says exactly what stands in the workbook and what does not, with the API's reason.
import { UnreadableAnswer } from '../../../src/api/answerShape';
import { BOARD_PACK_SETTING, insertBoardPack } from '../../../src/engine/reporting/boardPack';
import type { StatementsEngine } from '../../../src/engine/statements';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { isRefusal } from '../../../src/engine/refusal';

/** Statement blocks written as one-cell grids (the pack's own code is what is tested), the by-department one refused. */
function statementsOver(book: MemoryGateway, refuse: (layout: string) => Error | null): StatementsEngine {
  let n = 0;
  const engine = {
    follow: async () => () => undefined,
    insert: async (spec: { layout: string }, target: Parameters<MemoryGateway['writeGrid']>[0]) => {
      const error = refuse(spec.layout);
      if (error) throw error;
      const written = await book.writeGrid(target, { values: [[`block ${++n}`]] });
      return { written, binding: { id: `b${n}`, kind: 'statement', parameters: {}, address: written.address } };
    },
  };
  return engine as unknown as StatementsEngine;
}

test('a pack whose last block is refused says which blocks and sheets it left, and that no KPI sheet or pack record was written', async () => {
  const book = new MemoryGateway({ sheets: ['Sheet1'] });
  const refusal = new UnreadableAnswer({ endpoint: '/journal_entries', expected: 'department', found: ['category_id', 'department'], detail: "The API's /journal_entries answered a journal line whose department this add-in cannot read." });
  const statements = statementsOver(book, (layout) => (layout === 'by_department' ? refusal : null));
  const choice = { charts: false, byDepartment: true, fiscalYearStartMonth: 1, roles: { costOfRevenue: null } };
  const outcome = await insertBoardPack(book, statements, { year: 2026, month: 9 }, choice).then(
    () => null,
    (e: unknown) => e,
  );
  expect(isRefusal(outcome)).toBe(true);
  const { title, message } = outcome as Error & { title: string };
  expect(title).toBe('The board pack was not finished');
  expect(message).toBe(
    "It stopped at block 6 of 6 (Board P&L by dept): The API's /journal_entries answered a journal line whose department this add-in cannot read. " +
      'Left in the workbook: 5 of 6 statement blocks on "Board P&L", "Board P&L by month", "Board balance sheet", "Board cash flow" ' +
      "(ordinary blocks: Refresh keeps them current). Not written: the other blocks, the KPI sheet, the pack's record (so moving the reporting period does not roll it). " +
      'Delete those sheets before inserting the pack again.',
  );
  expect(message).not.toMatch(/Nothing was written/);
  // What it says is what is there.
  expect((await book.listSheets()).map((s) => s.name)).toEqual(['Sheet1', 'Board P&L', 'Board P&L by month', 'Board balance sheet', 'Board cash flow']);
  expect(await book.readSetting(BOARD_PACK_SETTING)).toBeUndefined();
});

test('a pack refused at its first block wrote nothing and passes the refusal on as it came', async () => {
  const book = new MemoryGateway({ sheets: ['Sheet1'] });
  const refusal = new Error('The monthly call limit is reached.');
  const outcome = await insertBoardPack(book, statementsOver(book, () => refusal), { year: 2026, month: 9 }, { charts: false, byDepartment: false, fiscalYearStartMonth: 1, roles: { costOfRevenue: null } }).catch((e: unknown) => e);
  expect(outcome).toBe(refusal);
  expect((await book.listSheets()).map((s) => s.name)).toEqual(['Sheet1']);
});
