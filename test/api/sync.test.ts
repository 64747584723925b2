import type { SyncPage } from '../../src/api';
import { errorBody, page, rel, startFakeApi, testClient, type FakeApi, type Recorded } from './helpers/fakeApi';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const txn = (i: number, deleted = false) => ({ id: `txn_${i}`, object: 'transaction', updated: 1000 + i, deleted });

/** An incremental run over rows 0..total-1 in pages of `size`; every third row is a tombstone. */
function syncHandler(total: number, size: number, watermark: number) {
  return (req: Recorded) => {
    const after = req.query.get('starting_after');
    const start = after ? Number(after.replace('cur_', '')) : 0;
    const end = Math.min(total, start + size);
    const data = Array.from({ length: end - start }, (_, k) => txn(start + k, (start + k) % 3 === 2));
    return { status: 200, body: page('/transactions', data, end < total ? `cur_${end}` : null, { watermark }) };
  };
}

describe('incremental sync', () => {
  it('starts a mirror from 0, carries updated_after on every page and commits after the last page', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(5, 2, 1_700_000_000));
    const events: string[] = [];
    const pages: SyncPage[] = [];
    const result = await client.transactions.sync({
      onPage: async (p) => {
        pages.push(p);
        events.push(`page ${p.pageIndex}`);
      },
      onCommit: async (w) => {
        events.push(`commit ${w}`);
      },
    });
    expect(events).toEqual(['page 0', 'page 1', 'page 2', 'commit 1700000000']);
    expect(result).toEqual({ watermark: 1_700_000_000, pages: 3, upserts: 4, tombstones: 1, restarts: 0 });
    expect(pages[1].upserts.map((t) => t.id)).toEqual(['txn_3']);
    expect(pages[1].tombstones.map((t) => t.id)).toEqual(['txn_2']);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(api.requests.map((r) => [rel(r), r.query.get('updated_after'), r.query.get('starting_after'), r.query.get('limit')])).toEqual([
      ['/transactions', '0', null, '500'],
      ['/transactions', '0', 'cur_2', '500'],
      ['/transactions', '0', 'cur_4', '500'],
    ]);
  });

  it('continues from the stored watermark and re-sends filters with the cursor', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(3, 2, 1_700_000_500));
    const commits: number[] = [];
    await client.transactions.sync({
      watermark: 1_700_000_000,
      filters: { source_vendor: 'chase' },
      limit: 2,
      onCommit: (w) => {
        commits.push(w);
      },
    });
    expect(commits).toEqual([1_700_000_500]);
    for (const r of api.requests) {
      expect(r.query.get('updated_after')).toBe('1700000000');
      expect(r.query.get('source_vendor')).toBe('chase');
    }
    expect(api.requests[1].query.get('starting_after')).toBe('cur_2');
  });

  it('commits nothing when a page fails', async () => {
    const { client } = testClient(api);
    const ok = syncHandler(6, 2, 1_700_000_900);
    api.setHandler((req, i) => (i === 1 ? { status: 400, body: errorBody('invalid_request_error', 'invalid_request', 'bad', 'updated_after') } : ok(req)));
    const onCommit = jest.fn();
    await expect(client.transactions.sync({ watermark: 5, onCommit })).rejects.toMatchObject({ status: 400 });
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('commits nothing when the caller fails to handle a page', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(4, 2, 1_700_000_900));
    const onCommit = jest.fn();
    await expect(
      client.transactions.sync({
        onPage: (p) => {
          if (!p.hasMore) throw new Error('disk full');
        },
        onCommit,
      }),
    ).rejects.toThrow('disk full');
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('asks for the next page while a page is handled, from the second page on; the first and the last are handled first', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(8, 2, 1_700_000_900));
    const asked: number[] = [];
    await client.transactions.sync({
      onPage: async () => {
        // How many pages the server had been asked for by the end of this page's handling.
        await new Promise((r) => setTimeout(r, 20));
        asked.push(api.requests.length);
      },
      onCommit: () => {
        asked.push(-api.requests.length);
      },
    });
    // Page 1 is handled before page 2 is asked for (a pull holds the run there for its reference lists);
    // pages 2 and 3 while the next is on its way; the last before the commit, with nothing more asked.
    expect(asked).toEqual([1, 3, 4, 4, -4]);
  });

  it('a page that fails in its handling costs the page asked for after it, and commits nothing', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(10, 2, 1_700_000_900));
    const onCommit = jest.fn();
    await expect(
      client.transactions.sync({
        onPage: (p) => {
          if (p.pageIndex === 1) throw new Error('disk full');
        },
        onCommit,
      }),
    ).rejects.toThrow('disk full');
    expect(api.requests).toHaveLength(3);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('restarts from the stored watermark on an unusable cursor (404 resource_missing, param starting_after)', async () => {
    const { client } = testClient(api);
    const ok = syncHandler(4, 2, 1_700_000_777);
    api.setHandler((req, i) =>
      i === 1 ? { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'No such cursor', 'starting_after') } : ok(req),
    );
    const pages: SyncPage[] = [];
    const commits: number[] = [];
    const result = await client.transactions.sync({
      watermark: 1_699_999_999,
      onPage: (p) => {
        pages.push(p);
      },
      onCommit: (w) => {
        commits.push(w);
      },
    });
    expect(api.requests.map((r) => [r.query.get('updated_after'), r.query.get('starting_after')])).toEqual([
      ['1699999999', null],
      ['1699999999', 'cur_2'],
      ['1699999999', null],
      ['1699999999', 'cur_2'],
    ]);
    expect(result.restarts).toBe(1);
    expect(pages.map((p) => [p.pageIndex, p.restarts])).toEqual([
      [0, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(commits).toEqual([1_700_000_777]);
  });

  it('bounds the restarts', async () => {
    const { client } = testClient(api);
    const ok = syncHandler(4, 2, 1_700_000_777);
    api.setHandler((req) =>
      req.query.get('starting_after') ? { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'gone', 'starting_after') } : ok(req),
    );
    const onCommit = jest.fn();
    await expect(client.transactions.sync({ maxRestarts: 2, onCommit })).rejects.toMatchObject({ status: 404, param: 'starting_after' });
    expect(api.requests).toHaveLength(6);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('does not restart on a 404 without a cursor', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'Unrecognized request URL') }));
    await expect(client.transactions.sync({})).rejects.toMatchObject({ status: 404 });
    expect(api.requests).toHaveLength(1);
  });

  it('as an iterator commits only when the consumer comes back after the last page', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(3, 2, 1_700_000_321));
    const commits: number[] = [];
    for await (const p of client.transactions.syncPages({ onCommit: (w) => void commits.push(w) })) {
      if (!p.hasMore) break;
    }
    expect(commits).toEqual([]);
    for await (const p of client.transactions.syncPages({ onCommit: (w) => void commits.push(w) })) {
      expect(commits).toEqual([]);
      void p;
    }
    expect(commits).toEqual([1_700_000_321]);
  });

  it('rejects an unusable stored watermark without sending anything', async () => {
    const { client } = testClient(api);
    for (const watermark of [-1, 1.5, 1_700_000_000_000, Number.NaN]) {
      await expect(client.transactions.sync({ watermark })).rejects.toMatchObject({ status: null, param: 'updated_after' });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('never invents a watermark when the server sent none', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: page('/transactions', [txn(1)], null) }));
    const onCommit = jest.fn();
    await expect(client.transactions.sync({ onCommit })).rejects.toMatchObject({ code: 'invalid_response' });
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('starts earlier by overlapSeconds when asked', async () => {
    const { client } = testClient(api);
    api.setHandler(syncHandler(1, 2, 1_700_000_100));
    await client.transactions.sync({ watermark: 1_700_000_000, overlapSeconds: 5 });
    expect(api.requests[0].query.get('updated_after')).toBe('1699999995');
  });
});

describe('a run sharing one signal across its pages', () => {
  it('leaves no abort listener behind on it, page after page', async () => {
    // Node's own count (events.getEventListeners, Node 15.2+; the typings here predate it).
    const { getEventListeners } = (await import('node:events')) as unknown as { getEventListeners(target: EventTarget, type: string): unknown[] };
    const { client } = testClient(api);
    api.setHandler(syncHandler(40, 2, 1_700_000_000));
    const run = new AbortController();
    const queued = new AbortController();
    let most = 0;
    await client.transactions.sync({
      signal: run.signal,
      dropIfQueued: queued.signal,
      onPage: async () => {
        most = Math.max(most, getEventListeners(run.signal, 'abort').length);
      },
    });
    // 20 pages: before, each left a listener on the run's signal (Node warned past 10). While a page is
    // handled, the next one is on its way and listens: one, never more.
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(queued.signal, 'abort')).toHaveLength(0);
    expect(most).toBeLessThanOrEqual(1);
  });
});
