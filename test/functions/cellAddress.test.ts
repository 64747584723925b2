// A refresh of the selection or the sheet prices and recalculates FIN cells by what each read, and Excel
// gives a custom function its cell's address only when its metadata asks for it ("requiresAddress": true,
// the @requiresAddress JSDoc tag; CustomFunctions.Invocation.address, CustomFunctionsRuntime 1.1). Every
// function that reads the API must ask; the address forms Excel uses ("Sheet1!B2", "'P&L ''26'!B2") are read.
import '../../src/workbench/customFunctionsStub';
import { cellOfAddress, CellReads } from '../../src/engine/fin/cellReads';
import type { FinCall } from '../../src/engine/fin/finCall';
import { Evaluation } from '../../src/engine/fin/reads';
import type { ReadRequest } from '../../src/engine/reader/requestCache';

/** One evaluation of `call` reading `requests`, as the service's attempts note them. */
function evaluated(reads: CellReads, call: FinCall, ...requests: ReadRequest[]): void {
  const ev = new Evaluation({ cellReads: reads }, call);
  for (const req of requests) ev.noteRead(req);
}
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
  const note = (address: string, name: string, path: string) => evaluated(reads, { name, args: [path], address }, { path });
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
  evaluated(reads, { name: 'PNL', args: ['a'], address: 'Sheet1!A1' }, { path: '/mine' });
  evaluated(reads, { name: 'PNL', args: ['b', 'Westbrook'], address: 'Sheet1!A2', company: 'Westbrook' }, { path: '/theirs' });
  const cells = [0, 1].map((row) => ({ sheet: 'Sheet1', row, col: 0, calls: 1 }));
  const mine = reads.requestsOf(cells, (company) => company === undefined);
  expect(mine).toEqual({ requests: [{ path: '/mine' }], unknown: 0, elsewhere: 1 });
  expect(reads.requestsOf(cells, (company) => company === 'Westbrook').requests).toEqual([{ path: '/theirs' }]);
});

test("a cell's record is what its latest invocation read; a group's companies add to one invocation's", () => {
  const reads = new CellReads();
  const cell = [{ sheet: 'Sheet1', row: 0, col: 0, calls: 1 }];
  const paths = () => reads.requestsOf(cell).requests.map((r) => r.path).sort();
  const first: FinCall = { name: 'PNL', args: ['Revenue', '2026-07'], address: 'Sheet1!A1' };
  evaluated(reads, first, { path: '/july' }, { path: '/categories' });
  expect(paths()).toEqual(['/categories', '/july']);
  // Excel calls the function again (a new invocation, the same arguments): only what it read now is kept.
  evaluated(reads, { ...first }, { path: '/july' });
  expect(paths()).toEqual(['/july']);
  // A group's figure: each company's service evaluates the one invocation, and the cell read both.
  const grouped: FinCall = { name: 'PNL', args: ['Revenue', '2026-07', 'Group'], address: 'Sheet1!A1', company: 'Group' };
  evaluated(reads, grouped, { path: '/a' });
  evaluated(reads, grouped, { path: '/b' });
  expect(reads.requestsOf(cell, (company) => company === 'Group').requests.map((r) => r.path)).toEqual(['/a', '/b']);
  // Value preview is no evaluation of the cell: it notes nothing.
  const preview = new Evaluation({ cellReads: reads, preview: true }, { ...first, args: ['Rent', '2026-07'] });
  preview.noteRead({ path: '/preview' });
  expect(paths()).not.toContain('/preview');
});
