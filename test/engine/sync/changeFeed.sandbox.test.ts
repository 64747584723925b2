// The change feed against the sandbox (issue 14, item 3): one sync run tells what changed since the last
// refresh, and exactly the cached answers those changes touch become due. Upstream changes are made the way
// the bank feed or a teammate makes them (the sandbox's control endpoint): they bump `updated` and rebuild
// the books. Calls are the runtime's own requests (the control endpoint is not the API).
import type { Transaction } from '../../../src/api';
import { requestOfKey } from '../../../src/engine/reader/requestCache';
import { settleRefresh, startMirror, startWatermark, storedWatermark, syncChanges } from '../../../src/engine/sync/changeFeed';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, type TestRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const year = lastFullYear();
const months = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
const quarterEnds = [`${year}-03-31`, `${year}-06-30`, `${year}-09-30`, `${year}-12-31`];

/** A small board: the months' P&L, a February and the quarter-end balance sheets, the year's cash flow,
 * two periodic totals and two point-in-time ones; read as a refresh reads them, which then settles (what is
 * fetched later counts as fetched between two runs). */
async function board(rt: TestRuntime): Promise<unknown[]> {
  const figures = await readBoard(rt);
  await settleRefresh(rt.stores.cacheStore, await rt.reader.companyId(), rt.reader.clock());
  return figures;
}

function readBoard(rt: TestRuntime): Promise<unknown[]> {
  const s = rt.service;
  return Promise.all([
    ...months.map((m) => s.pnl({ line: 'Net Income', start: m })),
    ...[`${year}-02-28`, ...quarterEnds].map((d) => s.balance({ category: 'Cash', date: d })),
    s.cashflow({ line: 'Change in Cash', start: `FY${year}` }),
    s.total({ category: 'Revenue', start: `${year}-Q1` }),
    s.total({ category: 'Revenue', start: `${year}-Q2` }),
    s.total({ category: 'Cash', start: `${year}-02` }),
    s.total({ category: 'Cash', start: `${year}-06` }),
  ]);
}

/** The stale requests, as "path date(s)", sorted. */
async function staleRequests(rt: TestRuntime): Promise<string[]> {
  return (await rt.reader.staleKeys())
    .map((k) => requestOfKey(k)!)
    .map((r) => [r.path, r.query?.start_date, r.query?.end_date, r.query?.date].filter(Boolean).join(' '))
    .sort();
}

async function aTransaction(rt: TestRuntime, month: string, pick: (t: Transaction) => boolean): Promise<Transaction> {
  for await (const t of rt.client.transactions.iterate({ start_date: `${month}-01`, end_date: `${month}-28` })) if (pick(t)) return t;
  throw new Error(`no transaction in ${month}`);
}

