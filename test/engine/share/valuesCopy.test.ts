// Share as values on the memory workbook: the survey finds FIN formulas, spills, blocks and tables and what
// is stale, busy or in error; the copy holds only values (number formats kept, no formula, no drop-down
// list, no name, no binding) with the note above, and the user's sheet is left exactly as it was.
import { callsFin, copyNameFor, shareAsValues, shareWarnings, suggestedSheets, surveyWorkbook, valuesNote, type ShareFacts } from '../../../src/engine/share';
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { appendLogEntry } from '../../../src/engine/pushLog/log';

const ACCOUNTING = '#,##0.00;(#,##0.00);"-"';
const NOW = Date.parse('2026-11-20T15:00:00Z');
const REFRESHED = '2026-11-20T14:30:00.000Z';

/** A model: a statement block and FIN cells (one spilling) on "P&L", a transactions table on "Txns", notes on "Notes". */
async function model(): Promise<MemoryGateway> {
  const g = new MemoryGateway({ sheets: ['P&L', 'Txns', 'Notes'] });
  const block = await g.writeGrid(
    { kind: 'anchor', sheet: 'P&L', cell: 'A1' },
    { values: [['Income statement', null], ['Revenue', 1234.5], ['Rent', -300]], columnFormats: [null, ACCOUNTING], boldRows: [0] },
    { name: 'FinBlock_pl' },
  );
  const statement: BindingRecord = { id: 'pl', kind: 'statement', parameters: {}, company: 'c1', refreshedAt: REFRESHED, address: block.address, name: 'FinBlock_pl' };
  await g.saveBinding(statement);
  await g.writeGrid({ kind: 'anchor', sheet: 'P&L', cell: 'D2' }, { values: [[null]], cellFormats: [[ACCOUNTING]] });
  await g.writeFormula('P&L!D2', '=FIN.TOTAL("Revenue","2026-10")');
  g.showResult('P&L', 'D2', 98765.43);
  await g.writeFormula('P&L!D4', '=fin.lines("income_statement","2026-10")');
  g.showResult('P&L', 'D4', [['Revenue', 98765.43], ['Rent', -1200]]);
  await g.writeFormula('P&L!D7', '=D2*2');
  g.showResult('P&L', 'D7', 197530.86);
  // Text that only looks like a formula stays text.
  await g.writeGrid({ kind: 'anchor', sheet: 'P&L', cell: 'A8' }, { values: [['=FIN.TOTAL("typed as text")']] });
  await g.createTable({
    name: 'Transactions',
    columns: [
      { name: 'id', kind: 'text' },
      { name: 'amount', kind: 'number', numberFormat: ACCOUNTING },
      { name: 'department', kind: 'text' },
    ],
    rows: [['t1', 10.5, 'Sales'], ['t2', -3, 'Ops']],
    target: { kind: 'anchor', sheet: 'Txns', cell: 'A1' },
  });
  await g.setListValidation('Transactions', 'department', ['Sales', 'Ops']);
  await g.saveBinding({ id: 'tx', kind: 'transactions', parameters: {}, company: 'c1', refreshedAt: REFRESHED, address: 'Txns!A1:C3', table: 'Transactions' });
  await g.writeGrid({ kind: 'anchor', sheet: 'Notes', cell: 'A1' }, { values: [['Prepared by the controller']] });
  return g;
}

const facts: ShareFacts = { companyNames: { c1: 'Acme Growth Co', c2: 'Beta Labs' }, formulasAsOf: Date.parse('2026-11-20T14:00:00Z'), now: NOW, timeZone: 'UTC' };

/** What the runtime records of the FIN cells here: the default company's. */
const finOfAcme = (cells: readonly unknown[]) => ({ companyIds: cells.length ? ['c1'] : [], unknown: 0 });

test('callsFin finds FIN calls anywhere in a formula, never inside text', () => {
  expect(callsFin('=FIN.TOTAL("Revenue","2026-10")')).toBe(true);
  expect(callsFin('=ROUND(fin.total(A1,B1),0)/1000')).toBe(true);
  expect(callsFin('=SUM(A1:A4)')).toBe(false);
  expect(callsFin('="see FIN.TOTAL(""x"")"')).toBe(false);
  expect(callsFin('=MYFIN.TOTAL(1)')).toBe(false);
});

