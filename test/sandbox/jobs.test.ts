import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { all, categories, departments, expectError, growth, newKey, one, standardIds, startup, submit, waitForJob } from './txnFixtures';

// POST /transactions/bulk/update and GET /jobs/{id}, with the background worker.

let sb: TestSandbox;
let admin: string;
let dept: string[];

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  dept = departments(sb, growth(sb)).assignable;
});
afterAll(() => sb?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const txn = (id: string) => one(sb, 'SELECT * FROM transactions WHERE id = ?', id);
const jobCount = () => one(sb, 'SELECT COUNT(*) AS n FROM jobs').n as number;

/** Editable transactions whose department is not `deptId`. */
function targets(n: number, offset: number, deptId = dept[0]): string[] {
  return standardIds(sb, growth(sb), n + 20, offset)
    .filter((id) => txn(id).department_id !== deptId)
    .slice(0, n);
}

describe('submission', () => {
  it('answers 202 with Location and the queued snapshot, then the worker applies the edit', async () => {
    const ids = targets(3, 0);
    const res = await submit(sb, admin, { transaction_ids: ids, updates: { department_id: dept[0] } });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    expect(id).toMatch(/^job_[A-Za-z0-9]+$/);
    expect(res.headers.get('location')).toBe(`/api/v1/jobs/${id}`);
    expect(res.body).toEqual({
      id,
      object: 'bulk_update_job',
      status: 'queued',
      matched_count: null,
      updated_count: 0,
      created: expect.any(Number),
      errors: { object: 'list', url: `/api/v1/jobs/${id}`, has_more: false, next_cursor: null, data: [] },
    });
    const job = await waitForJob(sb, admin, id);
    expect(job).toMatchObject({ id, status: 'success', matched_count: 3, updated_count: 3, errors: { data: [], has_more: false } });
    for (const t of ids) expect(txn(t)).toMatchObject({ department_id: dept[0], department_source: 'manual' });
    const poll = await call(sb, admin, 'GET', `/jobs/${id}`);
    expect(poll.headers.get('location')).toBeNull();
  });

  it('replays the same key and body as the original job, applied once; another body is 409', async () => {
    const ids = targets(2, 40, dept[1]);
    const key = newKey();
    const body = { updates: { department_id: dept[1] }, transaction_ids: ids };
    const first = await submit(sb, admin, body, key);
    await waitForJob(sb, admin, first.body.id);
    const seqs = ids.map((id) => txn(id).update_seq);
    const count = jobCount();
    const replay = await call(sb, admin, 'POST', '/transactions/bulk/update', `{ "transaction_ids": ${JSON.stringify(ids)},\n "updates": {"department_id": "${dept[1]}"} }`, {
      'Idempotency-Key': key,
    });
    expect(replay.status).toBe(202);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get('location')).toBe(`/api/v1/jobs/${first.body.id}`);
    expect(jobCount()).toBe(count);
    await sleep(200);
    expect(ids.map((id) => txn(id).update_seq)).toEqual(seqs);
    expect((await call(sb, admin, 'GET', `/jobs/${first.body.id}`)).body).toMatchObject({ status: 'success', updated_count: 2 });

    const other = await submit(sb, admin, { ...body, updates: { department_id: dept[2] } }, key);
    expectError(other, 409, 'idempotency_key_reused', 'Idempotency-Key');
    const otherCase = await submit(sb, admin, body, key.toUpperCase());
    expect(otherCase.status).toBe(202);
    expect(otherCase.body.id).not.toBe(first.body.id);
  });

  it('scopes keys to the user and takes them exactly as sent', async () => {
    await sb.control('members', { key: sb.keys['growth-readonly'], permissions: { transactions: 'manage' } });
    const key = `with spaces ${newKey()}`;
    const body = { transaction_ids: targets(1, 60), updates: { spread: null } };
    const mine = await submit(sb, admin, body, key);
    const theirs = await submit(sb, sb.keys['growth-readonly'], body, key);
    expect(theirs.status).toBe(202);
    expect(theirs.body.id).not.toBe(mine.body.id);
    await sb.control('members', { key: sb.keys['growth-readonly'], permissions: { transactions: 'view' } });
  });

  it('validates the Idempotency-Key header', async () => {
    const body = { transaction_ids: targets(1, 70), updates: { spread: null } };
    const count = jobCount();
    expectError(await call(sb, admin, 'POST', '/transactions/bulk/update', body), 400, 'invalid_request', 'Idempotency-Key');
    expectError(await submit(sb, admin, body, '   '), 400, 'invalid_request', 'Idempotency-Key');
    expectError(await submit(sb, admin, body, 'k'.repeat(256)), 400, 'invalid_request', 'Idempotency-Key');
    expect(jobCount()).toBe(count);
    expect((await submit(sb, admin, body, 'k'.repeat(255))).status).toBe(202);
  });

  it('rejects bad bodies with 400 and creates no job', async () => {
    const ids = targets(2, 80);
    const u = { department_id: dept[0] };
    const cases: [unknown, string, string | undefined][] = [
      ['{"transaction_ids": [', 'invalid_request', undefined],
      [[{ transaction_ids: ids, updates: u }], 'invalid_request', undefined],
      [{ transaction_ids: ids, filters: { status: 'approved' }, updates: u }, 'invalid_request', 'transaction_ids'],
      [{ updates: u }, 'parameter_missing', 'filters'],
      [{ transaction_ids: ids, updates: u, dry_run: true }, 'invalid_request', 'dry_run'],
      [{ transaction_ids: ids }, 'parameter_missing', 'updates'],
      [{ transaction_ids: ids, updates: {} }, 'invalid_request', 'updates'],
      [{ transaction_ids: ids, updates: null }, 'invalid_request', 'updates'],
      [{ transaction_ids: ids, updates: { merchant: 'x' } }, 'invalid_request', 'updates.merchant'],
      [{ transaction_ids: [], updates: u }, 'invalid_request', 'transaction_ids'],
      [{ transaction_ids: 'txn_a', updates: u }, 'invalid_request', 'transaction_ids'],
      [{ transaction_ids: [ids[0], ids[1], ids[0]], updates: u }, 'invalid_request', 'transaction_ids[2]'],
      [{ transaction_ids: [ids[0], 'cat_x'], updates: u }, 'invalid_request', 'transaction_ids[1]'],
      [{ transaction_ids: [ids[0], 7], updates: u }, 'invalid_request', 'transaction_ids[1]'],
      [{ transaction_ids: Array.from({ length: 5001 }, (_, i) => `txn_n${i}`), updates: u }, 'invalid_request', 'transaction_ids'],
      [{ filters: {}, updates: u }, 'invalid_request', 'filters'],
      [{ filters: null, updates: u }, 'invalid_request', 'filters'],
      [{ filters: { source_vendor: 'chase' }, updates: u }, 'invalid_request', 'filters.source_vendor'],
      [{ filters: { source_type: 'bank' }, updates: u }, 'invalid_request', 'filters.source_type'],
      [{ filters: { vendor: 'chase' }, updates: u }, 'invalid_request', 'filters.vendor'],
      [{ filters: { status: 'open' }, updates: u }, 'invalid_request', 'filters.status'],
      [{ filters: { transaction_type: 'refund' }, updates: u }, 'invalid_request', 'filters.transaction_type'],
      [{ filters: { start_date: '2024-02-30' }, updates: u }, 'invalid_request', 'filters.start_date'],
      [{ filters: { start_date: '2024-03-01', end_date: '2024-02-01' }, updates: u }, 'invalid_request', 'filters.start_date'],
      [{ filters: { category_id: 'dept_x' }, updates: u }, 'invalid_request', 'filters.category_id'],
      [{ filters: { account_id: 5 }, updates: u }, 'invalid_request', 'filters.account_id'],
      [{ transaction_ids: ids, updates: { accounting_date: null, accounting_shift: 1 } }, 'invalid_request', 'updates.accounting_shift'],
      [{ transaction_ids: ids, updates: { accounting_shift: 1.5 } }, 'invalid_request', 'updates.accounting_shift'],
      [{ transaction_ids: ids, updates: { accounting_shift: '1' } }, 'invalid_request', 'updates.accounting_shift'],
      [{ transaction_ids: ids, updates: { accounting_shift: 1e12 } }, 'invalid_request', 'updates.accounting_shift'],
      [{ transaction_ids: ids, updates: { accounting_date: '2024-1-01' } }, 'invalid_request', 'updates.accounting_date'],
      [{ transaction_ids: ids, updates: { spread: { start_date: '2024-05-01', end_date: '2024-01-31' } } }, 'invalid_request', 'updates.spread'],
      [{ transaction_ids: ids, updates: { spread: { start_date: '2024-05-01', end_date: '2024-06-30', x: 1 } } }, 'invalid_request', 'updates.spread.x'],
      [{ transaction_ids: ids, updates: { department_id: 12 } }, 'invalid_request', 'updates.department_id'],
    ];
    const count = jobCount();
    for (const [body, code, param] of cases) {
      const res = await submit(sb, admin, body);
      expect([body, res.status, res.body.error?.code, res.body.error?.param]).toEqual([body, 400, code, param]);
    }
    const textPlain = await call(sb, admin, 'POST', '/transactions/bulk/update', JSON.stringify({ transaction_ids: ids, updates: u }), {
      'Idempotency-Key': newKey(),
      'content-type': 'text/plain',
    });
    expectError(textPlain, 400, 'invalid_request');
    expect(jobCount()).toBe(count);
  });

  it('checks the account and card of the filters at submission', async () => {
    const amex = one(sb, "SELECT id FROM accounts WHERE company_id = ? AND vendor = 'amex'", growth(sb)).id;
    const brexCard = one(
      sb,
      "SELECT c.id FROM cards c JOIN accounts a ON a.id = c.account_id WHERE c.company_id = ? AND a.vendor = 'brex'",
      growth(sb),
    ).id;
    const foreignAccount = one(sb, 'SELECT id FROM accounts WHERE company_id = ?', startup(sb)).id;
    const foreignCard = one(sb, 'SELECT id FROM cards WHERE company_id = ?', startup(sb)).id;
    const u = { department_id: dept[0] };
    expectError(await submit(sb, admin, { filters: { account_id: 'acct_doesnotexist' }, updates: u }), 404, 'resource_missing', 'account_id');
    expectError(await submit(sb, admin, { filters: { account_id: foreignAccount }, updates: u }), 404, 'resource_missing', 'account_id');
    expectError(await submit(sb, admin, { filters: { card_id: 'card_nope' }, updates: u }), 404, 'resource_missing', 'card_id');
    expectError(await submit(sb, admin, { filters: { card_id: foreignCard }, updates: u }), 404, 'resource_missing', 'card_id');
    expectError(await submit(sb, admin, { filters: { account_id: amex, card_id: brexCard }, updates: u }), 400, 'invalid_request', 'card_id');
    expectError(await submit(sb, admin, { transaction_ids: targets(1, 90), updates: { department_id: 'dept_nope' } }), 404, 'resource_missing', 'updates.department_id');
    expectError(await submit(sb, admin, { transaction_ids: targets(1, 90), updates: { category_id: 'cat_nope' } }), 404, 'resource_missing', 'updates.category_id');
  });

  it('needs Transactions: Manage', async () => {
    const body = { transaction_ids: targets(1, 95), updates: { spread: null } };
    expectError(await submit(sb, sb.keys['growth-readonly'], body), 403, 'insufficient_permission');
    expectError(await call(sb, sb.keys['growth-readonly'], 'GET', '/jobs/job_x'), 403, 'insufficient_permission');
  });
});

