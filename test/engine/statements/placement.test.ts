// placement.ts on its own: the block names it makes are names Excel takes, a reshaped block is told apart
// from a moved one, and a growing block checks exactly the cells it would newly cover.
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { isRefusal } from '../../../src/engine/refusal';
import { blockName, checkRoom, placeBlock } from '../../../src/engine/statements/placement';
import type { StatementSpec } from '../../../src/engine/statements';
import { checkDefinedName } from '../../../src/excel/hostRules';
import { MemoryGateway } from '../../../src/excel/memoryGateway';

const spec: StatementSpec = { statement: 'income_statement', period: 'custom', start: '2025-03-01', end: '2025-03-31', layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string } | null> {
  try {
    await p;
    return null;
  } catch (e) {
    if (!isRefusal(e)) throw e;
    return e;
  }
}

test('block names are legal Excel names, whatever the binding id holds', () => {
  for (const id of ['statement-lx3k2-1-ab12cd34', 'statement-lx3k2-2-0.5z', 'r1c1', 'a b-c/d']) {
    expect(() => checkDefinedName(blockName(id))).not.toThrow();
  }
  expect(blockName('statement-lx3k2-1-ab12cd34')).toBe('FinBlock_statement_lx3k2_1_ab12cd34');
});

test('placeBlock: moved is found, columns inserted inside is damaged, no name is the recorded address', async () => {
  const gateway = new MemoryGateway();
  const written = await gateway.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [['a', 1, 2], ['b', 3, 4]] }, { name: 'FinBlock_x' });
  const binding: BindingRecord = { id: 'x', kind: 'statement', parameters: {}, company: 'c', refreshedAt: '', address: written.address, name: 'FinBlock_x' };
  gateway.insertSheetRows('Sheet1', 1, 1);
  expect(await placeBlock(gateway, binding, spec)).toEqual({ kind: 'named', address: 'Sheet1!B3:D4' });
  expect(await placeBlock(gateway, { ...binding, name: undefined }, spec)).toEqual({ kind: 'recorded', address: 'Sheet1!B2:D3' });
  // A block recorded one column narrower than its name now spans: columns were inserted inside it.
  const placement = await placeBlock(gateway, { ...binding, address: 'Sheet1!B2:C3' }, spec);
  expect(placement.kind === 'damaged' && placement.refusal.message).toMatch(/: columns were inserted inside it \(it has 2 rows and 3 columns where it was written with 2 and 2\), now at Sheet1!B3:D4\./);
});

test('checkRoom looks only at the cells the grown block newly covers: below it, right of it, and the corner', async () => {
  const gateway = new MemoryGateway();
  gateway.typeValue('Sheet1', 'E2', 'right, outside the new block');
  gateway.typeValue('Sheet1', 'B9', 'below, outside the new block');
  const at = 'Sheet1!B2:C4';
  expect(await refusal(checkRoom(gateway, spec, at, { rows: 6, cols: 3 }))).toBeNull();
  expect(await refusal(checkRoom(gateway, spec, at, { rows: 2, cols: 2 }))).toBeNull();
  gateway.typeValue('Sheet1', 'D7', 'corner');
  const corner = await refusal(checkRoom(gateway, spec, at, { rows: 6, cols: 3 }));
  expect(corner?.code).toBe('block_no_room');
  expect(corner?.message).toMatch(/has grown to 6 rows and 3 columns \(from 3 and 2\), and Sheet1!D7 holds your own content where it would go\./);
  // Narrower but longer: below the column it gives up is not checked.
  expect(await refusal(checkRoom(gateway, spec, 'Sheet1!B2:D4', { rows: 6, cols: 2 }))).toBeNull();
  gateway.typeValue('Sheet1', 'D3', 'beside');
  expect((await refusal(checkRoom(gateway, spec, at, { rows: 2, cols: 3 })))?.message).toContain('Sheet1!D3 holds your own content');
});
