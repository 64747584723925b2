// The one workbook refresh against the sandbox (issue 14): statement blocks, FIN cells and a transactions
// table, refreshed "changed only" (one sync run, then only what the changes touch) or in full. Upstream
// changes are made through the sandbox's control endpoint, as the bank feed or a teammate would make them;
// calls are the sandbox's own count.
import { STAMP_ROW } from '../../../src/engine/render/statementGrid';
import type { Transaction } from '../../../src/api';
import type { RefreshKind } from '../../../src/engine/refresh/workbookRefresh';
import type { StatementSpec } from '../../../src/engine/statements';
import type { BindingRecord } from '../../../src/engine/ports/workbook';
import { MemoryGateway } from '../../../src/excel/memoryGateway';
import type { Workspace } from '../../../src/runtime/workspace';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, testWorkspace, type TestRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const spec = (statement: StatementSpec['statement'], layout: StatementSpec['layout']): StatementSpec => ({
  statement,
  period: 'custom',
  start: `${year}-01-01`,
  end: `${year}-12-31`,
  layout,
  scale: 'units',
  fiscalYearStartMonth: 1,
});
const SPECS = [spec('income_statement', 'months'), spec('balance_sheet', 'quarters'), spec('cash_flow', 'single')];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Pack {
  rt: TestRuntime;
  gateway: MemoryGateway;
  /** The workspace the pane opens on the connection: the refresh wiring that ships. */
  workspace: Workspace;
  board: () => Promise<unknown[]>;
  tableId: string;
}

/** A refresh as the pane runs it: its cost asked (the plan read once), then the refresh of that plan. */
async function refreshWorkbook(p: Pack, kind: RefreshKind) {
  return (await p.workspace.refresh(await p.workspace.askRefresh(kind))).result;
}

async function pack(observe?: typeof fetch): Promise<Pack> {
  const gateway = new MemoryGateway();
  let board: () => Promise<unknown[]> = async () => [];
  const rt = await testRuntime(sb, {
    fetch: observe,
    clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 },
    recalculate: async () => {
      void board();
    },
  });
  board = () =>
    Promise.all(
      ['Revenue', 'Advertising'].flatMap((category) => [1, 2, 3, 4].map((q) => rt.service.total({ category, start: `${year}-Q${q}` }))),
    );
  const workspace = await testWorkspace(rt.runtime, gateway, { companyNames: { 'growth-admin': 'Northwind' }, quietMs: 100 });
  for (const s of SPECS) await workspace.statements.insert(s, 'newSheet');
  await board();
  const { bindingId } = await workspace.transactions.pull({ start_date: `${year}-06-01`, end_date: `${year}-06-30` });
  return { rt, gateway, workspace, board, tableId: bindingId };
}

async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const company = sb.companies['growth-admin'];
  const before = await sb.usage(company);
  const value = await fn();
  return { value, calls: (await sb.usage(company)) - before };
}

async function aTransaction(p: Pack, month: string): Promise<Transaction> {
  for await (const t of p.rt.client.transactions.iterate({ start_date: `${month}-01`, end_date: `${month}-28` })) {
    if (t.transaction_type === 'standard' && t.accounting_date === t.date && t.amount_cents !== 0 && t.category_id) return t;
  }
  throw new Error(`no transaction in ${month}`);
}

