// Refresh of the selection or the active sheet (issue 14, item 1), in the workbench: the add-in's real FIN
// functions calculated by the workbench's formula engine (each evaluation gets its cell's address, as
// Excel gives it to a @requiresAddress function), a statement block written by the statements engine, the
// real runtime, against a sandbox. The cost shown before is what the sandbox counts after, exactly; what lies
// outside the scope spends nothing and is not recalculated.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import type { StatementsEngine } from '../../src/engine/statements';
import type { Workspace } from '../../src/runtime/workspace';
import { parseBox, parseQualified, qualify } from '../../src/engine/ports/address';
import { STAMP_ROW } from '../../src/engine/render/statementGrid';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench, type CountedWorkbench } from '../support/workbench';
import { testWorkspace } from '../support/runtime';
import { insertConsolidated, type Member } from '../../src/engine/consolidation/insert';

let sb: TestSandbox;
const year = lastFullYear();

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

interface Rig {
  w: CountedWorkbench;
  statements: StatementsEngine;
  /** The workspace the pane opens over the workbench's workbook: the scope refresh that ships. */
  workspace: Workspace;
  /** The block's sheet. */
  other: string;
}

/** Sheet1: two FIN cells (July and August); another sheet: a July income statement block and, in Z1, a FIN cell of September. */
async function rig(): Promise<Rig> {
  const w = sandboxWorkbench(sb);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  const workspace = await testWorkspace(runtime, w.book);
  const { statements } = workspace;
  const { binding } = await statements.insert(
    { statement: 'income_statement', period: 'custom', start: `${year}-07-01`, end: `${year}-07-31`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 },
    'newSheet',
  );
  const other = parseQualified(binding.address).sheet;
  await w.book.writeFormula('Sheet1!A1', `=FIN.PNL("Rent","${year}-07")`);
  await w.book.writeFormula('Sheet1!A2', `=FIN.PNL("Travel","${year}-08")-FIN.PNL("Rent","${year}-08")`);
  await w.book.writeFormula(qualify(other, parseBox('Z1')), `=FIN.PNL("Revenue","${year}-09")`);
  await w.engine.whenIdle();
  return { w, statements, workspace, other };
}

const usage = (): Promise<number> => sb.usage(sb.companies['growth-admin']);

describe('Refresh of the selection or the sheet', () => {
  it('refreshes the active sheet at exactly the cost it showed, and nothing outside it', async () => {
    const { w, workspace, other } = await rig();
    w.book.select('Sheet1', 'B5');
    const { plan, text } = await workspace.askScope('sheet');
    // July's and August's income statements; the categories the names were resolved with are left out.
    expect(plan.cells.map((c) => [c.row, c.col, c.calls])).toEqual([
      [0, 0, 1],
      [1, 0, 2],
    ]);
    expect(plan.blocks).toHaveLength(0);
    expect(plan.calls).toBe(2);
    expect(text).toBe('This will spend 2 calls to refresh 2 FIN cells in the sheet Sheet1: 2 distinct requests.');

    const otherBefore = w.engine.resultAt({ sheet: other, row: 0, col: 25 });
    expect(otherBefore).toMatchObject({ state: 'value' });
    const before = await usage();
    const sentBefore = w.sent();
    const result = await workspace.refreshScope(plan);
    expect((await usage()) - before).toBe(plan.calls);
    expect(w.sent() - sentBefore).toBe(plan.calls);
    expect(result.calls).toBe(plan.calls);
    expect(result.message).toBe('Refresh of the sheet Sheet1: recalculated 2 FIN cells. Spent 2 calls.');
    expect(w.engine.resultAt({ sheet: 'Sheet1', row: 0, col: 0 })).toMatchObject({ state: 'value' });
    expect(w.engine.resultAt({ sheet: other, row: 0, col: 25 })).toBe(otherBefore);
  });

  it('a request a block and a cell share is one call; the block is stamped with the scope', async () => {
    const { w, workspace, other, statements } = await rig();
    // Sheet1!A1 reads July's income statement, which the block shows: refresh the block's sheet, then A1.
    w.book.select(other, 'A1:Z40');
    const { plan } = await workspace.askScope('selection');
    expect(plan.blocks).toHaveLength(1);
    expect(plan.cells).toHaveLength(1); // Z1 (September)
    expect(plan.calls).toBe(2); // July (the block) + September (the cell)
    const before = await usage();
    await workspace.refreshScope(plan);
    expect((await usage()) - before).toBe(2);
    const stamp = await w.book.readRange(qualify(other, { row: STAMP_ROW, col: 0, rows: 1, cols: 1 }));
    expect(String(stamp.values[0][0])).toMatch(/refresh of a selection/);

    // Now the sheet of A1 alone: July is fetched again for A1 only (the block is on the other sheet), and
    // the block, which shows July too, is not taken for changed: nothing is known to have changed in July.
    w.book.select('Sheet1', 'A1');
    const { plan: one } = await workspace.askScope('selection');
    expect(one.calls).toBe(1);
    const beforeOne = await usage();
    await workspace.refreshScope(one);
    expect((await usage()) - beforeOne).toBe(1);
    const [block] = (await statements.plan()).blocks;
    expect(block.changed).toEqual([]);
  });

  it('books closed through a month keep its requests; an empty selection costs nothing and says so', async () => {
    const { w, workspace } = await rig();
    await workspace.closeBooks(`${year}-07-31`);
    try {
      w.book.select('Sheet1', 'A1:A2');
      const { plan, text } = await workspace.askScope('selection');
      expect(plan.frozen).toBe(1); // July
      expect(plan.calls).toBe(1); // August
      expect(text).toContain('1 request within the closed books is kept.');
      const before = await usage();
      await workspace.refreshScope(plan);
      expect((await usage()) - before).toBe(1);
    } finally {
      await workspace.closeBooks(null);
    }
    w.book.select('Sheet1', 'F10:G12');
    const { plan: empty, text } = await workspace.askScope('selection');
    expect(empty.calls).toBe(0);
    expect(text).toBe('Nothing to refresh in the selection Sheet1!F10:G12: no block, FIN cell or transactions table.');
    const before = await usage();
    await workspace.refreshScope(empty);
    expect((await usage()) - before).toBe(0);
  });
});

