// Issue 36, item 8: the list of budgets lives in the workbook's settings, which a crafted file can fill with
// anything. Budget names are their own namespace: the add-in's names (FIN_PERIOD, a block's) are never budgets.
import { BUDGETS_SETTING, forgetBudget, keepBudget, listBudgets } from '../../../src/engine/budgets/kept';
import { blockName } from '../../../src/engine/statements/placement';
import { MemoryGateway } from '../../../src/excel/memoryGateway';

async function refusalOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

test("a crafted list naming FIN_PERIOD or a block's name: keeping does not repoint it, forgetting does not delete it", async () => {
  const gateway = new MemoryGateway();
  await gateway.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['2026-03']] }, { name: 'FIN_PERIOD', nameVisible: true });
  await gateway.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'D1' }, { values: [['Revenue', 5]] }, { name: blockName('b1') });
  await gateway.saveBinding({ id: 'b1', kind: 'statement', parameters: {}, company: 'c', refreshedAt: '2026-01-01T00:00:00Z', address: 'Sheet1!D1:E1' });
  await gateway.writeGrid({ kind: 'newSheet', name: 'Budget' }, { values: [['Category', '2026-01'], ['Rent', 100]] });
  await gateway.writeSetting(BUDGETS_SETTING, ['FIN_PERIOD', blockName('b1'), 'Budget_2026']);

  expect((await listBudgets(gateway)).map((b) => b.name)).toEqual(['Budget_2026']);
  expect((await refusalOf(keepBudget(gateway, 'FIN_PERIOD', 'Budget!A1:B2'))).message).toContain('already uses the name FIN_PERIOD for something else');
  expect(await gateway.locateBlock('FIN_PERIOD')).toMatchObject({ state: 'found', address: 'Sheet1!A1' });
  expect((await refusalOf(forgetBudget(gateway, blockName('b1')))).message).toContain('is not one of the budgets this workbook keeps');
  expect(await gateway.locateBlock(blockName('b1'))).toMatchObject({ state: 'found' });
});
