// Issue 15, item 3: a comparison block's Variance columns are rebuilt by every refresh, from the figures of
// that refresh, for no call beyond the two periods; a block written before variance existed refreshes as it
// was written.
import { parseQualified } from '../../../src/engine/ports/address';
import { STAMP_ROW } from '../../../src/engine/render/statementGrid';
import { createStatementsEngine, type StatementSpec } from '../../../src/engine/statements';
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
const HEADER_ROW = 6;

function lastYearsSecondQuarter(): StatementSpec {
  const year = Number(sb.running.ctx.clock.today().slice(0, 4)) - 1;
  return { statement: 'income_statement', period: 'custom', start: `${year}-04-01`, end: `${year}-06-30`, layout: 'prior_year', scale: 'units', fiscalYearStartMonth: 1 };
}

/** The block's values, row by row (its stamp row says when, so it is emptied). */
async function valuesOf(gateway: MemoryGateway, address: string) {
  return (await gateway.readRange(address)).values.map((row, r) => (r === STAMP_ROW ? [] : row));
}

/** Rows of the block whose Variance cell is not the first period minus the second (income statement: all favourable-positive). */
function varianceDrift(values: readonly (readonly unknown[])[]): number[] {
  return values.flatMap((row, r) => {
    if (r <= HEADER_ROW || typeof row[1] !== 'number' || typeof row[2] !== 'number' || typeof row[3] !== 'number') return [];
    return Math.round((row[1] - row[2]) * 100) === Math.round(row[3] * 100) ? [] : [r];
  });
}

test('Refresh all and Refresh this block rebuild the Variance columns, for the two periods only', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const spec: StatementSpec = { ...lastYearsSecondQuarter(), variance: true };
  const { written } = await statements.insert(spec, 'newSheet');
  const before = await valuesOf(gateway, written.address);
  expect(parseQualified(written.address).box.cols).toBe(5);
  expect(before[HEADER_ROW].slice(3)).toEqual(['Variance fav/(unfav)', 'Variance % fav/(unfav)']);
  expect(varianceDrift(before)).toEqual([]);
  const withVariance = before.filter((row, r) => r > HEADER_ROW && typeof row[3] === 'number');
  expect(withVariance.length).toBeGreaterThan(10);

  const usage = await sb.usage(company());
  const plan = await statements.plan();
  expect(plan.blockCalls).toBe(2);
  const outcome = await statements.refreshAll(plan, {});
  expect(outcome.failed).toEqual([]);
  expect(await sb.usage(company())).toBe(usage + 2);
  const [after] = outcome.refreshed;
  expect(after.parameters).toMatchObject({ variance: true });
  expect((after.parameters.columnPeriods as unknown[]).slice(2)).toEqual([null, null]);
  expect(await valuesOf(gateway, after.address)).toEqual(before);

  const again = await statements.refreshBlock((await statements.plan()).blocks[0]);
  expect(await sb.usage(company())).toBe(usage + 4);
  expect(await valuesOf(gateway, again.address)).toEqual(before);

  // A transaction of May moved out of both periods: the next refresh's variance is that of the new figures.
  const may = `${spec.start.slice(0, 4)}-05`;
  let moved = null;
  for await (const t of rt.client.transactions.iterate({ start_date: `${may}-01`, end_date: `${may}-28` })) {
    if (t.transaction_type === 'standard' && t.accounting_date === t.date && t.amount_cents !== 0 && t.category_id) {
      moved = t;
      break;
    }
  }
  expect(moved).not.toBeNull();
  await rt.client.transactions.update(moved!.id, { accounting_date: `${spec.start.slice(0, 4)}-08-15` });
  const rebuilt = (await statements.refreshAll(await statements.plan(), {})).refreshed[0];
  const changed = await valuesOf(gateway, rebuilt.address);
  expect(changed).not.toEqual(before);
  expect(varianceDrift(changed)).toEqual([]);
  const netIncome = (values: typeof before) => values.find((row) => row[0] === 'Net income')!;
  expect(netIncome(changed)[2]).toBe(netIncome(before)[2]);
  expect((netIncome(changed)[3] as number) - (netIncome(before)[3] as number)).toBeCloseTo(-moved!.amount_cents / 100, 9);
});

test('a comparison block written before variance existed (no variance parameter) refreshes as it was written', async () => {
  const rt = await testRuntime(sb);
  const gateway = new MemoryGateway();
  const statements = createStatementsEngine({ gateway, reader: rt.reader, client: rt.client, companyName: 'Northwind' });
  const { written, binding } = await statements.insert(lastYearsSecondQuarter(), 'newSheet');
  expect(binding.parameters).not.toHaveProperty('variance');
  expect(parseQualified(written.address).box.cols).toBe(3);
  const before = await valuesOf(gateway, written.address);

  const outcome = await statements.refreshAll(await statements.plan(), {});
  expect(outcome.failed).toEqual([]);
  expect(parseQualified(outcome.refreshed[0].address).box.cols).toBe(3);
  expect(outcome.refreshed[0].parameters).not.toHaveProperty('variance');
  expect(await valuesOf(gateway, outcome.refreshed[0].address)).toEqual(before);
});