describe('Refresh of a sheet with a consolidated statement on it', () => {
  it('fetches each company\'s report again on its own count, a report a FIN cell shares once, and rebuilds it', async () => {
    const { w, other } = await rig();
    const b = sb.companies['growth2-admin'];
    await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
    // The workspace of the two connections, as the pane opens it once Westbrook is connected.
    const workspace = await testWorkspace(runtime, w.book);
    const members: Member[] = [];
    for (const [name, id] of [['Northwind', sb.companies['growth-admin']], ['Westbrook', b]] as const) {
      members.push({ name, reader: (await runtime.getReader(id))!, client: (await runtime.getClient(id))! });
    }
    // July, as the statement block on the other sheet shows it: the same report of the default company.
    const { binding } = await insertConsolidated({ gateway: w.book, title: 'Group' }, members, {
      statement: 'income_statement',
      period: 'custom',
      start: `${year}-07-01`,
      end: `${year}-07-31`,
      scale: 'units',
      fiscalYearStartMonth: 1,
    });
    const groupSheet = parseQualified(binding.address).sheet;

    w.book.select(groupSheet, 'A1');
    const { plan, text } = await workspace.askScope('sheet');
    expect(plan.groups.map((g) => g.block.binding.id)).toEqual([binding.id]);
    expect(plan.calls).toBe(2);
    expect(text).toBe(`This will spend 2 calls to refresh 1 consolidated statement in the sheet ${groupSheet}: 1 distinct request.`);
    const counts = async () => [await usage(), await sb.usage(b)];
    let before = await counts();
    const result = await workspace.refreshScope(plan);
    let after = await counts();
    expect([after[0] - before[0], after[1] - before[1]]).toEqual([1, 1]);
    expect(result.calls).toBe(2);
    expect(result.message).toBe(`Refresh of the sheet ${groupSheet}: rebuilt 1 consolidated statement. Spent 2 calls.`);
    const rewritten = (await w.book.listBindings()).find((x) => x.id === binding.id)!;
    expect(rewritten.writtenAt).not.toBe(binding.writtenAt);

    // A FIN cell beside it reading the default company's July: one call for the cell and the group.
    await w.book.writeFormula(qualify(groupSheet, parseBox('Z1')), `=FIN.PNL("Rent","${year}-07")`);
    await w.engine.whenIdle();
    const { plan: both } = await workspace.askScope('sheet');
    expect([both.cells.length, both.groups.length, both.keys.length, both.calls]).toEqual([1, 1, 1, 2]);
    expect(other).not.toBe(groupSheet);
    before = await counts();
    await workspace.refreshScope(both);
    after = await counts();
    expect([after[0] - before[0], after[1] - before[1]]).toEqual([1, 1]);
  });
});
