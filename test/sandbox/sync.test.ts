import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { all, expectError, growth, one, standardIds, startup } from './txnFixtures';

// Incremental sync (GET /transactions?updated_after=...): watermark, ordering, tombstones, cursors.

let sb: TestSandbox;
let admin: string;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
});
afterAll(() => sb?.close());

const get = (path: string, key = admin) => call(sb, key, 'GET', path);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Lets the clock pass into a new second, so a change made before is behind the next watermark. */
const nextSecond = () => sleep(1100);

/** Follows every page of one sync run; returns the rows and the (single) watermark. */
async function syncRun(updatedAfter: number, query = '', limit = 500, onPage?: (page: number, data: any[]) => Promise<void>) {
  const rows: any[] = [];
  const watermarks = new Set<number>();
  let cursor: string | null = null;
  for (let page = 0; ; page++) {
    const after: string = cursor ? `&starting_after=${encodeURIComponent(cursor)}` : '';
    const res = await get(`/transactions?updated_after=${updatedAfter}&limit=${limit}${query}${after}`);
    expect(res.status).toBe(200);
    watermarks.add(res.body.watermark);
    rows.push(...res.body.data);
    if (onPage) await onPage(page, res.body.data);
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      break;
    }
    cursor = res.body.next_cursor;
  }
  expect(watermarks.size).toBe(1);
  return { rows, watermark: [...watermarks][0] };
}

it('mirrors every visible transaction of the company from updated_after=0, oldest change first, with one pinned watermark', async () => {
  const before = Math.floor(Date.now() / 1000);
  const { rows, watermark } = await syncRun(0);
  expect(watermark).toBeGreaterThanOrEqual(before - 2);
  expect(watermark).toBeLessThan(Math.floor(Date.now() / 1000));
  const expected = one(sb, 'SELECT COUNT(*) AS n FROM transactions WHERE company_id = ? AND hidden = 0 AND updated <= ?', growth(sb), watermark).n;
  expect(rows.length).toBe(expected);
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  for (let i = 1; i < rows.length; i++) expect(rows[i].updated).toBeGreaterThanOrEqual(rows[i - 1].updated);
  expect(rows.every((r) => r.updated > 0 && r.updated <= watermark && typeof r.deleted === 'boolean')).toBe(true);
  const startupIds = new Set(all(sb, 'SELECT id FROM transactions WHERE company_id = ?', startup(sb)).map((r) => r.id));
  expect(rows.some((r) => startupIds.has(r.id))).toBe(false);
});

it('delivers a change made during a run in the next run, over several pages', async () => {
  const day = one(sb, 'SELECT date FROM transactions WHERE company_id = ? AND hidden = 0 ORDER BY date DESC LIMIT 1 OFFSET 400', growth(sb)).date;
  const filter = `&start_date=${day}&end_date=${day}`;
  const inRange = all(
    sb,
    'SELECT id FROM transactions WHERE company_id = ? AND hidden = 0 AND deleted = 0 AND date = ? ORDER BY updated, update_seq, id',
    growth(sb),
    day,
  );
  expect(inRange.length).toBeGreaterThan(6);
  const late = inRange[inRange.length - 1].id;
  let early = '';
  const run = await syncRun(0, filter, 3, async (page, data) => {
    if (page !== 0) return;
    early = data[0].id;
    expect((await call(sb, admin, 'PATCH', `/transactions/${late}`, { merchant: 'Changed Mid Run' })).status).toBe(200);
    await sb.control(`transactions/${early}`, { description: 'upstream change mid run' });
  });
  const ids = run.rows.map((r) => r.id);
  expect(ids).toContain(early);
  expect(ids).not.toContain(late);
  expect(ids.length).toBe(inRange.length - 1);
  await nextSecond();
  const next = await syncRun(run.watermark, filter);
  const byId = new Map(next.rows.map((r) => [r.id, r]));
  expect(byId.get(late)).toMatchObject({ merchant: 'Changed Mid Run', deleted: false });
  expect(byId.get(early)).toMatchObject({ description: 'upstream change mid run' });
  expect(next.rows.length).toBe(2);
});

