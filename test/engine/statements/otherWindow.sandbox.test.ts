// A refresh the user starts and then leaves for another Excel window (issue 26, item 2), through
// OfficeGateway and Microsoft's client library on the fake Excel (test/excel/fakeExcel.ts, `elsewhere`: what
// OfficeDev/office-js #5504, #6365, #2983 report Excel doing then). The refresh either finishes right or stops
// and says to come back; it never calls an intact block damaged, and never deletes a name.
import { parseQualified, qualify } from '../../../src/engine/ports/address';
import type { GatewayError } from '../../../src/engine/ports/workbook';
import { isRefusal } from '../../../src/engine/refusal';
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

const company = () => sb.companies['growth-admin'];

function month(m: number): StatementSpec {
  const year = Number(sb.running.ctx.clock.today().slice(0, 4)) - 1;
  const mm = String(m).padStart(2, '0');
  return { statement: 'income_statement', period: 'custom', start: `${year}-${mm}-01`, end: `${year}-${mm}-28`, layout: 'single', scale: 'units', fiscalYearStartMonth: 1 };
}

/** The block at `address` moved down by `rows`. */
function movedDown(address: string, rows: number): string {
  const { sheet, box } = parseQualified(address);
  return qualify(sheet, { ...box, row: box.row + rows });
}

async function setup() {
  const rt = await testRuntime(sb);
  const h = officeHarness();
  const statements = createStatementsEngine({ gateway: h.office, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  h.inspect.select('Sheet1', 'B3');
  const first = await statements.insert(month(3), 'selection');
  h.inspect.select('Sheet1', 'B100');
  const second = await statements.insert(month(4), 'selection');
  return { h, statements, first, second };
}

test('left for another window after the plan: Refresh all finishes, every block where it is, its name untouched', async () => {
  const { h, statements, first, second } = await setup();
  const names = [first, second].map((b) => h.fake.findName(b.binding.name!));
  h.inspect.insertRows('Sheet1', 1, 2);
  const plan = await statements.plan();
  expect(plan.blocks.map((b) => b.placement.kind)).toEqual(['named', 'named']);

  h.fake.elsewhere = true;
  const outcome = await statements.refreshAll(plan, {});

  expect(outcome.failed).toEqual([]);
  expect(outcome.refreshed.map((b) => b.address)).toEqual([first, second].map((b) => movedDown(b.written.address, 2)));
  expect([first, second].map((b) => h.fake.findName(b.binding.name!))).toEqual(names);
  h.fake.elsewhere = false;
  expect((await statements.plan()).blocks.map((b) => b.placement.kind)).toEqual(['named', 'named']);
});

test('a block Excel cannot place while another window is in front stops the refresh with "come back", not "damaged"; back, the truth', async () => {
  const { h, statements, first, second } = await setup();
  const plan = await statements.plan();
  // After the plan was shown: the user deletes the first block's rows, then goes to another window.
  h.inspect.deleteRows('Sheet1', 1, first.written.rowCount + 2);
  h.fake.elsewhere = true;
  const usage = await sb.usage(company());

  const outcome = await statements.refreshAll(plan, {});

  expect(outcome.refreshed).toEqual([]);
  expect(outcome.failed.map((f) => f.binding.id)).toEqual([first.binding.id]);
  const error = outcome.failed[0].error as GatewayError;
  expect(isRefusal(error)).toBe(false);
  expect([error.code, error.message]).toEqual(['Inactive', expect.stringMatching(/come back to this workbook and try again/)]);
  // Stopped there: nothing fetched for the block after it.
  expect(await sb.usage(company())).toBe(usage);
  expect(h.inspect.names().map((n) => n.name)).toEqual([first.binding.name, second.binding.name]);

  h.fake.elsewhere = false;
  const back = await statements.plan();
  expect(back.blocks.map((b) => [b.binding.id, b.placement.kind])).toEqual([
    [first.binding.id, 'damaged'],
    [second.binding.id, 'named'],
  ]);
});
