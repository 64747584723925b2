import crypto from 'node:crypto';
import { ApiError, type SyncPage, type Transaction } from '../../../src/api';
import { collect } from '../../support/collect';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { assignableLeaves, caught, clearFaults, clientFor, daysAgo, editableTransactions, injectFaults, outcomes, sleep, type Harness } from './support';

// Incremental sync of /transactions through the client against the real sandbox: a mirror from 0 equals
// the classic listing, the watermark is committed only after the last page, later runs return exactly
// what changed (PATCH, upstream change, upstream delete), and an unusable cursor restarts the run.

let sb: TestSandbox;
let admin: Harness;

beforeAll(async () => {
  sb = await startSandbox();
  admin = clientFor(sb, 'growth-admin');
});
afterAll(() => sb?.close());
afterEach(() => clearFaults(sb));

/** A change made now lands behind the watermark of a run started after this (watermark = now - 1). */
const pastNextSecond = () => sleep(1100);

/** Immutable filters (safe with updated_after) that select a few hundred rows. */
const window = { start_date: daysAgo(50), end_date: daysAgo(35) };

function applyPage(mirror: Map<string, Transaction>, page: SyncPage): void {
  for (const row of page.upserts) mirror.set(row.id, row);
  for (const t of page.tombstones) mirror.delete(t.id);
}

const byId = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

// State carried through the file, as an add-in would keep it: the mirror and the stored watermark.
const mirror = new Map<string, Transaction>();
let stored: number | null = null;

it('a mirror from 0 equals the classic full listing (classic leaves out tombstones; hidden rows are in neither)', async () => {
  let tombstonesSeen = 0;
  let commits = 0;
  const result = await admin.client.transactions.sync({
    watermark: stored,
    onPage: (page) => {
      tombstonesSeen += page.tombstones.length;
      for (const t of page.tombstones) expect(t.deleted).toBe(true);
      applyPage(mirror, page);
    },
    onCommit: (w) => {
      commits++;
      stored = w;
    },
  });
  expect(commits).toBe(1);
  expect(stored).toBe(result.watermark);
  expect(result.watermark).toBeLessThan(Math.floor(Date.now() / 1000));
  expect(result.pages).toBeGreaterThan(1);
  expect(result.restarts).toBe(0);
  // The seed holds deleted transactions: they come as tombstones and are skipped (never held).
  expect(tombstonesSeen).toBeGreaterThan(0);

  const classic = await collect(admin.client.transactions.iterate());
  expect(mirror.size).toBe(classic.length);
  expect([...mirror.keys()].sort()).toEqual(byId(classic));
  for (const row of classic) expect(mirror.get(row.id)).toEqual(row);
  expect(classic.some((r) => r.deleted === true)).toBe(false);
});

it('follows several pages with the filters and updated_after re-sent; a dropped page is retried; commit comes last', async () => {
  const events: string[] = [];
  const subset = new Map<string, Transaction>();
  const before = admin.lines.length;
  const result = await admin.client.transactions.sync({
    watermark: 0,
    filters: window,
    limit: 100,
    onPage: async (page) => {
      events.push(`page${page.pageIndex}`);
      applyPage(subset, page);
      // The connection of the next page request is cut before the server answers: GET is retried.
      if (page.pageIndex === 0) await injectFaults(sb, { kind: 'drop', method: 'GET', path: '/transactions', count: 1 });
    },
    onCommit: () => void events.push('commit'),
  });
  expect(result.pages).toBeGreaterThan(2);
  expect(events).toEqual([...Array.from({ length: result.pages }, (_, i) => `page${i}`), 'commit']);
  expect(outcomes(admin.lines.slice(before), 'GET', '/transactions')).toEqual(['200', 'network_error', ...Array(result.pages - 1).fill('200')]);

  const classic = await collect(admin.client.transactions.iterate(window));
  expect([...subset.keys()].sort()).toEqual(byId(classic));
  for (const t of subset.values()) expect(t.date >= window.start_date && t.date <= window.end_date).toBe(true);
});

