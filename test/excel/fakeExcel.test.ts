/**
 * The host behind Microsoft's client library must hold Excel's rules, or the gateway tests prove nothing.
 * Driven through the real Excel.run (officeJs.ts), so the client-side behaviour is the library's own.
 */
import { DELAY_FOR_CELL_EDIT_FLAG } from './excelHost';
import { FakeExcel } from './fakeExcel';
import { OLDEST, realExcelRun, WEB, WINDOWS } from './officeJs';

type Ctx = Excel.RequestContext;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
}

function runner(fake: FakeExcel, host = WINDOWS) {
  const run = realExcelRun(fake, host);
  return <T>(batch: (ctx: Ctx) => Promise<T>, options: Excel.RunOptions = {}) => run(options, batch);
}

describe('fake Excel behind the real office-js client', () => {
  test('writes wait for sync; reads need load + sync; syncs are counted', async () => {
    const fake = new FakeExcel();
    await runner(fake)(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1').values = [[42]];
      const back = sheet.getRange('A1').load('values');
      expect(fake.cell('Sheet1', 'A1').value).toBe('');
      expect(() => back.values).toThrow(expect.objectContaining({ code: 'PropertyNotLoaded' }));
      await ctx.sync();
      expect(back.values).toEqual([[42]]);
      expect(() => back.numberFormat).toThrow(expect.objectContaining({ code: 'PropertyNotLoaded' }));
    });
    expect(fake.syncCount).toBe(1);
  });

  test('a load queued before a write in the same batch sees the old value', async () => {
    const fake = new FakeExcel();
    await runner(fake)(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      const before = sheet.getRange('A1').load('values');
      sheet.getRange('A1').values = [['x']];
      const after = sheet.getRange('A1').load('values');
      await ctx.sync();
      expect(before.values).toEqual([['']]);
      expect(after.values).toEqual([['x']]);
    });
  });

  test('arrays must be rectangular and match the range; a single value fills the range', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    const ragged = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2').values = [[1, 2], [3]];
      await ctx.sync();
    });
    expect(await codeOf(ragged)).toBe('InvalidArgument');
    const wrongShape = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2').numberFormat = [['0', '0', '0']];
      await ctx.sync();
    });
    expect(await codeOf(wrongShape)).toBe('InvalidArgument');
    await run(async (ctx) => {
      (ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2') as unknown as { numberFormat: string }).numberFormat = '0.00';
      await ctx.sync();
    });
    expect(fake.cell('Sheet1', 'B2').numberFormat).toBe('0.00');
  });

  test('a write of more than 1,500 cells arrives in slices the library cuts (getRow, getBoundingRect)', async () => {
    const fake = new FakeExcel();
    await runner(fake)(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2000').values = Array.from({ length: 2000 }, (_, i) => [i, `r${i}`]);
      await ctx.sync();
    });
    expect(fake.cell('Sheet1', 'A1').value).toBe(0);
    expect(fake.cell('Sheet1', 'B2000').value).toBe('r1999');
  });

  test('strings are parsed like typed input unless the cell is already text; typed String values stay text', async () => {
    const fake = new FakeExcel();
    await runner(fake, WEB)(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1:D1').values = [['=HYPERLINK("x")', '00123', '-ACME', 'TRUE']];
      // Wrong order: the value lands first and is parsed before the format arrives.
      sheet.getRange('A2').values = [['=1+1']];
      sheet.getRange('A2').numberFormat = [['@']];
      // Right order.
      sheet.getRange('A3').numberFormat = [['@']];
      sheet.getRange('A3').values = [['=1+1']];
      // ExcelApi 1.16 (a client that has it): the value says it is a string.
      (sheet.getRange('A4') as unknown as { valuesAsJson: unknown }).valuesAsJson = [[{ type: 'String', basicValue: '=1+1' }]];
      await ctx.sync();
    });
    expect(fake.cell('Sheet1', 'A1').formula).toBe('=HYPERLINK("x")');
    expect(fake.cell('Sheet1', 'B1').value).toBe(123);
    expect(fake.cell('Sheet1', 'C1').formula).toBe('=-ACME');
    expect(fake.cell('Sheet1', 'D1').value).toBe(true);
    expect(fake.cell('Sheet1', 'A2').formula).toBe('=1+1');
    expect(fake.cell('Sheet1', 'A3')).toMatchObject({ value: '=1+1', formula: undefined });
    expect(fake.cell('Sheet1', 'A4')).toMatchObject({ value: '=1+1', formula: undefined, numberFormat: 'General' });
  });

  test('a request over the limit is rejected whole; a large response too', async () => {
    const fake = new FakeExcel({ requestLimitBytes: 2000, responseLimitBytes: 1000 });
    const run = runner(fake);
    const big = run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1').values = [['small']];
      sheet.getRange('A2:A101').values = Array.from({ length: 100 }, () => ['0123456789']);
      await ctx.sync();
    });
    expect(await codeOf(big)).toBe('RequestPayloadSizeLimitExceeded');
    expect(fake.cell('Sheet1', 'A1').value).toBe('');

    await run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      for (let i = 0; i < 5; i++) {
        sheet.getRange(`A${i * 20 + 1}:A${i * 20 + 20}`).values = Array.from({ length: 20 }, () => ['0123456789']);
        await ctx.sync();
      }
    });
    const read = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:A100').load('values');
      await ctx.sync();
    });
    expect(await codeOf(read)).toBe('ResponsePayloadSizeLimitExceeded');
  });

  test('null objects, missing items and objects of a finished run behave as in Office', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    let leaked: Excel.Range | undefined;
    await run(async (ctx) => {
      const missing = ctx.workbook.worksheets.getItemOrNullObject('Nope');
      expect(() => missing.isNullObject).toThrow();
      await ctx.sync();
      expect(missing.isNullObject).toBe(true);
      leaked = ctx.workbook.worksheets.getItem('Sheet1').getRange('A1');
      leaked.values = [[1]];
      await ctx.sync();
    });
    expect(fake.cleanups).toBe(1);
    expect(() => {
      leaked!.values = [[2]];
    }).toThrow(expect.objectContaining({ code: 'InvalidObjectPath' }));
    const notFound = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Nope').getRange('A1').values = [[1]];
      await ctx.sync();
    });
    expect(await codeOf(notFound)).toBe('ItemNotFound');
    // Microsoft documents nothing for a method called on a null object: the fake refuses it.
    const onNull = run(async (ctx) => {
      ctx.workbook.settings.getItemOrNullObject('never-set').delete();
      await ctx.sync();
    });
    expect(await codeOf(onNull)).toBe('GeneralException');
  });

  test('a member the host lacks throws ApiNotFound at the call, before anything is sent', async () => {
    const fake = new FakeExcel();
    const missing = runner(fake, OLDEST)(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:A2').moveTo('B1');
      await ctx.sync();
    });
    expect(await codeOf(missing)).toBe('ApiNotFound');
    const webOnly = runner(fake, WINDOWS)(async (ctx) => {
      ctx.workbook.tables.getItem('T').rows.deleteRowsAt(0, 1);
      await ctx.sync();
    });
    expect(await codeOf(webOnly)).toBe('ApiNotFound');
  });

  test('while the user edits a cell, a request waits if it asked to and fails otherwise', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    fake.startCellEdit();
    const impatient = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1').values = [[1]];
      await ctx.sync();
    });
    expect(await codeOf(impatient)).toBe('InvalidOperationInCellEditMode');
    let done = false;
    const patient = run(
      async (ctx) => {
        ctx.workbook.worksheets.getItem('Sheet1').getRange('A1').values = [[2]];
        await ctx.sync();
      },
      { delayForCellEdit: true },
    ).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    expect(fake.cell('Sheet1', 'A1').value).toBe('');
    fake.endCellEdit();
    await patient;
    expect(fake.cell('Sheet1', 'A1').value).toBe(2);
    expect(fake.syncs.at(-1)!.delayForCellEdit).toBe(true);
    expect(DELAY_FOR_CELL_EDIT_FLAG).toBe(64);
  });

  test('a multi-area selection: getSelectedRange refuses it, getSelectedRanges reads it', async () => {
    const fake = new FakeExcel();
    fake.select('Sheet1', 'A1:B2,D4');
    const run = runner(fake);
    expect(await codeOf(run(async (ctx) => void (await ctx.workbook.getSelectedRange().load('address').context.sync())))).toBe('InvalidSelection');
    await run(async (ctx) => {
      const areas = ctx.workbook.getSelectedRanges().load('areaCount,address');
      const active = ctx.workbook.getActiveCell().load('address');
      await ctx.sync();
      expect(areas.areaCount).toBe(2);
      expect(areas.address).toBe('Sheet1!A1:B2,Sheet1!D4');
      expect(active.address).toBe('Sheet1!A1');
    });
  });

  test('inline validation lists stop at 255 characters; range sources must be one column', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    const long = run(async (ctx) => {
      const source = Array.from({ length: 60 }, (_, i) => `Dept ${i}`).join(',');
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:A5').dataValidation.rule = { list: { inCellDropDown: true, source } };
      await ctx.sync();
    });
    expect(await codeOf(long)).toBe('InvalidArgument');
    const square = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1').dataValidation.rule = { list: { inCellDropDown: true, source: '=Sheet1!$C$1:$D$4' } };
      await ctx.sync();
    });
    expect(await codeOf(square)).toBe('InvalidArgument');
  });

  test('tables: header-only ranges get a body row, names are validated, rows.add shifts cells below', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    await run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1:B1').values = [['Id', 'Amount']];
      sheet.getRange('A5').values = [['below']];
      const t = sheet.tables.add('A1:B1', true);
      t.name = 'Tx';
      await ctx.sync();
      const body = t.getDataBodyRange().load('address, rowCount');
      await ctx.sync();
      expect(body.address).toBe('Sheet1!A2:B2');
      t.rows.add(undefined, [['a', 1], ['b', 2]]);
      await ctx.sync();
    });
    expect(fake.findTable('Tx')!.box).toEqual({ row: 0, col: 0, rows: 4, cols: 2 });
    expect(fake.cell('Sheet1', 'A7').value).toBe('below');
    const badName = run(async (ctx) => {
      ctx.workbook.tables.getItem('Tx').name = 'A1';
      await ctx.sync();
    });
    expect(await codeOf(badName)).toBe('InvalidArgument');
  });

  test('tables: rows deleted as a range go with the table; a filtered table refuses deleteRowsAt', async () => {
    const fake = new FakeExcel();
    const run = runner(fake, WEB);
    await run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1:A6').values = [['Id'], ['a'], ['b'], ['c'], ['d'], ['e']];
      sheet.getRange('A9').values = [['below']];
      sheet.tables.add('A1:A6', true).name = 'T';
      await ctx.sync();
      sheet.getRange('A3:A4').delete('Up');
      await ctx.sync();
    });
    expect(fake.findTable('T')!.box.rows).toBe(4);
    expect(['A2', 'A3', 'A4', 'A7'].map((a) => fake.cell('Sheet1', a).value)).toEqual(['a', 'd', 'e', 'below']);
    const straddle = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A4:A6').delete('Up');
      await ctx.sync();
    });
    expect(await codeOf(straddle)).toBe('InvalidOperation');
    fake.filterTable('T');
    const filtered = run(async (ctx) => {
      ctx.workbook.tables.getItem('T').rows.deleteRowsAt(0, 1);
      await ctx.sync();
    });
    expect(await codeOf(filtered)).toBe('InsertDeleteConflict');
  });

  test('defined names: added once, visible unless hidden, moved by the rows a user inserts or deletes, #REF! when their cells go', async () => {
    const fake = new FakeExcel({ sheets: ['Sheet1', 'Data'] });
    const run = runner(fake);
    await run(async (ctx) => {
      const added = ctx.workbook.names.add('Block', ctx.workbook.worksheets.getItem('Sheet1').getRange('B2:D5'));
      ctx.workbook.names.add('Other', '=Data!$A$1:$A$3');
      await ctx.sync();
      const item = ctx.workbook.names.getItem('block').load('name, type, value, formula, visible, scope');
      await ctx.sync();
      expect([item.name, item.type, item.value, item.formula, item.visible, item.scope]).toEqual(['Block', 'Range', 'Sheet1!$B$2:$D$5', '=Sheet1!$B$2:$D$5', true, 'Workbook']);
      added.visible = false;
      await ctx.sync();
    });
    expect(fake.findName('Block')!.visible).toBe(false);
    const twice = run(async (ctx) => {
      ctx.workbook.names.add('BLOCK', ctx.workbook.worksheets.getItem('Sheet1').getRange('A1'));
      await ctx.sync();
    });
    expect(await codeOf(twice)).toBe('ItemAlreadyExists');

    fake.insertRows('Sheet1', 0, 2); // above: moves
    fake.insertRows('Sheet1', 5, 1); // inside: grows
    fake.insertRows('Sheet1', 9, 3); // below: stays
    fake.renameSheet('Sheet1', 'P&L');
    expect(fake.nameFormula(fake.findName('Block')!)).toBe("='P&L'!$B$4:$D$8");
    fake.deleteRows('P&L', 1, 3); // two rows above it and its first row
    expect(fake.nameFormula(fake.findName('Block')!)).toBe("='P&L'!$B$2:$D$5");
    fake.deleteRows('P&L', 0, 10);
    fake.deleteSheet(fake.sheet('Data'));
    expect(fake.nameFormula(fake.findName('Block')!)).toBe("='P&L'!#REF!");
    expect(fake.nameFormula(fake.findName('Other')!)).toBe('=#REF!$A$1:$A$3');
    await run(async (ctx) => {
      const item = ctx.workbook.names.getItem('Block').load('type, value');
      const range = ctx.workbook.names.getItem('Other').getRangeOrNullObject();
      await ctx.sync();
      expect([item.type, item.value, range.isNullObject]).toEqual(['Error', '#REF!', true]);
    });
    const getRange = run(async (ctx) => {
      ctx.workbook.names.getItem('Block').getRange().load('address');
      await ctx.sync();
    });
    expect(await codeOf(getRange)).toBe('InvalidOperation');
  });
  test('outline: ungroup takes a level off every row it covers, whoever grouped it; where none is grouped it fails', async () => {
    const fake = new FakeExcel();
    const run = runner(fake);
    await run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1:A6').group('ByRows');
      sheet.getRange('A3:A4').group('ByRows');
      sheet.getRange('A2:A5').ungroup('ByRows');
      await ctx.sync();
    });
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => fake.sheet('Sheet1').outline.get(r) ?? 0)).toEqual([1, 0, 1, 1, 0, 1, 0]);
    const nothing = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A8:A9').ungroup('ByRows');
      await ctx.sync();
    });
    expect(await codeOf(nothing)).toBe('InvalidOperation');
  });

  test("names as Excel on the web and with another window in front answer them; a name's formula points it elsewhere", async () => {
    const web = new FakeExcel({ sheetNamesIncludeWorkbook: true });
    await runner(web, WEB)(async (ctx) => {
      ctx.workbook.names.add('FIN_PERIOD', ctx.workbook.worksheets.getItem('Sheet1').getRange('B1'));
      await ctx.sync();
      const listed = ctx.workbook.worksheets.getItem('Sheet1').names.load('items/name,items/scope');
      await ctx.sync();
      expect(listed.items.map((n) => [n.name, n.scope])).toEqual([['FIN_PERIOD', 'Workbook']]);
      ctx.workbook.names.getItem('FIN_PERIOD').formula = '=Sheet1!$C$2:$D$3';
      await ctx.sync();
    });
    expect(web.nameFormula(web.findName('FIN_PERIOD')!)).toBe('=Sheet1!$C$2:$D$3');

    web.elsewhere = true;
    const run = runner(web, WEB);
    await run(async (ctx) => {
      const item = ctx.workbook.names.getItem('FIN_PERIOD').load('type');
      const range = ctx.workbook.names.getItem('FIN_PERIOD').getRange().load('address');
      await ctx.sync();
      expect([item.type, range.address]).toEqual([null, 'Sheet1!C2:D3']);
    });
    const sheetNames = run(async (ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').names.load('items/name');
      await ctx.sync();
    });
    expect(await codeOf(sheetNames)).toBe('InvalidSelection');
  });
});