it('a PATCH followed by a sync shows the row', async () => {
  const { watermark } = await syncRun(0);
  const [id] = standardIds(sb, growth(sb), 1, 300);
  const patched = await call(sb, admin, 'PATCH', `/transactions/${id}`, { merchant: 'Sync Me' });
  await nextSecond();
  const { rows } = await syncRun(watermark);
  expect(rows.find((r) => r.id === id)).toEqual(patched.body);
});

it('sends tombstones for deleted transactions', async () => {
  const { watermark } = await syncRun(0);
  const [id] = standardIds(sb, growth(sb), 1, 310);
  await sb.control(`transactions/${id}`, { deleted: true });
  await nextSecond();
  const { rows } = await syncRun(watermark);
  const tomb = rows.find((r) => r.id === id);
  expect(tomb).toMatchObject({ id, object: 'transaction', deleted: true });
  expect(tomb.updated).toBeGreaterThan(watermark);
  const full = await syncRun(0);
  expect(full.rows.find((r) => r.id === id)?.deleted).toBe(true);
  expectError(await get(`/transactions/${id}`), 404, 'resource_missing', 'id');
});

it('applies filters to current state: a row that stops matching disappears', async () => {
  const { watermark } = await syncRun(0);
  const id = one(
    sb,
    "SELECT id FROM transactions WHERE company_id = ? AND status = 'pending' AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0",
    growth(sb),
  ).id;
  await call(sb, admin, 'PATCH', `/transactions/${id}`, { merchant: 'Pending Then Approved' });
  await sb.control(`transactions/${id}`, { status: 'approved' });
  await nextSecond();
  const pending = await syncRun(watermark, '&status=pending');
  expect(pending.rows.map((r) => r.id)).not.toContain(id);
  const approved = await syncRun(watermark, '&status=approved');
  expect(approved.rows.find((r) => r.id === id)).toMatchObject({ status: 'approved', merchant: 'Pending Then Approved' });
  const split = await syncRun(0, '&transaction_type=split&source_type=bank');
  expect(split.rows.every((r) => r.transaction_type === 'split' && r.source.type === 'bank')).toBe(true);
});

it('returns an empty first page when nothing changed', async () => {
  const res = await get(`/transactions?updated_after=${Math.floor(Date.now() / 1000) + 100}`);
  expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null, data: [] });
  expect(Number.isInteger(res.body.watermark)).toBe(true);
});

it('validates updated_after', async () => {
  for (const v of ['-1', '1.5', 'abc', '', '253402300800', String(Date.now()), '1e9']) {
    expectError(await get(`/transactions?updated_after=${encodeURIComponent(v)}`), 400, 'invalid_request', 'updated_after');
  }
  expect((await get('/transactions?updated_after=253402300799')).status).toBe(200);
});

it('404s a cursor it cannot use', async () => {
  const first = await get('/transactions?updated_after=0&limit=3');
  const cursor = first.body.next_cursor as string;
  expect(cursor.startsWith('txn_')).toBe(false);
  expect((await get(`/transactions?updated_after=0&limit=3&starting_after=${encodeURIComponent(cursor)}`)).status).toBe(200);
  const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
  const bad = [
    `updated_after=5&starting_after=${encodeURIComponent(cursor)}`,
    `updated_after=0&starting_after=${encodeURIComponent(tampered)}`,
    `updated_after=0&starting_after=garbage`,
    `updated_after=0&starting_after=${first.body.data[0].id}`,
    `starting_after=${encodeURIComponent(cursor)}`,
  ];
  for (const q of bad) expectError(await get(`/transactions?${q}`), 404, 'resource_missing', 'starting_after');
  const foreign = await get('/transactions?updated_after=0&limit=1', sb.keys['startup-admin']);
  expectError(await get(`/transactions?updated_after=0&starting_after=${encodeURIComponent(foreign.body.next_cursor)}`), 404, 'resource_missing', 'starting_after');
});
