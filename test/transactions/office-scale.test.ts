// 50,000 rows through the real engine and OfficeGateway on the fake Excel object model (which queues
// until sync, counts syncs and rejects requests and responses over 5 MB). The Growth demo has ~20,000
// transactions, so the API here is a small fake behind the client's `fetch` that serves 50,000 synthetic
// transactions in incremental pages of 500; everything above fetch (client, paging, sync, engine,
// gateway) is the production code.

import { createClient, type Department, type Transaction } from '../../src/api';
import { CachedReader } from '../../src/engine/reader/cachedReader';
import { RequestCache } from '../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { COL, createTransactionsEngine, MSG } from '../../src/engine/transactions';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { EXCEL_PAYLOAD_LIMIT_BYTES } from '../../src/excel/payload';
import type { WriteStats } from '../../src/engine/ports/workbook';
import { officeHarness } from '../excel/harnesses';

jest.setTimeout(300_000);

const DEPARTMENTS: Department[] = [
  { id: 'dept_root', object: 'department', name: 'Northwind', tier: 1, parent_id: null, assignable: false },
  { id: 'dept_gtm', object: 'department', name: 'Go-to-Market', tier: 2, parent_id: 'dept_root', assignable: false },
  { id: 'dept_sales', object: 'department', name: 'Sales', tier: 3, parent_id: 'dept_gtm', assignable: false },
  { id: 'dept_east', object: 'department', name: 'Sales East', tier: 4, parent_id: 'dept_sales', assignable: true },
  { id: 'dept_west', object: 'department', name: 'Sales West', tier: 4, parent_id: 'dept_sales', assignable: true },
  { id: 'dept_cs', object: 'department', name: 'Customer Success', tier: 3, parent_id: 'dept_gtm', assignable: false },
  { id: 'dept_cs_ops', object: 'department', name: 'Operations', tier: 4, parent_id: 'dept_cs', assignable: true },
  { id: 'dept_gna', object: 'department', name: 'G&A', tier: 2, parent_id: 'dept_root', assignable: false },
  { id: 'dept_fin', object: 'department', name: 'Finance', tier: 3, parent_id: 'dept_gna', assignable: false },
  { id: 'dept_fin_ops', object: 'department', name: 'Operations', tier: 4, parent_id: 'dept_fin', assignable: true },
];
const LEAVES = ['dept_east', 'dept_west', 'dept_cs_ops', 'dept_fin_ops'];
const MERCHANTS = ['Amazon Web Services', 'Delta Air Lines', 'Café Olé', '=HYPERLINK("http://x","y")', 'Blue Bottle Coffee', 'Uber'];

/** A transaction with the fake API's own modification stamp (it orders its sync runs by it). */
type Stamped = Transaction & { updated: number };

