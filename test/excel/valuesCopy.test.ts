// Share as values through Microsoft's client library against the fake Excel: Worksheet.copy, Paste Values
// from the original (Range.copyFrom "Values"), the copy's drop-down lists cleared and its sheet-scoped
// names deleted, the note in rows inserted above; in three syncs, with members every current host has.
import { officeHarness } from './harnesses';
import { MAC, membersCalledOn, OLDEST, WEB, WINDOWS } from './officeJs';
import { HOST_FILES, readDeclarations, unavailableOn } from './requirementSets';

const ACCOUNTING = '#,##0.00;(#,##0.00)';

/** A sheet as Excel shows it once calculated: a named block, a FIN cell, a FIN array spilled, a table with a list. */
async function model(h: ReturnType<typeof officeHarness>) {
  await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['Revenue', 1234.5], ['Rent', -300]], columnFormats: [null, ACCOUNTING] }, { name: 'FinBlock_pl' });
  await h.office.writeFormula('Sheet1!D1', '=FIN.TOTAL("Revenue","2026-10")');
  const sheet = h.fake.sheet('Sheet1');
  // What Excel holds once the custom functions have answered: the result, and a spill's cells (values, no formula).
  sheet.ensure(0, 3).value = 98765.43;
  sheet.ensure(3, 3).formula = '=FIN.LINES("income_statement","2026-10")';
  sheet.ensure(3, 3).value = 'Revenue';
  sheet.ensure(3, 4).value = 98765.43;
  sheet.ensure(4, 3).value = 'Rent';
  sheet.ensure(4, 4).value = -1200;
  await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A7' }, { values: [['=FIN.TOTAL("typed as text")']] });
  await h.office.createTable({
    name: 'Transactions',
    columns: [
      { name: 'Id', kind: 'text' },
      { name: 'Department', kind: 'text' },
    ],
    rows: [['t1', 'Sales'], ['t2', 'Ops']],
    target: { kind: 'anchor', sheet: 'Sheet1', cell: 'G1' },
  });
  await h.office.setListValidation('Transactions', 'Department', ['Sales', 'Ops']);
}

