// A refresh of the selection or the sheet prices and recalculates FIN cells by what each read, and Excel
// gives a custom function its cell's address only when its metadata asks for it ("requiresAddress": true,
// the @requiresAddress JSDoc tag; CustomFunctions.Invocation.address, CustomFunctionsRuntime 1.1). Every
// function that reads the API must ask; the address forms Excel uses ("Sheet1!B2", "'P&L ''26'!B2") are read.
import '../../src/workbench/customFunctionsStub';
import { cellOfAddress, CellReads } from '../../src/engine/fin/cellReads';
import { registerFinFunctions } from '../support/finFunctions';

test('every FIN function that reads the API asks Excel for its cell address', async () => {
  const { json } = await registerFinFunctions();
  const options = (id: string) => (json.functions.find((f) => f.id === id) as unknown as { options?: { requiresAddress?: boolean } }).options;
  const reading = json.functions.map((f) => f.id).filter((id) => !['VERSION', 'REFRESHED', 'PERIOD'].includes(id)); // these read no API
  expect(reading.length).toBeGreaterThanOrEqual(11);
  for (const id of reading) expect([id, options(id)?.requiresAddress]).toEqual([id, true]);
});

test('invocation addresses as Excel writes them', () => {
  expect(cellOfAddress('Sheet1!B2')).toEqual({ sheet: 'Sheet1', row: 1, col: 1 });
  // Quoted when the name needs it, with doubled quotes (OfficeDev/office-js-docs-pr#4050).
  expect(cellOfAddress("'P&L ''26'!C10")).toEqual({ sheet: "P&L '26", row: 9, col: 2 });
  expect(cellOfAddress('[Book1]Sheet1!A1')).toEqual({ sheet: 'Sheet1', row: 0, col: 0 });
  expect(cellOfAddress("'[Book 1]My Sheet'!A1")).toEqual({ sheet: 'My Sheet', row: 0, col: 0 });
  expect(cellOfAddress('not an address')).toBeNull();
});

test("a cell keeps only as many of its latest calls as its formula makes now", () => {
  const reads = new CellReads();
  const note = (address: string, name: string, path: string) => reads.context(address, { name, args: [path] }, {}).noteRead!({ path });
  note('Sheet1!A1', 'PNL', '/old');
  note('Sheet1!A1', 'PNL2', '/a');
  note('Sheet1!A1', 'PNL3', '/b');
  const cell = { sheet: 'sheet1', row: 0, col: 0 };
  expect(reads.requestsOf([{ ...cell, calls: 2 }]).requests.map((r) => r.path).sort()).toEqual(['/a', '/b']);
  expect(reads.requestsOf([{ ...cell, calls: 1 }]).requests.map((r) => r.path)).toEqual(['/b']);
  expect(reads.requestsOf([{ sheet: 'Sheet1', row: 5, col: 0, calls: 1 }])).toEqual({ requests: [], unknown: 1, elsewhere: 0 });
});

test("a call that names another company is counted apart, its requests not priced as this company's", () => {
  const reads = new CellReads();
  reads.context('Sheet1!A1', { name: 'PNL', args: ['a'] }, {}).noteRead!({ path: '/mine' });
  reads.context('Sheet1!A2', { name: 'PNL', args: ['b'] }, {}, 'Westbrook').noteRead!({ path: '/theirs' });
  const cells = [0, 1].map((row) => ({ sheet: 'Sheet1', row, col: 0, calls: 1 }));
  const mine = reads.requestsOf(cells, (company) => company === undefined);
  expect(mine).toEqual({ requests: [{ path: '/mine' }], unknown: 0, elsewhere: 1 });
  expect(reads.requestsOf(cells, (company) => company === 'Westbrook').requests).toEqual([{ path: '/theirs' }]);
});