test('the survey counts FIN formulas and blocks per sheet and suggests the sheets the add-in feeds', async () => {
  const g = await model();
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  // The hidden sheet of drop-down lists is not offered.
  expect(surveys.map((s) => s.sheet)).toEqual(['P&L', 'Txns', 'Notes']);
  const pl = surveys[0];
  expect(pl).toMatchObject({ finCells: 2, formulaCells: 3, busy: [], errors: [] });
  expect(pl.blocks.map((b) => [b.binding.id, b.stale])).toEqual([['pl', null]]);
  expect(surveys[1].blocks.map((b) => b.binding.id)).toEqual(['tx']);
  expect(suggestedSheets(surveys)).toEqual(['P&L', 'Txns']);
  expect(shareWarnings(surveys, facts)).toEqual([]);
  expect(valuesNote(surveys[0], surveys.slice(0, 1), facts)).toEqual(['Values as of 2026-11-20 14:00 UTC from Acme Growth Co']);
});

test('the values copy: values and number formats, no formula, no drop-down list, no name, no binding; the original untouched', async () => {
  const g = await model();
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  const chosen = surveys.filter((s) => suggestedSheets(surveys).includes(s.sheet));
  const bindingsBefore = await g.listBindings();
  const namesBefore = g.definedNames();
  const progress: [number, number][] = [];

  const result = await shareAsValues(g, chosen, facts, (done, total) => progress.push([done, total]));

  expect(result.copies.map((c) => [c.source, c.sheet])).toEqual([
    ['P&L', 'P&L (values)'],
    ['Txns', 'Txns (values)'],
  ]);
  expect(progress).toEqual([[0, 2], [1, 2], [2, 2]]);
  // Each copy sits right after its sheet, and the first is shown.
  expect(g.sheetNames()).toEqual(['P&L', 'P&L (values)', 'Txns', 'Txns (values)', 'Notes', 'FinLists']);
  expect(g.activeSheetName()).toBe('P&L (values)');
  expect(result.message).toMatch(/^Made 2 values copies: "P&L \(values\)", "Txns \(values\)"\. Your sheets are unchanged\. To send them on their own: right-click/);

  // The note on top (row 1), a blank row, then the sheet as it was, two rows lower.
  const copy = (a1: string) => g.cell('P&L (values)', a1);
  expect(copy('A1')).toMatchObject({ value: 'Values as of 2026-11-20 14:00 UTC from Acme Growth Co', numberFormat: '@' });
  expect(copy('A2').value).toBe('');
  expect(copy('A3')).toMatchObject({ value: 'Income statement', bold: true });
  expect(copy('B4')).toMatchObject({ value: 1234.5, numberFormat: ACCOUNTING });
  expect(copy('D4')).toMatchObject({ value: 98765.43, numberFormat: ACCOUNTING });
  // The spilled array: every cell a value.
  expect([copy('D6').value, copy('E6').value, copy('D7').value, copy('E7').value]).toEqual(['Revenue', 98765.43, 'Rent', -1200]);
  expect(copy('D9').value).toBe(197530.86);
  expect(copy('A10')).toMatchObject({ value: '=FIN.TOTAL("typed as text")', numberFormat: '@' });
  const copied = await g.readSheet('P&L (values)');
  expect(copied.formulas.flat().filter((f) => f !== null)).toEqual([]);

  // The table came along as a table of values, without the drop-down list on the department column.
  const [table] = g.sheetTables('Txns (values)');
  expect(table.name).not.toBe('Transactions');
  expect((await g.readTable(table.name)).rows).toEqual([['t1', 10.5, 'Sales'], ['t2', -3, 'Ops']]);
  expect(g.validationSource('Txns (values)', 'C4')).toBeUndefined();
  expect(g.validationSource('Txns', 'C2')).toBeDefined();

  // Nothing of the add-in points at the copies: the bindings and names are the originals', where they were.
  expect(await g.listBindings()).toEqual(bindingsBefore);
  expect(g.definedNames()).toEqual(namesBefore);
  expect(await g.locateBlock('FinBlock_pl')).toMatchObject({ state: 'found', sheet: 'P&L' });
  // The working model keeps its formulas.
  expect(g.cell('P&L', 'D2').formula).toBe('=FIN.TOTAL("Revenue","2026-10")');
  expect(g.cell('P&L', 'D7').formula).toBe('=D2*2');
});

