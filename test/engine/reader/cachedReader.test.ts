// The one door every call of the add-in goes through: cache sharing, remembered refusals, the time limit,
// and the monthly-cap block (in force for cached reads and uncached calls alike, persisted, lifted at the
// reset). A scripted client stands in for the API: these are the reader's own rules, not the server's.
import { ApiError, MonthlyLimitError } from '../../../src/api';
import type { CallOptions } from '../../../src/api/transport';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const req = (path: string) => ({ path, query: { a: 1 } });
const request = { method: 'GET', path: '/x', query: '' };

function capError(now: number): MonthlyLimitError {
  return new MonthlyLimitError(
    { message: 'Monthly API call limit of 10 reached; it resets on 2026-12-01 at 00:00 Pacific Time.', status: 429, type: 'limit_error', code: 'monthly_limit_exceeded', request },
    now,
  );
}

/** A call that never gets its turn: it ends when dropped from the queue or aborted, as the transport ends it. */
function aborted(opts: CallOptions): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new ApiError({ message: 'aborted', status: null, type: 'connection_error', code: 'aborted', request }));
    opts.signal?.addEventListener('abort', fail);
    opts.dropIfQueued?.addEventListener('abort', fail);
  });
}

function rig(options: { store?: MemoryCacheStore; now?: () => number; apiTimeoutMs?: number } = {}) {
  const store = options.store ?? new MemoryCacheStore();
  const client = { companyId: 'comp_1', ensureCompanyId: async () => 'comp_1', meter: {} };
  const reader = new CachedReader({ client, cache: new RequestCache(store, options.now), stateStore: store, now: options.now, apiTimeoutMs: options.apiTimeoutMs });
  return { reader, store };
}

const NOW = Date.parse('2026-11-18T19:30:00Z');

it('concurrent reads of one request spend one call; a fresh read replaces the answer for everyone', async () => {
  const { reader } = rig();
  let calls = 0;
  const fetch = async () => ++calls;
  const [a, b] = await Promise.all([reader.read(req('/r'), fetch), reader.read(req('/r'), fetch)]);
  expect([a.value, b.value, calls]).toEqual([1, 1, 1]);
  expect((await reader.read(req('/r'), fetch, { fresh: true })).value).toBe(2);
  expect((await reader.read(req('/r'), fetch)).value).toBe(2);
  expect(await reader.cost([req('/r'), req('/r'), req('/other')])).toEqual({ requests: 2, cached: 1, calls: 1 });
});

it('fresh() answers at once only what read() would answer without a call or a wait', async () => {
  let now = NOW;
  const { reader } = rig({ now: () => (now += 1000) });
  expect(reader.fresh(req('/r'))).toBeUndefined();
  await reader.read(req('/r'), async () => 1);
  expect(reader.fresh(req('/r'))?.value).toBe(1);
  await reader.markStale((r) => r.path === '/r');
  expect(reader.fresh(req('/r'))).toBeUndefined();
  await reader.read(req('/r'), async () => 2);
  expect(reader.fresh(req('/r'))?.value).toBe(2);
  await reader.markAllStale();
  expect(reader.fresh(req('/r'))).toBeUndefined();
  await reader.read(req('/r'), async () => 3);
  // A refusal remembered for the request is what read() answers, whatever is cached.
  const gone = async () => {
    throw new ApiError({ message: 'gone', status: 404, type: 'invalid_request_error', code: 'resource_missing', request });
  };
  await expect(reader.read(req('/r'), gone, { fresh: true })).rejects.toMatchObject({ code: 'resource_missing' });
  expect(reader.fresh(req('/r'))).toBeUndefined();
  await expect(reader.read(req('/r'), async () => 4)).rejects.toMatchObject({ code: 'resource_missing' });
});

