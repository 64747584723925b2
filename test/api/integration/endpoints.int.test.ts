import { ApiError } from '../../../src/api';
import { collect } from '../../support/collect';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { assignableLeaves, caught, clientFor, daysAgo, editableTransactions, outcomes, parseLines, type Harness } from './support';

// Every one of the 31 endpoints through the client, against the real sandbox over HTTP, with the
// growth-admin key: reads parse and page to the end with their filters, writes behave as the spec says,
// and errors arrive typed.

let sb: TestSandbox;
let admin: Harness;

beforeAll(async () => {
  sb = await startSandbox();
  admin = clientFor(sb, 'growth-admin');
});
afterAll(() => sb?.close());

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);

/** Follows next_cursor by hand with one page method, re-sending `params` every time; returns every item. */
async function pageByHand<T, P extends { limit?: number; starting_after?: string }>(
  list: (p: P) => Promise<{ data: T[]; has_more: boolean; next_cursor: string | null }>,
  params: P,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await list({ ...params, starting_after: cursor });
    items.push(...page.data);
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      return { items, pages };
    }
    expect(typeof page.next_cursor).toBe('string');
    cursor = page.next_cursor!;
  }
}

describe('reads', () => {
  it('GET /company parses and names the key\'s company', async () => {
    const company = await admin.client.company.retrieve();
    expect(company).toMatchObject({ id: sb.companies['growth-admin'], object: 'company', name: expect.any(String), legal_name: expect.any(String) });
    expect(company.incorporation.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(company.legal_address).sort()).toEqual(['city', 'country', 'line_1', 'line_2', 'postal_code', 'state']);
    expect(isInt(company.created)).toBe(true);
  });

  it('GET /categories, /departments, /integrations are full lists without paging fields', async () => {
    const categories = await admin.client.categories.list();
    const departments = await admin.client.departments.list();
    const integrations = await admin.client.integrations.list();
    for (const list of [categories, departments, integrations]) {
      expect(list.object).toBe('list');
      expect(list.has_more).toBeUndefined();
      expect(list).not.toHaveProperty('next_cursor');
      expect(list.data.length).toBeGreaterThan(0);
    }
    expect(categories.url).toBe('/api/v1/categories');
    for (const c of categories.data) {
      expect(c).toMatchObject({ id: expect.stringMatching(/^cat_/), object: 'category', point_in_time: expect.any(Boolean) });
      expect([1, 2, 3]).toContain(c.tier);
    }
    for (const d of departments.data) {
      expect(d).toMatchObject({ id: expect.stringMatching(/^dept_/), object: 'department', assignable: expect.any(Boolean) });
      expect(d.tier).toBeLessThanOrEqual(4);
    }
    for (const i of integrations.data) expect(i).toMatchObject({ object: 'integration', key: expect.any(String), api_connectable: expect.any(Boolean) });
  });

  it('GET /team has members and invitations arrays', async () => {
    const team = await admin.client.team.retrieve();
    expect(Array.isArray(team.members)).toBe(true);
    expect(Array.isArray(team.invitations)).toBe(true);
    expect(team.members.length).toBeGreaterThan(0);
    for (const m of team.members) expect(m).toMatchObject({ object: 'team_member', email: expect.any(String), permissions: expect.any(Object) });
  });

  it('GET /transactions pages to the end with the filters re-sent on every page', async () => {
    const filter = { status: 'approved', source_type: 'credit', start_date: daysAgo(240), end_date: daysAgo(30) } as const;
    const byHand = await pageByHand((p) => admin.client.transactions.list(p), { ...filter, limit: 100 });
    expect(byHand.pages).toBeGreaterThan(2);
    const iterated = await collect(admin.client.transactions.iterate(filter));
    const smallPages = await collect(admin.client.transactions.iterate({ ...filter, limit: 97 }));

    expect(iterated.map((t) => t.id)).toEqual(byHand.items.map((t) => t.id));
    expect(smallPages.map((t) => t.id)).toEqual(byHand.items.map((t) => t.id));
    expect(new Set(iterated.map((t) => t.id)).size).toBe(iterated.length);
    // Had a later page lost the filters, rows of other statuses, sources or dates would show up.
    for (const t of iterated) {
      expect(t.status).toBe('approved');
      expect(t.source.type).toBe('credit');
      expect(t.date >= filter.start_date && t.date <= filter.end_date).toBe(true);
    }
    for (let i = 1; i < iterated.length; i++) expect(iterated[i - 1].date >= iterated[i].date).toBe(true);

    // The same period without the source filter holds more rows: the filter really narrowed the list.
    const unfiltered = await collect(admin.client.transactions.iterate({ start_date: filter.start_date, end_date: filter.end_date }));
    expect(unfiltered.length).toBeGreaterThan(iterated.length);

    const t = iterated[0];
    for (const f of ['id', 'object', 'date', 'accounting_date', 'amount_cents', 'currency', 'categorized', 'department_id', 'department_name', 'transaction_type', 'source', 'status', 'created']) {
      expect(t).toHaveProperty(f);
    }
    expect(isInt(t.amount_cents)).toBe(true);
  });

  it('GET /transactions/{id} returns the listed transaction', async () => {
    const [first] = (await admin.client.transactions.list({ limit: 1 })).data;
    expect(await admin.client.transactions.retrieve(first.id)).toEqual(first);
  });

  it('GET /accounts and GET /cards page to the end; the cards filter is re-sent', async () => {
    const accounts = await pageByHand((p) => admin.client.accounts.list(p), { limit: 3 });
    expect(accounts.pages).toBeGreaterThan(1);
    expect((await collect(admin.client.accounts.iterate())).map((a) => a.id)).toEqual(accounts.items.map((a) => a.id));
    for (const a of accounts.items) expect(a).toMatchObject({ id: expect.stringMatching(/^acct_/), object: 'account', vendor: expect.any(String) });

    const cards = await collect(admin.client.cards.iterate({ limit: 4 }));
    expect(cards.length).toBeGreaterThan(0);
    const byAccount = new Map<string, number>();
    for (const c of cards) if (c.account_id) byAccount.set(c.account_id, (byAccount.get(c.account_id) ?? 0) + 1);
    const [accountId, n] = [...byAccount.entries()].sort((a, b) => b[1] - a[1])[0];
    const filtered = await collect(admin.client.cards.iterate({ account_id: accountId, limit: 1 }));
    expect(filtered.length).toBe(n);
    expect(filtered.every((c) => c.account_id === accountId)).toBe(true);
  });

  it('GET /journal_entries pages with its date filter; GET /journal_entries/{id} returns a listed entry', async () => {
    const filter = { start_date: daysAgo(75), end_date: daysAgo(45) };
    const byHand = await pageByHand((p) => admin.client.journalEntries.list(p), { ...filter, limit: 150 });
    expect(byHand.pages).toBeGreaterThan(1);
    const iterated = await collect(admin.client.journalEntries.iterate(filter));
    expect(iterated.map((e) => e.id)).toEqual(byHand.items.map((e) => e.id));
    for (const e of iterated) {
      expect(e.date >= filter.start_date && e.date <= filter.end_date).toBe(true);
      expect(e.object).toBe('journal_entry');
      const debits = e.lines.reduce((s, l) => s + l.debit_cents, 0);
      const credits = e.lines.reduce((s, l) => s + l.credit_cents, 0);
      expect(debits).toBe(credits);
    }
    const withTxn = iterated.find((e) => e.transaction_id !== null)!;
    const forTxn = await collect(admin.client.journalEntries.iterate({ transaction_id: withTxn.transaction_id! }));
    expect(forTxn.length).toBeGreaterThan(0);
    expect(forTxn.every((e) => e.transaction_id === withTxn.transaction_id)).toBe(true);
    expect(await admin.client.journalEntries.retrieve(withTxn.id)).toEqual(withTxn);
  });

  it('GET /parties/merchants pages with its category re-sent', async () => {
    const { data: categories } = await admin.client.categories.list();
    // The expense root with children that has the most merchants (one page of 500 each to compare).
    let expenseRoot = categories[0];
    let most = -1;
    const hasChildren = (id: string) => categories.some((c) => c.parent_id === id);
    for (const c of categories.filter((x) => x.account_type === 'expense' && x.parent_id === null && hasChildren(x.id))) {
      const n = (await admin.client.merchants.list({ category_id: c.id, limit: 500 })).data.length;
      if (n > most) [expenseRoot, most] = [c, n];
    }
    expect(most).toBeGreaterThan(7);
    const byHand = await pageByHand((p) => admin.client.merchants.list(p), { category_id: expenseRoot.id, limit: 7 });
    expect(byHand.pages).toBeGreaterThan(1);
    const iterated = await collect(admin.client.merchants.iterate({ category_id: expenseRoot.id }));
    expect(iterated.map((m) => m.name)).toEqual(byHand.items.map((m) => m.name));
    expect(iterated.every((m) => m.object === 'merchant' && typeof m.name === 'string')).toBe(true);
    expect(iterated.length).toBe(most);
    const names = iterated.map((m) => m.name);
    expect([...names].sort()).toEqual(names.slice().sort());
    // A child's merchants are among its parent's (a category and all its descendants), and a narrower
    // category lists fewer: the category is really applied on every page.
    const child = categories.find((c) => c.parent_id === expenseRoot.id)!;
    const childNames = (await collect(admin.client.merchants.iterate({ category_id: child.id, limit: 2 }))).map((m) => m.name);
    expect(childNames.length).toBeLessThan(names.length);
    expect(childNames.filter((n) => !names.includes(n))).toEqual([]);
  });

  it('the three reports parse and hold their identities', async () => {
    const bs = await admin.client.reports.balanceSheet();
    expect(bs.object).toBe('balance_sheet');
    expect(bs.liabilities_and_equity_cents).toBe(bs.assets.total_cents);
    const rootSum = (cats: { parent_category_id: string | null; balance_cents?: number; amount_cents?: number }[]) =>
      cats.filter((c) => c.parent_category_id === null).reduce((s, c) => s + (c.balance_cents ?? c.amount_cents ?? 0), 0);
    expect(rootSum(bs.assets.categories)).toBe(bs.assets.total_cents);
    expect(bs.equity.retained_earnings.ending_balance_cents).toBe(
      bs.equity.retained_earnings.beginning_balance_cents + bs.equity.retained_earnings.net_income_cents,
    );

    const period = { start_date: daysAgo(120), end_date: daysAgo(1) };
    const is = await admin.client.reports.incomeStatement(period);
    expect(is).toMatchObject({ object: 'income_statement', start_date: period.start_date, end_date: period.end_date });
    const sections = [is.revenue, is.uncategorized_income, is.expenses, is.uncategorized_expenses].filter((s) => s !== undefined);
    expect(is.operating_income_cents).toBe(sections.reduce((s, x) => s + x!.total_cents, 0));
    expect(is.net_income_cents).toBe(is.operating_income_cents + is.non_operating_income.total_cents + (is.taxes?.total_cents ?? 0));

    const cf = await admin.client.reports.cashFlow(period);
    expect(cf.object).toBe('cash_flow');
    expect(isInt(cf.change_in_cash_cents)).toBe(true);
    expect(cf.operating_activities.categories.some((c) => c.category_id.startsWith('grp_'))).toBe(true);
  });

  it('GET /aggregations/total takes the date shape of the category', async () => {
    const { data: categories } = await admin.client.categories.list();
    const periodic = categories.find((c) => c.account_type === 'expense' && c.parent_id === null && !c.point_in_time)!;
    const pointInTime = categories.find((c) => c.account_type === 'asset' && c.point_in_time)!;
    const start = daysAgo(100);
    const end = daysAgo(40);
    const total = await admin.client.aggregations.total({ category_id: periodic.id, start_date: start, end_date: end });
    expect(total).toMatchObject({ object: 'aggregation_total', category_id: periodic.id, currency: 'USD', date: null });
    expect(isInt(total.total_cents)).toBe(true);
    expect(total.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const balance = await admin.client.aggregations.total({ category_id: pointInTime.id, date: daysAgo(10) });
    expect(balance).toMatchObject({ category_id: pointInTime.id, start_date: null, end_date: null });
    expect(isInt(balance.total_cents)).toBe(true);
    const wrongShape = await caught(admin.client.aggregations.total({ category_id: pointInTime.id, start_date: start, end_date: end }));
    expect(wrongShape).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('writes', () => {
  it('POST /accounts twice with the same account gives the same id: 201 then 200', async () => {
    const body = { account_name: 'Integration Reserve', vendor: 'First Harbor Bank', type: 'bank' } as const;
    const created = await admin.client.accounts.create(body);
    const again = await admin.client.accounts.create({ ...body, account_name: '  integration   RESERVE ' });
    expect(again.id).toBe(created.id);
    expect(created).toMatchObject({ object: 'account', vendor: 'first harbor bank', type: 'bank', manual: true });
    expect(outcomes(admin.lines, 'POST', '/accounts')).toEqual(['201', '200']);
    const listed = await collect(admin.client.accounts.iterate());
    expect(listed.filter((a) => a.id === created.id)).toEqual([created]);
  });

  it('rules: create, retrieve, update, list, duplicate 409, delete twice', async () => {
    const conditions = [{ field: 'merchant', operator: 'contains', value: 'Integration Test Vendor' }] as const;
    const rule = await admin.client.rules.create({ conditions: [...conditions], actions: { merchant_name: 'Integration Vendor' } });
    expect(rule).toMatchObject({ id: expect.stringMatching(/^rule_[A-Za-z0-9]+$/), object: 'rule', actions: { merchant_name: 'Integration Vendor' } });
    expect(outcomes(admin.lines, 'POST', '/rules')).toEqual(['201']);
    expect(await admin.client.rules.retrieve(rule.id)).toEqual(rule);

    const leaf = (await assignableLeaves(admin.client))[0];
    const updated = await admin.client.rules.update(rule.id, { actions: { department_id: leaf } });
    expect(updated.actions).toEqual({ merchant_name: 'Integration Vendor', department_id: leaf });
    const listed = await collect(admin.client.rules.iterate({ limit: 2 }));
    expect(listed[0]).toEqual(updated);

    const dup = await caught(admin.client.rules.create({ conditions: [...conditions], actions: { merchant_name: 'Integration Vendor', department_id: leaf } }));
    expect(dup).toBeInstanceOf(ApiError);
    expect(dup).toMatchObject({ status: 409, type: 'invalid_request_error', code: 'duplicate_rule' });
    expect(dup.message).toContain(rule.id);

    await admin.client.rules.del(rule.id);
    await admin.client.rules.del(rule.id);
    expect(outcomes(admin.lines, 'DELETE', `/rules/${rule.id}`)).toEqual(['204', '204']);
    expect(await caught(admin.client.rules.retrieve(rule.id))).toMatchObject({ status: 404, code: 'resource_missing', param: 'id' });
    expect(await caught(admin.client.rules.retrieve('12345'))).toMatchObject({ status: 400, code: 'invalid_request', param: 'id' });
  });

  it('invitations: create, update access, resend, revoke (twice)', async () => {
    const email = `integration.${Date.now()}@example.com`;
    const invitation = await admin.client.team.invitations.create({ email, first_name: 'Ida', access_template: 'read_only' });
    expect(invitation).toMatchObject({ id: expect.stringMatching(/^invite_[A-Za-z0-9]+$/), object: 'invitation', email, access_template: 'read_only', status: 'pending' });
    expect(outcomes(admin.lines, 'POST', '/team/invitations')).toEqual(['201']);
    expect(invitation).toMatchObject({ changed: false });
    expect((await admin.client.team.retrieve()).invitations.map((i) => i.id)).toContain(invitation.id);

    const updated = await admin.client.team.invitations.update(invitation.id, { access_template: 'admin' });
    expect(updated).toMatchObject({ id: invitation.id, access_template: 'admin' });
    const resent = await admin.client.team.invitations.resend(invitation.id);
    expect(resent).toMatchObject({ id: invitation.id, access_template: 'admin' });
    expect(resent.expires_at).toBeGreaterThanOrEqual(invitation.expires_at);

    await admin.client.team.invitations.revoke(invitation.id);
    await admin.client.team.invitations.revoke(invitation.id);
    expect(outcomes(admin.lines, 'DELETE', `/team/invitations/${invitation.id}`)).toEqual(['204', '204']);
    expect((await admin.client.team.retrieve()).invitations.map((i) => i.id)).not.toContain(invitation.id);
    expect(await caught(admin.client.team.invitations.resend(invitation.id))).toMatchObject({ status: 404, code: 'resource_missing', param: 'invitation_id' });
    // Revoking an id that never existed is a 204 too: existence is never confirmed.
    await admin.client.team.invitations.revoke('invite_neverexisted1');
  });

  it('integrations: connect 201 then 200 with the same link, and retrieveConnection', async () => {
    const { data } = await admin.client.integrations.list();
    const target = data.find((i) => i.api_connectable && i.status === 'not_connected')!;
    // Nothing started yet: the read is a 404 that points to POST.
    expect(await caught(admin.client.integrations.retrieveConnection(target.key))).toMatchObject({ status: 404, code: 'resource_missing' });
    const first = await admin.client.integrations.connect(target.key);
    const second = await admin.client.integrations.connect(target.key);
    expect(outcomes(admin.lines, 'POST', `/integrations/${target.key}/connect`)).toEqual(['201', '200']);
    expect(first).toMatchObject({ object: 'integration_connection', integration_key: target.key, url: expect.stringMatching(/^https:\/\//) });
    expect(second).toEqual(first);
    expect(first.expires_at - first.created).toBe(15 * 60);
    expect(await admin.client.integrations.retrieveConnection(target.key)).toEqual(first);

    const notConnectable = data.find((i) => !i.api_connectable);
    if (notConnectable) {
      expect(await caught(admin.client.integrations.connect(notConnectable.key))).toMatchObject({ status: 400, code: 'integration_not_connectable', param: 'key' });
    }
  });

  it("PATCH /transactions/{id}: a department to an assignable leaf and back", async () => {
    const [txn] = await editableTransactions(admin.client, 1, 0);
    const leaves = await assignableLeaves(admin.client);
    const leaf = leaves.find((d) => d !== txn.department_id)!;
    const changed = await admin.client.transactions.update(txn.id, { department_id: leaf });
    expect(changed).toMatchObject({ id: txn.id, department_id: leaf, department_name: expect.any(String) });
    // The sandbox's second sync field (docs/api-decisions.md; the client does not read it) moves with the change.
    const stamp = (t: object) => (t as { updated?: number }).updated!;
    expect(stamp(changed)).toBeGreaterThanOrEqual(stamp(txn));
    const back = await admin.client.transactions.update(txn.id, { department_id: txn.department_id });
    expect(back.department_id).toBe(txn.department_id);
    expect((await admin.client.transactions.retrieve(txn.id)).department_id).toBe(txn.department_id);
  });

  it('POST /transactions/bulk/update and GET /jobs/{id} through the jobs helper', async () => {
    const targets = await editableTransactions(admin.client, 3, 5);
    const leaves = await assignableLeaves(admin.client);
    const leaf = leaves.find((d) => targets.every((t) => t.department_id !== d))!;
    let storedKey: string | undefined;
    const outcome = await admin.client.jobs.run(
      { transaction_ids: targets.map((t) => t.id), updates: { department_id: leaf } },
      { onKey: (k) => void (storedKey = k), initialDelayMs: 20, maxDelayMs: 200 },
    );
    expect(outcome).toMatchObject({ idempotencyKey: storedKey, succeeded: true, errors: [] });
    expect(outcome.job).toMatchObject({ status: 'success', matched_count: 3, updated_count: 3 });
    expect(outcomes(admin.lines, 'POST', '/transactions/bulk/update')).toEqual(['202']);
    expect(await admin.client.jobs.retrieve(outcome.job.id)).toEqual(outcome.job);
    for (const t of targets) expect((await admin.client.transactions.retrieve(t.id)).department_id).toBe(leaf);
  });
});

describe('errors arrive typed', () => {
  it('404 resource_missing with param', async () => {
    const err = await caught(admin.client.transactions.retrieve('txn_doesnotexist000'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, type: 'invalid_request_error', code: 'resource_missing', param: 'id' });
    expect(err.docUrl).toBe('https://docs.company-financial-data.example/errors#resource_missing');
    expect(err.request).toEqual({ method: 'GET', path: '/transactions/txn_doesnotexist000', query: '' });
  });

  it('400 invalid_date on a report', async () => {
    const err = await caught(admin.client.reports.balanceSheet({ date: '03/01/2025' }));
    expect(err).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_date', param: 'date', attempts: 1 });
    const range = await caught(admin.client.reports.incomeStatement({ start_date: daysAgo(1), end_date: daysAgo(10) }));
    expect(range).toMatchObject({ status: 400, code: 'invalid_date_range', param: 'start_date' });
  });

  it('unusable cursors: 404 on /transactions and /rules, 400 on the other lists and job errors (all param starting_after)', async () => {
    const c = admin.client;
    const notFound = { status: 404, type: 'invalid_request_error', code: 'resource_missing', param: 'starting_after', attempts: 1 };
    const invalid = { status: 400, type: 'invalid_request_error', code: 'invalid_request', param: 'starting_after', attempts: 1 };
    expect(await caught(c.transactions.list({ starting_after: 'txn_nosuchcursor000' }))).toMatchObject(notFound);
    expect(await caught(c.rules.list({ starting_after: 'rule_nosuchcursor000' }))).toMatchObject(notFound);
    expect(await caught(c.accounts.list({ starting_after: 'acct_nosuchcursor000' }))).toMatchObject(invalid);
    expect(await caught(c.journalEntries.list({ starting_after: 'je_nosuchcursor000' }))).toMatchObject(invalid);
    const { data: categories } = await c.categories.list();
    expect(await caught(c.merchants.list({ category_id: categories[0].id, starting_after: 'garbage' }))).toMatchObject(invalid);

    // A /cards cursor is bound to the account_id filter it was issued under; an /accounts cursor is no /cards cursor.
    const cards = await collect(c.cards.iterate());
    const withAccount = cards.filter((x) => x.account_id !== null);
    const accountId = withAccount[0].account_id!;
    const firstPage = await c.cards.list({ account_id: accountId, limit: 1 });
    expect(firstPage.has_more).toBe(true);
    const otherAccount = withAccount.find((x) => x.account_id !== accountId)!.account_id!;
    expect(await caught(c.cards.list({ account_id: otherAccount, starting_after: firstPage.next_cursor! }))).toMatchObject(invalid);
    expect(await caught(c.cards.list({ starting_after: firstPage.next_cursor! }))).toMatchObject(invalid);
    const accountsPage = await c.accounts.list({ limit: 1 });
    expect(await caught(c.cards.list({ starting_after: accountsPage.next_cursor! }))).toMatchObject(invalid);
    expect(await caught(c.cards.list({ account_id: 'acct_nosuchaccount00' }))).toMatchObject({ status: 404, code: 'resource_missing', param: 'account_id' });

    // A limit outside 1-500 is a 400 on every list.
    expect(await caught(c.transactions.list({ limit: 0 }))).toMatchObject({ status: 400, code: 'invalid_request', param: 'limit' });
    expect(await caught(c.rules.list({ limit: 501 }))).toMatchObject({ status: 400, code: 'invalid_request', param: 'limit' });
  });

  it('a list filter is applied as the spec says (categorized, merchant text search, status)', async () => {
    const c = admin.client;
    const uncategorized = await collect(c.transactions.iterate({ categorized: false, start_date: daysAgo(200) }));
    expect(uncategorized.length).toBeGreaterThan(0);
    expect(uncategorized.every((t) => t.categorized === false)).toBe(true);
    const pending = await collect(c.transactions.iterate({ status: 'pending' }));
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((t) => t.status === 'pending')).toBe(true);
    const sample = (await c.transactions.list({ limit: 50 })).data.find((t) => t.merchant && t.merchant.length > 4)!;
    const needle = sample.merchant!.slice(1, 4).toUpperCase();
    const found = await collect(c.transactions.iterate({ merchant: needle, start_date: daysAgo(120) }));
    expect(found.map((t) => t.id)).toContain(sample.id);
    expect(found.every((t) => (t.merchant ?? '').toLowerCase().includes(needle.toLowerCase()))).toBe(true);
  });

  it('401 for a revoked key and 403 for a key owner without API access', async () => {
    const revoked = clientFor(sb, 'revoked');
    expect(await caught(revoked.client.company.retrieve())).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key', attempts: 1 });
    const noApi = clientFor(sb, 'growth-no-api');
    expect(await caught(noApi.client.company.retrieve())).toMatchObject({ status: 403, type: 'permission_error', code: 'insufficient_permission', attempts: 1 });
  });

  it('403 insufficient_permission for the growth-reports key on /transactions', async () => {
    const reports = clientFor(sb, 'growth-reports');
    const err = await caught(reports.client.transactions.list());
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, type: 'permission_error', code: 'insufficient_permission', param: null, attempts: 1 });
    // The same key can read what it holds.
    await expect(reports.client.reports.balanceSheet()).resolves.toMatchObject({ object: 'balance_sheet' });
  });
});

it('touched all 31 endpoints', () => {
  const template = (path: string) =>
    path
      .replace(/^\/transactions\/(?!bulk\/)[^/]+$/, '/transactions/{id}')
      .replace(/^\/jobs\/[^/]+$/, '/jobs/{id}')
      .replace(/^\/journal_entries\/[^/]+$/, '/journal_entries/{id}')
      .replace(/^\/rules\/[^/]+$/, '/rules/{id}')
      .replace(/^\/team\/invitations\/[^/]+(\/resend)?$/, '/team/invitations/{id}$1')
      .replace(/^\/integrations\/[^/]+\/connect$/, '/integrations/{key}/connect');
  const seen = new Set(parseLines(admin.lines).map((a) => `${a.method} ${template(a.path)}`));
  const all = [
    'GET /transactions', 'GET /transactions/{id}', 'PATCH /transactions/{id}', 'POST /transactions/bulk/update', 'GET /jobs/{id}',
    'GET /accounts', 'POST /accounts', 'GET /cards', 'GET /journal_entries', 'GET /journal_entries/{id}', 'GET /aggregations/total',
    'GET /parties/merchants', 'GET /reports/balance_sheet', 'GET /reports/income_statement', 'GET /reports/cash_flow',
    'GET /categories', 'GET /departments', 'GET /company', 'GET /integrations', 'POST /integrations/{key}/connect',
    'GET /integrations/{key}/connect', 'GET /rules', 'GET /rules/{id}', 'POST /rules', 'PATCH /rules/{id}', 'DELETE /rules/{id}',
    'GET /team', 'POST /team/invitations', 'PATCH /team/invitations/{id}', 'POST /team/invitations/{id}/resend',
    'DELETE /team/invitations/{id}',
  ];
  expect(all).toHaveLength(31);
  expect(all.filter((e) => !seen.has(e))).toEqual([]);
});