test('warnings: cells still computing, errors, stale and failed blocks, FIN answers changed since fetched', async () => {
  const g = await model();
  await g.writeFormula('P&L!F2', '=FIN.TOTAL("Rent","2026-10")');
  g.showResult('P&L', 'F2', '#BUSY!');
  await g.writeFormula('P&L!F3', '=FIN.TOTAL("Nope","2026-10")');
  g.showResult('P&L', 'F3', '#N/A');
  const old = '2026-11-17T15:00:00.000Z';
  await g.saveBinding({ ...(await g.listBindings()).find((b) => b.id === 'tx')!, refreshedAt: old });
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  const chosen = surveys.slice(0, 2);
  expect(shareWarnings(chosen, { ...facts, formulasChanged: 2 })).toEqual([
    'P&L: 1 cell still computing (#BUSY! in F2). The copy would keep #BUSY!: wait until every cell shows a figure.',
    'P&L: 1 formula showing an error (F3). The copy keeps the error as it is.',
    'Txns: a transactions table may not be current: it was refreshed 3 days ago.',
    '2 FIN answers changed in the books since fetched: refresh first for current FIN figures.',
  ]);
  // FIN formulas at work (the add-in counts them): a cell calculating again shows its previous figure. Said first.
  expect(shareWarnings(chosen, { ...facts, finCalculating: true, calculating: true })[0]).toBe(
    'FIN formulas are still calculating: a formula calculating again shows its previous figure until its answer arrives, and the copy would keep it. Wait until they finish, then choose Look again.',
  );
  // Excel not saying it is done may never end (a chart on TODAY keeps it Pending: office-js#3319): said so,
  // not "wait until it finishes".
  expect(shareWarnings(chosen, { ...facts, calculating: true })[0]).toBe(
    'Excel has not said it finished calculating: a formula calculating again shows its previous figure until it is done. Choose Look again in a moment; Excel may never say it while the workbook holds charts, so if this stays, look at the totals before you copy.',
  );
  expect(shareWarnings(surveys.slice(2), { ...facts, calculating: true, finCalculating: true })).toEqual([]);
  // The note gives the oldest figures among the chosen sheets.
  expect(valuesNote(chosen[0], chosen, facts)).toEqual(['Values as of 2026-11-17 15:00 UTC from Acme Growth Co']);
});

test('a copy asked for while FIN formulas are still calculating is refused before anything is copied: it would keep their previous figures', async () => {
  const g = await model();
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  const sheets = g.sheetNames();
  const refused = shareAsValues(g, surveys.slice(0, 1), facts, undefined, { finSettled: async () => false });
  await expect(refused).rejects.toMatchObject({ name: 'Refusal', code: 'share_calculating', title: 'FIN formulas are still calculating' });
  expect(g.sheetNames()).toEqual(sheets);
  // Settled: copied. A sheet without FIN cells does not wait for them.
  await shareAsValues(g, surveys.slice(0, 1), facts, undefined, { finSettled: async () => true });
  await shareAsValues(g, surveys.slice(2), facts, undefined, { finSettled: async () => false });
  expect(g.sheetNames().filter((n) => !sheets.includes(n))).toEqual(['P&L (values)', 'Notes (values)']);
});

test("a copy's note rows make Excel calculate the FIN cells again: the next sheet waits for them, and is not copied while they calculate", async () => {
  const g = await model();
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  // Two sheets holding FIN cells; FIN formulas settled before the first copy, calculating again after it.
  const [pl] = surveys;
  const second = { ...pl, sheet: 'Notes', finCells: 1 };
  const answers = [true, false];
  const asked: boolean[] = [];
  const finSettled = async () => {
    const settled = answers[asked.length] ?? true;
    asked.push(settled);
    return settled;
  };
  const refused = shareAsValues(g, [pl, second], facts, undefined, { finSettled });
  await expect(refused).rejects.toMatchObject({ name: 'Refusal', code: 'share_calculating', message: expect.stringMatching(/^Made 1 values copy \("P&L \(values\)"\), then stopped/) });
  expect(asked).toEqual([true, false]);
  expect(g.sheetNames()).not.toContain('Notes (values)');
});

test('copy names fit Excel\'s 31 characters, and a second copy gets its own name', async () => {
  expect(copyNameFor('Balance sheet by quarter 2026')).toBe('Balance sheet by quart (values)');
  expect(copyNameFor('Balance sheet by quarter 2026').length).toBe(31);
  const g = await model();
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
  await shareAsValues(g, surveys.slice(0, 1), facts);
  const again = await shareAsValues(g, surveys.slice(0, 1), facts);
  expect(again.copies[0].sheet).toBe('P&L (values) (2)');
});

