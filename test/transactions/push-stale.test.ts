// Figures after our own push (issue 13, item 1). An accounting date moved from December into January by a
// push changes the December and January income statements and every balance sheet from December on. The
// add-in knows exactly that: after the push the blocks and FIN answers it touched are stale, the Refresh tab
// says so with the cost, a formula typed afterwards gets the new figure, and "Refresh what changed" fetches
// only those requests -- the blocks and cells then agree with a workbook built from scratch, for a fraction
// of a full Refresh all. The sandbox's own counter measures every call.
import type { IncomeStatement, Transaction } from '../../src/api';
import { COL } from '../../src/engine/transactions';
import { changedOnly, createStatementsEngine, type StatementSpec, type StatementsEngine } from '../../src/engine/statements';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { lastFullYear } from '../engine/fin/finHarness';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, typeInto, usageDelta, type Rig } from './support';
import { isoToSerial } from '../../src/engine/dates';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});

const year = lastFullYear();
const dec = `${year}-12`;
const jan = `${year + 1}-01`;
const pnl = (start: string, end: string): StatementSpec => ({ statement: 'income_statement', period: 'custom', start, end, layout: 'months', scale: 'units', fiscalYearStartMonth: 1 });
const bs: StatementSpec = { statement: 'balance_sheet', period: 'custom', start: `${year}-01-01`, end: `${year}-12-31`, layout: 'quarters', scale: 'units', fiscalYearStartMonth: 1 };
const SPECS = { thisYear: pnl(`${year}-01-01`, `${year}-12-31`), lastYear: pnl(`${year - 1}-01-01`, `${year - 1}-12-31`), balances: bs };

/** A block's figures, without the row that stamps when it was refreshed. */
async function figures(wb: MemoryGateway, address: string): Promise<unknown[][]> {
  return (await wb.readRange(address)).values.filter((_, r) => r !== 3);
}

function serial(iso: string): number {
  const s = isoToSerial(iso, 1900);
  if (!s.ok) throw new Error(s.error);
  return s.value;
}