it('a run that fails on its second page commits nothing; the stored watermark does not move', async () => {
  const flaky = clientFor(sb, 'growth-admin', { maxRetries: 1 });
  let subsetWatermark: number | null = null;
  let handled = 0;
  const err = await caught(
    flaky.client.transactions.sync({
      watermark: subsetWatermark,
      filters: window,
      limit: 100,
      onPage: async (page) => {
        handled++;
        // More drops than the client's retries: the run dies on page 2.
        if (page.pageIndex === 0) await injectFaults(sb, { kind: 'drop', method: 'GET', path: '/transactions', count: 2 });
      },
      onCommit: (w) => void (subsetWatermark = w),
    }),
  );
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ type: 'connection_error', code: 'network_error', attempts: 2 });
  expect(handled).toBe(1);
  expect(subsetWatermark).toBeNull();
  expect(outcomes(flaky.lines, 'GET', '/transactions')).toEqual(['200', 'network_error', 'network_error']);

  // The repeat from the (unchanged) stored watermark completes and commits.
  const result = await flaky.client.transactions.sync({ watermark: subsetWatermark, filters: window, limit: 100, onCommit: (w) => void (subsetWatermark = w) });
  expect(subsetWatermark).toBe(result.watermark);
});

it('after a PATCH, an upstream change and an upstream delete, the next sync returns exactly those', async () => {
  expect(stored).not.toBeNull();
  // Catch up first, so the run below sees only what this test changes.
  await pastNextSecond();
  await admin.client.transactions.sync({ watermark: stored, onPage: (p) => applyPage(mirror, p), onCommit: (w) => void (stored = w) });
  const caughtUp = stored!;

  const [patched, changed, deleted] = await editableTransactions(admin.client, 3, 10, 300);
  const leaf = (await assignableLeaves(admin.client)).find((d) => d !== patched.department_id)!;
  await admin.client.transactions.update(patched.id, { department_id: leaf });
  await sb.control(`transactions/${changed.id}`, { merchant: 'Upstream Renamed Merchant' });
  await sb.control(`transactions/${deleted.id}`, { deleted: true });
  await pastNextSecond();

  const pages: SyncPage[] = [];
  const result = await admin.client.transactions.sync({
    watermark: stored,
    onPage: (p) => {
      pages.push(p);
      applyPage(mirror, p);
    },
    onCommit: (w) => void (stored = w),
  });
  const upserts = pages.flatMap((p) => p.upserts);
  const tombstones = pages.flatMap((p) => p.tombstones);
  expect(upserts.map((t) => t.id).sort()).toEqual([patched.id, changed.id].sort());
  expect(tombstones.map((t) => t.id)).toEqual([deleted.id]);
  expect(result).toMatchObject({ pages: 1, upserts: 2, tombstones: 1, restarts: 0 });
  expect(stored).toBeGreaterThan(caughtUp);

  expect(upserts.find((t) => t.id === patched.id)!.department_id).toBe(leaf);
  expect(upserts.find((t) => t.id === changed.id)!.merchant).toBe('Upstream Renamed Merchant');
  expect(tombstones[0]).toMatchObject({ id: deleted.id, deleted: true });
  for (const t of [...upserts, ...tombstones]) expect((t as { updated?: number }).updated!).toBeGreaterThan(caughtUp);

  // The mirror still equals the live listing.
  expect(mirror.has(deleted.id)).toBe(false);
  expect(await caught(admin.client.transactions.retrieve(deleted.id))).toMatchObject({ status: 404, code: 'resource_missing' });
  const classic = await collect(admin.client.transactions.iterate());
  expect([...mirror.keys()].sort()).toEqual(byId(classic));
  for (const row of classic) expect(mirror.get(row.id)).toEqual(row);

  // Nothing changed since: the next run is one empty page.
  const quiet = await admin.client.transactions.sync({ watermark: stored, onCommit: (w) => void (stored = w) });
  expect(quiet).toMatchObject({ pages: 1, upserts: 0, tombstones: 0 });
});

