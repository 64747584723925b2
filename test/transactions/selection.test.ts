// "Use selected rows": which rows of a transactions table a selection covers (no workbook, no sandbox).

import { COL, idsInSelection, type TableSnapshot } from '../../src/engine/transactions';

// A table at Data!B3:D7: header on row 3, four data rows (sheet rows 4 to 7), the pulled id in its second column.
const TABLE: TableSnapshot = {
  address: 'Data!B3:D7',
  columns: ['Date', COL.pulledId, 'Amount'],
  rows: [
    ['2026-01-01', 'txn_1', 10],
    ['2026-01-02', 'txn_2', 20],
    ['2026-01-03', '', 30],
    ['2026-01-04', 'txn_4', 40],
  ],
};

describe('idsInSelection', () => {
  test('one cell of a data row gives its Id', () => {
    expect(idsInSelection('Data!D5', TABLE)).toEqual(['txn_2']);
  });

  test('several rows at once, any columns of them, in table order, blank Ids skipped', () => {
    expect(idsInSelection('Data!C4:D7', TABLE)).toEqual(['txn_1', 'txn_2', 'txn_4']);
    // Cells beside the table on the same rows count as those rows.
    expect(idsInSelection('Data!F6:G7', TABLE)).toEqual(['txn_4']);
  });

  test('the header row and rows outside the table give nothing; a selection over them keeps the overlap', () => {
    expect(idsInSelection('Data!B3', TABLE)).toEqual([]);
    expect(idsInSelection('Data!B8:D20', TABLE)).toEqual([]);
    expect(idsInSelection('Data!A1:A4', TABLE)).toEqual(['txn_1']);
    expect(idsInSelection('Data!A1:Z1048576', TABLE)).toEqual(['txn_1', 'txn_2', 'txn_4']);
    // Row or column headers clicked: Excel writes whole rows and columns as 5:6 and A:Z (issue 36, item 1).
    expect(idsInSelection('Data!5:6', TABLE)).toEqual(['txn_2']);
    expect(idsInSelection('Data!$A:$Z', TABLE)).toEqual(['txn_1', 'txn_2', 'txn_4']);
  });

  test('another sheet gives nothing; sheet names compare as Excel does (any case, quoted or not)', () => {
    expect(idsInSelection('Other!C4', TABLE)).toEqual([]);
    expect(idsInSelection("'data'!C4", TABLE)).toEqual(['txn_1']);
  });

  test('a repeated Id is given once', () => {
    const twice: TableSnapshot = { ...TABLE, rows: [...TABLE.rows, ['2026-01-05', 'txn_1', 50]] };
    expect(idsInSelection('Data!B4:B8', twice)).toEqual(['txn_1', 'txn_2', 'txn_4']);
  });

  test('a table without an Id column gives nothing', () => {
    expect(idsInSelection('Data!B4:B7', { ...TABLE, columns: ['Date', 'Other', 'Amount'] })).toEqual([]);
  });
});