describe('copySheetAsValues on the Office path', () => {
  for (const host of [WINDOWS, MAC, WEB, OLDEST]) {
    test(`on ${host.name}: the copy holds values and formats only, the original is untouched, three syncs`, async () => {
      const h = officeHarness({}, { host });
      await model(h);
      expect(await h.office.listSheets()).toEqual([
        { name: 'Sheet1', visible: true },
        { name: 'FinLists', visible: false },
      ]);
      const read = await h.office.readSheet('Sheet1');
      expect(read.formulas[0][3]).toBe('=FIN.TOTAL("Revenue","2026-10")');
      expect(read.formulas[3][3]).toBe('=FIN.LINES("income_statement","2026-10")');
      // A spilled value and text typed as text are not formulas.
      expect(read.formulas[3][4]).toBeNull();
      expect(read.formulas[6][0]).toBeNull();
      h.fake.resetLog();

      const copy = await h.office.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: ['Values as of 2026-11-20 14:00 UTC from Acme'] });

      expect(copy).toEqual({ sheet: 'Sheet1 (values)', address: "'Sheet1 (values)'!A1:H9" });
      expect(h.office.lastWriteStats).toMatchObject({ syncs: 3 });
      expect(h.inspect.sheetNames()).toEqual(['Sheet1', 'Sheet1 (values)', 'FinLists']);
      const cell = (a1: string) => h.inspect.cell('Sheet1 (values)', a1);
      expect(cell('A1')).toMatchObject({ value: 'Values as of 2026-11-20 14:00 UTC from Acme', numberFormat: '@' });
      expect(cell('B3')).toMatchObject({ value: 1234.5, numberFormat: ACCOUNTING });
      expect(cell('D3')).toMatchObject({ value: 98765.43, formula: undefined });
      expect([cell('D6').value, cell('E6').value, cell('D7').value, cell('E7').value]).toEqual(['Revenue', 98765.43, 'Rent', -1200]);
      expect(cell('A9')).toMatchObject({ value: '=FIN.TOTAL("typed as text")', formula: undefined, numberFormat: '@' });
      expect((await h.office.readSheet('Sheet1 (values)')).formulas.flat().filter((f) => f !== null)).toEqual([]);
      // No drop-down list and no name of its own on the copy; the originals keep theirs.
      expect(h.inspect.validationSource('Sheet1 (values)', 'H4')).toBeUndefined();
      expect(h.inspect.validationSource('Sheet1', 'H2')).toBeDefined();
      expect(h.fake.sheet('Sheet1 (values)').names).toEqual([]);
      expect(h.inspect.names().map((n) => [n.name, n.address])).toEqual([['FinBlock_pl', 'Sheet1!A1:B2']]);
      expect(h.inspect.cell('Sheet1', 'D1').formula).toBe('=FIN.TOTAL("Revenue","2026-10")');
      expect(h.fake.tables.map((t) => [t.name, t.sheet.name])).toEqual([
        ['Transactions', 'Sheet1'],
        ['Transactions2', 'Sheet1 (values)'],
      ]);
      expect(h.fake.sheet('Sheet1 (values)').used(true)).toEqual({ row: 0, col: 0, rows: 9, cols: 8 });

      const called = [...membersCalledOn(host)];
      expect(called).toEqual(expect.arrayContaining(['Worksheet.copy', 'Range.copyFrom', 'DataValidation.clear', 'Worksheet.names', 'Range.insert']));
      expect(unavailableOn(host, called, readDeclarations(HOST_FILES.Windows))).toEqual([]);
    });
  }

  for (const host of [MAC, WEB]) {
    test(`on ${host.name}: the note is written through the one text writer, so a line that starts like a formula stays text where '@' would not hold`, async () => {
      const h = officeHarness({ textFormatHolds: false }, { host });
      await model(h);
      const note = ['=HYPERLINK("https://example.invalid","Values as of")', '+Westbrook Software'];
      const copy = await h.office.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note });
      expect([h.inspect.cell(copy.sheet, 'A1'), h.inspect.cell(copy.sheet, 'A2')]).toEqual(note.map((value) => expect.objectContaining({ value, formula: undefined })));
      expect((await h.office.readSheet(copy.sheet)).formulas.flat().filter((f) => f !== null)).toEqual([]);
      expect(membersCalledOn(host).has('Range.valuesAsJson')).toBe(true);
    });
  }

  test('isCalculating reads Application.calculationState, on every host the manifest admits', async () => {
    for (const host of [WINDOWS, OLDEST]) {
      const h = officeHarness({}, { host });
      expect(await h.office.isCalculating()).toBe(false);
      h.fake.calculationState = 'Calculating';
      expect(await h.office.isCalculating()).toBe(true);
    }
  });

  for (const host of [WINDOWS, MAC, WEB]) {
    test(`on ${host.name}: the workbook's names survive a copy (the web lists them in Worksheet.names too, office-js#1011); only the copy's own go`, async () => {
      const h = officeHarness({}, { host });
      await h.office.writeGrid({ kind: 'newSheet', name: 'Reporting period', activate: false }, { values: [['Reporting period', '2026-10']] });
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Reporting period', cell: 'B1' }, { values: [['2026-10']] }, { name: 'FIN_PERIOD', nameVisible: true });
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['Revenue', 1234.5]] }, { name: 'FinBlock_pl' });
      await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A5' }, { values: [['Rent', -300]] }, { name: 'FinBlock_bs' });
      await h.office.writeFormula('Sheet1!D1', '=FIN.TOTAL("Revenue",FIN_PERIOD)');
      const before = h.inspect.names();
      expect(before.map((n) => n.name)).toEqual(['FIN_PERIOD', 'FinBlock_pl', 'FinBlock_bs']);

      const copy = await h.office.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: ['Values as of 2026-11-20'] });

      expect(h.inspect.names()).toEqual(before);
      expect(h.fake.sheet(copy.sheet).names).toEqual([]);
      expect(h.inspect.cell('Sheet1', 'D1').formula).toBe('=FIN.TOTAL("Revenue",FIN_PERIOD)');
      expect(await h.office.locateBlock('FinBlock_pl')).toMatchObject({ state: 'found', address: 'Sheet1!A1:B1' });
    });
  }

  test('the user gone to another workbook while the copy is made (sheet.names: InvalidSelection, office-js#6365): the copy goes and the error says to come back', async () => {
    const h = officeHarness({}, { host: MAC });
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['Revenue', 1234.5]] }, { name: 'FinBlock_pl' });
    h.fake.elsewhere = true;
    const failed = h.office.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: ['Values as of 2026-11-20'] });
    await expect(failed).rejects.toMatchObject({ code: 'Inactive', message: expect.stringMatching(/^Share as values stopped before the copy was finished, and the copy was removed\. .*[Cc]ome back to this workbook/) });
    expect(h.inspect.sheetNames()).toEqual(['Sheet1']);
    expect(h.inspect.names().map((n) => [n.name, n.address])).toEqual([['FinBlock_pl', 'Sheet1!A1:B1']]);
  });

  test('Excel gives the copy its own twin of a workbook name on the sheet; the copy deletes it', async () => {
    const h = officeHarness();
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [['x', 1]] }, { name: 'FinBlock_a' });
    const source = h.fake.sheet('Sheet1');
    const twin = h.fake.copySheet(source, 'After', source);
    expect(twin.names.map((n) => [n.name, n.target?.sheet.name])).toEqual([['FinBlock_a', 'Sheet1 (2)']]);
    await h.office.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: [] });
    expect(h.fake.sheet('Sheet1 (values)').names).toEqual([]);
    expect(h.inspect.cell('Sheet1 (values)', 'B2').value).toBe('x');
  });
});