describe('the worker', () => {
  it('is all or nothing: one ineligible target fails the whole job, one error per offender', async () => {
    const ids = targets(3, 100);
    const transfers = all(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'transfer' AND hidden = 0 AND deleted = 0 LIMIT 2", growth(sb)).map(
      (r) => r.id,
    );
    const before = ids.map(txn);
    const res = await submit(sb, admin, { transaction_ids: [...ids, ...transfers], updates: { department_id: dept[0] } });
    const job = await waitForJob(sb, admin, res.body.id);
    expect(job).toMatchObject({ status: 'failed', matched_count: 5, updated_count: 0 });
    expect(job.errors.data).toHaveLength(2);
    for (const [i, e] of job.errors.data.entries()) {
      expect(e).toEqual({ type: 'invalid_request_error', code: 'transaction_update_failed', message: expect.any(String), transaction_id: transfers[i] });
    }
    expect(ids.map(txn)).toEqual(before);
  });

  it('fails on missing, foreign and split targets', async () => {
    const foreign = standardIds(sb, startup(sb), 1)[0];
    const split = one(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'split' AND hidden = 0 AND deleted = 0", growth(sb)).id;
    const ids = targets(1, 110);
    const before = txn(ids[0]);
    const job = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [...ids, 'txn_doesnotexist', foreign, split], updates: { department_id: dept[0] } })).body.id);
    expect(job).toMatchObject({ status: 'failed', matched_count: null, updated_count: 0 });
    expect(job.errors.data.map((e: any) => [e.code, e.transaction_id])).toEqual([
      ['transaction_update_failed', 'txn_doesnotexist'],
      ['transaction_update_failed', foreign],
      ['transaction_update_failed', split],
    ]);
    expect(txn(ids[0])).toEqual(before);
  });

  it('runs the bookkeeping rules on every target', async () => {
    const ids = targets(2, 120);
    const bad = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: ids, updates: { department_id: departments(sb, growth(sb)).notAssignable } })).body.id);
    expect(bad.status).toBe('failed');
    expect(bad.errors.data.map((e: any) => e.transaction_id)).toEqual(ids);
    const cat = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: ids, updates: { category_id: categories(sb, growth(sb)).notSelectable } })).body.id);
    expect(cat).toMatchObject({ status: 'failed', updated_count: 0 });
    const late = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: ids, updates: { accounting_date: '2999-01-01' } })).body.id);
    expect(late.errors.data.map((e: any) => e.code)).toEqual(['transaction_update_failed', 'transaction_update_failed']);
  });

  it('shifts accounting dates by months, clamping to the month end; 0 changes nothing', async () => {
    const id = one(
      sb,
      `SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0
         AND accounting_date_override IS NULL AND substr(date, 6, 2) = '01' AND substr(date, 9, 2) = '31' AND date < ?`,
      growth(sb),
      sb.running.ctx.clock.today().slice(0, 4) + '-01-01',
    ).id;
    const date = txn(id).date as string;
    const year = Number(date.slice(0, 4));
    const feb = `${year}-02-${year % 4 === 0 ? '29' : '28'}`;
    const shifted = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [id], updates: { accounting_shift: 1 } })).body.id);
    expect(shifted).toMatchObject({ status: 'success', updated_count: 1 });
    expect((await call(sb, admin, 'GET', `/transactions/${id}`)).body.accounting_date).toBe(feb);
    const back = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [id], updates: { accounting_shift: -1 } })).body.id);
    expect(back.status).toBe('success');
    expect((await call(sb, admin, 'GET', `/transactions/${id}`)).body.accounting_date).toBe(`${year}-01-${feb.slice(8)}`);
    const zero = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [id], updates: { accounting_shift: 0 } })).body.id);
    expect(zero).toMatchObject({ status: 'success', matched_count: 1, updated_count: 0 });
  });

  it('counts a rule-assigned department made manual as a change, and unchanged rows not at all', async () => {
    const ruled = one(
      sb,
      `SELECT id, department_id FROM transactions WHERE company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0
         AND department_source = 'rule' AND department_id IS NOT NULL`,
      growth(sb),
    );
    const job = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [ruled.id], updates: { department_id: ruled.department_id } })).body.id);
    expect(job).toMatchObject({ status: 'success', updated_count: 1 });
    expect(txn(ruled.id).department_source).toBe('manual');
    const again = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: [ruled.id], updates: { department_id: ruled.department_id } })).body.id);
    expect(again).toMatchObject({ status: 'success', matched_count: 1, updated_count: 0 });
  });

  it('selects by filters when the job starts; no match is a success with zero changes', async () => {
    const none = await waitForJob(sb, admin, (await submit(sb, admin, { filters: { merchant: 'No Such Merchant 123' }, updates: { department_id: dept[0] } })).body.id);
    expect(none).toMatchObject({ status: 'success', matched_count: 0, updated_count: 0 });
    const merchant = 'Bulk Filter Target';
    const ids = targets(3, 130);
    for (const id of ids) await call(sb, admin, 'PATCH', `/transactions/${id}`, { merchant });
    const job = await waitForJob(sb, admin, (await submit(sb, admin, { filters: { merchant, transaction_type: 'standard' }, updates: { department_id: dept[1] } })).body.id);
    expect(job).toMatchObject({ status: 'success', matched_count: 3, updated_count: 3 });
    for (const id of ids) expect(txn(id).department_id).toBe(dept[1]);
    const splitsOnly = await waitForJob(sb, admin, (await submit(sb, admin, { filters: { transaction_type: 'split' }, updates: { department_id: dept[1] } })).body.id);
    expect(splitsOnly).toMatchObject({ status: 'success', matched_count: 0 });
  });

  it('fails with transaction_limit_exceeded when filters match more than 5,000', async () => {
    const big = one(
      sb,
      'SELECT account_id, COUNT(*) AS n FROM transactions WHERE company_id = ? AND hidden = 0 AND deleted = 0 GROUP BY account_id ORDER BY n DESC LIMIT 1',
      growth(sb),
    );
    expect(big.n).toBeGreaterThan(5000);
    const job = await waitForJob(sb, admin, (await submit(sb, admin, { filters: { account_id: big.account_id }, updates: { department_id: dept[0] } })).body.id);
    expect(job).toMatchObject({ status: 'failed', matched_count: null, updated_count: 0 });
    expect(job.errors.data).toEqual([{ type: 'invalid_request_error', code: 'transaction_limit_exceeded', message: expect.any(String), transaction_id: null }]);
  });

  describe('while processing', () => {
    afterEach(() => sb.control('control', { job_processing_delay_ms: 50 }));

    it('fails with transaction_conflict when a target changes after the job froze it', async () => {
      await sb.control('control', { job_processing_delay_ms: 1500 });
      const ids = targets(3, 150);
      const before = ids.map(txn);
      const res = await submit(sb, admin, { transaction_ids: ids, updates: { department_id: dept[0] } });
      await waitForJob(sb, admin, res.body.id, (j) => j.status === 'processing');
      await sb.control(`transactions/${ids[1]}`, { department_id: dept[2] });
      const job = await waitForJob(sb, admin, res.body.id);
      expect(job).toMatchObject({ status: 'failed', matched_count: 3, updated_count: 0 });
      expect(job.errors.data).toEqual([{ type: 'invalid_request_error', code: 'transaction_conflict', message: expect.any(String), transaction_id: ids[1] }]);
      expect(txn(ids[0])).toEqual(before[0]);
      expect(txn(ids[2])).toEqual(before[2]);
    });

    it('fails with permission_denied when the submitter loses Transactions: Manage', async () => {
      const reader = sb.keys['growth-readonly'];
      await sb.control('members', { key: reader, permissions: { transactions: 'manage' } });
      await sb.control('control', { job_processing_delay_ms: 1500 });
      const ids = targets(2, 160);
      const before = ids.map(txn);
      const res = await submit(sb, admin, { transaction_ids: ids, updates: { department_id: dept[0] } });
      await waitForJob(sb, reader, res.body.id, (j) => j.status === 'processing');
      await sb.control('members', { key: admin, permissions: { transactions: 'view' } });
      const job = await waitForJob(sb, reader, res.body.id);
      await sb.control('members', { key: admin, permissions: { transactions: 'manage' } });
      await sb.control('members', { key: reader, permissions: { transactions: 'view' } });
      expect(job).toMatchObject({ status: 'failed', updated_count: 0 });
      expect(job.errors.data).toEqual([{ type: 'permission_error', code: 'permission_denied', message: expect.any(String), transaction_id: null }]);
      expect(ids.map(txn)).toEqual(before);
    });

    it('stays queued while the worker is paused and runs when resumed', async () => {
      await sb.control('control', { worker_paused: true });
      const res = await submit(sb, admin, { transaction_ids: targets(1, 170), updates: { spread: null } });
      await sleep(300);
      expect((await call(sb, admin, 'GET', `/jobs/${res.body.id}`)).body.status).toBe('queued');
      await sb.control('control', { worker_paused: false });
      expect((await waitForJob(sb, admin, res.body.id)).status).toBe('success');
    });
  });
});

