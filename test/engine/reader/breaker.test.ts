// The outage breakers, as calls through the reader meet them (issue 25, item 7): an endpoint that fails on
// its own stops only itself and is named; failures that span endpoints, or get no answer at all, stop the
// whole API as before; after an endpoint stops, one request finds out whether the rest still answers. A
// scripted client stands in for the API and tells the reader of each attempt, as the transport does.
import { ApiError } from '../../../src/api';
import type { CallOptions } from '../../../src/api/transport';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { OutageError } from '../../../src/engine/reader/outage';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const INCOME = '/reports/income_statement';
const BALANCE = '/reports/balance_sheet';
const CASH_FLOW = '/reports/cash_flow';

function rig() {
  const store = new MemoryCacheStore();
  const client = { companyId: 'comp_1', ensureCompanyId: async () => 'comp_1', meter: {} };
  const now = () => Date.parse('2026-11-18T19:30:00Z');
  return new CachedReader({ client, cache: new RequestCache(store, now), stateStore: store, now });
}

/** Every attempt sent, by endpoint, in order. */
let sent: string[];
beforeEach(() => {
  sent = [];
});
const sentTo = (path: string) => sent.filter((p) => p === path).length;

const failure = (path: string, status: number | null, code: string | null = null) =>
  new ApiError({ message: `GET ${path} failed`, status, type: status === null ? 'connection_error' : 'api_error', code, request: { method: 'GET', path, query: '' } });

/**
 * A call as the client makes it: its attempts answered with these statuses in turn (null: no answer), each
 * failure retried until the statuses run out; dropped while waiting to retry, it ends aborted. `ready`
 * holds the first attempt back (a request still on its way).
 */
function answers(path: string, statuses: (number | null)[], ready?: Promise<void>) {
  return async (o: CallOptions): Promise<number> => {
    await ready;
    let last: number | null = null;
    for (const status of statuses) {
      if (o.dropIfQueued?.aborted) throw failure(path, null, 'aborted');
      sent.push(path);
      o.onAttempt?.({ status });
      if (status !== null && status < 500) return status;
      last = status;
      await new Promise((r) => setTimeout(r, 1)); // the backoff
    }
    throw failure(path, last, last === null ? 'timeout' : null);
  };
}

const FIVE_500 = [500, 500, 500, 500, 500];

test('one endpoint failing stops only itself, and the error names it and what it answered', async () => {
  const reader = rig();
  const stopped = await reader.call(INCOME, answers(INCOME, FIVE_500)).catch((e: unknown) => e);
  expect(sentTo(INCOME)).toBe(3);
  expect(stopped).toBeInstanceOf(OutageError);
  expect(stopped).toMatchObject({ code: 'outage', type: 'api_error', status: null, endpoint: { path: INCOME, name: 'income statement endpoint' } });
  expect((stopped as Error).message).toBe(
    "The API's income statement endpoint answered 500 three times in a row (each a counted call); nothing more is asked of it for the next 60 seconds",
  );
  // The balance sheet is asked as usual; the income statement is not asked again during the pause.
  expect(await reader.call(BALANCE, answers(BALANCE, [200]))).toBe(200);
  await expect(reader.call(INCOME, answers(INCOME, [200]))).rejects.toMatchObject({ code: 'outage', endpoint: { path: INCOME } });
  expect(sentTo(INCOME)).toBe(3);
  expect(await reader.call(CASH_FLOW, answers(CASH_FLOW, [200]))).toBe(200);
});

