import { page, startFakeApi, testClient, type FakeApi } from './helpers/fakeApi';

// Text the add-in writes into cells must arrive as text: the client refuses an answer whose documented
// string fields hold objects, arrays or numbers (invalid_response), before any reader can use it.

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

describe('an object where the API promises a string is invalid_response', () => {
  const list = (path: string, data: unknown[]) => ({ status: 200, body: page(path, data, null) });

  it.each([
    ['a transaction merchant', () => list('/transactions', [{ id: 'txn_1', object: 'transaction', date: '2026-01-02', merchant: { formula: '=1+1' } }])],
    ['a transaction date', () => list('/transactions', [{ id: 'txn_1', object: 'transaction', date: ['2026-01-02'] }])],
    ['a transaction id', () => list('/transactions', [{ id: 7, object: 'transaction', date: '2026-01-02' }])],
  ])('%s', async (_label, reply) => {
    const { client } = testClient(api);
    api.setHandler(reply);
    await expect(client.transactions.list()).rejects.toMatchObject({ code: 'invalid_response', request: { path: '/transactions' } });
  });

  it('a merchant name', async () => {
    const { client } = testClient(api);
    api.setHandler(() => list('/parties/merchants', [{ object: 'merchant', name: { a: 1 } }]));
    // No text field to read the name from: an answer the client does not read, named as such.
    await expect(client.merchants.list({ category_id: 'cat_1' })).rejects.toMatchObject({ code: 'unreadable_answer' });
  });

  it('a category name or account type, a department name', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: { object: 'list', url: '/api/v1/categories', data: [{ id: 'cat_1', name: 'Rent', account_type: { x: 1 }, parent_id: null }] } }));
    await expect(client.categories.list()).rejects.toMatchObject({ code: 'invalid_response' });
    api.setHandler(() => ({ status: 200, body: { object: 'list', url: '/api/v1/departments', data: [{ id: 'dept_1', name: ['Sales'], parent_id: null }] } }));
    await expect(client.departments.list()).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it("a job error's message", async () => {
    const { client } = testClient(api);
    const job = { id: 'job_1', object: 'bulk_update_job', status: 'failed', matched_count: 1, updated_count: 0, errors: page('/jobs/job_1', [{ code: 'x', message: { text: 'no' }, transaction_id: 'txn_1' }], null) };
    api.setHandler(() => ({ status: 200, body: job }));
    await expect(client.jobs.retrieve('job_1')).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('a statement currency, a total currency', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: { object: 'balance_sheet', date: '2026-06-30', currency: { code: 'USD' } } }));
    await expect(client.reports.balanceSheet({ date: '2026-06-30' })).rejects.toMatchObject({ code: 'invalid_response' });
    api.setHandler(() => ({ status: 200, body: { object: 'aggregation_total', category_id: 'cat_1', total_cents: 5, currency: 840 } }));
    await expect(client.aggregations.total({ category_id: 'cat_1', date: '2026-06-30' })).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('tolerates null where the API allows it, and fields it does not know', async () => {
    const { client } = testClient(api);
    api.setHandler(() => list('/transactions', [{ id: 'txn_1', object: 'transaction', date: '2026-01-02', merchant: null, description: null, brand_new: { nested: true } }]));
    await expect(client.transactions.list()).resolves.toMatchObject({ data: [{ id: 'txn_1' }] });
  });
});
