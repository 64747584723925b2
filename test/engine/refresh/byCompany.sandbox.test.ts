// The refresh of a workbook that reads two companies (issue 16.3): each company's statement blocks are
// refreshed on its own connection, with its own key; the calls of each land on its own counter, and a
// one-company workbook refreshes as it always did.
import type { Transaction } from '../../../src/api';
import { insertConsolidated, type Member } from '../../../src/engine/consolidation/insert';
import type { RefreshKind } from '../../../src/engine/refresh/workbookRefresh';
import type { StatementSpec } from '../../../src/engine/statements';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import type { Workspace } from '../../../src/runtime/workspace';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, testWorkspace, type TestRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
let rt: TestRuntime;
let a: string;
let b: string;
beforeAll(async () => {
  sb = await startSandbox();
  a = sb.companies['growth-admin'];
  b = sb.companies['growth2-admin'];
  rt = await testRuntime(sb, { clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 } });
  await rt.runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const spec: StatementSpec = {
  statement: 'income_statement',
  period: 'custom',
  start: `${year}-01-01`,
  end: `${year}-03-31`,
  layout: 'months',
  scale: 'units',
  fiscalYearStartMonth: 1,
};

/** A refresh of the workbook as the pane runs it: every company it reads, each on its own connection. */
async function refresh(workspace: Workspace, kind: RefreshKind) {
  return (await workspace.refresh(await workspace.askRefresh(kind))).result;
}

async function usage(): Promise<[number, number]> {
  return [await sb.usage(a), await sb.usage(b)];
}

test("each company's blocks are refreshed with its own key, its calls on its own counter", async () => {
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { quietMs: 50 });
  const [acme, westbrook] = [(await workspace.company(a))!, (await workspace.company(b))!];
  await acme.statements.insert(spec, 'newSheet');

  // A workbook of Acme alone: its refresh touches Westbrook's counter not at all.
  const start = await usage();
  const alone = await refresh(workspace, 'full');
  const afterAlone = await usage();
  expect(afterAlone[1]).toBe(start[1]);
  expect(afterAlone[0] - start[0]).toBe(alone.calls);
  expect(alone.blocks.refreshed.map((x) => x.company)).toEqual([a]);

  // With a Westbrook block too: the same for Acme, and Westbrook's on Westbrook's counter.
  await westbrook.statements.insert(spec, 'newSheet');
  const afterInsert = await usage();
  const both = await refresh(workspace, 'full');
  const after = await usage();
  // Acme's first full refresh also read where its transactions post (a mirror, issue 34); the second one
  // carries that record on with one sync page, as a new watermark would cost.
  expect(alone.calls).toBeGreaterThan(after[0] - afterInsert[0]);
  expect(after[1] - afterInsert[1]).toBeGreaterThan(0);
  expect(both.calls).toBe(after[0] - afterInsert[0] + (after[1] - afterInsert[1]));
  expect(both.blocks.refreshed.map((x) => x.company)).toEqual([a, b]);
  expect(both.message).toMatch(new RegExp(`^${acme.name}: Refreshed everything\\. .* ${westbrook.name}: Refreshed everything\\. `));
  // The two-company pack's costs, exactly: a full refresh is each company's sync page (or new watermark) and
  // its three months, plus Westbrook's first mirror; with nothing changed since, a refresh of changes is one
  // sync page per company.
  expect(after[0] - afterInsert[0]).toBe(4);
  expect(both.message).toMatch(/Recorded where \d+ transactions post/);
  const changes = await refresh(workspace, 'changed');
  const final = await usage();
  expect([final[0] - after[0], final[1] - after[1]]).toEqual([1, 1]);
  expect(changes.calls).toBe(2);
});

test('a consolidated statement is rebuilt by a refresh of the workbook when a company\'s figures in it are due, and left when none is', async () => {
  const gateway = new MemoryGateway();
  const workspace = await testWorkspace(rt.runtime, gateway, { quietMs: 50 });
  const members: Member[] = [];
  for (const [name, id] of [['Acme', a], ['Westbrook', b]] as const) {
    const [client, reader] = await Promise.all([rt.runtime.getClient(id), rt.runtime.getReader(id)]);
    members.push({ name, reader: reader!, client: client! });
  }
  const quarter = { statement: 'income_statement' as const, period: 'custom' as const, start: `${year}-01-01`, end: `${year}-03-31`, scale: 'units' as const, fiscalYearStartMonth: 1 };
  const { binding } = await insertConsolidated({ gateway, title: 'Group' }, members, quarter);
  const written = async () => (await gateway.listBindings()).find((x) => x.id === binding.id)!;

  // Full: each company's answers are due; the block is rebuilt last, one call per company (beside the watermark).
  let before = await usage();
  const full = await refresh(workspace, 'full');
  let after = await usage();
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([2, 2]);
  expect(full.calls).toBe(4);
  expect(full.blocks.refreshed.map((x) => x.id)).toEqual([binding.id]);
  expect(full.message).toMatch(/ Also rebuilt 1 consolidated statement \(2 calls\)\.$/);
  const stamp = async () => String((await gateway.readRange((await written()).address)).values.flat().find((v) => String(v).startsWith('Refreshed ')));
  expect(await stamp()).toMatch(/\(full refresh\)$/);

  // Nothing changed: one sync page per company; the block is not rewritten.
  await new Promise((r) => setTimeout(r, 1100));
  const untouched = JSON.stringify(await written());
  before = await usage();
  const none = await refresh(workspace, 'changed');
  after = await usage();
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([1, 1]);
  expect(none.blocks.refreshed).toEqual([]);
  expect(JSON.stringify(await written())).toBe(untouched);

  // A Westbrook transaction of February leaves its category: only Westbrook's report is fetched again.
  let moved: Transaction | undefined;
  for await (const t of (await rt.runtime.getClient(b))!.transactions.iterate({ start_date: `${year}-02-01`, end_date: `${year}-02-28` })) {
    if (t.transaction_type === 'standard' && t.amount_cents !== 0 && t.category_id && t.accounting_date === t.date) {
      moved = t;
      break;
    }
  }
  await sb.control(`transactions/${moved!.id}`, { category_id: null });
  await new Promise((r) => setTimeout(r, 1100));
  before = await usage();
  const changed = await refresh(workspace, 'changed');
  after = await usage();
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([1, 2]);
  expect(changed.blocks.refreshed.map((x) => x.id)).toEqual([binding.id]);
  expect(changed.message).toMatch(/ Also rebuilt 1 consolidated statement \(1 call\)\.$/);
  expect(await stamp()).toMatch(/\(refresh of changes\)$/);
});
