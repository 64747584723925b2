import { capMonthOf, MemoryMeterStore } from '../../src/api';
import { rel, startFakeApi, testClient, type FakeApi, type Recorded, type Reply } from './helpers/fakeApi';

// The client's side of the team's gateway over real HTTP: the team's count every answer carries reaches the
// meter (the latest seen wins, never below the add-in's own), what the cap rules use follows it, and every
// request says how old an answer it accepts (Cache-Control).

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const month = capMonthOf(Date.now());
const company = { id: 'comp_42', object: 'company', name: 'Demo' };
const list = { object: 'list', url: '/api/v1/categories', data: [] };

function team(calls: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Fin-Team-Calls': calls, 'X-Fin-Team-Month': month, ...extra };
}

/** GET /company answers the company; every other request the next scripted reply. */
function scripted(replies: Reply[]) {
  let i = 0;
  return (req: Recorded): Reply => (rel(req) === '/company' ? { status: 200, body: company, headers: team('1') } : (replies[i++] ?? { status: 200, body: list }));
}

describe('the team count', () => {
  it('takes the latest count the gateway sent for the month, and the cap rules use it', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([{ status: 200, body: list, headers: team('120') }, { status: 200, body: list, headers: team('117') }]));
    await client.ensureCompanyId();
    expect(await client.meter.team()).toEqual({ count: 1, uncertain: false });
    await client.categories.list();
    expect(await client.meter.team()).toEqual({ count: 120, uncertain: false });
    // The latest seen wins within the month, even when lower (another member's answer overtook it on the way).
    await client.categories.list();
    expect(await client.meter.team()).toEqual({ count: 117, uncertain: false });
    // Own count stays what this add-in spent; what is left on the Startup plan is the team's.
    expect(await client.meter.count()).toBe(3);
    expect(await client.meter.remaining('startup')).toBe(300 - 117);
  });

  it('is never lower than what this add-in counted itself this month', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([{ status: 200, body: list, headers: team('0') }, { status: 200, body: list }]));
    await client.ensureCompanyId();
    await client.categories.list();
    await client.categories.list();
    expect(await client.meter.count()).toBe(3);
    expect(await client.meter.team()).toEqual({ count: 3, uncertain: false });
  });

  it('says when the gateway could not count some calls', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([{ status: 200, body: list, headers: team('57', { 'X-Fin-Team-Calls-Uncertain': '1' }) }]));
    await client.ensureCompanyId();
    await client.categories.list();
    expect(await client.meter.team()).toEqual({ count: 57, uncertain: true });
  });

  it('ignores a malformed count and keeps the last good one (never a wrong count)', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([{ status: 200, body: list, headers: team('88') }, { status: 200, body: list, headers: team('-4') }]));
    await client.ensureCompanyId();
    await client.categories.list();
    await client.categories.list();
    expect(await client.meter.team()).toEqual({ count: 88, uncertain: false });
  });

  it('reads the count on refusals too, but not on a 401 (no company is known to that key)', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    const refused = (status: number, code: string, calls: string): Reply => ({ status, body: { error: { type: 'x', code, message: 'no' } }, headers: team(calls) });
    api.setHandler(scripted([refused(403, 'insufficient_permission', '40'), refused(401, 'invalid_api_key', '999')]));
    await client.ensureCompanyId();
    await client.categories.list().catch(() => undefined);
    expect((await client.meter.team())?.count).toBe(40);
    await client.categories.list().catch(() => undefined);
    expect((await client.meter.team())?.count).toBe(40);
  });

  it('is kept for the month it names only, and none is reported for a month without one', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([{ status: 200, body: list, headers: { 'X-Fin-Team-Calls': '9', 'X-Fin-Team-Month': '2019-03' } }]));
    await client.ensureCompanyId();
    await client.categories.list();
    // This month's team count is the last one said for it (1), raised to the add-in's own 2 calls.
    expect((await client.meter.team())?.count).toBe(2);
    expect(await client.meter.team('2019-03')).toEqual({ count: 9, uncertain: false });
  });

  it('waits for the company when the first answer comes before it is known, then attributes it', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([]));
    expect(await client.meter.team()).toBeNull();
    await client.ensureCompanyId();
    expect(client.companyId).toBe('comp_42');
    expect(await client.meter.team()).toEqual({ count: 1, uncertain: false });
  });

  it('is shown to no one without a gateway: the add-in keeps its own count', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(() => ({ status: 200, body: rel(api.requests[api.requests.length - 1]) === '/company' ? company : list }));
    await client.ensureCompanyId();
    await client.categories.list();
    expect(await client.meter.team()).toBeNull();
    expect(await client.meter.remaining('startup')).toBe(298);
  });
});

it("does not count an answer the team's cache served (the API never saw it); the team count still comes", async () => {
  const { client } = testClient(api, { maxRetries: 0 });
  api.setHandler(
    scripted([
      { status: 200, body: list, headers: team('5', { 'Cache-Status': 'fin-gateway; hit', Age: '30' }) },
      { status: 200, body: list, headers: team('6', { 'Cache-Status': 'fin-gateway; fwd=miss' }) },
    ]),
  );
  await client.ensureCompanyId();
  await client.categories.list({ maxAgeSeconds: 60 });
  expect(await client.meter.count()).toBe(1);
  expect(await client.meter.team()).toEqual({ count: 5, uncertain: false });
  await client.categories.list({ maxAgeSeconds: 60 });
  expect(await client.meter.count()).toBe(2);
  expect(await client.meter.team()).toEqual({ count: 6, uncertain: false });
});

it('is kept in add-in storage: a reopened workbook knows it before its first call', async () => {
  const meterStore = new MemoryMeterStore();
  const first = testClient(api, { maxRetries: 0, meterStore }).client;
  api.setHandler(scripted([{ status: 200, body: list, headers: team('77', { 'X-Fin-Team-Calls-Uncertain': '1' }) }]));
  await first.ensureCompanyId();
  await first.categories.list();
  const sent = api.requests.length;
  const reopened = testClient(api, { maxRetries: 0, meterStore, companyId: 'comp_42' }).client;
  expect(await reopened.meter.team()).toEqual({ count: 77, uncertain: true });
  expect(await reopened.meter.remaining('startup')).toBe(300 - 77);
  expect(api.requests.length).toBe(sent);
});

describe('Cache-Control', () => {
  it('asks the API by default and for every write; a GET may accept an answer of a given age', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    api.setHandler(scripted([]));
    await client.ensureCompanyId();
    await client.categories.list();
    await client.categories.list({ maxAgeSeconds: 600 });
    await client.rules.del('rule_1', { maxAgeSeconds: 600 }).catch(() => undefined);
    expect(api.requests.map((r) => `${r.method} ${rel(r)} ${r.headers['cache-control']}`)).toEqual([
      'GET /company no-cache',
      'GET /categories no-cache',
      'GET /categories max-age=600',
      'DELETE /rules/rule_1 no-cache',
    ]);
  });

  it('tells the caller when the API gave an answer the team cache served (Date minus Age)', async () => {
    const { client } = testClient(api, { maxRetries: 0 });
    const date = new Date(Math.floor(Date.now() / 1000) * 1000 - 5_000);
    api.setHandler(scripted([{ status: 200, body: list, headers: { Age: '300', Date: date.toUTCString() } }, { status: 200, body: list }]));
    await client.ensureCompanyId();
    const told: (number | null)[] = [];
    await client.categories.list({ onAnswered: (a) => told.push(a.answeredAt) });
    await client.categories.list({ onAnswered: (a) => told.push(a.answeredAt) });
    expect(told).toEqual([date.getTime() - 300_000, null]);
  });
});
