// Tables of several companies in one workbook (issue 16.3): each table records the company it was pulled
// from, and its refresh and push run on that company's connection, with that company's key. A push on a
// table of company B goes to B only, by the sandbox's per-company usage counters. One runtime holds both
// connections (growth-admin the default, growth2-admin beside it), as the add-in does.

import { addMonths, endOfMonth } from '../../src/engine/dates';
import { cellA1, parseQualified } from '../../src/engine/ports/address';
import { createStatementsEngine } from '../../src/engine/statements';
import { COL, createTransactionsEngine, tablesByCompany, type TransactionsEngine } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import type { Runtime } from '../../src/runtime/runtime';
import { testRuntime } from '../support/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { FAST, newWorkbook, rowById, sandboxToday, tableRows, typeInto, usageDelta } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let runtime: Runtime;
let a: string;
let b: string;
const journal = new MemorySecretStore();

/** The transactions engine of one of the runtime's connections, as the pane builds it. */
async function engineOf(companyId: string): Promise<TransactionsEngine | null> {
  const [client, reader, connection] = await Promise.all([runtime.getClient(companyId), runtime.getReader(companyId), runtime.getConnection(companyId)]);
  if (!client || !reader || !connection?.keyFingerprint) return null;
  return createTransactionsEngine({
    client,
    reader,
    gateway: wb,
    journal,
    owner: { keyFingerprint: connection.keyFingerprint, label: connection.name },
    poll: { initialDelayMs: 150, maxDelayMs: 1000, maxPolls: 200 },
  });
}

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  a = sb.companies['growth-admin'];
  b = sb.companies['growth2-admin'];
  ({ runtime } = await testRuntime(sb, { clientOptions: FAST }));
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
});
afterAll(async () => {
  await sb?.close();
});

test("a push on company B's table goes to B only, with B's key; its refresh too", async () => {
  const own = (await engineOf(a))!;
  const westbrook = (await engineOf(b))!;
  const engine = tablesByCompany({ gateway: wb, own, engineFor: engineOf });
  const today = sandboxToday(sb);
  // Westbrook's table, pulled with its engine, beside one of the default company's.
  const mine = await own.pull({ start_date: addMonths(today, -3), end_date: addMonths(today, -2) });
  const theirs = await westbrook.pull({ start_date: addMonths(today, -3), end_date: addMonths(today, -2) });
  expect((await engine.tables()).map((t) => t.company).sort()).toEqual([a, b].sort());

  // A department edit on one of Westbrook's rows, to one of Westbrook's departments.
  const client = (await runtime.getClient(b))!;
  const { data: departments } = await client.departments.list();
  const parents = new Set(departments.map((d) => d.parent_id));
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const rows = (await tableRows(wb, theirs.table)).filter((r) => r[COL.type] === 'standard');
  const id = String(rows[0][COL.pulledId]);
  const before = await client.transactions.retrieve(id);
  const leaf = departments.find((d) => d.assignable && !parents.has(d.id) && d.id !== before.department_id)!;
  await typeInto(wb, theirs.table, [{ id, values: { [COL.department]: pathOf(leaf.id) } }]);

  const usageA = await sb.usage(a);
  const { value: pushed, calls } = await usageDelta(sb, b, () => engine.push(theirs.bindingId));
  expect(pushed.updated).toBe(1);
  expect(calls).toBeGreaterThan(0);
  expect(await sb.usage(a)).toBe(usageA); // nothing sent with the default company's key
  expect((await client.transactions.retrieve(id)).department_id).toBe(leaf.id);
  expect((await rowById(wb, theirs.table, id))[COL.department]).toBe(pathOf(leaf.id));

  // Its refresh reads Westbrook too; the default company's table stays the default's.
  const usageB = await sb.usage(b);
  const usageA2 = await sb.usage(a);
  await engine.refresh(theirs.bindingId);
  expect(await sb.usage(a)).toBe(usageA2);
  expect(await sb.usage(b)).toBeGreaterThan(usageB);
  const usageB2 = await sb.usage(b);
  await engine.refresh(mine.bindingId);
  expect(await sb.usage(b)).toBe(usageB2);
});

test('a table of a company not connected here is refused, and nothing is sent', async () => {
  const own = (await engineOf(a))!;
  const westbrook = (await engineOf(b))!;
  const today = sandboxToday(sb);
  const theirs = await westbrook.pull({ start_date: addMonths(today, -6), end_date: addMonths(today, -5) });
  const engine = tablesByCompany({ gateway: wb, own, engineFor: async (c) => (c === a ? own : null) });
  const before = [await sb.usage(a), await sb.usage(b)];
  await expect(engine.push(theirs.bindingId)).rejects.toMatchObject({ code: 'other_company' });
  expect([await sb.usage(a), await sb.usage(b)]).toEqual(before);
});

