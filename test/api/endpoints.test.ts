import type { Client } from '../../src/api';
import { rel, startFakeApi, testClient, type FakeApi, type Recorded } from './helpers/fakeApi';

// Every endpoint of the spec, the method that calls it, and what goes on the wire.

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api.close();
});

const listBody = { object: 'list', url: '/api/v1/x', has_more: false, next_cursor: null, data: [] };
const jobBody = { id: 'job_1', object: 'bulk_update_job', status: 'success', matched_count: 0, updated_count: 0, created: 1, errors: listBody };

function reply(req: Recorded) {
  if (req.method === 'DELETE') return { status: 204 };
  if (rel(req).startsWith('/jobs/') || rel(req) === '/transactions/bulk/update') return { status: req.method === 'POST' ? 202 : 200, body: jobBody };
  if (req.method === 'GET' && ['/transactions', '/accounts', '/cards', '/journal_entries', '/parties/merchants', '/rules', '/categories', '/departments', '/integrations'].includes(rel(req))) {
    return { status: 200, body: listBody };
  }
  // Answers the client reads by shape (src/api/answerShape.ts) need the least of theirs.
  const shaped: Record<string, unknown> = {
    '/journal_entries/je_1': { id: 'je_1', object: 'journal_entry', date: '2026-01-31', transaction_id: null, kind: 'accrual', memo: null, lines: [] },
    '/aggregations/total': { object: 'aggregation_total', category_id: 'cat_1', total_cents: 0 },
    '/reports/cash_flow': { object: 'cash_flow', change_in_cash_cents: 0, operating_activities: { total_cents: 0, categories: [] } },
  };
  return { status: req.method === 'POST' ? 201 : 200, body: shaped[rel(req)] ?? { id: 'x_1', object: 'thing' } };
}

type Case = [endpoint: string, call: (c: Client) => Promise<unknown>, query: string, body: unknown];

const cases: Case[] = [
  ['GET /transactions', (c) => c.transactions.list({ status: 'pending', limit: 10 }), 'limit=10&status=pending', undefined],
  ['GET /transactions/txn_1', (c) => c.transactions.retrieve('txn_1'), '', undefined],
  ['PATCH /transactions/txn_1', (c) => c.transactions.update('txn_1', { accounting_date: null, spread: { start_date: '2026-01-01', end_date: '2026-06-30' } }), '', { accounting_date: null, spread: { start_date: '2026-01-01', end_date: '2026-06-30' } }],
  ['POST /transactions/bulk/update', (c) => c.transactions.bulkUpdate({ transaction_ids: ['txn_1'], updates: { accounting_shift: 1 } }, { idempotencyKey: 'k' }), '', { transaction_ids: ['txn_1'], updates: { accounting_shift: 1 } }],
  ['GET /jobs/job_1', (c) => c.jobs.retrieve('job_1', { limit: 5 }), 'limit=5', undefined],
  ['GET /accounts', (c) => c.accounts.list(), '', undefined],
  ['POST /accounts', (c) => c.accounts.create({ account_name: 'Ops', vendor: 'Chase', type: 'credit' }), '', { account_name: 'Ops', vendor: 'Chase', type: 'credit' }],
  ['GET /cards', (c) => c.cards.list({ account_id: 'acct_1' }), 'account_id=acct_1', undefined],
  ['GET /journal_entries', (c) => c.journalEntries.list({ transaction_id: 'txn_1', start_date: '2026-01-01' }), 'start_date=2026-01-01&transaction_id=txn_1', undefined],
  ['GET /journal_entries/je_1', (c) => c.journalEntries.retrieve('je_1'), '', undefined],
  ['GET /aggregations/total', (c) => c.aggregations.total({ category_id: 'cat_1', start_date: '2026-01-01', end_date: '2026-03-31', merchant: 'AWS' }), 'category_id=cat_1&end_date=2026-03-31&merchant=AWS&start_date=2026-01-01', undefined],
  ['GET /parties/merchants', (c) => c.merchants.list({ category_id: 'cat_1' }), 'category_id=cat_1', undefined],
  ['GET /reports/balance_sheet', (c) => c.reports.balanceSheet({ date: '2026-03-31' }), 'date=2026-03-31', undefined],
  ['GET /reports/income_statement', (c) => c.reports.incomeStatement({ start_date: '2026-01-01', end_date: '2026-03-31' }), 'end_date=2026-03-31&start_date=2026-01-01', undefined],
  ['GET /reports/cash_flow', (c) => c.reports.cashFlow({ start_date: '2026-01-01', end_date: '2026-12-31' }), 'end_date=2026-12-31&start_date=2026-01-01', undefined],
  ['GET /categories', (c) => c.categories.list(), '', undefined],
  ['GET /departments', (c) => c.departments.list(), '', undefined],
  ['GET /company', (c) => c.company.retrieve(), '', undefined],
  ['GET /integrations', (c) => c.integrations.list(), '', undefined],
  ['POST /integrations/quickbooks/connect', (c) => c.integrations.connect('quickbooks'), '', undefined],
  ['GET /integrations/quickbooks/connect', (c) => c.integrations.retrieveConnection('quickbooks'), '', undefined],
  ['GET /rules', (c) => c.rules.list({ limit: 3 }), 'limit=3', undefined],
  ['GET /rules/rule_1', (c) => c.rules.retrieve('rule_1'), '', undefined],
  ['POST /rules', (c) => c.rules.create({ conditions: [{ field: 'amount_cents', operator: 'between', min: 100, max: 500 }], actions: { category_id: 'cat_1' }, apply_to_existing: true }), '', { conditions: [{ field: 'amount_cents', operator: 'between', min: 100, max: 500 }], actions: { category_id: 'cat_1' }, apply_to_existing: true }],
  ['PATCH /rules/rule_1', (c) => c.rules.update('rule_1', { actions: { department_id: null } }), '', { actions: { department_id: null } }],
  ['DELETE /rules/rule_1', (c) => c.rules.del('rule_1'), '', undefined],
  ['GET /team', (c) => c.team.retrieve(), '', undefined],
  ['POST /team/invitations', (c) => c.team.invitations.create({ email: 'a@b.co', first_name: 'A', access_template: 'read_only' }), '', { email: 'a@b.co', first_name: 'A', access_template: 'read_only' }],
  ['PATCH /team/invitations/invite_1', (c) => c.team.invitations.update('invite_1', { access_template: 'admin' }), '', { access_template: 'admin' }],
  ['POST /team/invitations/invite_1/resend', (c) => c.team.invitations.resend('invite_1'), '', undefined],
  ['DELETE /team/invitations/invite_1', (c) => c.team.invitations.revoke('invite_1'), '', undefined],
];

it('covers all 31 endpoints of the spec', () => {
  expect(cases).toHaveLength(31);
  expect(new Set(cases.map(([e]) => e.replace(/_1\b|quickbooks/g, '{id}'))).size).toBe(31);
});

it.each(cases)('%s', async (endpoint, call, query, body) => {
  api.setHandler(reply);
  api.requests.length = 0;
  const { client } = testClient(api);
  await call(client);
  expect(api.requests).toHaveLength(1);
  const req = api.requests[0];
  expect(`${req.method} ${rel(req)}`).toBe(endpoint);
  expect(req.query.toString()).toBe(query);
  expect(req.headers.accept).toBe('application/json');
  if (body === undefined) {
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
  } else {
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual(body);
  }
  expect(req.headers['idempotency-key']).toBe(endpoint.includes('bulk') ? 'k' : undefined);
});
