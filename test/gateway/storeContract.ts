// The store's contract: what the gateway relies on from any implementation (in-process, Redis). Each
// implementation's test file runs this suite against a fresh store of its own.
import type { CacheBounds } from '../../src/gateway/config';
import type { Fingerprint } from '../../src/gateway/keys';
import type { CachedAnswer, GatewayStore } from '../../src/gateway/store/port';

export type MakeStore = (bounds: CacheBounds) => Promise<GatewayStore>;

const BOUNDS: CacheBounds = { maxEntries: 50, maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlSeconds: 3600 };
const fp = (s: string) => s.padEnd(64, '0') as Fingerprint;
const T0 = Date.parse('2026-11-18T19:30:00Z');

function answer(body: string, storedAt = T0): CachedAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body).toString('base64'), storedAt };
}

export function storeContract(make: MakeStore): void {
  let store: GatewayStore;
  const open = async (bounds: CacheBounds = BOUNDS) => {
    store = await make(bounds);
    return store;
  };
  afterEach(async () => {
    await store?.close();
  });

  test('counts are atomic: 300 concurrent additions give 300, each sees a distinct count', async () => {
    await open();
    const tallies = await Promise.all(Array.from({ length: 300 }, () => store.addCalls('comp_a', '2026-11', 1)));
    expect(new Set(tallies.map((t) => t.calls)).size).toBe(300);
    expect((await store.addCalls('comp_a', '2026-11', 0)).calls).toBe(300);
    expect((await store.addCalls('comp_a', '2026-12', 0)).calls).toBe(0);
    expect((await store.addCalls('comp_b', '2026-11', 0)).calls).toBe(0);
    expect((await store.addCalls('comp_a', '2026-11', 5)).calls).toBe(305);
  });

  test('a month marked uncertain says so on every count of that month only', async () => {
    await open();
    expect((await store.addCalls('comp_a', '2026-11', 1)).uncertain).toBe(false);
    await store.markUncertain('comp_a', '2026-11');
    expect(await store.addCalls('comp_a', '2026-11', 1)).toEqual({ calls: 2, uncertain: true });
    expect((await store.addCalls('comp_a', '2026-12', 0)).uncertain).toBe(false);
    expect((await store.addCalls('comp_b', '2026-11', 0)).uncertain).toBe(false);
  });

  test('a key\'s company is remembered by fingerprint and forgotten with its proofs', async () => {
    await open();
    expect(await store.companyOf(fp('a'))).toBeNull();
    await store.rememberCompany(fp('a'), 'comp_a');
    await store.prove(fp('a'), 'reports', T0, 300);
    expect(await store.companyOf(fp('a'))).toBe('comp_a');
    await store.forgetKey(fp('a'));
    expect(await store.companyOf(fp('a'))).toBeNull();
    expect(await store.proofOf(fp('a'), 'reports')).toBeNull();
  });

  test('proofs: per key and area, the latest wins, dropped per key or all at once', async () => {
    await open();
    await store.prove(fp('a'), 'reports', T0, 300);
    await store.prove(fp('a'), 'reports', T0 + 5, 300);
    await store.prove(fp('a'), 'transactions', T0, 300);
    await store.prove(fp('b'), 'reports', T0, 300);
    expect(await store.proofOf(fp('a'), 'reports')).toBe(T0 + 5);
    expect(await store.proofOf(fp('a'), 'company')).toBeNull();
    await store.dropProofs(fp('a'));
    expect(await store.proofOf(fp('a'), 'reports')).toBeNull();
    expect(await store.proofOf(fp('a'), 'transactions')).toBeNull();
    expect(await store.proofOf(fp('b'), 'reports')).toBe(T0);
    await store.dropAllProofs();
    expect(await store.proofOf(fp('b'), 'reports')).toBeNull();
  });

  test('answers are kept per company and URL, and not served past their time to live', async () => {
    await open();
    await store.cachePut('comp_a', '/reports/x?a=1', answer('{"a":1}'));
    expect(await store.cacheGet('comp_a', '/reports/x?a=1', T0 + 1000)).toEqual(answer('{"a":1}'));
    expect(await store.cacheGet('comp_b', '/reports/x?a=1', T0 + 1000)).toBeNull();
    expect(await store.cacheGet('comp_a', '/reports/x?a=2', T0 + 1000)).toBeNull();
    expect(await store.cacheGet('comp_a', '/reports/x?a=1', T0 + 3600_000)).toBeNull();
    await store.cachePut('comp_a', '/reports/x?a=1', answer('{"a":2}', T0 + 10));
    expect((await store.cacheGet('comp_a', '/reports/x?a=1', T0 + 1000))?.storedAt).toBe(T0 + 10);
    expect((await store.cacheSize()).entries).toBe(1);
  });

  test('the cache holds its bounds: entries, bytes, and no answer over the entry limit', async () => {
    await open({ maxEntries: 5, maxBytes: 2_000, maxEntryBytes: 600, ttlSeconds: 3600 });
    for (let i = 0; i < 8; i++) await store.cachePut('comp_a', `/u/${i}`, answer(`{"i":${i}}`, T0 + i));
    expect((await store.cacheSize()).entries).toBe(5);
    // The oldest went first.
    expect(await store.cacheGet('comp_a', '/u/2', T0)).toBeNull();
    expect(await store.cacheGet('comp_a', '/u/3', T0)).not.toBeNull();
    await store.cachePut('comp_a', '/big', answer('x'.repeat(1_000)));
    expect(await store.cacheGet('comp_a', '/big', T0)).toBeNull();
    for (let i = 0; i < 5; i++) await store.cachePut('comp_b', `/v/${i}`, answer('y'.repeat(400), T0 + 100 + i));
    const size = await store.cacheSize();
    expect(size.bytes).toBeLessThanOrEqual(2_000);
    expect(size.entries).toBeLessThanOrEqual(5);
    expect(await store.cacheGet('comp_b', '/v/4', T0)).not.toBeNull();
  });

  test('concurrent writers cannot push the cache past its bounds', async () => {
    await open({ maxEntries: 20, maxBytes: 1_000_000, maxEntryBytes: 10_000, ttlSeconds: 3600 });
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.cachePut(`comp_${i % 3}`, `/w/${i}`, answer(`{"i":${i}}`, T0 + i))));
    expect((await store.cacheSize()).entries).toBe(20);
  });
}