test("another endpoint's answers do not clear an endpoint's failures in a row", async () => {
  const reader = rig();
  for (let i = 0; i < 3; i++) {
    await expect(reader.call(INCOME, answers(INCOME, [502]))).rejects.toMatchObject({ status: 502 });
    expect(await reader.call(BALANCE, answers(BALANCE, [200]))).toBe(200);
  }
  const stopped = await reader.call(INCOME, answers(INCOME, [200])).catch((e: unknown) => e);
  expect((stopped as Error).message).toMatch(/^The API's income statement endpoint answered 502 three times in a row/);
  expect(sentTo(INCOME)).toBe(3);
});

test('what it answered, when the statuses differ; an endpoint without a name of its own goes by its path', async () => {
  const reader = rig();
  await expect(reader.call('/aggregations/total', answers('/aggregations/total', [503, 500, 503, 500]))).rejects.toThrow(
    /^The API's \/aggregations\/total endpoint answered 503 twice and 500 once in a row/,
  );
});

test('failures in a row across endpoints stop the whole API, as before', async () => {
  const reader = rig();
  await expect(reader.call(INCOME, answers(INCOME, [500]))).rejects.toMatchObject({ status: 500 });
  await expect(reader.call(BALANCE, answers(BALANCE, [500]))).rejects.toMatchObject({ status: 500 });
  await expect(reader.call(CASH_FLOW, answers(CASH_FLOW, [500]))).rejects.toMatchObject({ status: 500 });
  const stopped = await reader.call('/categories', answers('/categories', [200])).catch((e: unknown) => e);
  expect(stopped).toMatchObject({ code: 'outage', type: 'api_error', endpoint: null });
  expect((stopped as Error).message).toBe('The API is failing (3 failed attempts in a row, each a counted call); nothing more is asked for the next 60 seconds');
  expect(sent).toEqual([INCOME, BALANCE, CASH_FLOW]);
});

test('no answer at all is the whole API, even from one endpoint: a connection problem', async () => {
  const reader = rig();
  const stopped = await reader.call(INCOME, answers(INCOME, [null, null, null, null, null])).catch((e: unknown) => e);
  expect(sentTo(INCOME)).toBe(3);
  expect(stopped).toMatchObject({ code: 'outage', type: 'connection_error', endpoint: null });
  expect((stopped as Error).message).toBe('No answer from the API (3 attempts in a row); nothing more is asked for the next 60 seconds');
  await expect(reader.call(BALANCE, answers(BALANCE, [200]))).rejects.toMatchObject({ code: 'outage', endpoint: null });
  expect(sentTo(BALANCE)).toBe(0);
});

describe('after an endpoint stops, one request finds out whether the rest of the API answers', () => {
  test('it fails: the whole API stops, and the requests waiting behind it are never sent', async () => {
    const reader = rig();
    await expect(reader.call(INCOME, answers(INCOME, FIVE_500))).rejects.toMatchObject({ endpoint: { path: INCOME } });
    const results = await Promise.all([BALANCE, BALANCE, CASH_FLOW, '/categories'].map((p) => reader.call(p, answers(p, FIVE_500)).catch((e: unknown) => e)));
    expect(sent.slice(3)).toEqual([BALANCE]);
    for (const r of results) {
      expect(r).toMatchObject({ code: 'outage', type: 'api_error', endpoint: null });
      expect((r as Error).message).toMatch(/^The API is failing \(4 failed attempts in a row, each a counted call\)/);
    }
  });

  test('it answers: the others go, each on its own again', async () => {
    const reader = rig();
    await expect(reader.call(INCOME, answers(INCOME, FIVE_500))).rejects.toMatchObject({ endpoint: { path: INCOME } });
    let answer!: () => void;
    const first = reader.call(BALANCE, answers(BALANCE, [200], new Promise((r) => (answer = r))));
    const others = [BALANCE, CASH_FLOW].map((p) => reader.call(p, answers(p, [200])));
    await new Promise((r) => setTimeout(r, 20));
    expect(sent.slice(3)).toEqual([]);
    answer();
    expect(await Promise.all([first, ...others])).toEqual([200, 200, 200]);
    expect(sent.slice(3).sort()).toEqual([BALANCE, BALANCE, CASH_FLOW]);
    // A later failure elsewhere is that endpoint's own again, not the whole API's.
    await expect(reader.call(CASH_FLOW, answers(CASH_FLOW, [500]))).rejects.toMatchObject({ status: 500 });
    expect(await reader.call(BALANCE, answers(BALANCE, [200]))).toBe(200);
  });
});

test('a new run (Refresh all) gives every endpoint and the API their chance again', async () => {
  const reader = rig();
  await expect(reader.call(INCOME, answers(INCOME, FIVE_500))).rejects.toMatchObject({ endpoint: { path: INCOME } });
  await expect(reader.call(BALANCE, answers(BALANCE, FIVE_500))).rejects.toMatchObject({ endpoint: null });
  reader.newRun();
  expect(await reader.call(INCOME, answers(INCOME, [200]))).toBe(200);
  expect(await reader.call(BALANCE, answers(BALANCE, [200]))).toBe(200);
});
