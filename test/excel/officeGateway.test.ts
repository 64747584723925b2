/** What only the Office implementation has: round trips, request sizes, suspension, host capabilities. */
import { GatewayError, type ChartSpec, type RowUpdate, type TableColumnSpec, type WriteValue } from '../../src/engine/ports/workbook';
import { EXCEL_PAYLOAD_LIMIT_BYTES } from '../../src/excel/payload';
import { OfficeRuntimeSecretStore } from '../../src/excel/secretStore';
import { FAKE_PAYLOAD_LIMIT } from './fakeExcel';
import { HOSTILE_TEXT } from './contract';
import { officeHarness } from './harnesses';
import { MAC, membersCalledOn, OLDEST, WEB, WINDOWS } from './officeJs';
import { HOST_FILES, readDeclarations, unavailableOn } from './requirementSets';

const COLUMNS: TableColumnSpec[] = [
  { name: 'Id', kind: 'text' },
  { name: 'Date', kind: 'number', numberFormat: 'yyyy-mm-dd' },
  { name: 'Accounting date', kind: 'number', numberFormat: 'yyyy-mm-dd' },
  { name: 'Amount', kind: 'number', numberFormat: '#,##0.00;(#,##0.00)' },
  { name: 'Currency', kind: 'text' },
  { name: 'Merchant', kind: 'text' },
  { name: 'Description', kind: 'text' },
  { name: 'Category', kind: 'text' },
  { name: 'Department', kind: 'text' },
  { name: 'Account', kind: 'text' },
  { name: 'Status', kind: 'text' },
  { name: 'Pulled department', kind: 'text' },
  { name: 'Pulled accounting date', kind: 'number', numberFormat: 'yyyy-mm-dd' },
  { name: 'Push status', kind: 'text' },
  { name: 'Message', kind: 'text' },
];

const MERCHANTS = ['Amazon Web Services', 'Delta Air Lines', 'Café Olé', 'Staples', '=HYPERLINK("http://x","y")', 'Blue Bottle Coffee', 'Uber'];
const DEPARTMENTS = ['Engineering > Platform > Core', 'Sales > EMEA', 'G&A > Finance', 'Marketing'];

/** Transactions shaped like the API's, with the longer text fields real data has. */
function transactions(n: number): WriteValue[][] {
  return Array.from({ length: n }, (_, i) => {
    const dept = DEPARTMENTS[i % DEPARTMENTS.length];
    const date = 45658 + (i % 365);
    return [
      `txn_${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}${i.toString(36).padStart(8, '0')}`,
      date,
      date + (i % 3),
      Math.round(((i * 7919) % 500000) - 250000) / 100,
      'USD',
      MERCHANTS[i % MERCHANTS.length],
      `Card payment ${i} - ${MERCHANTS[(i + 3) % MERCHANTS.length]} receipt attached, memo line`,
      'Software & Subscriptions',
      dept,
      'Operating account ••4821',
      i % 50 === 0 ? 'pending' : 'approved',
      dept,
      date + (i % 3),
      '',
      '',
    ];
  });
}