it('a refusal the API would repeat is remembered until the next refresh; a passing failure is not', async () => {
  const { reader } = rig();
  let calls = 0;
  const notFound = async () => {
    calls += 1;
    throw new ApiError({ message: 'No such category', status: 404, type: 'invalid_request_error', code: 'resource_missing', request });
  };
  await expect(reader.read(req('/missing'), notFound)).rejects.toMatchObject({ code: 'resource_missing' });
  await expect(reader.read(req('/missing'), notFound)).rejects.toMatchObject({ code: 'resource_missing' });
  expect(calls).toBe(1);
  await reader.markAllStale();
  await expect(reader.read(req('/missing'), notFound)).rejects.toMatchObject({ code: 'resource_missing' });
  expect(calls).toBe(2);

  const flaky = async () => {
    calls += 1;
    throw new ApiError({ message: 'boom', status: 500, type: 'api_error', code: null, request });
  };
  await expect(reader.read(req('/flaky'), flaky)).rejects.toMatchObject({ status: 500 });
  await expect(reader.read(req('/flaky'), flaky)).rejects.toMatchObject({ status: 500 });
  expect(calls).toBe(4);
});

it('a call that outlives the time limit fails with a timeout, not a hang', async () => {
  const { reader } = rig({ apiTimeoutMs: 30 });
  await expect(reader.call('/slow', (o) => aborted(o))).rejects.toMatchObject({ code: 'timeout', message: 'The API did not answer within 1 s' });
});

it('the cap: queued calls are dropped, and nothing is sent until the reset, cached or not, after a reload too', async () => {
  let now = NOW;
  const clock = () => now;
  const { reader, store } = rig({ now: clock });
  let sent = 0;
  let queuedSent!: () => void;
  const queued = new Promise<void>((r) => (queuedSent = r));
  const waiting = reader.read(req('/queued'), (o) => {
    sent += 1;
    queuedSent();
    return aborted(o);
  });
  await queued;
  await expect(
    reader.call('/spent', async () => {
      sent += 1;
      throw capError(now);
    }),
  ).rejects.toBeInstanceOf(MonthlyLimitError);
  await expect(waiting).rejects.toMatchObject({ code: 'monthly_limit_exceeded', status: null });
  expect(sent).toBe(2);

  const refuse = async () => {
    sent += 1;
    return 'answer';
  };
  const blocked = await reader.read(req('/new'), refuse).catch((e: unknown) => e);
  expect(blocked).toBeInstanceOf(MonthlyLimitError);
  expect(blocked).toMatchObject({ status: null, resetDate: '2026-12-01', message: expect.stringContaining('limit of 10 calls') });
  await expect(reader.call('/transactions', refuse)).rejects.toMatchObject({ code: 'monthly_limit_exceeded' });
  expect(sent).toBe(2);
  expect(await reader.capBlock()).toMatchObject({ cap: 10, resetDate: '2026-12-01' });

  // A reopened workbook (new reader, same storage) knows the block without a call.
  const reopened = rig({ store, now: clock }).reader;
  await expect(reopened.call('/company', refuse)).rejects.toMatchObject({ code: 'monthly_limit_exceeded' });
  expect(sent).toBe(2);

  // At the reset (midnight Pacific on the 1st) calls go out again.
  now = Date.parse('2026-12-01T08:00:00Z');
  expect(await reopened.call('/company', refuse)).toBe('answer');
  expect(await reopened.capBlock()).toBeNull();
  expect(sent).toBe(3);
});

describe('the outage pause, as the user reads it', () => {
  it('says how long nothing is asked, not a clock time in a zone the user is not in', async () => {
    const { outageError } = await import('../../../src/engine/reader/outage');
    const now = Date.UTC(2026, 10, 23, 22, 0, 0);
    expect(outageError('/reports', { scope: 'api', failedAttempts: 3, until: now + 59_500, noAnswer: false }, now).message).toBe(
      'The API is failing (3 failed attempts in a row, each a counted call); nothing more is asked for the next 60 seconds',
    );
    expect(outageError('/reports', { scope: 'api', failedAttempts: 3, until: now + 1_000, noAnswer: true }, now).message).toBe('No answer from the API (3 attempts in a row); nothing more is asked for the next 1 second');
  });
});
