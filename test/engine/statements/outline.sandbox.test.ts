// A statement block's row groups when it is refreshed in place (issue 26, item 8), through OfficeGateway and
// Microsoft's client library on the fake Excel. Range.ungroup takes the outermost level off every row it
// covers, whoever grouped it (test/excel/fakeExcel.ts, ungroup), so a refresh must ungroup exactly the rows
// the block grouped: the user's own group around the block keeps every row it holds.
import { parseQualified } from '../../../src/engine/ports/address';
import { createStatementsEngine, type StatementSpec } from '../../../src/engine/statements';
import { officeHarness } from '../../excel/harnesses';
import { testRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

function quarter(): StatementSpec {
  const year = Number(sb.running.ctx.clock.today().slice(0, 4)) - 1;
  return { statement: 'income_statement', period: 'custom', start: `${year}-01-01`, end: `${year}-03-31`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };
}

async function setup() {
  const rt = await testRuntime(sb);
  const h = officeHarness();
  const statements = createStatementsEngine({ gateway: h.office, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  h.inspect.select('Sheet1', 'B3');
  const inserted = await statements.insert(quarter(), 'selection');
  return { h, statements, ...inserted };
}

test("Refresh all ungroups what the block grouped, and only that: the user's own group around the block stays whole", async () => {
  const { h, statements, written } = await setup();
  const { box } = parseQualified(written.address);
  const rows = Array.from({ length: box.row + box.rows + 3 }, (_, r) => r);
  const own = rows.map((r) => h.inspect.outlineLevel('Sheet1', r));
  // The statement's lines nest several levels deep, but a row group is made only where its total is the row
  // below (src/excel/gridPlan.ts): the block grouped one level, its heading and totals in no group of its own.
  expect(Math.max(...own)).toBe(1);
  expect(own.slice(box.row, box.row + box.rows)).toContain(0);

  // The user groups the rows from the top of the sheet to three rows below the block, the block inside.
  h.fake.group(h.fake.sheet('Sheet1'), { row: 0, col: 0, rows: rows.length, cols: 1 }, 'ByRows');
  const before = rows.map((r) => h.inspect.outlineLevel('Sheet1', r));
  expect(before).toEqual(own.map((level) => level + 1));

  for (let i = 0; i < 2; i++) {
    const outcome = await statements.refreshAll(await statements.plan(), {});
    expect(outcome.failed).toEqual([]);
    expect(rows.map((r) => h.inspect.outlineLevel('Sheet1', r))).toEqual(before);
  }
});

test('a block recorded by an earlier version (its outline depth only) still refreshes, and records its row groups from then on', async () => {
  const { h, statements, written, binding } = await setup();
  const { box } = parseQualified(written.address);
  const rows = Array.from({ length: box.row + box.rows + 3 }, (_, r) => r);
  const own = rows.map((r) => h.inspect.outlineLevel('Sheet1', r));
  const { rowGroups: _groups, ...legacy } = binding;
  await h.office.saveBinding({ ...legacy, outlineDepth: 3 });

  // Its whole block ungrouped three times: Excel refuses the second (nothing is left grouped), the write goes on.
  const outcome = await statements.refreshAll(await statements.plan(), {});
  expect(outcome.failed).toEqual([]);
  expect(rows.map((r) => h.inspect.outlineLevel('Sheet1', r))).toEqual(own);
  const [after] = await h.office.listBindings();
  expect(after.rowGroups?.length).toBeGreaterThan(0);
  expect(after.outlineDepth).toBeUndefined();
});
