import { MAX_JOB_ERROR_PAGES, MAX_LIST_PAGES, type BulkUpdateParams, type ListPage } from '../../src/api';
import { collect } from '../support/collect';
import { iteratePages } from '../../src/api/paging';
import { syncTransactions } from '../../src/api/sync';
import { errorBody, page, startFakeApi, testClient, type FakeApi, type Recorded } from './helpers/fakeApi';

// Every loop whose length the server decides (has_more / next_cursor) goes through the client's one guarded
// pager: a cursor handed out twice stops the walk, and so does a page cap. Each hostile server below would
// keep a naive loop spending counted calls; here each stops after a bounded, asserted number of calls.
// The servers give up by themselves after SAFETY_STOP pages, so a missing guard fails the test instead of
// hanging it. Over HTTP the list caps are lowered per call (maxPages); the defaults are counted on an
// in-memory list, where 2,100 pages cost no sockets.

const SAFETY_STOP = 200;
/** The same for the in-memory lists, past the default cap. */
const MEMORY_STOP = 10_000;

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

/** A cursor for each request: `cycle` repeats c1, c2, c1, c2...; `endless` gives a new one every time. */
function nextCursor(kind: 'cycle' | 'endless', index: number): string | null {
  if (index + 1 >= SAFETY_STOP) return null;
  return kind === 'cycle' ? `c${(index % 2) + 1}` : `c${index + 1}`;
}

function listServer(path: string, kind: 'cycle' | 'endless', extra: Record<string, unknown> = {}) {
  return (_req: Recorded, index: number) => ({ status: 200, body: page(path, [{ id: `x_${index}` }], nextCursor(kind, index), extra) });
}

const bulk: BulkUpdateParams = { transaction_ids: ['txn_1'], updates: { department_id: 'dept_9' } };

function failedJob(next: string | null) {
  return {
    id: 'job_1',
    object: 'bulk_update_job',
    status: 'failed',
    matched_count: 1,
    updated_count: 0,
    created: 1_700_000_000,
    errors: { object: 'list', url: '/api/v1/jobs/job_1', has_more: next !== null, next_cursor: next, data: [{ code: 'transaction_conflict', message: 'conflict' }] },
  };
}

/** POST replays a failed job; every errors page names another cursor (cycling or endless). */
function jobServer(kind: 'cycle' | 'endless') {
  return (_req: Recorded, index: number) => ({ status: index === 0 ? 202 : 200, body: failedJob(nextCursor(kind, index)) });
}

describe('auto-paging lists', () => {
  it('stop at a cursor seen before, even when it comes back two pages later', async () => {
    const { client } = testClient(api);
    api.setHandler(listServer('/rules', 'cycle'));
    await expect(collect(client.rules.iterate())).rejects.toMatchObject({ code: 'invalid_response', status: null });
    // c1 and c2 are followed; the page after c2 hands back c1 again.
    expect(api.requests.map((r) => r.query.get('starting_after'))).toEqual([null, 'c1', 'c2']);
  });

  it('stop after the page cap of a list that never ends, with page_limit_exceeded', async () => {
    const { client } = testClient(api);
    api.setHandler(listServer('/transactions', 'endless'));
    const error = await collect(client.transactions.iterate({}, { maxPages: 25 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'page_limit_exceeded', type: 'api_error', status: null, request: { method: 'GET', path: '/transactions' } });
    expect(api.requests).toHaveLength(25);
  });

  it(`stop after ${MAX_LIST_PAGES} calls by default`, async () => {
    let calls = 0;
    const endless = async (): Promise<ListPage<unknown>> => page('/accounts', [{}], ++calls < MEMORY_STOP ? `c${calls}` : null) as ListPage<unknown>;
    await expect(collect(iteratePages(endless, {}, '/accounts'))).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    expect(calls).toBe(MAX_LIST_PAGES);
  });
});

describe('incremental sync', () => {
  it('stops at a cursor seen before in the run', async () => {
    const { client } = testClient(api);
    api.setHandler(listServer('/transactions', 'cycle', { watermark: 1_700_000_000 }));
    const onCommit = jest.fn();
    await expect(client.transactions.sync({ onCommit })).rejects.toMatchObject({ code: 'invalid_response' });
    expect(api.requests.map((r) => r.query.get('starting_after'))).toEqual([null, 'c1', 'c2']);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('stops after the page cap of a run that never ends, committing nothing', async () => {
    const { client } = testClient(api);
    api.setHandler(listServer('/transactions', 'endless', { watermark: 1_700_000_000 }));
    const onCommit = jest.fn();
    await expect(client.transactions.sync({ onCommit, maxPages: 25 })).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    expect(api.requests).toHaveLength(25);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it(`stops after ${MAX_LIST_PAGES} calls by default`, async () => {
    let calls = 0;
    const endless = async () => ({ ...page('/transactions', [], ++calls < MEMORY_STOP ? `c${calls}` : null), watermark: 1 }) as ListPage<never>;
    await expect(syncTransactions(endless, {})).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    expect(calls).toBe(MAX_LIST_PAGES);
  });

  it('counts the pages of every restart against one cap', async () => {
    const { client } = testClient(api);
    // Four good pages, then the fifth cursor is "unusable": each restart would cost five calls again.
    api.setHandler((req, index) => {
      const after = req.query.get('starting_after');
      if (after === 'c5') return { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'No such cursor', 'starting_after') };
      const n = after ? Number(after.slice(1)) : 0;
      return { status: 200, body: page('/transactions', [{ id: `txn_${index}`, object: 'transaction' }], `c${n + 1}`, { watermark: 1_700_000_000 }) };
    });
    await expect(client.transactions.sync({ maxRestarts: 3, maxPages: 12 })).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    // Two runs of six calls each (five pages, then the refused cursor); a third run would pass the cap.
    expect(api.requests).toHaveLength(12);
  });
});

describe('job errors', () => {
  it('stop at a cursor seen before', async () => {
    const { client } = testClient(api);
    api.setHandler(jobServer('cycle'));
    await expect(client.jobs.resume('stored-key', bulk)).rejects.toMatchObject({ code: 'invalid_response' });
    // The replayed job holds the first errors page (c1); c1 and c2 are followed, then c1 comes back.
    expect(api.requests.map((r) => `${r.method} ${r.query.get('starting_after')}`)).toEqual(['POST null', 'GET c1', 'GET c2']);
  });

  it(`stop after ${MAX_JOB_ERROR_PAGES} pages of errors that never end`, async () => {
    const { client } = testClient(api);
    api.setHandler(jobServer('endless'));
    await expect(client.jobs.resume('stored-key', bulk)).rejects.toMatchObject({ code: 'page_limit_exceeded', request: { path: '/jobs/{id}' } });
    // The first page came with the replayed job (the POST); the cap counts the GETs that follow it.
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(api.requests.filter((r) => r.method === 'GET')).toHaveLength(MAX_JOB_ERROR_PAGES);
  });

  it(`stop iterating from the start after ${MAX_JOB_ERROR_PAGES} pages`, async () => {
    const { client } = testClient(api);
    api.setHandler((_req, index) => ({ status: 200, body: failedJob(nextCursor('endless', index)) }));
    await expect(collect(client.jobs.iterateErrors('job_1'))).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    expect(api.requests).toHaveLength(MAX_JOB_ERROR_PAGES);
  });
});
