import type { BulkUpdateParams } from '../../src/api';
import { collect } from '../support/collect';
import { errorBody, rel, startFakeApi, testClient, type FakeApi, type Recorded } from './helpers/fakeApi';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const body: BulkUpdateParams = { filters: { account_id: 'acct_1', start_date: '2026-01-01' }, updates: { department_id: 'dept_9' } };

const jobErr = (i: number) => ({ type: 'invalid_request_error', code: 'transaction_conflict', message: `conflict ${i}`, transaction_id: `txn_${i}` });

function job(status: string, errors: { data: unknown[]; next: string | null } = { data: [], next: null }) {
  return {
    id: 'job_1',
    object: 'bulk_update_job',
    status,
    matched_count: status === 'queued' ? null : 1200,
    updated_count: 0,
    created: 1_700_000_000,
    errors: { object: 'list', url: '/api/v1/jobs/job_1', has_more: errors.next !== null, next_cursor: errors.next, data: errors.data },
  };
}

/** POST -> queued; polls: processing x `processing`, then failed with 1200 errors in pages of 500. */
function jobServer(processing: number) {
  let polls = 0;
  return (req: Recorded) => {
    if (req.method === 'POST') return { status: 202, headers: { Location: '/api/v1/jobs/job_1' }, body: job('queued') };
    const after = req.query.get('starting_after');
    if (!after) {
      polls++;
      if (polls <= processing) return { status: 200, body: job('processing') };
    }
    const start = after ? Number(after.slice(4)) : 0;
    const limit = Number(req.query.get('limit') ?? 100);
    const end = Math.min(1200, start + limit);
    const data = Array.from({ length: end - start }, (_, k) => jobErr(start + k));
    return { status: 200, body: job('failed', { data, next: end < 1200 ? `sig_${end}` : null }) };
  };
}

describe('jobs.run', () => {
  it('hands out the key before the POST, polls to a terminal state and pages every error', async () => {
    const { client, delays } = testClient(api);
    api.setHandler(jobServer(2));
    const seen: { key: string; requestsSoFar: number }[] = [];
    const outcome = await client.jobs.run(body, {
      onKey: async (key) => {
        await new Promise((r) => setTimeout(r, 20));
        seen.push({ key, requestsSoFar: api.requests.length });
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].requestsSoFar).toBe(0);
    expect(seen[0].key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(outcome.idempotencyKey).toBe(seen[0].key);

    const post = api.requests[0];
    expect([post.method, rel(post)]).toEqual(['POST', '/transactions/bulk/update']);
    expect(post.headers['idempotency-key']).toBe(seen[0].key);
    expect(post.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post.body)).toEqual(body);

    expect(api.requests.slice(1).map((r) => `${r.method} ${rel(r)}?${r.query.toString()}`)).toEqual([
      'GET /jobs/job_1?limit=500',
      'GET /jobs/job_1?limit=500',
      'GET /jobs/job_1?limit=500',
      'GET /jobs/job_1?limit=500&starting_after=sig_500',
      'GET /jobs/job_1?limit=500&starting_after=sig_1000',
    ]);
    expect(delays).toEqual([375, 750, 1500]);
    expect(outcome.succeeded).toBe(false);
    expect(outcome.job.status).toBe('failed');
    expect(outcome.errors).toHaveLength(1200);
    expect(outcome.errors[1199]).toEqual(jobErr(1199));
  });

  it('reuses a stored key and reports success', async () => {
    const { client } = testClient(api);
    api.setHandler((req) => (req.method === 'POST' ? { status: 202, body: job('queued') } : { status: 200, body: { ...job('success'), updated_count: 1200 } }));
    const keys: string[] = [];
    const outcome = await client.jobs.run(body, { idempotencyKey: 'push-2026-11-20-a', onKey: (k) => void keys.push(k) });
    expect(keys).toEqual(['push-2026-11-20-a']);
    expect(api.requests[0].headers['idempotency-key']).toBe('push-2026-11-20-a');
    expect(outcome).toMatchObject({ succeeded: true, errors: [], job: { status: 'success', updated_count: 1200 } });
    expect(api.requests).toHaveLength(2);
  });

  it('sends nothing when storing the key fails, or when the key is blank or too long', async () => {
    const { client } = testClient(api);
    await expect(client.jobs.run(body, { onKey: () => Promise.reject(new Error('storage full')) })).rejects.toThrow('storage full');
    await expect(client.jobs.run(body, { idempotencyKey: '   ' })).rejects.toMatchObject({ param: 'Idempotency-Key', status: null });
    await expect(client.jobs.run(body, { idempotencyKey: 'k'.repeat(256) })).rejects.toMatchObject({ param: 'Idempotency-Key' });
    expect(api.requests).toHaveLength(0);
  });

  it('surfaces a key reused with another body (409) without retrying', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 409, body: errorBody('invalid_request_error', 'idempotency_key_reused', 'Key reused', 'Idempotency-Key') }));
    await expect(client.jobs.run(body, { idempotencyKey: 'k1' })).rejects.toMatchObject({ status: 409, code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(api.requests).toHaveLength(1);
  });

  it('gives up polling after maxPolls with a resumable error', async () => {
    const { client } = testClient(api);
    api.setHandler((req) => (req.method === 'POST' ? { status: 202, body: job('queued') } : { status: 200, body: job('some_future_status') }));
    await expect(client.jobs.run(body, { maxPolls: 3 })).rejects.toMatchObject({ code: 'job_poll_limit', param: 'id' });
    expect(api.requests).toHaveLength(4);
  });
});

describe('jobs.resume', () => {
  it('re-posts the stored key with the same body and uses the replayed terminal job without polling', async () => {
    const { client } = testClient(api);
    api.setHandler(() => ({ status: 202, body: job('failed', { data: [jobErr(1)], next: null }) }));
    const outcome = await client.jobs.resume('stored-key-1', body);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].headers['idempotency-key']).toBe('stored-key-1');
    expect(JSON.parse(api.requests[0].body)).toEqual(body);
    expect(outcome).toMatchObject({ idempotencyKey: 'stored-key-1', succeeded: false, errors: [jobErr(1)] });
  });

  it('continues the replayed error pages from its cursor', async () => {
    const { client } = testClient(api);
    api.setHandler((req) =>
      req.method === 'POST'
        ? { status: 202, body: job('failed', { data: [jobErr(0)], next: 'sig_1' }) }
        : { status: 200, body: job('failed', { data: [jobErr(1), jobErr(2)], next: null }) },
    );
    const outcome = await client.jobs.resume('stored-key-1', body);
    expect(outcome.errors.map((e) => e.transaction_id)).toEqual(['txn_0', 'txn_1', 'txn_2']);
    expect(api.requests[1].query.toString()).toBe('limit=500&starting_after=sig_1');
  });

  it('keeps polling a replayed job that is still running', async () => {
    const { client } = testClient(api);
    api.setHandler(jobServer(1));
    const outcome = await client.jobs.resume('stored-key-2', body);
    expect(outcome.errors).toHaveLength(1200);
    expect(api.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET', 'GET']);
  });
});

describe('job errors', () => {
  it('iterate from the first page at limit 500', async () => {
    const { client } = testClient(api);
    api.setHandler(jobServer(0));
    const errors = await collect(client.jobs.iterateErrors('job_1'));
    expect(errors).toHaveLength(1200);
    expect(api.requests.map((r) => r.query.toString())).toEqual(['limit=500', 'limit=500&starting_after=sig_500', 'limit=500&starting_after=sig_1000']);
  });
});