test('the note names every company of its sheet: its blocks\', a consolidated block\'s members, its FIN cells\'; a FIN cell not calculated here is said', async () => {
  const g = await model();
  const block = (await g.listBindings()).find((b) => b.id === 'pl')!;
  // Another company's statement block on the sheet, and a consolidated block of both on a sheet of its own.
  await g.saveBinding({ ...block, id: 'pl2', company: 'c2', name: undefined, address: "'P&L'!J1:K3" });
  await g.writeGrid({ kind: 'anchor', sheet: 'Notes', cell: 'D1' }, { values: [['Group', 1]] });
  await g.saveBinding({ id: 'grp', kind: 'consolidated', parameters: { members: [{ name: 'Acme', companyId: 'c1' }, { name: 'Beta', companyId: 'c2' }] }, company: 'c1', refreshedAt: REFRESHED, address: 'Notes!D1:E1' });
  const surveys = await surveyWorkbook(g, { now: NOW, finCompanies: () => ({ companyIds: ['c2', 'c3'], unknown: 0 }) });
  const [pl, , notes] = surveys;
  expect(valuesNote(pl, [pl], facts)).toEqual(['Values as of 2026-11-20 14:00 UTC from Acme Growth Co, Beta Labs and c3']);
  expect(valuesNote(notes, [notes], facts)).toEqual(['Values as of 2026-11-20 14:30 UTC from Acme Growth Co and Beta Labs']);

  // FIN cells the runtime has no record of (not calculated since the add-in started): said, in the note and before.
  const [unknown] = await surveyWorkbook(g, { now: NOW, finCompanies: (cells) => ({ companyIds: [], unknown: cells.length }) });
  expect(valuesNote(unknown, [unknown], facts)).toEqual(['Values as of 2026-11-20 14:00 UTC from Acme Growth Co, Beta Labs and 2 FIN formulas of a company not recorded']);
  expect(shareWarnings([unknown], facts)).toContain(
    'P&L: 2 FIN formulas not calculated since the add-in started, so the note cannot name their companies: refresh this sheet first (Refresh tab) for a note that names every company.',
  );
  // Each copy gets its own sheet's note.
  const result = await shareAsValues(g, [surveys[0], surveys[2]], facts);
  expect(result.copies.map((c) => [c.sheet, g.cell(c.sheet, 'A1').value])).toEqual([
    ['P&L (values)', 'Values as of 2026-11-20 14:00 UTC from Acme Growth Co, Beta Labs and c3'],
    ['Notes (values)', 'Values as of 2026-11-20 14:00 UTC from Acme Growth Co and Beta Labs'],
  ]);
});

describe('the push log (issue 28, item 4)', () => {
  async function withLog(): Promise<MemoryGateway> {
    const g = await model();
    await appendLogEntry(g, {
      action: 'Push',
      at: NOW,
      connection: 'Acme books',
      company: { id: 'c1', name: 'Acme Growth Co' },
      keyFingerprint: 'fp1',
      table: 'Transactions',
      changes: [{ transaction: 't1', field: 'Department', before: 'Ops', requested: 'Sales', after: 'Sales', sentAs: 'PATCH', outcome: 'Applied', reason: '' }],
    });
    return g;
  }

  test('the survey knows the log without reading it, and never suggests it', async () => {
    const g = await withLog();
    const sheets = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
    expect(sheets.find((s) => s.sheet === 'Push log')).toMatchObject({ pushLog: true, hasContent: true, finCells: 0, blocks: [] });
    expect(suggestedSheets(sheets)).toEqual(['P&L', 'Txns']);
  });

  test('left out of the copies unless the user ticked it; then copied, values only, and protected like the log', async () => {
    const g = await withLog();
    const sheets = await surveyWorkbook(g, { now: NOW, finCompanies: finOfAcme });
    const all = sheets.filter((s) => ['Notes', 'Push log'].includes(s.sheet));
    const without = await shareAsValues(g, all, facts);
    expect(without.copies.map((c) => c.source)).toEqual(['Notes']);
    await expect(shareAsValues(g, all.filter((s) => s.pushLog), facts)).rejects.toThrow('Choose at least one sheet');
    const withIt = await shareAsValues(g, all.filter((s) => s.pushLog), facts, undefined, { includePushLog: true });
    expect(withIt.copies.map((c) => c.source)).toEqual(['Push log']);
    const copy = withIt.copies[0].sheet;
    expect(await g.isSheetProtected(copy)).toBe(true);
    const read = await g.readSheet(copy);
    expect(read.values.flat()).toEqual(expect.arrayContaining(['Entry', 't1', 'Applied', 'Acme books']));
    expect(read.formulas.flat().every((f) => f === null)).toBe(true);
  });
});