describe('changed-only refresh: one sync run, and only what changed is due', () => {
  let rt: TestRuntime;
  let deps: Parameters<typeof syncChanges>[0];
  beforeAll(async () => {
    rt = await testRuntime(sb, { clientOptions: { backoffBaseMs: 5, backoffCapMs: 20 } });
    deps = { client: rt.client, reader: rt.reader, store: rt.stores.cacheStore };
    await board(rt);
  });

  it('with no watermark yet it starts one (1 call) and says nothing is known', async () => {
    const company = sb.companies['growth-admin'];
    expect(await storedWatermark(rt.stores.cacheStore, company)).toBeNull();
    const sent = rt.sent();
    const first = await syncChanges(deps, { maxPages: 50 });
    expect(first).toMatchObject({ kind: 'unknown', calls: 1, marked: 0 });
    expect(rt.sent() - sent).toBe(1);
    expect(await storedWatermark(rt.stores.cacheStore, company)).not.toBeNull();
    // Where each transaction posts, read once (a full refresh does this): what later changes are placed by.
    const mirror = await startMirror(deps, { maxPages: 100 });
    expect(mirror.complete).toBe(true);
    expect(mirror.watermark).toBe(await storedWatermark(rt.stores.cacheStore, company));
  });

  it('nothing changed: 1 call, nothing due', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // past the watermark's second
    const sent = rt.sent();
    const run = await syncChanges(deps, { maxPages: 50 });
    expect(run).toMatchObject({ kind: 'synced', calls: 1, seen: [], marked: 0 });
    expect(rt.sent() - sent).toBe(1);
    expect(await rt.reader.staleKeys()).toEqual([]);
  });

  it('a change in March: the March P&L, the balances from March on, the year\'s cash flow and the totals covering March', async () => {
    const txn = await aTransaction(rt, `${year}-03`, (t) => t.transaction_type === 'standard' && t.category_id !== null && t.accounting_date === t.date);
    const other = (await rt.client.categories.list()).data.find((c) => c.name === 'Advertising')!;
    await sb.control(`transactions/${txn.id}`, { category_id: other.id === txn.category_id ? null : other.id });
    await new Promise((r) => setTimeout(r, 1100));
    const sent = rt.sent();
    const run = await syncChanges(deps, { maxPages: 50 });
    expect(rt.sent() - sent).toBe(1);
    expect(run.kind).toBe('synced');
    expect(run.seen).toEqual([{ id: txn.id, date: txn.date, ownFrom: null }]);
    const m = txn.date.slice(0, 7);
    expect(await staleRequests(rt)).toEqual(
      [
        `/aggregations/total ${year}-01-01 ${year}-03-31`,
        `/aggregations/total ${year}-06-30`,
        `/reports/balance_sheet ${year}-03-31`,
        `/reports/balance_sheet ${year}-06-30`,
        `/reports/balance_sheet ${year}-09-30`,
        `/reports/balance_sheet ${year}-12-31`,
        `/reports/cash_flow ${year}-01-01 ${year}-12-31`,
        `/reports/income_statement ${m}-01 ${m}-31`,
      ].sort(),
    );
    expect(run.marked).toBe(8);

    // A recalculation then fetches those 8 but the two totals, which the March statement and the June balance
    // sheet now decide (reader/derive.ts), and nothing else; the figures are the API's.
    const before = rt.sent();
    await board(rt);
    expect(rt.sent() - before).toBe(6);
    expect(await rt.reader.staleKeys()).toEqual([]);
  });

  it('a deleted transaction (a tombstone) marks its periods', async () => {
    const txn = await aTransaction(rt, `${year}-10`, (t) => t.transaction_type === 'standard' && t.amount_cents !== 0 && t.accounting_date === t.date);
    await sb.control(`transactions/${txn.id}`, { deleted: true });
    await new Promise((r) => setTimeout(r, 1100));
    const run = await syncChanges(deps, { maxPages: 50 });
    expect(run.seen).toEqual([{ id: txn.id, date: txn.date, ownFrom: null }]);
    expect(await staleRequests(rt)).toEqual(
      [`/reports/balance_sheet ${year}-12-31`, `/reports/cash_flow ${year}-01-01 ${year}-12-31`, `/reports/income_statement ${year}-10-01 ${year}-10-31`].sort(),
    );
    await board(rt);
  });

  it('a figure typed between two runs holds a place no run reports (re-dated twice): the run marks it', async () => {
    const txn = await aTransaction(rt, `${year}-04`, (t) => t.transaction_type === 'standard' && t.amount_cents !== 0 && t.accounting_date === t.date && !t.spread && !!t.merchant && !!t.category_id);
    const inJanuary = { category_id: txn.category_id!, start_month: `${year}-01`, end_month: `${year}-01`, merchant: txn.merchant! };
    const apiTotal = async () => (await rt.client.aggregations.total(inJanuary)).total_cents;
    await rt.client.transactions.update(txn.id, { accounting_date: `${year}-01-12` });
    // Typed now: the merchant's January total holds the transaction, which is there only until the next move.
    const typed = () => rt.service.total({ category: txn.category_id, start: `${year}-01`, merchant: txn.merchant });
    const before = await typed();
    expect(Math.round(before * 100)).toBe(await apiTotal());
    await rt.client.transactions.update(txn.id, { accounting_date: `${year}-11-04` });
    await new Promise((r) => setTimeout(r, 1100));
    const run = await syncChanges(deps, { maxPages: 50 });
    expect(run.seen).toEqual([{ id: txn.id, date: txn.date, ownFrom: null }]);
    // The memory knew April, the run says November: neither is January, where the typed figure holds it.
    const sent = rt.sent();
    const after = await typed();
    expect(rt.sent() - sent).toBe(1);
    expect(Math.round(after * 100)).toBe(await apiTotal());
    expect(after).not.toBe(before);
    await board(rt);
  });

  it('a change the add-in made itself was marked when made; the sync places it again from where the row was (others may have changed it too)', async () => {
    const txn = await aTransaction(rt, `${year}-05`, (t) => t.transaction_type === 'standard' && t.accounting_date === t.date);
    const moved = `${year}-06-02`;
    await rt.client.transactions.update(txn.id, { accounting_date: moved });
    await rt.reader.noteOwnChanges([{ id: txn.id, date: txn.date, accountingBefore: txn.date, accountingAfter: moved }], 'binding_1');
    const markedByPush = await staleRequests(rt);
    expect(markedByPush.length).toBeGreaterThan(0);
    await board(rt); // "Refresh what changed" after the push
    await new Promise((r) => setTimeout(r, 1100));
    const run = await syncChanges(deps, { maxPages: 50 });
    expect(run).toMatchObject({ kind: 'synced', calls: 1, seen: [{ id: txn.id, date: txn.date, ownFrom: 'binding_1' }] });
    // Its table is not pulled again (ownFrom), but what it touched is marked again: the push knew what it
    // changed, not whether someone else changed the same row before it (issue 34's property test found one).
    expect(await staleRequests(rt)).toEqual(markedByPush);
    await board(rt);
  });

  it('more changes than refreshing everything costs: it stops before spending them and says so', async () => {
    const a = await aTransaction(rt, `${year}-04`, (t) => t.transaction_type === 'standard');
    const b = await aTransaction(rt, `${year}-08`, (t) => t.transaction_type === 'standard');
    await sb.control(`transactions/${a.id}`, { description: 'changed upstream' });
    await sb.control(`transactions/${b.id}`, { description: 'changed upstream' });
    await new Promise((r) => setTimeout(r, 1100));
    const sent = rt.sent();
    const run = await syncChanges(deps, { maxPages: 1, pageSize: 1 });
    expect(run.kind).toBe('unknown');
    expect(run.reason).toMatch(/more changes than refreshing everything costs/);
    // One page, then a new watermark: two calls, not a page per change.
    expect(rt.sent() - sent).toBe(2);
  });
});

