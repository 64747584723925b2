import { CallMeter, MemoryMeterStore, meterKey, PLAN_CAPS, type MeterChange, type MeterStore } from '../../src/api';
import { errorBody, rel, startFakeApi, testClient, type FakeApi, type Recorded, type Reply } from './helpers/fakeApi';

// The meter must equal what the server counts: every request sent with a valid key counts whatever
// its status, except 401 and 429 monthly_limit_exceeded; network-level failures count too.

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const company = { id: 'comp_42', object: 'company', name: 'Demo' };
const list = { object: 'list', url: '/api/v1/categories', data: [] };

/** Routes by a scripted reply per call; GET /company always answers the company. */
function scripted(replies: Reply[]) {
  let i = 0;
  return (req: Recorded): Reply => {
    if (rel(req) === '/company') return { status: 200, body: company };
    return replies[i++] ?? { status: 200, body: list };
  };
}

async function settle(p: Promise<unknown>): Promise<void> {
  await p.catch(() => undefined);
}

describe('counting rule', () => {
  it('counts every status but 401 and 429 monthly, plus network drops', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(
      scripted([
        { status: 200, body: list },
        { status: 400, body: errorBody('invalid_request_error', 'invalid_request', 'x') },
        { status: 401, body: errorBody('authentication_error', 'invalid_api_key', 'x') },
        { status: 403, body: errorBody('permission_error', 'insufficient_permission', 'x') },
        { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'x') },
        { status: 429, headers: { 'Retry-After': '1' }, body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'x') },
        { status: 429, body: errorBody('limit_error', 'monthly_limit_exceeded', 'The limit resets on 2026-12-01 at 00:00 Pacific Time.') },
        { status: 500, body: errorBody('api_error', 'internal_error', 'x') },
        { drop: true },
        { status: 200, body: list },
      ]),
    );
    for (let i = 0; i < 10; i++) await settle(client.categories.list());
    // 10 sent: the 401 and the monthly 429 are not counted.
    expect(api.requests).toHaveLength(10);
    expect(await client.meter.count()).toBe(8);
  });

  it('counts every attempt of a retried call', async () => {
    const { client } = testClient(api, { companyId: 'comp_42' });
    api.setHandler((_req, i) => (i < 2 ? { status: 503, body: errorBody('api_error', 'rules_not_ready', 'x') } : { status: 200, body: list }));
    await client.categories.list();
    expect(await client.meter.count()).toBe(3);
  });

  it('does not count a refused connection (nothing reached the server)', async () => {
    const port = new URL(api.baseUrl).port;
    await api.close();
    const { client } = testClient({ ...api, baseUrl: `http://127.0.0.1:${port}/api/v1` }, { companyId: 'comp_42', maxRetries: 1 });
    await settle(client.categories.list());
    expect(await client.meter.count()).toBe(0);
    api = await startFakeApi();
  });

  it('does not count the unauthenticated burst limit that follows a 401', async () => {
    const { client } = testClient(api, { companyId: 'comp_42', maxRetries: 0 });
    api.setHandler(
      scripted([
        { status: 401, body: errorBody('authentication_error', 'invalid_api_key', 'x') },
        { status: 429, headers: { 'Retry-After': '1' }, body: errorBody('rate_limit_error', 'rate_limit_exceeded', 'x') },
      ]),
    );
    await settle(client.categories.list());
    await settle(client.categories.list());
    expect(await client.meter.count()).toBe(0);
  });
});

describe('company attribution', () => {
  it('holds counts until GET /company names the company, then moves them over', async () => {
    const store = new MemoryMeterStore();
    const now = Date.parse('2026-11-20T18:00:00Z');
    const { client } = testClient(api, { meterStore: store, now: () => now });
    api.setHandler(scripted([]));
    await client.categories.list();
    await client.categories.list();
    expect(client.companyId).toBeNull();
    expect(await client.meter.count()).toBe(2);
    await client.company.retrieve();
    expect(client.companyId).toBe('comp_42');
    expect(await client.meter.count()).toBe(3);
    expect(store.get(meterKey('comp_42', '2026-11'))).toBe(3);
    await client.departments.list().catch(() => undefined);
    expect(await client.meter.count()).toBe(4);
    expect(await client.ensureCompanyId()).toBe('comp_42');
    expect(api.requests).toHaveLength(4);
  });

  it('ensureCompanyId spends a call only when unknown', async () => {
    const { client } = testClient(api);
    api.setHandler(scripted([]));
    expect(await client.ensureCompanyId()).toBe('comp_42');
    expect(await client.ensureCompanyId()).toBe('comp_42');
    expect(api.requests).toHaveLength(1);
    expect(await client.meter.count()).toBe(1);
  });
});

