import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { CLOSED_MAX_AGE_SECONDS, TEAM_ANSWER_MAX_AGE_SECONDS } from '../../../src/engine/reader/teamFreshness';
import { MemoryCacheStore } from '../../support/memoryCacheStore';
import { rel, startFakeApi, testClient, type FakeApi } from '../../api/helpers/fakeApi';

// How old an answer of the team's gateway each read of the add-in accepts (the Cache-Control it sends, over
// real HTTP), and the stamp an answer served from the team's cache keeps: the API's as of Date minus Age.

let api: FakeApi;
afterEach(async () => {
  await api.close();
});

const statement = (start: string, end: string) => ({ object: 'income_statement', start_date: start, end_date: end, sections: [] });

async function setUp(servedAgeSeconds = 0) {
  let offset = 0;
  const now = () => Date.now() + offset;
  const served = new Date(Math.floor(Date.now() / 1000) * 1000);
  api = await startFakeApi((req) => {
    if (rel(req) === '/company') return { status: 200, body: { id: 'comp_1', object: 'company', name: 'Demo' } };
    const headers: Record<string, string> = servedAgeSeconds > 0 ? { Age: String(servedAgeSeconds), Date: served.toUTCString() } : {};
    return { status: 200, body: statement(req.query.get('start_date') ?? '', req.query.get('end_date') ?? ''), headers };
  });
  const { client } = testClient(api, { now, maxRetries: 0 });
  await client.ensureCompanyId();
  const reader = new CachedReader({ client, cache: new RequestCache(new MemoryCacheStore(), now), now });
  const read = (start: string, end: string, options: { fresh?: boolean } = {}) => {
    const query = { start_date: start, end_date: end };
    return reader.read({ path: '/reports/income_statement', query }, (o) => client.reports.incomeStatement(query, o), options);
  };
  const sentControl = () => api.requests.filter((r) => rel(r) !== '/company').map((r) => r.headers['cache-control']);
  return { reader, client, read, sentControl, served, advance: (ms: number) => (offset += ms) };
}

it('a first read accepts a teammate answer up to an hour old; a refresh of a kept answer asks the API', async () => {
  const t = await setUp();
  await t.read('2026-10-01', '2026-10-31');
  await t.read('2026-10-01', '2026-10-31');
  expect(t.sentControl()).toEqual([`max-age=${TEAM_ANSWER_MAX_AGE_SECONDS}`]);
  // Refresh all: the kept answer is due and asks the API.
  await t.reader.markAllStale();
  await t.read('2026-10-01', '2026-10-31');
  // Refresh this block: asks the API whatever is kept.
  await t.read('2026-10-01', '2026-10-31', { fresh: true });
  expect(t.sentControl()).toEqual([`max-age=${TEAM_ANSWER_MAX_AGE_SECONDS}`, 'no-cache', 'no-cache']);
});

it('a first read after a refresh accepts nothing older than that refresh', async () => {
  const t = await setUp();
  await t.read('2026-10-01', '2026-10-31');
  await t.reader.markAllStale();
  t.advance(120_000);
  await t.read('2026-09-01', '2026-09-30');
  expect(t.sentControl()).toEqual([`max-age=${TEAM_ANSWER_MAX_AGE_SECONDS}`, 'max-age=120']);
});

it('a first read within the closed months accepts any answer; a refresh of the block still asks the API', async () => {
  const t = await setUp();
  t.reader.setBooksClosedThrough('2025-06-30');
  await t.read('2025-04-01', '2025-06-30');
  await t.read('2025-04-01', '2025-06-30', { fresh: true });
  expect(t.sentControl()).toEqual([`max-age=${CLOSED_MAX_AGE_SECONDS}`, 'no-cache']);
});

it('uncached calls (a sync page, a write, connecting) always ask the API', async () => {
  const t = await setUp();
  await t.reader.call('/reports/income_statement', (o) => t.client.reports.incomeStatement({ start_date: '2026-10-01', end_date: '2026-10-31' }, o));
  expect(t.sentControl()).toEqual(['no-cache']);
  expect(api.requests[0].headers['cache-control']).toBe('no-cache');
});

it("an answer the team's cache served is the API's as of Date minus Age, not as of now", async () => {
  const t = await setUp(600);
  const answer = await t.read('2026-10-01', '2026-10-31');
  expect(answer.fetchedAt).toBe(t.served.getTime() - 600_000);
});

it('an answer fresh from the API is stamped now', async () => {
  const t = await setUp(0);
  const before = Date.now();
  const answer = await t.read('2026-10-01', '2026-10-31');
  expect(answer.fetchedAt).toBeGreaterThanOrEqual(before);
});