describe('OfficeGateway through office-js against the fake Excel', () => {
  test('getSelection: the range and its top-left formula in one sync', async () => {
    const h = officeHarness();
    await h.gateway.writeFormula('Sheet1!B2', '=FIN.BALANCE("Cash","2025-12")');
    h.inspect.select('Sheet1', 'B2:C9');
    h.fake.resetLog();
    const sel = await h.gateway.getSelection();
    expect(sel).toEqual({ sheet: 'Sheet1', address: 'Sheet1!B2:C9', rowCount: 8, columnCount: 2, topLeft: { formula: '=FIN.BALANCE("Cash","2025-12")', value: '#NAME?' } });
    expect(h.fake.syncCount).toBe(1);
  });

  test("the board charts' table of formulas is two syncs through the client library, where a formula a cell was two each", async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A37' }, { values: [['Months of the fiscal year to date']], cellFormats: [['@']] });
    const block = Array.from({ length: 15 }, (_, r) => Array.from({ length: 9 }, (_, c) => (r === 1 || r === 2 || (r === 0 && c !== 1) ? null : `=${r}+${c}`)));
    h.fake.resetLog();
    await h.gateway.writeFormulas('Sheet1!A37', block);
    expect(h.fake.syncCount).toBe(2);
    expect(h.office.lastWriteStats).toMatchObject({ operation: 'writeFormulas', syncs: 2 });
    expect(h.inspect.cell('Sheet1', 'A37')).toMatchObject({ value: 'Months of the fiscal year to date', numberFormat: '@' });
    expect(h.inspect.cell('Sheet1', 'B37').formula).toBe('=0+1');
    expect(h.inspect.cell('Sheet1', 'I51').formula).toBe('=14+8');
  });

  test('a statement at an anchor is one sync; on a new sheet, two', async () => {
    const h = officeHarness();
    await h.office.writeGrid(
      { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' },
      {
        values: Array.from({ length: 60 }, (_, r) => [`Line ${r}`, ...Array.from({ length: 12 }, (_, c) => r * 100 + c)]),
        columnFormats: [null, ...Array(12).fill('#,##0;(#,##0)')],
        boldRows: [0, 10, 20, 59],
        indentLevels: Array.from({ length: 60 }, (_, r) => r % 3),
        outlineLevels: Array.from({ length: 60 }, (_, r) => (r % 10 === 0 ? 0 : 1 + (r % 2))),
        columnWidths: [200, ...Array(12).fill(70)],
      },
    );
    expect(h.fake.syncCount).toBe(1);
    expect(h.office.lastWriteStats).toMatchObject({ operation: 'writeGrid', syncs: 1, chunks: 1, rowsPerChunk: 60, retries: 0 });
    h.fake.resetLog();
    await h.office.writeGrid({ kind: 'newSheet', name: 'P&L' }, { values: [['x', 1]] });
    expect(h.fake.syncCount).toBe(2);
  });

  test('per-cell formats that alternate go as one 2-D array, and still land on the right cells', async () => {
    const h = officeHarness();
    const rows = 40;
    await h.office.writeGrid(
      { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' },
      {
        values: Array.from({ length: rows }, (_, r) => [r, r, r]),
        cellFormats: Array.from({ length: rows }, (_, r) => [r % 2 ? '0.0' : '0', r % 2 ? '0%' : '0.00', null]),
      },
    );
    expect(h.fake.syncs[0].actions).toBeLessThan(12);
    expect(h.inspect.cell('Sheet1', 'A2').numberFormat).toBe('0.0');
    expect(h.inspect.cell('Sheet1', 'B3').numberFormat).toBe('0.00');
    expect(h.inspect.cell('Sheet1', 'C3').numberFormat).toBe('General');
  });

  test('50,000 x 15 transactions: every request under 5 MB, few syncs, calculation suspended and resumed', async () => {
    const h = officeHarness();
    const rows = transactions(50_000);
    const t = await h.office.createTable({ name: 'Transactions', columns: COLUMNS, rows, target: { kind: 'newSheet', name: 'Transactions' } });
    const stats = h.office.lastWriteStats!;
    const log = h.fake.syncs;
    const measured = {
      syncs: stats.syncs,
      chunks: stats.chunks,
      rowsPerChunk: stats.rowsPerChunk,
      estimatedLargestBytes: stats.largestPayloadBytes,
      fakeLargestRequestBytes: h.fake.largestRequestBytes,
      fakeTotalRequestBytes: log.reduce((n, s) => n + s.requestBytes, 0),
    };
    console.log('createTable 50,000 x 15', JSON.stringify(measured));

    expect(t.address).toBe('Transactions!A1:O50001');
    expect(log.every((s) => s.requestBytes <= EXCEL_PAYLOAD_LIMIT_BYTES && !s.error)).toBe(true);
    expect(stats.syncs).toBe(log.length);
    expect(stats.syncs).toBeLessThanOrEqual(8);
    expect(stats.retries).toBe(0);
    expect(stats.largestPayloadBytes).toBeLessThanOrEqual(4_000_000);
    // All but the last write batch ran with calculation suspended; the last recalculated; screen updating once.
    const writes = log.slice(1);
    expect(writes.slice(0, -1).every((s) => s.calcSuspended)).toBe(true);
    expect(writes[writes.length - 1]).toMatchObject({ calcSuspended: false, recalcs: ['Recalculate'] });
    expect(log.filter((s) => s.screenSuspended)).toHaveLength(1);
    expect(h.fake.dirtyWhileSuspended).toBe(false);

    expect(h.inspect.cell('Transactions', 'F6')).toMatchObject({ value: MERCHANTS[4], numberFormat: '@', formula: undefined });
    expect(h.inspect.cell('Transactions', 'D50001').numberFormat).toBe('#,##0.00;(#,##0.00)');

    h.fake.resetLog();
    const back = await h.office.readTable('Transactions');
    const readStats = h.office.lastWriteStats!;
    console.log('readTable 50,000 x 15', JSON.stringify({ syncs: readStats.syncs, rowsPerChunk: readStats.rowsPerChunk, fakeLargestResponseBytes: Math.max(...h.fake.syncs.map((s) => s.responseBytes)) }));
    expect(h.fake.syncs.every((s) => s.responseBytes <= FAKE_PAYLOAD_LIMIT && !s.error)).toBe(true);
    expect(back.rows).toHaveLength(50_000);
    expect(back.rows).toEqual(rows.map((r) => r.map((v) => v ?? '')));
  });

  test('a chunk Excel refuses as too large is halved and retried until it fits', async () => {
    // The gateway believes 1 MB fits; this "Excel" accepts 200 kB: the estimate is wrong on purpose.
    const h = officeHarness({ requestLimitBytes: 200_000 }, { budgetBytes: 1_000_000 });
    const rows = transactions(3_000);
    await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
    const stats = h.office.lastWriteStats!;
    expect(stats.retries).toBeGreaterThan(0);
    expect(h.fake.syncs.filter((s) => s.error === 'RequestPayloadSizeLimitExceeded')).toHaveLength(stats.retries);
    expect(h.fake.syncs.filter((s) => !s.error).every((s) => s.requestBytes <= 200_000)).toBe(true);
    const back = await h.office.readTable('Tx');
    expect(back.rows).toEqual(rows.map((r) => r.map((v) => v ?? '')));
  });

  test('a read whose response is too large is halved too', async () => {
    const h = officeHarness({ responseLimitBytes: 100_000 }, { budgetBytes: 1_000_000 });
    const rows = transactions(2_000);
    await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
    const back = await h.office.readTable('Tx');
    expect(h.office.lastWriteStats!.retries).toBeGreaterThan(0);
    expect(back.rows).toHaveLength(2_000);
    expect(back.rows[1999]).toEqual(rows[1999].map((v) => v ?? ''));
  });

  test('one row larger than Excel takes is a PayloadTooLarge error, not a loop', async () => {
    const h = officeHarness({ requestLimitBytes: 10_000 });
    const huge = gatewayError(h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['x'.repeat(20_000)]] }));
    expect((await huge).code).toBe('PayloadTooLarge');
  });

  test('many edits and deletes stay within bounded syncs', async () => {
    const h = officeHarness();
    const rows = transactions(20_000);
    await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
    const updates = rows.slice(0, 5_000).map((r) => ({ key: r[0] as string, values: { 'Push status': 'done', Message: 'ok', Department: 'Sales > EMEA' } }));
    const up = await h.office.updateRowsByKey('Tx', 'Id', updates);
    expect(up).toEqual({ count: 5_000, missing: [] });
    expect(h.office.lastWriteStats!.syncs).toBeLessThanOrEqual(4);
    const del = await h.office.deleteRowsByKey('Tx', 'Id', rows.slice(100, 1_100).map((r) => r[0] as string));
    expect(del.count).toBe(1_000);
    expect(h.office.lastWriteStats!.syncs).toBeLessThanOrEqual(4);
    const back = await h.office.readTable('Tx');
    expect(back.rows).toHaveLength(19_000);
    expect(back.rows[0].slice(13)).toEqual(['done', 'ok']);
    expect(back.rows[100][0]).toBe(rows[1_100][0]);
  });

  test('manual calculation is respected: no recalculation is forced', async () => {
    const h = officeHarness({ calculationMode: 'Manual' }, { budgetBytes: 100_000 });
    await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows: transactions(2_000), target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
    expect(h.office.lastWriteStats!.chunks).toBeGreaterThan(1);
    expect(h.fake.syncs.flatMap((s) => s.recalcs)).toEqual([]);
  });

  test('the oldest Excel the manifest admits (ExcelApi 1.10) gets indent, outline and suspension, and no call it would reject', async () => {
    const h = officeHarness({}, { budgetBytes: 50_000, host: OLDEST });
    await h.office.writeGrid(
      { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' },
      { values: [['Section'], ...Array.from({ length: 2_000 }, (_, r) => [`row ${r}`, r])], indentLevels: [0, 1, 2], outlineLevels: [0, 1, 1] },
    );
    expect(h.fake.syncs.some((s) => s.screenSuspended)).toBe(true);
    expect(h.fake.syncs.some((s) => s.calcSuspended)).toBe(true);
    expect(h.inspect.cell('Sheet1', 'A3').indent).toBe(2);
    expect(h.inspect.outlineLevel('Sheet1', 1)).toBe(1);
    expect(h.inspect.cell('Sheet1', 'A2001').value).toBe('row 1999');
    const rows = transactions(10);
    await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'D1' } });
    await h.office.deleteRowsByKey('Tx', 'Id', [rows[2][0] as string, rows[3][0] as string, rows[7][0] as string]);
    expect((await h.office.readTable('Tx')).rows.map((r) => r[0])).toEqual([0, 1, 4, 5, 6, 8, 9].map((i) => rows[i][0]));
    expect(unavailableOn(OLDEST, membersCalledOn(OLDEST), readDeclarations(HOST_FILES.Windows))).toEqual([]);
  });

  describe('deleting table rows (deleteRowsAt is ExcelApiOnline 1.1, the web only)', () => {
    for (const host of [WINDOWS, MAC, WEB, OLDEST]) {
      test(`on ${host.name}: runs of rows in one sync, bottom up, also in a filtered table (the filter is cleared)`, async () => {
        const h = officeHarness({}, { host });
        const rows = transactions(12);
        await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'B2' } });
        await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B20' }, { values: [['below the table']] });
        h.fake.filterTable('Tx');
        h.fake.resetLog();
        const gone = [1, 2, 3, 7, 11].map((i) => rows[i][0] as string);
        expect(await h.office.deleteRowsByKey('Tx', 'Id', gone)).toEqual({ count: 5, missing: [] });
        // The table and its keys (two reads), then every run in one request.
        expect(h.office.lastWriteStats).toMatchObject({ syncs: 3, retries: 0 });
        expect(h.fake.syncs).toHaveLength(3);
        expect(h.fake.findTable('Tx')!.filtered).toBe(false);
        expect((await h.office.readTable('Tx')).rows.map((r) => r[0])).toEqual([0, 4, 5, 6, 8, 9, 10].map((i) => rows[i][0]));
        expect(h.inspect.cell('Sheet1', 'B15').value).toBe('below the table');
        const calls = membersCalledOn(host);
        expect(calls.has('TableRowCollection.deleteRowsAt')).toBe(host === WEB);
        expect(calls.has('Range.delete')).toBe(host !== WEB);
      });
    }
  });

  describe('blocks found by a defined name (defect 2): members every host has', () => {
    for (const host of [WINDOWS, MAC, WEB, OLDEST]) {
      test(`on ${host.name}: the name is looked up, then set in the write's last request; locating is two syncs, one when it is gone`, async () => {
        const h = officeHarness({}, { host });
        const grid = { values: Array.from({ length: 30 }, (_, r) => [`Line ${r}`, r]) };
        h.fake.resetLog();
        await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grid, { name: 'FinBlock_a' });
        expect(h.fake.syncs).toHaveLength(2);
        h.fake.resetLog();
        // A new sheet learns the sheet names and the name in the same request.
        await h.office.writeGrid({ kind: 'newSheet', name: 'P&L' }, grid, { name: 'FinBlock_b' });
        expect(h.fake.syncs).toHaveLength(2);
        h.inspect.insertRows('Sheet1', 1, 5);
        expect(await h.office.locateBlock('FinBlock_a')).toEqual({ state: 'found', sheet: 'Sheet1', address: 'Sheet1!B7:C36', rowCount: 30, columnCount: 2 });
        expect(h.office.lastWriteStats).toMatchObject({ operation: 'locateBlock', syncs: 2 });
        // Rewritten in place: the name is pointed at the new extent in the last request, not deleted, still hidden.
        h.fake.resetLog();
        const name = h.fake.findName('FinBlock_a');
        await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B7' }, { values: [['shorter', 1]] }, { replace: { address: 'Sheet1!B7:C36' }, name: 'FinBlock_a' });
        expect(h.fake.syncs).toHaveLength(2);
        expect(h.fake.findName('FinBlock_a')).toBe(name);
        expect(h.inspect.names()).toEqual([
          { name: 'FinBlock_a', visible: false, address: 'Sheet1!B7:C7' },
          { name: 'FinBlock_b', visible: false, address: "'P&L'!A1:B30" },
        ]);
        h.inspect.deleteRows('Sheet1', 7, 1);
        expect(await h.office.locateBlock('FinBlock_a')).toEqual({ state: 'broken' });
        expect(h.office.lastWriteStats).toMatchObject({ syncs: 1 });
        await h.office.deleteName('FinBlock_a');
        expect(h.office.lastWriteStats).toMatchObject({ operation: 'deleteName', syncs: 2 });
        expect(await h.office.locateBlock('FinBlock_a')).toEqual({ state: 'missing' });
        await h.office.deleteName('FinBlock_a');
        expect(h.office.lastWriteStats).toMatchObject({ syncs: 1 });
        const named = [...membersCalledOn(host)].filter((m) => m.startsWith('Named'));
        expect(named).toEqual(expect.arrayContaining(['NamedItemCollection.getItemOrNullObject', 'NamedItemCollection.add', 'NamedItem.visible', 'NamedItem.type', 'NamedItem.getRangeOrNullObject', 'NamedItem.delete']));
        expect(unavailableOn(OLDEST, named, readDeclarations(HOST_FILES.Windows))).toEqual([]);
      });
    }

    test('a rewrite Excel stops part way leaves the name on the old extent, so Refresh finds the block again', async () => {
      const h = officeHarness({}, { budgetBytes: 5_000 });
      const grid = (label: string, rows: number) => ({ values: Array.from({ length: rows }, (_, r) => [`${label} ${r}`, r]) });
      const first = await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grid('old', 40), { name: 'FinBlock_a' });
      h.fake.plantFault({ request: 3, code: 'GeneralException', afterActions: 8 });
      await expect(h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grid('new', 60), { replace: { address: first.address }, name: 'FinBlock_a' })).rejects.toThrow(/part way/);
      expect(await h.office.locateBlock('FinBlock_a')).toMatchObject({ state: 'found', address: 'Sheet1!B2:C41' });
    });
  });

  describe('writes while the user edits a cell, and writes Excel stops part way (defect 6)', () => {
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

    test('every request waits for a cell edit to end, so a chunked write is not cut by one', async () => {
      const h = officeHarness({}, { budgetBytes: 20_000 });
      h.fake.startCellEdit();
      let done = false;
      const write = h.office.createTable({ name: 'Tx', columns: COLUMNS, rows: transactions(300), target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } }).then(() => (done = true));
      await tick();
      expect(done).toBe(false);
      expect(h.fake.tables).toHaveLength(0);
      h.fake.endCellEdit();
      await write;
      expect(h.office.lastWriteStats!.chunks).toBeGreaterThan(1);
      expect(h.fake.syncs.every((s) => s.delayForCellEdit && !s.error)).toBe(true);
      expect((await h.office.readTable('Tx')).rows).toHaveLength(300);
      expect(h.fake.syncs.every((s) => s.delayForCellEdit)).toBe(true);
    });

    test('where the host cannot wait (one without DelayForCellEdit ignores delayForCellEdit) the write fails whole', async () => {
      const h = officeHarness({}, { host: OLDEST });
      h.fake.startCellEdit();
      const error = await gatewayError(h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['x', 1]] }));
      expect(error.hostCode).toBe('InvalidOperationInCellEditMode');
      expect(h.inspect.cell('Sheet1', 'A1').value).toBe('');
    });

    test('a new table Excel stops part way is removed, on a sheet of the user’s or on its own new sheet', async () => {
      const h = officeHarness({}, { budgetBytes: 20_000 });
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'Q1' }, { values: [['mine']] });
      h.fake.plantFault({ request: 3, code: 'GeneralException', afterActions: 12 });
      const error = await gatewayError(h.office.createTable({ name: 'Tx', columns: COLUMNS, rows: transactions(300), target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } }));
      expect(error.message).toMatch(/^Excel stopped creating the table Tx at Sheet1!A1:O301 part way; it was removed\. \(Excel: /);
      expect(h.fake.tables).toHaveLength(0);
      expect(h.fake.sheet('Sheet1').used(false)).toEqual({ row: 0, col: 16, rows: 1, cols: 1 });

      h.fake.plantFault({ request: 4, code: 'GeneralException', afterActions: 5 });
      const onNew = await gatewayError(h.office.createTable({ name: 'Tx', columns: COLUMNS, rows: transactions(300), target: { kind: 'newSheet', name: 'Transactions' } }));
      expect(onNew.message).toMatch(/it was removed/);
      expect(h.inspect.sheetNames()).toEqual(['Sheet1']);
    });

    test('a block rewritten in place that Excel stops is cleared, and the error says to rewrite it with Refresh', async () => {
      const h = officeHarness({}, { budgetBytes: 5_000 });
      const grid = (label: string) => ({ values: Array.from({ length: 40 }, (_, r) => [`${label} ${r}`, r]), outlineLevels: Array.from({ length: 40 }, (_, r) => (r % 5 ? 1 : 0)) });
      const first = await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grid('old'));
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A50' }, { values: [['below, mine']] });
      h.fake.plantFault({ request: 2, code: 'GeneralException', afterActions: 8 });
      const error = await gatewayError(h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grid('new'), { replace: { address: first.address, outlineDepth: 1 } }));
      expect(error.message).toMatch(/^Excel stopped the refresh of Sheet1!B2:C41 part way and the block was cleared: rewrite it with Refresh\. \(Excel: /);
      expect(h.fake.sheet('Sheet1').used(false)).toEqual({ row: 49, col: 0, rows: 1, cols: 1 });
    });

    test('appendRows that Excel stops says how many rows are in, and the table holds exactly those', async () => {
      const h = officeHarness({}, { budgetBytes: 20_000 });
      const rows = transactions(300);
      await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows: rows.slice(0, 10), target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      h.fake.plantFault({ request: 3, code: 'GeneralException', afterActions: 30 });
      const error = await gatewayError(h.office.appendRows('Tx', rows.slice(10)));
      expect(error.partial).toMatchObject({ total: 290 });
      const written = error.partial!.written;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(290);
      expect(error.message).toBe(`Excel stopped adding rows to Tx after ${written} of 290: those are in the table, the others are not; add them again with Refresh. (Excel: (planted) GeneralException. If another workbook or Excel window was in front, or several sheets are selected, come back to this workbook, select one sheet and try again.)`);
      expect((await h.office.readTable('Tx')).rows).toEqual(rows.slice(0, 10 + written).map((r) => r.map((v) => v ?? '')));
    });

    test('updateRowsByKey that Excel stops names the updates that are in', async () => {
      const h = officeHarness({}, { budgetBytes: 3_000 });
      const rows = transactions(40);
      await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      const updates: RowUpdate[] = rows.map((r, i) => ({ key: r[0] as string, values: i % 2 ? { 'Push status': 'done' } : ({ Message: 'ok' } as Record<string, WriteValue>) }));
      h.fake.plantFault({ request: 4, code: 'GeneralException', afterActions: 2 });
      const error = await gatewayError(h.office.updateRowsByKey('Tx', 'Id', updates));
      const keys = error.partial!.keys!;
      expect(error.partial).toMatchObject({ total: 40, written: keys.length });
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.length).toBeLessThan(40);
      expect(error.message).toMatch(new RegExp(`^Excel stopped updating Tx after ${keys.length} of 40 rows were written: write the others again`));
      const back = new Map((await h.office.readTable('Tx')).rows.map((r) => [r[0], r]));
      for (const u of updates.filter((x) => keys.includes(x.key))) {
        expect(back.get(u.key)!.slice(13)).toEqual('Message' in u.values ? ['', 'ok'] : ['done', '']);
      }
    });
  });

  describe('text from the API that starts like a formula (= + - @) stays text (defect 9)', () => {
    const HOSTILE = HOSTILE_TEXT.filter((t) => /^[=+\-@]/.test(t));

    /** Every way text reaches a cell: a block, a new table, appended rows, updated rows, a validation list. */
    async function writeEverywhere(h: ReturnType<typeof officeHarness>): Promise<string[]> {
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: HOSTILE.map((t) => [t, 1]) });
      const rows = transactions(HOSTILE.length).map((r, i) => Object.assign([...r], { 5: HOSTILE[i] }));
      await h.office.createTable({ name: 'Tx', columns: COLUMNS, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'D1' } });
      await h.office.appendRows('Tx', [Object.assign([...transactions(1)[0]], { 0: 'new', 5: HOSTILE[0], 8: HOSTILE[1] })]);
      await h.office.updateRowsByKey('Tx', 'Id', [{ key: rows[0][0] as string, values: { Department: HOSTILE[2], Message: HOSTILE[3] } }]);
      await h.office.setListValidation('Tx', 'Department', HOSTILE);
      const cells = [...HOSTILE.map((_, i) => `A${i + 1}`), ...HOSTILE.map((_, i) => `I${i + 2}`), `I${HOSTILE.length + 2}`, `L${HOSTILE.length + 2}`, 'L2', 'R2'];
      const back = cells.map((a1) => h.inspect.cell('Sheet1', a1));
      expect(back.map((c) => c.formula)).toEqual(cells.map(() => undefined));
      expect(back.map((c) => c.value)).toEqual([...HOSTILE, ...HOSTILE, HOSTILE[0], HOSTILE[1], HOSTILE[2], HOSTILE[3]]);
      const lists = h.fake.sheets.find((x) => x.name === 'FinLists')!;
      expect(HOSTILE.map((_, i) => lists.get(1 + i, 0))).toEqual(HOSTILE.map((t) => expect.objectContaining({ value: t, formula: undefined })));
      return cells;
    }

    for (const host of [MAC, WEB]) {
      test(`on ${host.name} (ExcelApi 1.16, a client with valuesAsJson): typed String values, text even where '@' would not hold`, async () => {
        await writeEverywhere(officeHarness({ textFormatHolds: false }, { host }));
        expect(membersCalledOn(host).has('Range.valuesAsJson')).toBe(true);
      });
    }

    for (const host of [WINDOWS, OLDEST]) {
      test(`on ${host.name} (no valuesAsJson in the client or the host): cells formatted '@' before the text arrives`, async () => {
        const h = officeHarness({}, { host });
        const cells = await writeEverywhere(h);
        expect(cells.map((a1) => h.inspect.cell('Sheet1', a1).numberFormat)).toEqual(cells.map(() => '@'));
        expect(membersCalledOn(host).has('Range.valuesAsJson')).toBe(false);
      });
    }
  });

  test('settings and bindings live in the workbook as JSON text under our own keys', async () => {
    const h = officeHarness();
    await h.office.writeSetting('scale', 1000);
    await h.office.saveBinding({ id: 'b1', kind: 'statement', parameters: {}, company: 'c', refreshedAt: '2026-01-01T00:00:00Z', address: 'A!A1' });
    expect([...h.fake.settings.keys()]).toEqual(['fin.setting.scale', 'fin.binding.b1']);
    expect(typeof h.fake.settings.get('fin.binding.b1')).toBe('string');
    h.fake.settings.set('fin.binding.broken', '{not json');
    expect((await h.office.listBindings()).map((b) => b.id)).toEqual(['b1']);
  });

  describe('charts through the client library', () => {
    const spec: ChartSpec = {
      kind: 'line',
      title: 'Revenue and net income',
      categories: 'Sheet1!B1:D1',
      series: [
        { name: 'Revenue', values: 'Sheet1!B2:D2' },
        { name: 'Net income', values: 'Sheet1!B3:D3' },
      ],
    };
    const grid = { values: [[null, 'Jan', 'Feb', 'Mar'], ['Revenue', 10, 20, 30], ['Net income', 1, 2, 3], ['Other', 5, 6, 7]] };

    test('a chart is one sync: made from the first series, named, titled, placed over its cells, the others added', async () => {
      const h = officeHarness();
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, grid);
      h.fake.resetLog();
      await h.office.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, spec, 'FinChart_1');
      expect(h.fake.syncCount).toBe(1);
      const [chart] = h.fake.sheet('Sheet1').charts;
      expect(chart).toMatchObject({ name: 'FinChart_1', type: 'LineMarkers', title: 'Revenue and net income', legend: { position: 'Bottom', visible: true } });
      expect(chart.over).toEqual({ row: 1, col: 5, rows: 15, cols: 8 });
    });

    test("an update points the same chart and series elsewhere (the user's styling of them stays), in three syncs", async () => {
      const h = officeHarness();
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, grid);
      await h.office.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, spec, 'FinChart_1');
      const [chart] = h.fake.sheet('Sheet1').charts;
      const first = chart.series[0] as typeof chart.series[0] & { color?: string };
      first.color = 'orange'; // the user restyled it in Excel
      h.fake.resetLog();
      expect(await h.office.updateChart('Sheet1', 'FinChart_1', { ...spec, series: [{ name: 'Other', values: 'Sheet1!B4:D4' }] })).toBe('updated');
      expect(h.fake.syncCount).toBe(3);
      expect(h.fake.sheet('Sheet1').charts).toEqual([chart]);
      expect(chart.series).toEqual([first]);
      expect(first).toMatchObject({ name: 'Other', color: 'orange' });
      h.fake.resetLog();
      expect(await h.office.updateChart('Sheet1', 'Gone', spec)).toBe('missing');
      expect(h.fake.syncCount).toBe(1);
    });

    test('a chart Excel refuses half way is taken out: never half a chart', async () => {
      const h = officeHarness();
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, grid);
      h.fake.plantFault({ request: 1, code: 'InvalidArgument', afterActions: 12 });
      expect((await gatewayError(h.office.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, spec, 'FinChart_1'))).code).toBe('InvalidInput');
      expect(h.fake.sheet('Sheet1').charts).toEqual([]);
    });
  });

  test('protection goes on without a password, letting the user filter and widen columns; its state is read first', async () => {
    const h = officeHarness();
    await h.office.writeGrid({ kind: 'newSheet', name: 'Push log', activate: false }, { values: [['Entry']] });
    h.fake.resetLog();
    await h.office.protectSheet('Push log');
    expect(h.fake.syncCount).toBe(2);
    expect(h.fake.sheet('Push log').protection).toEqual({ protected: true, options: { allowAutoFilter: true, allowFormatColumns: true } });
    h.fake.resetLog();
    await h.office.protectSheet('Push log');
    expect(h.fake.syncCount).toBe(1);
    const refused = await gatewayError(h.office.writeGrid({ kind: 'anchor', sheet: 'Push log', cell: 'A2' }, { values: [['x']] }));
    expect(refused).toMatchObject({ code: 'Protected', hostCode: 'AccessDenied' });
    expect(refused.message).toMatch(/unprotect it \(Review > Unprotect Sheet\)/);
  });

  test('the API key goes to add-in storage, never into the workbook', async () => {
    const h = officeHarness();
    const storage = new Map<string, string>();
    const secrets = new OfficeRuntimeSecretStore({
      getItem: async (k) => storage.get(k) ?? null,
      setItem: async (k, v) => void storage.set(k, v),
      removeItem: async (k) => void storage.delete(k),
    });
    await secrets.set('apiKey', 'sk_live_secret');
    expect(await secrets.get('apiKey')).toBe('sk_live_secret');
    expect(h.fake.settings.size).toBe(0);
    expect(h.fake.syncCount).toBe(0);
    await secrets.remove('apiKey');
    expect(await secrets.get('apiKey')).toBeUndefined();
  });
});

async function gatewayError(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a GatewayError');
}
