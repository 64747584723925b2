import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, MAX_RESPONSE_BYTES } from '../../src/api';
import { page, startFakeApi, TEST_KEY, testClient, type FakeApi } from './helpers/fakeApi';

// Answers a server should never give: the client reads a bounded amount, never follows a redirect, and
// refuses a body it cannot use with a typed, final error (one attempt, nothing retried).

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

/** A server that streams `total` bytes of one JSON string without Content-Length, and counts what it wrote. */
async function streamingServer(total: number): Promise<{ baseUrl: string; written: () => number; close: () => Promise<void> }> {
  let written = 0;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('"');
    const pump = (): void => {
      while (written < total) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end('"');
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    written: () => written,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('response bodies are read with a cap', () => {
  it(`refuses a body over ${MAX_RESPONSE_BYTES} bytes that says its length, without retrying`, async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: JSON.stringify('x'.repeat(MAX_RESPONSE_BYTES)) }));
    await expect(client.reports.balanceSheet({ date: '2026-06-30' })).rejects.toMatchObject({
      code: 'response_too_large',
      type: 'api_error',
      status: 200,
      attempts: 1,
    });
    expect(api.requests).toHaveLength(1);
  });

  it('stops reading a 64 MB body that does not say its length', async () => {
    const server = await streamingServer(64 * 1024 * 1024);
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY, sleep: async () => undefined });
      await expect(client.company.retrieve()).rejects.toMatchObject({ code: 'response_too_large', attempts: 1 });
      // The rest was never asked for: what the server managed to write is the cap plus socket buffers.
      expect(server.written()).toBeLessThan(3 * MAX_RESPONSE_BYTES);
    } finally {
      await server.close();
    }
  });

  it('reads the largest legitimate page in full: 500 transactions with long free text', async () => {
    const { client } = testClient(api);
    const row = (i: number) => ({ id: `txn_${i}`, object: 'transaction', date: '2026-01-02', merchant: 'm'.repeat(2000), description: 'd'.repeat(2000), amount_cents: -8330 });
    api.setHandler(() => ({ status: 200, body: page('/transactions', Array.from({ length: 500 }, (_, i) => row(i)), null) }));
    const result = await client.transactions.list({ limit: 500 });
    expect(result.data).toHaveLength(500);
  });
});

describe('redirects', () => {
  it('are refused at once, never followed and never retried', async () => {
    const elsewhere = await startFakeApi(() => ({ status: 200, body: { id: 'comp_evil', object: 'company' } }));
    try {
      const { client } = testClient(api);
      api.setHandler(() => ({ status: 302, headers: { location: `${elsewhere.baseUrl}/company` } }));
      const error = await client.company.retrieve().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'redirect_refused', type: 'api_error', attempts: 1 });
      expect((error as Error).message).toMatch(/base URL/);
      expect(api.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('a 2xx body that is not a JSON object is invalid_response', () => {
  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"ok"'],
    ['an array', '[]'],
  ])('%s', async (_label, text) => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: text }));
    for (const call of [
      () => client.reports.incomeStatement({ start_date: '2026-01-01', end_date: '2026-01-31' }),
      () => client.aggregations.total({ category_id: 'cat_1', start_date: '2026-01-01', end_date: '2026-01-31' }),
      () => client.company.retrieve(),
      () => client.transactions.retrieve('txn_1'),
      () => client.team.retrieve(),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'invalid_response', attempts: 1 });
    }
    expect(api.requests).toHaveLength(5);
  });
});
