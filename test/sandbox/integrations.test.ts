import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// GET /integrations and the connect request (POST / GET /integrations/{key}/connect).

let sb: TestSandbox;
let admin: string;
let growth: string;

interface Row {
  key: string;
  status: string;
  api_connectable: number;
  available: number;
}
let rows: Row[];
/** Keys by situation, from the seeded integrations of the Growth company. */
const keyWhere = (pred: (r: Row) => boolean) => {
  const row = rows.find(pred);
  if (!row) throw new Error('the seed has no integration for this case');
  return row.key;
};
const connectable = () => keyWhere((r) => r.available === 1 && r.api_connectable === 1 && r.status === 'not_connected');
const secondConnectable = () => rows.filter((r) => r.available === 1 && r.api_connectable === 1 && r.status === 'not_connected')[1].key;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
  rows = sb.running.ctx.db.prepare('SELECT key, status, api_connectable, available FROM integrations WHERE company_id = ? ORDER BY position').all(growth) as Row[];
});
afterAll(async () => {
  await sb.close();
});

function expectError(res: { status: number; body: any }, status: number, code: string, param?: string | null) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param === null) expect(res.body.error).not.toHaveProperty('param');
  else if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** Gives growth-readonly Integrations: Manage and Transactions: Manage for the test body. */
async function asSecondManager<T>(fn: (key: string) => Promise<T>): Promise<T> {
  const key = sb.keys['growth-readonly'];
  await sb.control('members', { key, permissions: { integrations: 'manage', transactions: 'manage' } });
  try {
    return await fn(key);
  } finally {
    await sb.control('members', { key, permissions: { integrations: 'view', transactions: 'view' } });
  }
}

async function withClock<T>(offsetSeconds: number, fn: () => Promise<T>): Promise<T> {
  await sb.control('control', { clock_offset_seconds: offsetSeconds });
  try {
    return await fn();
  } finally {
    await sb.control('control', { clock_offset_seconds: 0 });
  }
}

describe('GET /integrations', () => {
  it('lists the available integrations only, unpaginated', async () => {
    const res = await call(sb, sb.keys['growth-readonly'], 'GET', '/integrations');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'object', 'url']);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/integrations' });
    const data: any[] = res.body.data;
    for (const i of data) {
      expect(Object.keys(i).sort()).toEqual(['api_connectable', 'key', 'name', 'object', 'status', 'type']);
      expect(i.object).toBe('integration');
      expect(typeof i.api_connectable).toBe('boolean');
    }
    expect(data.map((i) => i.key)).toEqual(rows.filter((r) => r.available === 1).map((r) => r.key));
    expect(data.some((i) => i.status === 'connected')).toBe(true);
    expect(data.some((i) => i.status === 'not_connected')).toBe(true);
    expect(data.some((i) => i.api_connectable)).toBe(true);
    expect(data.some((i) => !i.api_connectable)).toBe(true);
  });

  it('needs Integrations: View', async () => {
    expectError(await call(sb, sb.keys['growth-reports'], 'GET', '/integrations'), 403, 'insufficient_permission', null);
  });
});

describe('POST /integrations/{key}/connect', () => {
  it('starts a request (201), returns the open one again (200), and GET reads it', async () => {
    const key = connectable();
    const created = await call(sb, admin, 'POST', `/integrations/${key}/connect`);
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['created', 'expires_at', 'integration_key', 'object', 'url']);
    expect(created.body).toMatchObject({ object: 'integration_connection', integration_key: key });
    expect(created.body.url).toMatch(/^https:\/\//);
    expect(created.body.expires_at - created.body.created).toBe(15 * 60);

    const again = await call(sb, admin, 'POST', `/integrations/${key}/connect`, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    const read = await call(sb, admin, 'GET', `/integrations/${key}/connect`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('answers 409 while another user holds the open link, until it expires', async () => {
    const key = secondConnectable();
    const mine = await call(sb, admin, 'POST', `/integrations/${key}/connect`);
    expect(mine.status).toBe(201);
    await asSecondManager(async (other) => {
      expectError(await call(sb, other, 'POST', `/integrations/${key}/connect`), 409, 'connection_in_progress');
      const read = await call(sb, other, 'GET', `/integrations/${key}/connect`);
      expectError(read, 404, 'resource_missing');
      expect(read.body.error.message).toMatch(/POST/);
      await withClock(15 * 60 + 5, async () => {
        expectError(await call(sb, admin, 'GET', `/integrations/${key}/connect`), 404, 'resource_missing');
        const theirs = await call(sb, other, 'POST', `/integrations/${key}/connect`);
        expect(theirs.status).toBe(201);
        expect(theirs.body.url).not.toBe(mine.body.url);
      });
    });
  });

  it('answers 409 for a connected integration', async () => {
    const key = keyWhere((r) => r.available === 1 && r.api_connectable === 1 && r.status === 'connected');
    expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`), 409, 'integration_already_connected');
  });

  it('answers 404 param key for an unavailable or unknown integration, on POST and GET', async () => {
    const unavailable = keyWhere((r) => r.available === 0);
    for (const key of [unavailable, 'no_such_integration']) {
      expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`), 404, 'resource_missing', 'key');
      expectError(await call(sb, admin, 'GET', `/integrations/${key}/connect`), 404, 'resource_missing', 'key');
    }
  });

  it('answers 400 integration_not_connectable param key when api_connectable is false, on POST and GET', async () => {
    const key = keyWhere((r) => r.available === 1 && r.api_connectable === 0);
    expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`), 400, 'integration_not_connectable', 'key');
    expectError(await call(sb, admin, 'GET', `/integrations/${key}/connect`), 400, 'integration_not_connectable', 'key');
  });

  it('takes no fields in the body', async () => {
    const key = connectable();
    expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`, { redirect_url: 'https://example.com' }), 400, 'invalid_request', 'redirect_url');
    expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`, '[]'), 400, 'invalid_request');
    expectError(await call(sb, admin, 'POST', `/integrations/${key}/connect`, '{nope'), 400, 'invalid_request');
  });

  it('needs Integrations: Manage and Transactions: Manage, on POST and GET', async () => {
    const key = connectable();
    const readonly = sb.keys['growth-readonly'];
    for (const method of ['POST', 'GET']) {
      expectError(await call(sb, readonly, method, `/integrations/${key}/connect`), 403, 'insufficient_permission', null);
    }
    await sb.control('members', { key: readonly, permissions: { integrations: 'manage' } });
    try {
      for (const method of ['POST', 'GET']) {
        expectError(await call(sb, readonly, method, `/integrations/${key}/connect`), 403, 'insufficient_permission', null);
      }
    } finally {
      await sb.control('members', { key: readonly, permissions: { integrations: 'view' } });
    }
  });

  it("keeps each company's requests apart", async () => {
    const key = connectable();
    await call(sb, admin, 'POST', `/integrations/${key}/connect`);
    const startup = sb.keys['startup-admin'];
    expectError(await call(sb, startup, 'GET', `/integrations/${key}/connect`), 404, 'resource_missing');
    const theirs = await call(sb, startup, 'POST', `/integrations/${key}/connect`);
    expect(theirs.status).toBe(201);
  });
});