describe('GET /jobs/{id}', () => {
  let failedJob: string;
  let errorIds: string[];

  beforeAll(async () => {
    errorIds = all(sb, "SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'transfer' AND hidden = 0 AND deleted = 0 ORDER BY id LIMIT 7", growth(sb)).map(
      (r) => r.id,
    );
    const res = await submit(sb, admin, { transaction_ids: errorIds, updates: { department_id: dept[0] } });
    failedJob = res.body.id;
    await waitForJob(sb, admin, failedJob);
  });

  it('pages through errors with a signed cursor bound to the job', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (const expected of [3, 3, 1]) {
      const q: string = cursor ? `&starting_after=${encodeURIComponent(cursor)}` : '';
      const res = await call(sb, admin, 'GET', `/jobs/${failedJob}?limit=3${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: failedJob, status: 'failed', matched_count: 7, updated_count: 0 });
      expect(res.body.errors.data).toHaveLength(expected);
      expect(res.body.errors.has_more).toBe(expected === 3);
      seen.push(...res.body.errors.data.map((e: any) => e.transaction_id));
      cursor = res.body.errors.next_cursor;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(errorIds);
    expect((await call(sb, admin, 'GET', `/jobs/${failedJob}`)).body.errors.data).toHaveLength(7);
  });

  it('400s a bad cursor or limit', async () => {
    const page = await call(sb, admin, 'GET', `/jobs/${failedJob}?limit=2`);
    const cursor = page.body.errors.next_cursor as string;
    const other = await waitForJob(sb, admin, (await submit(sb, admin, { transaction_ids: errorIds.slice(0, 3), updates: { spread: null } })).body.id);
    const otherCursor = (await call(sb, admin, 'GET', `/jobs/${other.id}?limit=1`)).body.errors.next_cursor as string;
    const tampered = cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');
    for (const q of [`starting_after=${encodeURIComponent(tampered)}`, 'starting_after=', 'starting_after=abc', `starting_after=${encodeURIComponent(otherCursor)}`]) {
      expectError(await call(sb, admin, 'GET', `/jobs/${failedJob}?${q}`), 400, 'invalid_request', 'starting_after');
    }
    for (const limit of ['0', '501', 'x']) expectError(await call(sb, admin, 'GET', `/jobs/${failedJob}?limit=${limit}`), 400, 'invalid_request', 'limit');
    expect((await call(sb, admin, 'GET', `/jobs/${failedJob}?limit=500`)).status).toBe(200);
  });

  it('404s unknown and other-company jobs', async () => {
    expectError(await call(sb, admin, 'GET', '/jobs/job_doesnotexist'), 404, 'resource_missing', 'id');
    expectError(await call(sb, admin, 'GET', '/jobs/12'), 404, 'resource_missing', 'id');
    expectError(await call(sb, sb.keys['startup-admin'], 'GET', `/jobs/${failedJob}`), 404, 'resource_missing', 'id');
  });

  it('expires finished jobs after 30 days; queued jobs never expire', async () => {
    await sb.control('control', { worker_paused: true });
    const queued = await submit(sb, admin, { transaction_ids: errorIds.slice(0, 1), updates: { spread: null } });
    try {
      await sb.control('control', { clock_offset_seconds: 29 * 86400 });
      expect((await call(sb, admin, 'GET', `/jobs/${failedJob}`)).status).toBe(200);
      await sb.control('control', { clock_offset_seconds: 31 * 86400 });
      expectError(await call(sb, admin, 'GET', `/jobs/${failedJob}`), 404, 'resource_missing', 'id');
      expect((await call(sb, admin, 'GET', `/jobs/${queued.body.id}`)).body.status).toBe('queued');
    } finally {
      await sb.control('control', { clock_offset_seconds: 0, worker_paused: false });
    }
  });
});
