import { ApiError, type RequestChain } from '../../src/api';
import { collect } from '../support/collect';
import { PageBudget, walkCursors } from '../../src/api/paging';
import { page, rel, startFakeApi, testClient, type FakeApi, type Recorded } from './helpers/fakeApi';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

/** Serves `total` items in pages of `size`, cursors c1, c2, ... */
function pagedHandler(path: string, total: number, size: number, item: (i: number) => unknown) {
  return (req: Recorded) => {
    const after = req.query.get('starting_after');
    const start = after ? Number(after.slice(1)) : 0;
    const end = Math.min(total, start + size);
    const data = Array.from({ length: end - start }, (_, k) => item(start + k));
    return { status: 200, body: page(path, data, end < total ? `c${end}` : null) };
  };
}

describe('auto-paging iterators', () => {
  it('re-send every filter with each cursor, at the largest page size', async () => {
    const { client } = testClient(api);
    api.setHandler(pagedHandler('/transactions', 7, 3, (i) => ({ id: `txn_${i}`, object: 'transaction' })));
    const filters = { status: 'approved', merchant: 'Acme & Co', start_date: '2026-01-01', end_date: '2026-03-31', categorized: true } as const;
    const items = await collect(client.transactions.iterate(filters));
    expect(items.map((t) => t.id)).toEqual(['txn_0', 'txn_1', 'txn_2', 'txn_3', 'txn_4', 'txn_5', 'txn_6']);
    expect(api.requests).toHaveLength(3);
    api.requests.forEach((r, i) => {
      expect(rel(r)).toBe('/transactions');
      expect(r.query.get('status')).toBe('approved');
      expect(r.query.get('merchant')).toBe('Acme & Co');
      expect(r.query.get('start_date')).toBe('2026-01-01');
      expect(r.query.get('end_date')).toBe('2026-03-31');
      expect(r.query.get('categorized')).toBe('true');
      expect(r.query.get('limit')).toBe('500');
      expect(r.query.get('starting_after')).toBe(i === 0 ? null : `c${i * 3}`);
      expect(r.query.getAll('merchant')).toHaveLength(1);
    });
  });

  it('keeps the caller page size and the card account filter the cursor is bound to', async () => {
    const { client } = testClient(api);
    api.setHandler(pagedHandler('/cards', 5, 2, (i) => ({ id: `card_${i}`, object: 'card' })));
    const cards = await collect(client.cards.iterate({ account_id: 'acct_9', limit: 2 }));
    expect(cards).toHaveLength(5);
    expect(api.requests.map((r) => r.query.toString())).toEqual([
      'account_id=acct_9&limit=2',
      'account_id=acct_9&limit=2&starting_after=c2',
      'account_id=acct_9&limit=2&starting_after=c4',
    ]);
  });

  const entry = (i: number) => ({ id: `je_${i}`, object: 'journal_entry', date: '2026-01-31', transaction_id: null, kind: 'accrual', memo: null, lines: [] });
  it.each([
    ['accounts', '/accounts', (c: ReturnType<typeof testClient>['client']) => c.accounts.iterate(), (i: number) => ({ id: `acct_${i}` })],
    ['journal entries', '/journal_entries', (c: ReturnType<typeof testClient>['client']) => c.journalEntries.iterate({ category_id: 'cat_1' }), entry],
    ['merchants', '/parties/merchants', (c: ReturnType<typeof testClient>['client']) => c.merchants.iterate({ category_id: 'cat_1' }), (i: number) => ({ object: 'merchant', name: `M${i}` })],
    ['rules', '/rules', (c: ReturnType<typeof testClient>['client']) => c.rules.iterate(), (i: number) => ({ id: `rule_${i}` })],
  ])('page %s to the end', async (_label, path, iterate, item) => {
    const { client } = testClient(api);
    api.setHandler(pagedHandler(path, 4, 2, item));
    expect(await collect(iterate(client) as AsyncIterable<unknown>)).toHaveLength(4);
    expect(api.requests.map((r) => rel(r))).toEqual([path, path]);
    if (path !== '/accounts' && path !== '/rules') expect(api.requests.every((r) => r.query.get('category_id') === 'cat_1')).toBe(true);
  });

  it('fetch no further page when the consumer stops early', async () => {
    const { client } = testClient(api);
    api.setHandler(pagedHandler('/rules', 100, 10, (i) => ({ id: `rule_${i}` })));
    const first = await collect(client.rules.iterate({ limit: 10 }), 3);
    expect(first).toHaveLength(3);
    expect(api.requests).toHaveLength(1);
  });

  it('refuse to loop on a repeated or missing cursor', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: page('/accounts', [{ id: 'acct_1' }], 'same') }));
    await expect(collect(client.accounts.iterate())).rejects.toMatchObject({ code: 'invalid_response' });
    expect(api.requests).toHaveLength(2);
    api.setHandler(() => ({ status: 200, body: { object: 'list', url: '/api/v1/accounts', has_more: true, next_cursor: null, data: [] } }));
    await expect(collect(client.accounts.iterate())).rejects.toBeInstanceOf(ApiError);
  });

  it('close the walk\'s request chain however the walk ends, so no limiter slot stays kept for it', async () => {
    const seen: RequestChain[] = [];
    const pages = (hasMore: (i: number) => boolean) => {
      let i = 0;
      return async (_cursor: string | undefined, chain: RequestChain) => {
        seen.push(chain);
        expect(chain.isClosed).toBe(false);
        i++;
        return { object: 'list' as const, url: '/rules', has_more: hasMore(i), next_cursor: `c${i}`, data: [{ id: `r${i}` }] };
      };
    };
    await collect(walkCursors(pages((i) => i < 3), '/rules'));
    await collect(walkCursors(pages(() => true), '/rules'), 2);
    await expect(collect(walkCursors(pages(() => true), '/rules', { budget: new PageBudget(2, '/rules') }))).rejects.toMatchObject({ code: 'page_limit_exceeded' });
    expect(new Set(seen).size).toBe(3);
    expect(seen.every((c) => c.isClosed)).toBe(true);
  });

  it('single-page list passes exactly the given parameters', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: page('/transactions', [], null) }));
    const p = await client.transactions.list({ limit: 50, starting_after: 'txn_x', source_type: 'credit', merchant: undefined });
    expect(p.has_more).toBe(false);
    expect(api.requests[0].query.toString()).toBe('limit=50&source_type=credit&starting_after=txn_x');
  });
});

describe('unpaginated lists', () => {
  it.each([
    ['categories', '/categories', (c: ReturnType<typeof testClient>['client']) => c.categories.list()],
    ['departments', '/departments', (c: ReturnType<typeof testClient>['client']) => c.departments.list()],
    ['integrations', '/integrations', (c: ReturnType<typeof testClient>['client']) => c.integrations.list()],
  ])('read %s as the only page, tolerating unknown fields and enum values', async (_label, path, list) => {
    const { client } = testClient(api);
    api.setHandler(() => ({
      status: 200,
      body: { object: 'list', url: `/api/v1${path}`, data: [{ id: 'a', status: 'brand_new_status', extra_field: { nested: 1 } }] },
    }));
    const result = await list(client);
    expect(result.data).toEqual([{ id: 'a', status: 'brand_new_status', extra_field: { nested: 1 } }]);
    expect(result.has_more).toBeUndefined();
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].query.toString()).toBe('');
  });
});
