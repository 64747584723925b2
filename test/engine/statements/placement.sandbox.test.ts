// Statement blocks are found by the defined name Excel moves with their cells, not by the address they were
// written at (issue 12, defect 2). A user inserts rows above a block, renames its sheet, deletes rows inside
// it or its whole sheet, types below it: Refresh rewrites exactly the block, where it is now, or says what
// happened and leaves every cell as it is. Nothing the user typed outside a block is ever cleared.
import { parseQualified, qualify } from '../../../src/engine/ports/address';
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { isRefusal, type Refusal } from '../../../src/engine/refusal';
import { createStatementsEngine, type StatementSpec, type StatementsEngine } from '../../../src/engine/statements';
import { STAMP_ROW } from '../../../src/engine/render/statementGrid';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const company = () => sb.companies['growth-admin'];

function march(): StatementSpec {
  const year = Number(sb.running.ctx.clock.today().slice(0, 4)) - 1;
  return { statement: 'income_statement', period: 'custom', start: `${year}-03-01`, end: `${year}-03-31`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };
}

async function setup(): Promise<{ gateway: MemoryGateway; statements: StatementsEngine }> {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  return { gateway, statements: createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' }) };
}

/** The block's cells without its stamp row (the refresh time), for comparing figures. */
async function figures(gateway: MemoryGateway, address: string) {
  return (await gateway.readRange(address)).values.filter((_, r) => r !== STAMP_ROW);
}

/** The block at `address` moved down by `rows`. */
function movedDown(address: string, rows: number): string {
  const { sheet, box } = parseQualified(address);
  return qualify(sheet, { ...box, row: box.row + rows });
}

function refusalOf(error: unknown): Refusal {
  if (!isRefusal(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

test('rows inserted above: Refresh all rewrites the block where it is now and the cells the user typed stay', async () => {
  const { gateway, statements } = await setup();
  gateway.typeValue('Sheet1', 'A1', 'Board pack, draft 2');
  gateway.select('Sheet1', 'B3');
  const { written, binding } = await statements.insert(march(), 'selection');
  expect(binding.name).toMatch(/^FinBlock_/);
  const before = await figures(gateway, written.address);
  const rows = written.rowCount;

  gateway.insertSheetRows('Sheet1', 2, 5);
  // The user's own work where the block used to begin, and a figure of the block typed over.
  for (let r = 3; r < 8; r++) gateway.typeValue('Sheet1', `B${r}`, `mine ${r}`);
  gateway.typeValue('Sheet1', 'C6', 'mine too');
  gateway.typeValue('Sheet1', `C${8 + rows - 1}`, 12345);

  const outcome = await statements.refreshAll(await statements.plan(), {});
  expect(outcome.failed).toEqual([]);
  const [after] = outcome.refreshed;
  expect(after.address).toBe(movedDown(written.address, 5));
  expect(await figures(gateway, after.address)).toEqual(before);
  expect(gateway.cell('Sheet1', 'A1').value).toBe('Board pack, draft 2');
  for (let r = 3; r < 8; r++) expect(gateway.cell('Sheet1', `B${r}`).value).toBe(`mine ${r}`);
  expect(gateway.cell('Sheet1', 'C6').value).toBe('mine too');
  expect(await gateway.locateBlock(binding.name!)).toMatchObject({ state: 'found', address: after.address });
});

test('the sheet renamed: Refresh this block finds it on the renamed sheet', async () => {
  const { gateway, statements } = await setup();
  const { written, binding } = await statements.insert(march(), 'newSheet');
  const before = await figures(gateway, written.address);
  gateway.renameSheet(written.sheet, 'Board P&L');

  const plan = await statements.plan();
  expect(plan.blocks[0].placement).toEqual({ kind: 'named', address: `'Board P&L'!${written.address.split('!')[1]}` });
  const after = await statements.refreshBlock(plan.blocks[0]);
  expect(after.address).toBe(`'Board P&L'!${written.address.split('!')[1]}`);
  expect(after.name).toBe(binding.name);
  expect(await figures(gateway, after.address)).toEqual(before);
});

test('rows deleted inside: the block is reported damaged, nothing is written or spent, and Forget removes its name', async () => {
  const { gateway, statements } = await setup();
  gateway.select('Sheet1', 'B3');
  const { written, binding } = await statements.insert(march(), 'selection');
  const below = written.rowCount + 4;
  gateway.typeValue('Sheet1', `B${below}`, 'my reconciliation');
  gateway.deleteSheetRows('Sheet1', 12, 2);
  const sheet = 'Sheet1!A1:E200';
  const cells = await gateway.readRange(sheet);
  const usage = await sb.usage(company());

  const plan = await statements.plan();
  const [block] = plan.blocks;
  expect(block.placement.kind).toBe('damaged');
  expect(plan.blockCalls).toBe(0);
  const outcome = await statements.refreshAll(plan, {});
  expect(outcome.refreshed).toEqual([]);
  const refusal = refusalOf(outcome.failed[0].error);
  expect(refusal.code).toBe('block_damaged');
  expect(refusal.message).toMatch(/rows were deleted inside it/);
  expect(refusal.message).toMatch(/Its cells are left as they are\. Forget it, then insert it again\.$/);
  expect(refusal.message).toContain(written.address);
  // Refresh this block, asked anyway, is refused the same way.
  await expect(statements.refreshBlock(block)).rejects.toMatchObject({ code: 'block_damaged' });

  expect(await gateway.readRange(sheet)).toEqual(cells);
  expect(gateway.cell('Sheet1', `B${below - 2}`).value).toBe('my reconciliation');
  expect(await sb.usage(company())).toBe(usage);
  // Damage is the sheet's state, not a failed refresh: the binding and its stamp are as they were.
  expect(await gateway.listBindings()).toEqual([binding]);

  await statements.forget(binding);
  expect(await gateway.listBindings()).toEqual([]);
  expect(gateway.definedNames()).toEqual([]);
  expect(await gateway.readRange(sheet)).toEqual(cells);
});

test('its sheet deleted, or its name gone: damaged, said so; the other block still refreshes', async () => {
  const { gateway, statements } = await setup();
  const gone = await statements.insert(march(), 'newSheet');
  gateway.select('Sheet1', 'B3');
  const kept = await statements.insert(march(), 'selection');
  const unnamed = await statements.insert(march(), 'newSheet');
  const unnamedCells = await gateway.readRange(unnamed.written.address);
  gateway.deleteSheet(gone.written.sheet);
  await gateway.deleteName(unnamed.binding.name!);

  const outcome = await statements.refreshAll(await statements.plan(), {});
  expect(outcome.refreshed.map((b) => b.id)).toEqual([kept.binding.id]);
  const why = Object.fromEntries(outcome.failed.map((f) => [f.binding.id, refusalOf(f.error)]));
  expect(why[gone.binding.id].message).toMatch(/its cells were deleted \(all its rows, or its sheet\)/);
  expect(why[unnamed.binding.id].message).toMatch(/its name .* is no longer in the workbook/);
  expect(await gateway.readRange(unnamed.written.address)).toEqual(unnamedCells);
  await expect(statements.refreshBlock((await statements.plan()).blocks.find((b) => b.binding.id === gone.binding.id)!)).rejects.toMatchObject({ code: 'block_damaged' });
});

test('a block that grows into what the user typed below it is refused, the cells named; with room, it grows and its name follows', async () => {
  const { gateway, statements } = await setup();
  gateway.select('Sheet1', 'B3');
  const { written, binding } = await statements.insert(march(), 'selection');
  expect(written.rowCount).toBeGreaterThan(20);
  // The block as an earlier refresh wrote it, when the statement had fewer lines.
  const short = (await gateway.readRange(written.address)).values.slice(0, 10).map((row) => row.map((v) => (typeof v === 'boolean' ? null : v)));
  const shortWritten = await gateway.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B3' }, { values: short }, { replace: { address: written.address }, name: binding.name });
  await gateway.saveBinding({ ...binding, address: shortWritten.address });
  gateway.typeValue('Sheet1', 'C20', 'my forecast');
  gateway.insertSheetRows('Sheet1', 1, 2);
  const shortFigures = (await gateway.readRange('Sheet1!B5:C14')).values;
  expect(shortWritten.address).toBe('Sheet1!B3:C12');

  const outcome = await statements.refreshAll(await statements.plan(), {});
  const refusal = refusalOf(outcome.failed[0].error);
  expect(refusal.code).toBe('block_no_room');
  expect(refusal.title).toBe('No room for the refreshed block');
  expect(refusal.message).toContain('Sheet1!C22 holds your own content');
  expect(gateway.cell('Sheet1', 'C22').value).toBe('my forecast');
  // Its figures stay; the stamp, where the block is now, says the refresh failed.
  const now = (await gateway.readRange('Sheet1!B5:C14')).values;
  expect(now.filter((_, r) => r !== STAMP_ROW)).toEqual(shortFigures.filter((_, r) => r !== STAMP_ROW));
  expect(String(now[STAMP_ROW][0])).toMatch(/^Figures of .*: refresh failed at /);
  expect((outcome.failed[0].binding.parameters as { lastFailure?: { message: string } }).lastFailure?.message).toContain('your own content');

  gateway.typeValue('Sheet1', 'C22', '');
  const again = await statements.refreshAll(await statements.plan(), {});
  expect(again.failed).toEqual([]);
  const grown = again.refreshed[0];
  expect(grown.address).toBe(movedDown(written.address, 2));
  expect(await gateway.locateBlock(binding.name!)).toMatchObject({ state: 'found', address: grown.address });
});

test('a binding from an earlier version (no name) refreshes at its recorded address, with a note, and is named by it', async () => {
  const { gateway, statements } = await setup();
  gateway.select('Sheet1', 'D4');
  const { written, binding } = await statements.insert(march(), 'selection');
  await gateway.deleteName(binding.name!);
  const { name: _name, ...legacy } = binding;
  await gateway.saveBinding(legacy as BindingRecord);

  const plan = await statements.plan();
  expect(plan.blocks[0].placement).toEqual({ kind: 'recorded', address: written.address });
  const outcome = await statements.refreshAll(plan, {});
  expect(outcome.failed).toEqual([]);
  const [after] = outcome.refreshed;
  expect(after.address).toBe(written.address);
  expect(after.name).toMatch(/^FinBlock_/);
  gateway.insertSheetRows('Sheet1', 1, 1);
  expect((await statements.plan()).blocks[0].placement).toEqual({ kind: 'named', address: movedDown(written.address, 1) });
});