test("drill-down from a cell of another company's formula or block is refused before any call, not answered with the default's entries", async () => {
  const own = (await engineOf(a))!;
  const companyOf = (arg: string) => (arg.toLowerCase() === 'westbrook' ? b : arg.toLowerCase() === 'acme' ? a : null);
  const today = sandboxToday(sb);
  const month = addMonths(today, -2).slice(0, 7);
  const before = [await sb.usage(a), await sb.usage(b)];
  await wb.writeFormula('Sheet1!B2', `=FIN.TOTAL("Rent","${month}",,,"Westbrook")`);
  wb.select('Sheet1', 'B2');
  await expect(own.drillDownFromSelection({ today, companyOf })).rejects.toMatchObject({
    code: 'other_company',
    message: expect.stringContaining('Westbrook'),
  });
  await wb.writeFormula('Sheet1!B3', `=FIN.PNL("Rent","${month}",,"${b}")`);
  wb.select('Sheet1', 'B3');
  await expect(own.drillDownFromSelection({ today, companyOf })).rejects.toMatchObject({ code: 'other_company' });
  expect([await sb.usage(a), await sb.usage(b)]).toEqual(before);
  // A number in Westbrook's statement block.
  const client = (await runtime.getClient(b))!;
  const reader = (await runtime.getReader(b))!;
  const statements = createStatementsEngine({ gateway: wb, reader, client, companyName: 'Westbrook' });
  const { binding } = await statements.insert(
    {
      statement: 'income_statement',
      period: 'custom',
      start: `${month}-01`,
      end: endOfMonth(`${month}-01`),
      layout: 'single',
      scale: 'units',
      fiscalYearStartMonth: 1,
    },
    'newSheet',
  );
  const rowIds = binding.parameters.rowCategoryIds as (string | null)[];
  const { sheet, box } = parseQualified(binding.address);
  wb.select(sheet, cellA1(box.row + rowIds.findIndex((id) => id !== null), box.col + 1));
  const usageB = await sb.usage(b);
  await expect(own.drillDownFromSelection({ today, companyOf })).rejects.toMatchObject({ code: 'other_company', message: expect.stringContaining(b) });
  expect(await sb.usage(b)).toBe(usageB);
  // Naming the default company is the default's drill-down.
  await wb.writeFormula('Sheet1!B4', `=FIN.TOTAL("Rent","${month}",,,"Acme")`);
  wb.select('Sheet1', 'B4');
  await expect(own.drillDownFromSelection({ today, companyOf })).resolves.toMatchObject({ target: { source: expect.stringContaining('FIN.TOTAL') } });
});

test("drill-down into another connected company's cell runs on that company's connection: its entries, its calls", async () => {
  const own = (await engineOf(a))!;
  const engine = tablesByCompany({ gateway: wb, own, engineFor: engineOf });
  const companyOf = (arg: string) => (arg.toLowerCase() === 'westbrook' ? b : null);
  const today = sandboxToday(sb);
  const month = addMonths(today, -3).slice(0, 7);
  await wb.writeFormula('Sheet1!D2', `=FIN.TOTAL("Rent","${month}",,,"Westbrook")`);
  wb.select('Sheet1', 'D2');
  const before = [await sb.usage(a), await sb.usage(b)];
  const res = await engine.drillDownFromSelection({ today, companyOf });
  const spent = [(await sb.usage(a)) - before[0], (await sb.usage(b)) - before[1]];
  expect(spent[0]).toBe(0); // nothing with the default company's key
  expect(spent[1]).toBeGreaterThan(0);
  // Westbrook's own figure: the entries listed add up to its /aggregations/total for the month.
  const client = (await runtime.getClient(b))!;
  const { data: categories } = await client.categories.list();
  const rent = categories.find((c) => c.name === 'Rent')!;
  const total = await client.aggregations.total({ category_id: rent.id, start_date: `${month}-01`, end_date: endOfMonth(`${month}-01`) });
  expect(res.totalCents).toBe(total.total_cents);
  expect(res.rows).toBeGreaterThan(0);
  // A company not connected here is still refused before any call, and the message says to connect it.
  await wb.writeFormula('Sheet1!D3', `=FIN.TOTAL("Rent","${month}",,,"Globex")`);
  wb.select('Sheet1', 'D3');
  const still = [await sb.usage(a), await sb.usage(b)];
  await expect(engine.drillDownFromSelection({ today, companyOf })).rejects.toMatchObject({ code: 'other_company', message: expect.stringContaining('Connect Globex') });
  expect([await sb.usage(a), await sb.usage(b)]).toEqual(still);
});