it('updated_after outside 0..253402300799 is a 400 from the server, and refused locally by sync', async () => {
  expect(await caught(admin.client.transactions.list({ updated_after: 253402300800 }))).toMatchObject({ status: 400, code: 'invalid_request', param: 'updated_after' });
  expect(await caught(admin.client.transactions.list({ updated_after: -1 }))).toMatchObject({ status: 400, code: 'invalid_request', param: 'updated_after' });
  const top = await admin.client.transactions.list({ updated_after: 253402300799 });
  expect(top).toMatchObject({ data: [], has_more: false, watermark: expect.any(Number) });
  const before = admin.lines.length;
  // A millisecond timestamp stored by mistake never reaches the server.
  expect(await caught(admin.client.transactions.sync({ watermark: Date.now() }))).toMatchObject({ status: null, code: 'invalid_request', param: 'updated_after', attempts: 0 });
  expect(admin.lines.length).toBe(before);
});

/** A real cursor with its payload edited (here: the pinned watermark moved) and the old signature kept. */
function tamper(cursor: string, edit: (payload: Record<string, unknown>) => void): string {
  const [body, mac] = cursor.split('.');
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  edit(payload);
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
}

it('an unusable incremental cursor is 404 resource_missing, param starting_after', async () => {
  const first = await admin.client.transactions.list({ updated_after: 0, limit: 50 });
  expect(first.has_more).toBe(true);
  const cursor = first.next_cursor!;
  const next = await admin.client.transactions.list({ updated_after: 0, limit: 50, starting_after: cursor });
  expect(next.data[0].id).not.toBe(first.data[0].id);

  const tampered = tamper(cursor, (p) => {
    p.w = (p.w as number) + 100_000;
  });
  for (const bad of [tampered, 'not-a-cursor', `${cursor}x`]) {
    const err = await caught(admin.client.transactions.list({ updated_after: 0, limit: 50, starting_after: bad }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, type: 'invalid_request_error', code: 'resource_missing', param: 'starting_after', attempts: 1 });
  }
  // A cursor carried to another updated_after is unusable too.
  const otherRun = await caught(admin.client.transactions.list({ updated_after: 1, limit: 50, starting_after: cursor }));
  expect(otherRun).toMatchObject({ status: 404, code: 'resource_missing', param: 'starting_after' });
});

it('a run whose cursor becomes unusable restarts from the stored watermark and still commits once', async () => {
  const ctx = sb.running.ctx as { secret: string };
  const original = ctx.secret;
  const subset = new Map<string, Transaction>();
  const seen: { pageIndex: number; restarts: number }[] = [];
  let commits = 0;
  let committed: number | null = null;
  try {
    const result = await admin.client.transactions.sync({
      watermark: 0,
      filters: window,
      limit: 100,
      onPage: (page) => {
        seen.push({ pageIndex: page.pageIndex, restarts: page.restarts });
        applyPage(subset, page);
        // The server rotates its cursor key (as after a deploy): the cursor just handed out no longer verifies.
        if (page.pageIndex === 1 && page.restarts === 0) ctx.secret = crypto.randomBytes(32).toString('hex');
      },
      onCommit: (w) => {
        commits++;
        committed = w;
      },
    });
    expect(result.restarts).toBe(1);
    expect(commits).toBe(1);
    expect(committed).toBe(result.watermark);
    expect(seen.slice(0, 3)).toEqual([
      { pageIndex: 0, restarts: 0 },
      { pageIndex: 1, restarts: 0 },
      { pageIndex: 0, restarts: 1 },
    ]);
    expect(seen[seen.length - 1].restarts).toBe(1);
  } finally {
    ctx.secret = original;
  }
  const lines = outcomes(admin.lines, 'GET', '/transactions');
  expect(lines).toContain('404');
  const classic = await collect(admin.client.transactions.iterate(window));
  expect([...subset.keys()].sort()).toEqual(byId(classic));
});