describe('changed-only refresh of a workbook', () => {
  let p: Pack;
  beforeAll(async () => {
    p = await pack();
  });

  const stampOf = async (gateway: MemoryGateway, b: BindingRecord) => String((await gateway.readRange(b.address)).values[STAMP_ROW][0]);

  it('the first one has nothing to go on: it refreshes everything and starts the watermark', async () => {
    const { value, calls } = await counted(() => refreshWorkbook(p, 'changed'));
    expect(value.ran).toBe('full');
    expect(value.message).toMatch(/^Refreshed everything: no record yet of what changed/);
    // 1 watermark + 12 + 4 + 1 reports + the categories list (cached, due like every answer) + the table's
    // incremental sync page; the 8 quarterly totals are derived from the monthly statements (reader/derive.ts).
    // And where each of the 20,000 transactions posts, read once (a mirror: 40 pages of 500, issue 34), and
    // one derived total fetched from the API to compare with what was derived (issue 34, item 4).
    expect(calls).toBe(1 + 17 + 1 + 1 + 40 + 1);
    expect(value.message).toMatch(/Recorded where \d+ transactions post \(40 calls\), so Refresh changes can place what changes\./);
    expect(value.tables.map((t) => t.outcome)).toEqual(['refreshed']);
    // Each block's stamp says which refresh wrote it.
    for (const b of value.blocks.refreshed) expect(await stampOf(p.gateway, b)).toMatch(/^Refreshed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(full refresh\)$/);
  });

  it('nothing changed: 2 calls (the sync page and the category list, which no sync covers), nothing rewritten', async () => {
    await sleep(1100);
    const bindings = JSON.stringify(await p.gateway.listBindings());
    const { value, calls } = await counted(() => refreshWorkbook(p, 'changed'));
    // The chart of accounts can change with no transaction changing (issue 34): the cached list is read again.
    expect(calls).toBe(2);
    expect(value).toMatchObject({ ran: 'changed', blocks: { refreshed: [], failed: [] }, tables: [{ outcome: 'unchanged' }] });
    expect(value.message).toBe('Nothing changed since the last refresh. 0 tables refreshed, 1 unchanged. Spent 2 calls.');
    // The table took the run's watermark; nothing else in the workbook moved.
    const withoutWatermark = (list: BindingRecord[]) => list.map((b) => ({ ...b, parameters: { ...b.parameters, watermark: null } }));
    const prior = JSON.parse(bindings) as BindingRecord[];
    const after = await p.gateway.listBindings();
    expect(withoutWatermark(after)).toEqual(withoutWatermark(prior));
    const table = (list: BindingRecord[]) => list.find((b) => b.id === p.tableId)!.parameters.watermark as number;
    expect(table(after)).toBeGreaterThan(table(prior));
  });

  it('a change in March: the sync page, then only the requests holding March; the June table stays', async () => {
    const txn = await aTransaction(p, `${year}-03`);
    await sb.control(`transactions/${txn.id}`, { category_id: null });
    await sleep(1100);
    const { value, calls } = await counted(() => refreshWorkbook(p, 'changed'));
    expect(value.ran).toBe('changed');
    // 1 sync page + the March P&L + the 4 balance sheets (March on) + the year's cash flow; the Q1 totals of
    // both categories (the Advertising or Revenue line the transaction left) are derived from the months;
    // + the category list, read again to learn a change of the chart (issue 34).
    expect(calls).toBe(1 + 1 + 4 + 1 + 1);
    expect(value.blocks.refreshed).toHaveLength(3);
    for (const b of value.blocks.refreshed) expect(await stampOf(p.gateway, b)).toMatch(/ \(refresh of changes\)$/);
    expect(value.tables).toMatchObject([{ outcome: 'unchanged' }]);
  });

  it('a change inside the table\'s month refreshes the table (its own sync page) as well', async () => {
    const txn = await aTransaction(p, `${year}-06`);
    await sb.control(`transactions/${txn.id}`, { description: 'changed upstream' });
    await sleep(1100);
    const { value } = await counted(() => refreshWorkbook(p, 'changed'));
    expect(value.tables).toMatchObject([{ outcome: 'refreshed' }]);
  });

  it('with books closed through the prior quarter end, a change in March costs only what is still open', async () => {
    p.rt.reader.setBooksClosedThrough(`${year}-06-30`);
    try {
      const txn = await aTransaction(p, `${year}-03`);
      await sb.control(`transactions/${txn.id}`, { description: 'changed upstream', category_id: null });
      await sleep(1100);
      const { calls } = await counted(() => refreshWorkbook(p, 'changed'));
      // 1 sync page + the September and December balance sheets + the year's cash flow: the March P&L, the
      // March and June balance sheets and the Q1 totals are closed; + the category list (issue 34).
      expect(calls).toBe(1 + 2 + 1 + 1);
      // A full refresh leaves the closed answers too: the watermark + 6 open months of P&L + 2 balance
      // sheets + the cash flow + categories + the table page (the Q3 and Q4 totals derived from the months)
      // + one derived total fetched to compare (issue 34).
      const full = await counted(() => refreshWorkbook(p, 'full'));
      expect(full.calls).toBe(1 + 6 + 2 + 1 + 1 + 1 + 1);
    } finally {
      p.rt.reader.setBooksClosedThrough(null);
    }
  });
});

describe('full refresh of a workbook', () => {
  it('refreshes the table beside the blocks and formulas, not after them (issue 14, item 5)', async () => {
    // What the runtime sent and when each answer came, seen from its fetch (the requests still go out).
    const log: { url: URL; start: number; end: number }[] = [];
    const observe: typeof fetch = async (input, init) => {
      const start = performance.now();
      const res = await fetch(input, init);
      log.push({ url: new URL(String(input)), start, end: performance.now() });
      return res;
    };
    const p = await pack(observe);
    // 100 ms a request: the 18 reads of the blocks and formulas (the totals are derived) take three rounds of 8 slots.
    await sb.control('control', { latency_ms: 100 });
    try {
      log.length = 0;
      const { value } = await counted(() => refreshWorkbook(p, 'full'));
      expect(value.tables).toMatchObject([{ outcome: 'refreshed' }]);
      const tablePage = log.find((l) => l.url.pathname.endsWith('/transactions') && l.url.searchParams.has('start_date'))!;
      // The refresh's reports (the one derived total fetched to compare after it is not among them).
      const reads = log.filter((l) => /\/reports\//.test(l.url.pathname));
      expect(reads).toHaveLength(17);
      // Started after them, the table's page would go out once the last of them had come back.
      expect(tablePage.start).toBeLessThan(Math.max(...reads.map((r) => r.end)));
    } finally {
      await sb.control('control', { latency_ms: 0 });
    }
  });
});

describe('changes no sync shows (issue 34, item 3)', () => {
  it('a category moved under another parent: Refresh changes reads the list again, and the parent totals typed before and after are the API\'s', async () => {
    const p = await pack();
    await refreshWorkbook(p, 'full');
    const categories = (await p.rt.client.categories.list()).data;
    const leaf = categories.find((c) => c.account_type === 'expense' && c.tier === 3 && categories.some((o) => o.tier === 2 && o.account_type === 'expense' && o.id !== c.parent_id))!;
    const [from, to] = [categories.find((c) => c.id === leaf.parent_id)!, categories.find((o) => o.tier === 2 && o.account_type === 'expense' && o.id !== leaf.parent_id)!];
    const totals = () => Promise.all([from, to].map((c) => p.rt.service.total({ category: c.name, start: `${year}-Q2` })));
    await totals();
    await sb.control(`categories/${leaf.id}`, { parent_id: to.id });
    const { value } = await counted(() => refreshWorkbook(p, 'changed'));
    expect(value.message).toMatch(/ The chart of accounts changed: \d+ cached figures depend on it and are fetched again\./);
    const api = await Promise.all([from, to].map(async (c) => (await p.rt.client.aggregations.total({ category_id: c.id, start_date: `${year}-04-01`, end_date: `${year}-06-30` })).total_cents));
    expect((await totals()).map((v) => Math.round(v * 100))).toEqual(api);
    await sb.control(`categories/${leaf.id}`, { parent_id: from.id });
  });
});