it('a sync restarted by an unusable cursor loses nothing', async () => {
  let spoiled = false;
  const rt = await testRuntime(sb, {
    fetch: (input, init) => {
      const url = new URL(String(input));
      // The second page's cursor is refused once, as after a server restart.
      if (!spoiled && url.pathname.endsWith('/transactions') && url.searchParams.has('starting_after') && url.searchParams.has('updated_after')) {
        spoiled = true;
        url.searchParams.set('starting_after', 'spoiled');
      }
      return fetch(url, init);
    },
  });
  const deps = { client: rt.client, reader: rt.reader, store: rt.stores.cacheStore };
  await startMirror(deps, { maxPages: 100 }); // the watermark, and where each transaction posts
  await board(rt);
  await new Promise((r) => setTimeout(r, 1100));
  const changed: Transaction[] = [];
  for (const month of [`${year}-02`, `${year}-07`, `${year}-11`]) {
    const txn = await aTransaction(rt, month, (t) => t.transaction_type === 'standard' && t.accounting_date === t.date);
    await sb.control(`transactions/${txn.id}`, { description: 'changed upstream' });
    changed.push(txn);
  }
  await new Promise((r) => setTimeout(r, 1100));
  const run = await syncChanges(deps, { maxPages: 50, pageSize: 1 });
  expect(spoiled).toBe(true);
  expect(run.kind).toBe('synced');
  expect(run.seen.map((c) => c.id).sort()).toEqual(changed.map((t) => t.id).sort());
  const stale = await staleRequests(rt);
  for (const t of changed) expect(stale).toContain(`/reports/income_statement ${t.date.slice(0, 7)}-01 ${endOfMonthOf(t.date)}`);
});

function endOfMonthOf(iso: string): string {
  const [y, m] = iso.split('-').map(Number);
  return `${iso.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

it('a full refresh starts a new watermark first: one call', async () => {
  const rt = await testRuntime(sb);
  const sent = rt.sent();
  const w = await startWatermark({ client: rt.client, reader: rt.reader, store: rt.stores.cacheStore });
  expect(rt.sent() - sent).toBe(1);
  expect(await storedWatermark(rt.stores.cacheStore, sb.companies['growth-admin'])).toBe(w);
});