test('a pushed accounting-date move marks exactly what it changed, and a refresh of only that brings every figure up to date', async () => {
  const wb = newWorkbook();
  const r: Rig = await rig(sb, wb);
  const company = r.companyId;
  const statements: StatementsEngine = createStatementsEngine({ gateway: wb, reader: r.reader, client: r.client, companyName: 'Northwind' });
  const blocks = {
    thisYear: await statements.insert(SPECS.thisYear, 'newSheet'),
    lastYear: await statements.insert(SPECS.lastYear, 'newSheet'),
    balances: await statements.insert(SPECS.balances, 'newSheet'),
  };
  const board = () =>
    Promise.all([
      r.service.pnl({ line: 'Net Income', start: jan }),
      r.service.pnl({ line: 'Revenue', start: `${year}-11` }),
    ]);
  const [janBefore] = await board();
  const lastYearBefore = await figures(wb, blocks.lastYear.written.address);

  // A December transaction on an income-statement category, its accounting date not overridden yet.
  const { bindingId, table } = await r.engine.pull({ start_date: `${year}-12-01`, end_date: `${year}-12-31` });
  const decReport = (await r.reader.read<IncomeStatement>({ path: '/reports/income_statement', query: { start_date: `${year}-12-01`, end_date: `${year}-12-31` } }, async () => {
    throw new Error('the block fetched it');
  })).value;
  const incomeCategories = new Set(
    [decReport.revenue, decReport.expenses].flatMap((section) => section.categories.map((c) => c.category_id)),
  );
  const txns: Transaction[] = [];
  for await (const t of r.client.transactions.iterate({ start_date: `${year}-12-01`, end_date: `${year}-12-31` })) txns.push(t);
  const moved = txns.find((t) => t.transaction_type === 'standard' && t.accounting_date === t.date && t.amount_cents !== 0 && t.category_id && incomeCategories.has(t.category_id));
  expect(moved).toBeDefined();

  // The push: one PATCH (a single row).
  await typeInto(wb, table, [{ id: moved!.id, values: { [COL.accountingDate]: serial(`${jan}-05`) } }]);
  const pushed = await r.engine.push(bindingId);
  expect(pushed.updated).toBe(1);

  // The Refresh tab knows: this year's P&L (its December) and the balance sheet (from December on) are
  // behind; last year's P&L is current.
  const plan = await statements.plan();
  const byId = new Map(plan.blocks.map((b) => [b.binding.id, b]));
  expect(byId.get(blocks.thisYear.binding.id)!.changed).toHaveLength(1);
  expect(byId.get(blocks.balances.binding.id)!.changed).toHaveLength(1);
  expect(byId.get(blocks.lastYear.binding.id)!.changed).toEqual([]);
  // December's P&L and December's balance sheet for the blocks; January's P&L for the formula.
  expect(plan.changedCalls).toEqual({ blocks: 2, blockCalls: 2, formulaCalls: 1 });

  // The truth, from a workbook built from scratch after the push (its calls are not the add-in's).
  const truthBook = newWorkbook();
  const truth = await rig(sb, truthBook);
  const truthStatements = createStatementsEngine({ gateway: truthBook, reader: truth.reader, client: truth.client, companyName: 'Northwind' });
  const expected = {
    thisYear: await figures(truthBook, (await truthStatements.insert(SPECS.thisYear, 'newSheet')).written.address),
    balances: await figures(truthBook, (await truthStatements.insert(SPECS.balances, 'newSheet')).written.address),
    decNet: await truth.service.pnl({ line: 'Net Income', start: dec }),
    janNet: await truth.service.pnl({ line: 'Net Income', start: jan }),
  };
  expect(expected.janNet).not.toBe(janBefore);

  // A formula typed after the push gets the new figure: its one stale request is fetched again.
  const typed = await usageDelta(sb, company, () => r.service.pnl({ line: 'Net Income', start: dec }));
  expect(typed).toEqual({ value: expected.decNet, calls: 1 });
  // That refetch does not make the December block current: it was written before the change.
  const afterTyping = await statements.plan();
  expect(afterTyping.changedCalls).toEqual({ blocks: 2, blockCalls: 1, formulaCalls: 1 });

  // Refresh what changed: the balance sheet's December and the formula's January; the P&L block rebuilds
  // from the answer the typed formula fetched.
  let recalculated: Promise<unknown[]> | undefined;
  const refreshed = await usageDelta(sb, company, async () => {
    const formulas = await r.service.refreshAll({
      scope: 'changed',
      recalculate: async () => {
        recalculated = board();
      },
      quietMs: 100,
    });
    return statements.refreshAll(changedOnly(afterTyping), { scope: 'changed', formulas });
  });
  expect(refreshed.calls).toBe(2);
  expect(refreshed.value.failed).toEqual([]);
  expect(refreshed.value.refreshed.map((b) => b.id).sort()).toEqual([blocks.thisYear.binding.id, blocks.balances.binding.id].sort());
  // The formulas first (January), then the blocks (the balance sheet's December).
  expect(refreshed.value.formulas).toMatchObject({ spent: 1, kept: 0, message: 'Refresh of what changed spent 1 call' });
  expect((await recalculated)![0]).toBe(expected.janNet);
  expect(await figures(wb, blocks.thisYear.written.address)).toEqual(expected.thisYear);
  expect(await figures(wb, blocks.balances.written.address)).toEqual(expected.balances);
  expect(await figures(wb, blocks.lastYear.written.address)).toEqual(lastYearBefore);
  expect((await statements.plan()).changedCalls).toEqual({ blocks: 0, blockCalls: 0, formulaCalls: 0 });

  // What a full Refresh all would have spent instead (blocks and formulas, all fetched again).
  const full = plan.blockCalls + plan.formulaCalls;
  note(`After a pushed Dec->Jan accounting-date move: refresh of what changed ${typed.calls + refreshed.calls} calls (1 by a typed formula, ${refreshed.calls} by Refresh what changed) against ${full} for Refresh all`);
  expect(full).toBeGreaterThan(25);
});