describe('months, caps and resets', () => {
  it('counts per Pacific-time month', async () => {
    let now = Date.parse('2026-11-01T06:30:00Z'); // Oct 31, 23:30 PDT
    const { client } = testClient(api, { companyId: 'comp_42', now: () => now });
    api.setHandler(scripted([]));
    await client.categories.list();
    now = Date.parse('2026-11-01T07:30:00Z'); // Nov 1, 00:30 PDT
    await client.categories.list();
    await client.categories.list();
    expect(await client.meter.count('2026-10')).toBe(1);
    expect(await client.meter.count('2026-11')).toBe(2);
    expect(await client.meter.count()).toBe(2);
    expect(client.meter.nextReset()).toEqual({ date: '2026-12-01', iso: '2026-12-01T00:00:00.000-08:00', epochMs: Date.parse('2026-12-01T08:00:00Z') });
  });

  it('knows the plan caps and what remains', async () => {
    const { client } = testClient(api, { companyId: 'comp_42' });
    api.setHandler(scripted([]));
    expect(PLAN_CAPS).toEqual({ formation: 10, startup: 300, growth: 30000 });
    expect([client.meter.cap('formation'), client.meter.cap('startup'), client.meter.cap('growth'), client.meter.cap('enterprise')]).toEqual([10, 300, 30000, undefined]);
    await client.categories.list();
    expect(await client.meter.remaining('formation')).toBe(9);
  });
});

describe('storage and listeners', () => {
  it('stays exact with a slow async store under concurrency, and persists across clients', async () => {
    const values = new Map<string, number>();
    const slowStore: MeterStore = {
      get: async (k) => {
        await new Promise((r) => setTimeout(r, 3));
        return values.get(k);
      },
      set: async (k, v) => {
        await new Promise((r) => setTimeout(r, 3));
        values.set(k, v);
      },
    };
    const now = Date.parse('2026-11-20T18:00:00Z');
    const { client } = testClient(api, { companyId: 'comp_42', meterStore: slowStore, now: () => now });
    api.setHandler(scripted([]));
    await Promise.all(Array.from({ length: 40 }, () => client.categories.list()));
    expect(await client.meter.count()).toBe(40);
    expect(values.get(meterKey('comp_42', '2026-11'))).toBe(40);

    const second = testClient(api, { companyId: 'comp_42', meterStore: slowStore, now: () => now }).client;
    await second.categories.list();
    expect(await second.meter.count()).toBe(41);
  });

  it('shares one meter between clients of the same company', async () => {
    const meter = new CallMeter();
    const a = testClient(api, { companyId: 'comp_42', meter }).client;
    const b = testClient(api, { companyId: 'comp_42', meter }).client;
    api.setHandler(scripted([]));
    await a.categories.list();
    await b.categories.list();
    expect(await a.meter.count()).toBe(2);
  });

  it('notifies subscribers of each change until unsubscribed', async () => {
    const { client } = testClient(api, { now: () => Date.parse('2026-11-20T18:00:00Z') });
    api.setHandler(scripted([]));
    const changes: MeterChange[] = [];
    const unsubscribe = client.meter.subscribe((c) => changes.push(c));
    await client.categories.list();
    await client.company.retrieve();
    unsubscribe();
    await client.categories.list();
    expect(changes).toEqual([
      { companyId: null, month: '2026-11', count: 1 },
      { companyId: null, month: '2026-11', count: 2 },
      { companyId: 'comp_42', month: '2026-11', count: 2 },
    ]);
  });

  it('keeps counting in memory when the store fails', async () => {
    const errors: unknown[] = [];
    const meter = new CallMeter({
      store: { get: () => Promise.reject(new Error('read failed')), set: () => Promise.reject(new Error('write failed')) },
      onStoreError: (e) => errors.push(e),
    });
    const { client } = testClient(api, { companyId: 'comp_42', meter });
    api.setHandler(scripted([]));
    await client.categories.list();
    await client.categories.list();
    expect(await client.meter.count()).toBe(2);
    expect(errors.length).toBeGreaterThan(0);
  });
});
