import util from 'node:util';
import { ApiError } from '../../src/api';
import { errorBody, startFakeApi, TEST_KEY, testClient, type FakeApi } from './helpers/fakeApi';

// The key must never be recoverable from anything thrown: not from JSON, inspection (with hidden
// properties and depth), String(), the stack, or any level of the cause chain.

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

/** Every rendering of an error a log or an error cell could end up with. */
function renderings(err: unknown): string[] {
  const out = [
    JSON.stringify(err),
    String(err),
    util.inspect(err, { depth: Infinity, showHidden: true, getters: true }),
    util.format('%o', err),
  ];
  let current: unknown = err;
  for (let i = 0; i < 10 && current; i++) {
    const e = current as Error;
    out.push(String(e.stack), String(e.message), JSON.stringify(e, Object.getOwnPropertyNames(e)));
    current = (e as { cause?: unknown }).cause;
  }
  return out;
}

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

function expectNoKey(err: unknown) {
  for (const text of renderings(err)) {
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain('TESTSECRET');
    expect(text).not.toMatch(/authorization/i);
    expect(text).not.toMatch(/Bearer svc_/);
  }
}

describe('the key never appears in a thrown error', () => {
  it('is sent only as the Bearer header', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 200, body: { object: 'list', url: '/api/v1/categories', data: [] } }));
    await client.categories.list();
    const req = api.requests[0];
    expect(req.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(req.path + req.query.toString() + req.body).not.toContain('TESTSECRET');
    const otherHeaders = Object.entries(req.headers).filter(([k]) => k !== 'authorization');
    expect(JSON.stringify(otherHeaders)).not.toContain('TESTSECRET');
  });

  it.each([
    ['400', { status: 400, body: errorBody('invalid_request_error', 'invalid_request', 'Bad limit', 'limit') }],
    ['401', { status: 401, body: errorBody('authentication_error', 'invalid_api_key', 'Invalid API key provided.') }],
    ['403', { status: 403, body: errorBody('permission_error', 'insufficient_permission', 'No.') }],
    ['429 monthly', { status: 429, body: errorBody('limit_error', 'monthly_limit_exceeded', 'The limit resets on 2026-12-01 at 00:00 Pacific Time.') }],
    ['500 after retries', { status: 500, body: errorBody('api_error', 'internal_error', 'boom') }],
    ['non-JSON 502', { status: 502, body: '<html>bad gateway</html>' }],
  ])('on an HTTP %s', async (_label, reply) => {
    const { client } = testClient(api);
    api.setHandler(() => reply);
    const err = await caught(client.transactions.list({ merchant: 'Acme' }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).request).toEqual({ method: 'GET', path: '/transactions', query: 'merchant=Acme' });
    expectNoKey(err);
  });

  it('even when the server echoes the key in its message and param', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 401, body: errorBody('authentication_error', 'invalid_api_key', `Key ${TEST_KEY} is revoked`, TEST_KEY) }));
    const err = (await caught(client.company.retrieve())) as ApiError;
    expect(err.message).toBe('Key [redacted] is revoked');
    expect(err.param).toBe('[redacted]');
    expectNoKey(err);
  });

  it('nor any form of it the client can compute: any case, reversed, percent-encoded or base64 (issue 36, item 7)', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const echoes = [
      TEST_KEY.toLowerCase(),
      TEST_KEY.toUpperCase(),
      [...TEST_KEY].reverse().join(''),
      b64(TEST_KEY),
      b64(TEST_KEY).replace(/\+/g, '-').replace(/\//g, '_'),
      b64(`user:${TEST_KEY}`), // a Basic header echoed
      b64(`${TEST_KEY}:`),
    ];
    for (const echo of echoes) {
      const { client } = testClient(api);
      api.setHandler(() => ({ status: 401, body: errorBody('authentication_error', 'invalid_api_key', `Key ${echo} is revoked`, echo) }));
      const err = (await caught(client.company.retrieve())) as ApiError;
      expect(err.message).toMatch(/^Key .*\[redacted\].* is revoked$/);
      const left = err.message.replace(/^Key /, '').replace(/ is revoked$/, '').replace('[redacted]', '');
      expect(left.length).toBeLessThanOrEqual(8); // at most the partial base64 groups around the key's bytes
      for (const text of renderings(err)) expect(text.toLowerCase()).not.toContain('testsecret');
    }
  });

  it('on a dropped connection (cause chain included)', async () => {
    const { client } = testClient(api, { maxRetries: 1 });
    api.setHandler(() => ({ drop: true }));
    const err = (await caught(client.transactions.retrieve('txn_1'))) as ApiError;
    expect(err.type).toBe('connection_error');
    expect(err.cause).toBeInstanceOf(Error);
    expectNoKey(err);
  });

  it('on a timeout and on a refused connection', async () => {
    const { client } = testClient(api, { timeoutMs: 30, maxRetries: 0 });
    api.setHandler(() => ({ delayMs: 300, status: 200, body: {} }));
    expectNoKey(await caught(client.transactions.retrieve('txn_1')));
    const port = new URL(api.baseUrl).port;
    await api.close();
    const refused = testClient({ ...api, baseUrl: `http://127.0.0.1:${port}/api/v1` }, { maxRetries: 0 }).client;
    const err = (await caught(refused.categories.list())) as ApiError;
    expect(err.code).toBe('connection_refused');
    expectNoKey(err);
    api = await startFakeApi();
  });

  it('when the fetch implementation itself throws an error quoting the header', async () => {
    const leaky: typeof fetch = async (_url, init) => {
      const auth = (init?.headers as Record<string, string>).Authorization;
      const inner = Object.assign(new Error(`socket hang up sending ${auth}`), { code: 'ECONNRESET', headers: init?.headers, init });
      throw new TypeError(`Headers.append: "${auth}" is an invalid header value.`, { cause: inner });
    };
    const { client } = testClient(api, { fetch: leaky, maxRetries: 1 });
    const err = (await caught(client.transactions.retrieve('txn_1'))) as ApiError;
    expect(err.type).toBe('connection_error');
    expect(String((err.cause as Error).message)).toContain('[redacted]');
    expectNoKey(err);
  });

  it('debug lines carry method and path only', async () => {
    const lines: string[] = [];
    const { client } = testClient(api, { debug: (l) => lines.push(l) });
    api.setHandler(() => ({ status: 200, body: { object: 'list', url: '/x', has_more: false, next_cursor: null, data: [] } }));
    await client.transactions.list({ merchant: 'Secret Merchant' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/transactions -> 200 \(attempt 1, \d+ ms\)$/);
  });
});
