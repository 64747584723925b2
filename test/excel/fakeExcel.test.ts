/** The fake must hold Excel's rules, or the gateway tests prove nothing. */
import { FakeExcel, FakeOfficeError } from './fakeExcel';

type Ctx = Excel.RequestContext;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as FakeOfficeError).code;
  }
}

describe('fake Excel', () => {
  test('writes wait for sync; reads need load + sync; syncs are counted', async () => {
    const fake = new FakeExcel();
    await fake.run(async (ctx: Ctx) => {
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
    await fake.run(async (ctx: Ctx) => {
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
    const ragged = fake.run(async (ctx: Ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2').values = [[1, 2], [3]];
      await ctx.sync();
    });
    expect(await codeOf(ragged)).toBe('InvalidArgument');
    const wrongShape = fake.run(async (ctx: Ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2').numberFormat = [['0', '0', '0']];
      await ctx.sync();
    });
    expect(await codeOf(wrongShape)).toBe('InvalidArgument');
    await fake.run(async (ctx: Ctx) => {
      (ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:B2') as unknown as { numberFormat: string }).numberFormat = '0.00';
      await ctx.sync();
    });
    expect(fake.cell('Sheet1', 'B2').numberFormat).toBe('0.00');
  });

  test('strings are parsed like typed input unless the cell is already text', async () => {
    const fake = new FakeExcel();
    await fake.run(async (ctx: Ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1:D1').values = [['=HYPERLINK("x")', '00123', '-ACME', 'TRUE']];
      // Wrong order: the value lands first and is parsed before the format arrives.
      sheet.getRange('A2').values = [['=1+1']];
      sheet.getRange('A2').numberFormat = [['@']];
      // Right order.
      sheet.getRange('A3').numberFormat = [['@']];
      sheet.getRange('A3').values = [['=1+1']];
      await ctx.sync();
    });
    expect(fake.cell('Sheet1', 'A1').formula).toBe('=HYPERLINK("x")');
    expect(fake.cell('Sheet1', 'B1').value).toBe(123);
    expect(fake.cell('Sheet1', 'C1').formula).toBe('=-ACME');
    expect(fake.cell('Sheet1', 'D1').value).toBe(true);
    expect(fake.cell('Sheet1', 'A2').formula).toBe('=1+1');
    expect(fake.cell('Sheet1', 'A3')).toMatchObject({ value: '=1+1', formula: undefined });
  });

  test('a request over the limit is rejected whole; a large response too', async () => {
    const fake = new FakeExcel({ requestLimitBytes: 1000, responseLimitBytes: 1000 });
    const big = fake.run(async (ctx: Ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1').values = [['small']];
      sheet.getRange('A2:A101').values = Array.from({ length: 100 }, () => ['0123456789']);
      await ctx.sync();
    });
    expect(await codeOf(big)).toBe('RequestPayloadSizeLimitExceeded');
    expect(fake.cell('Sheet1', 'A1').value).toBe('');

    await fake.run(async (ctx: Ctx) => {
      const sheet = ctx.workbook.worksheets.getItem('Sheet1');
      for (let i = 0; i < 5; i++) {
        sheet.getRange(`A${i * 20 + 1}:A${i * 20 + 20}`).values = Array.from({ length: 20 }, () => ['0123456789']);
        await ctx.sync();
      }
    });
    const read = fake.run(async (ctx: Ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:A100').load('values');
      await ctx.sync();
    });
    expect(await codeOf(read)).toBe('ResponsePayloadSizeLimitExceeded');
  });

  test('null objects, missing items and dead proxies behave as in Office', async () => {
    const fake = new FakeExcel();
    let leaked: Excel.Worksheet | undefined;
    await fake.run(async (ctx: Ctx) => {
      const missing = ctx.workbook.worksheets.getItemOrNullObject('Nope');
      expect(() => missing.isNullObject).toThrow();
      await ctx.sync();
      expect(missing.isNullObject).toBe(true);
      leaked = ctx.workbook.worksheets.getItem('Sheet1');
    });
    expect(() => {
      leaked!.getRange('A1').values = [[1]];
    }).toThrow(expect.objectContaining({ code: 'InvalidRequestContext' }));
    const notFound = fake.run(async (ctx: Ctx) => {
      ctx.workbook.worksheets.getItem('Nope').getRange('A1').values = [[1]];
      await ctx.sync();
    });
    expect(await codeOf(notFound)).toBe('ItemNotFound');
  });

  test('inline validation lists stop at 255 characters; range sources must be one column', async () => {
    const fake = new FakeExcel();
    const long = fake.run(async (ctx: Ctx) => {
      const source = Array.from({ length: 60 }, (_, i) => `Dept ${i}`).join(',');
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1:A5').dataValidation.rule = { list: { inCellDropDown: true, source } };
      await ctx.sync();
    });
    expect(await codeOf(long)).toBe('InvalidArgument');
    const square = fake.run(async (ctx: Ctx) => {
      ctx.workbook.worksheets.getItem('Sheet1').getRange('A1').dataValidation.rule = { list: { inCellDropDown: true, source: '=Sheet1!$C$1:$D$4' } };
      await ctx.sync();
    });
    expect(await codeOf(square)).toBe('InvalidArgument');
  });

  test('tables: header-only ranges get a body row, names are validated, rows.add shifts cells below', async () => {
    const fake = new FakeExcel();
    await fake.run(async (ctx: Ctx) => {
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
    const badName = fake.run(async (ctx: Ctx) => {
      ctx.workbook.tables.getItem('Tx').name = 'A1';
      await ctx.sync();
    });
    expect(await codeOf(badName)).toBe('InvalidArgument');
  });
});