function synthetic(i: number, updated: number): Stamped {
  const day = 1 + (i % 28);
  const month = 1 + (Math.floor(i / 28) % 12);
  const date = `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return {
    id: `txn_${i.toString(36).padStart(8, '0')}`,
    object: 'transaction',
    date,
    accounting_date: i % 7 === 0 ? `2025-${String(month).padStart(2, '0')}-28` : null,
    amount_cents: ((i * 7919) % 500_000) - 250_000,
    currency: 'USD',
    merchant: MERCHANTS[i % MERCHANTS.length],
    description: `Card payment ${i} - ${MERCHANTS[(i + 3) % MERCHANTS.length]} receipt attached, memo line`,
    categorized: true,
    category_id: 'cat_software',
    category_name: 'Software & Subscriptions',
    department_id: LEAVES[i % LEAVES.length],
    department_name: null,
    transaction_type: i % 50 === 0 ? 'transfer' : 'standard',
    source: { vendor: 'chase', type: 'bank', account_name: 'Operating account ••4821' },
    status: i % 40 === 0 ? 'pending' : 'approved',
    spread: null,
    transfer_id: null,
    created: 1_700_000_000,
    updated,
    deleted: false,
  };
}

/** The fake API: the company's transactions by id and a clock of `updated` values. */
class FakeApi {
  rows = new Map<string, Stamped>();
  watermark = 1_000;
  calls = 0;

  constructor(n: number) {
    for (let i = 0; i < n; i++) this.rows.set(synthetic(i, 100).id, synthetic(i, 100));
  }

  readonly fetch = async (input: RequestInfo | URL): Promise<Response> => {
    this.calls++;
    const url = new URL(String(input));
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path === '/departments') return json({ object: 'list', url: '/api/v1/departments', data: DEPARTMENTS });
    if (path === '/company') return json({ id: 'comp_fake', object: 'company', name: 'Fake', incorporation: { date: '2020-01-01', state: 'DE' } });
    if (path === '/transactions') {
      const after = Number(url.searchParams.get('updated_after'));
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const offset = Number(url.searchParams.get('starting_after') ?? 0);
      const matching = [...this.rows.values()].filter((t) => t.updated > after && t.updated <= this.watermark);
      matching.sort((a, b) => a.updated - b.updated || a.id.localeCompare(b.id));
      const page = matching.slice(offset, offset + limit);
      const more = offset + limit < matching.length;
      return json({ object: 'list', url: '/api/v1/transactions', has_more: more, next_cursor: more ? String(offset + limit) : null, data: page, watermark: this.watermark });
    }
    return new Response(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'no' } }), { status: 404 });
  };
}

test('pull, review and refresh of 50,000 rows: no Excel request over 5 MB, a bounded number of syncs', async () => {
  const api = new FakeApi(50_000);
  const client = createClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'svc_scale_test', companyId: 'comp_fake', fetch: api.fetch as typeof fetch });
  const h = officeHarness();
  const reader = new CachedReader({ client, cache: new RequestCache(new MemoryCacheStore()) });
  const engine = createTransactionsEngine({ client, reader, journal: new MemorySecretStore(), owner: { keyFingerprint: 'test', label: 'Test' }, gateway: h.office, now: () => Date.parse('2026-01-15T12:00:00Z') });

  // Pull: 2 reference calls + 100 pages of 500; then one chunked table write (its stats kept as it ends:
  // the gateway reports only the last operation, and the pull goes on to set the department list).
  let createStats: WriteStats | undefined;
  const createTable = h.office.createTable.bind(h.office);
  h.office.createTable = async (spec) => {
    const ref = await createTable(spec);
    createStats = h.office.lastWriteStats;
    return ref;
  };
  const pulled = await engine.pull({});
  expect(pulled.rows).toBe(50_000);
  expect(api.calls).toBe(102);
  const pullSyncs = h.fake.syncs;
  const measured = {
    pullSyncs: pullSyncs.length,
    largestRequestBytes: h.fake.largestRequestBytes,
    totalRequestMB: +(pullSyncs.reduce((n, s) => n + s.requestBytes, 0) / 1e6).toFixed(1),
  };
  console.log('engine pull of 50,000 rows on the fake Excel', JSON.stringify(measured));
  expect(pullSyncs.every((s) => !s.error && s.requestBytes <= EXCEL_PAYLOAD_LIMIT_BYTES && s.responseBytes <= EXCEL_PAYLOAD_LIMIT_BYTES)).toBe(true);
  expect(measured.pullSyncs).toBeLessThanOrEqual(20);
  // The table went in as one chunked createTable, every request under Excel's payload limit, no retry.
  expect(createStats).toMatchObject({ operation: 'createTable', rows: 50_000, retries: 0 });
  expect(createStats!.chunks).toBeGreaterThan(1);
  expect(createStats!.rowsPerChunk * createStats!.chunks).toBeGreaterThanOrEqual(50_000);
  expect(createStats!.largestPayloadBytes).toBeLessThanOrEqual(EXCEL_PAYLOAD_LIMIT_BYTES);
  // API text stays text: a merchant that looks like a formula is a '@' cell holding the string.
  const sheet = h.fake.sheet(pulled.sheet);
  const merchants = Array.from({ length: 50_000 }, (_, r) => sheet.get(r + 1, 4)!);
  expect(merchants.filter((c) => c.value === MERCHANTS[3])).toHaveLength(Math.ceil(50_000 / MERCHANTS.length) - 1);
  expect(merchants.every((c) => c.formula === undefined && c.numberFormat === '@')).toBe(true);

  // Review of a 50,000-row table (one chunked read): edits found, no call.
  await h.office.updateRowsByKey(pulled.table, COL.id, [
    { key: synthetic(1, 0).id, values: { [COL.department]: 'Northwind > G&A > Finance > Operations' } },
    { key: synthetic(2, 0).id, values: { [COL.department]: 'Sales Eest' } },
  ]);
  h.fake.resetLog();
  const calls0 = api.calls;
  const plan = await engine.review(pulled.bindingId);
  expect(api.calls).toBe(calls0);
  expect(plan.edited).toBe(2);
  expect(plan.groups.map((g) => g.rows)).toEqual([1]);
  expect(plan.invalid[0].message).toBe("Unknown department 'Sales Eest' — pick from the list");
  const reviewSyncs = h.fake.syncs.length;
  expect(h.fake.syncs.every((s) => !s.error && s.requestBytes <= EXCEL_PAYLOAD_LIMIT_BYTES && s.responseBytes <= EXCEL_PAYLOAD_LIMIT_BYTES)).toBe(true);
  expect(reviewSyncs).toBeLessThanOrEqual(15);

  // Upstream: 5,000 changed, 1,000 new, 500 deleted; one incremental refresh applies them in a few writes.
  api.watermark = 2_000;
  for (let i = 1000; i < 6000; i++) {
    const t = synthetic(i, 1_500);
    api.rows.set(t.id, { ...t, department_id: LEAVES[(i + 1) % LEAVES.length], merchant: `Renamed ${i}` });
  }
  for (let i = 50_000; i < 51_000; i++) api.rows.set(synthetic(i, 1_600).id, synthetic(i, 1_600));
  for (let i = 10_000; i < 10_500; i++) api.rows.set(synthetic(i, 0).id, { ...synthetic(i, 1_700), deleted: true });
  h.fake.resetLog();
  const refreshed = await engine.refresh(pulled.bindingId);
  expect(refreshed.counts).toMatchObject({ updated: 5000, added: 1000, removed: 500 });
  const refreshSyncs = h.fake.syncs;
  console.log('engine refresh (5,000 updated, 1,000 added, 500 removed) on 50,000 rows', JSON.stringify({ syncs: refreshSyncs.length, largestRequestBytes: h.fake.largestRequestBytes }));
  expect(refreshSyncs.every((s) => !s.error && s.requestBytes <= EXCEL_PAYLOAD_LIMIT_BYTES && s.responseBytes <= EXCEL_PAYLOAD_LIMIT_BYTES)).toBe(true);
  expect(refreshSyncs.length).toBeLessThanOrEqual(40);

  const back = await h.office.readTable(pulled.table);
  expect(back.rows).toHaveLength(50_500);
  const col = (n: string) => back.columns.indexOf(n);
  const edited = back.rows.find((r) => r[col(COL.id)] === synthetic(1, 0).id)!;
  expect(edited[col(COL.department)]).toBe('Northwind > G&A > Finance > Operations'); // the local edit survived
  const changed = back.rows.find((r) => r[col(COL.id)] === synthetic(1234, 0).id)!;
  expect(changed[col(COL.merchant)]).toBe('Renamed 1234');
  expect(back.rows.some((r) => r[col(COL.id)] === synthetic(10_100, 0).id)).toBe(false);
  expect(back.rows.some((r) => r[col(COL.id)] === synthetic(50_999, 0).id)).toBe(true);
  expect(MSG.updated).toBe('Updated');
});
