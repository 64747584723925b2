// Add-in storage as Office gives it: one OfficeRuntime.storage for the key, the connection, the call meter
// and the cached answers (src/excel/runtimeStorage.ts, secretStore.ts), here a stand-in that refuses a
// write once full, as localStorage does. A full cache never breaks connecting nor loses the meter, and the
// key is kept under Office's partition key where there is one.
import { OfficeRuntimeCacheStore, OfficeRuntimeMeterStore, type BulkKeyValueStorage } from '../../src/excel/runtimeStorage';
import { OfficeRuntimeSecretStore } from '../../src/excel/secretStore';
import { createRuntime } from '../../src/runtime';

/** OfficeRuntime.storage over a quota of characters (keys and values), like the shared runtime's localStorage. */
class QuotaStorage implements BulkKeyValueStorage {
  readonly data = new Map<string, string>();
  constructor(readonly capacity: number) {}
  used(except?: string): number {
    let n = 0;
    for (const [k, v] of this.data) if (k !== except) n += k.length + v.length;
    return n;
  }
  async getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  async setItem(key: string, value: string) {
    if (this.used(key) + key.length + value.length > this.capacity) {
      throw Object.assign(new Error("Failed to execute 'setItem' on 'Storage': the quota has been exceeded."), { name: 'QuotaExceededError' });
    }
    this.data.set(key, value);
  }
  async removeItem(key: string) {
    this.data.delete(key);
  }
  async getKeys() {
    return [...this.data.keys()];
  }
  async removeItems(keys: string[]) {
    for (const k of keys) this.data.delete(k);
  }
}

/** Fills the storage to the brim with another company's cached answers from an earlier session. */
async function fillWithAnswers(storage: QuotaStorage): Promise<number> {
  const key = (i: number) => `fin-cache:comp_other:/reports/balance_sheet?date=${i}`;
  const text = (i: number, chars: number) => JSON.stringify({ value: { filler: 'a'.repeat(chars) }, fetchedAt: 1_700_000_000_000 + i });
  const size = (i: number, chars: number) => key(i).length + text(i, chars).length;
  let i = 0;
  // Answers of 900 characters while one more of at least that still fits after them, then one to the brim.
  for (; storage.used() + size(i, 900) + size(i + 1, 900) <= storage.capacity; i++) await storage.setItem(key(i), text(i, 900));
  await storage.setItem(key(i), text(i, storage.capacity - storage.used() - size(i, 0)));
  await expect(storage.setItem('probe', 'x')).rejects.toThrow(/quota/); // full
  return i + 1;
}

function officeRuntime(storage: QuotaStorage) {
  return createRuntime({
    cacheStore: new OfficeRuntimeCacheStore(storage),
    meterStore: new OfficeRuntimeMeterStore(storage),
    secrets: new OfficeRuntimeSecretStore(storage, 'fin.secret.', () => undefined),
    dateSystem: async () => 1900,
    recalculate: async () => ({}),
    fetch: async () => {
      throw new Error('no call may be sent');
    },
  });
}

const API = 'https://api.example.com/api/v1';
const KEY = 'svc_live_0123456789abcdef';

describe('a full add-in storage', () => {
  it('connecting evicts cached answers (the oldest first) to store the key and the connection', async () => {
    const storage = new QuotaStorage(60_000);
    const answers = await fillWithAnswers(storage);
    const runtime = officeRuntime(storage);
    await runtime.connect({ baseUrl: API, apiKey: KEY, companyId: 'comp_1' });
    expect(storage.data.get('fin.secret.apiKey:comp_1')).toBe(KEY);
    expect(JSON.parse(storage.data.get('fin.secret.connections')!)).toEqual({
      defaultName: 'comp_1',
      list: [{ name: 'comp_1', baseUrl: API, companyId: 'comp_1', keyFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
    const left = [...storage.data.keys()].filter((k) => k.startsWith('fin-cache:'));
    expect(left.length).toBeLessThan(answers);
    expect(left.length).toBeGreaterThan(answers / 2); // a little room was made, not the whole cache
    // The oldest answers went: the ones left are the newest.
    const kept = left.map((k) => Number(k.split('=')[1])).sort((a, b) => a - b);
    expect(kept[kept.length - 1]).toBe(answers - 1);
    expect(kept[0]).toBe(answers - left.length);
    // A new runtime (a reopen) finds the connection.
    expect(await officeRuntime(storage).getConnection()).toEqual({ name: 'comp_1', baseUrl: API, companyId: 'comp_1', keyFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
    runtime.dispose();
  });

  it('the call meter is stored even when the answers filled the storage', async () => {
    const storage = new QuotaStorage(60_000);
    const runtime = officeRuntime(storage);
    await runtime.connect({ baseUrl: API, apiKey: KEY, companyId: 'comp_1' });
    await fillWithAnswers(storage);
    expect(await runtime.meter.record('comp_1', '2026-11', 7)).toBe(7);
    expect(storage.data.get('api-calls:comp_1:2026-11')).toBe('7');
    // A reopen reads the count back.
    expect(await officeRuntime(storage).meter.count('comp_1', '2026-11')).toBe(7);
    runtime.dispose();
  });

  it('when nothing is left to evict, the store says why', async () => {
    const storage = new QuotaStorage(100);
    const runtime = officeRuntime(storage);
    await expect(runtime.connect({ baseUrl: API, apiKey: `${KEY}${'x'.repeat(200)}`, companyId: 'comp_1' })).rejects.toThrow(/quota/);
    runtime.dispose();
  });
});

describe('the key under Office partition key', () => {
  it('is kept under the partition where Office names one, moved there from an earlier unpartitioned copy', async () => {
    const storage = new QuotaStorage(10_000);
    await storage.setItem('fin.secret.apiKey', KEY); // an earlier version's copy
    const secrets = new OfficeRuntimeSecretStore(storage, 'fin.secret.', () => 'excel.cloud.microsoft|addin.example.com');
    expect(await secrets.get('apiKey')).toBe(KEY);
    expect([...storage.data.keys()]).toEqual(['excel.cloud.microsoft|addin.example.com:fin.secret.apiKey']);
    // Another top-level site's partition (the same origin in another host) does not find it.
    expect(await new OfficeRuntimeSecretStore(storage, 'fin.secret.', () => 'outlook.office.com|addin.example.com').get('apiKey')).toBeUndefined();
    await secrets.remove('apiKey');
    expect(storage.data.size).toBe(0);
  });

  it('without a partition (the Windows webviews), under the plain name as before', async () => {
    const storage = new QuotaStorage(10_000);
    const secrets = new OfficeRuntimeSecretStore(storage, 'fin.secret.', () => undefined);
    await secrets.set('apiKey', KEY);
    expect([...storage.data.keys()]).toEqual(['fin.secret.apiKey']);
  });
});
