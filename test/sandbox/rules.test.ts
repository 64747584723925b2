import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// /rules: listing, retrieval, the definition validation of create and update, duplicates, references,
// apply_to_existing, and idempotent deletion.

let sb: TestSandbox;
let admin: string;
let growth: string;
let startup: string;

interface Fixtures {
  account: string;
  card: string;
  category: string;
  otherCategory: string;
  department: string;
  foreignCategory: string;
  foreignDepartment: string;
  foreignAccount: string;
  foreignCard: string | undefined;
  hiddenRule: string | undefined;
}
let fx: Fixtures;

const one = <T>(sql: string, ...args: unknown[]) => sb.running.ctx.db.prepare(sql).get(...args) as T;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
  startup = sb.companies['startup-admin'];
  const id = (sql: string, company: string) => one<{ id: string } | undefined>(sql, company)?.id;
  fx = {
    account: id('SELECT id FROM accounts WHERE company_id = ? ORDER BY seq', growth)!,
    card: id('SELECT id FROM cards WHERE company_id = ? ORDER BY seq', growth)!,
    category: id("SELECT id FROM categories WHERE company_id = ? AND selectable = 1 AND account_type = 'expense' ORDER BY id", growth)!,
    otherCategory: id("SELECT id FROM categories WHERE company_id = ? AND selectable = 1 AND account_type = 'expense' ORDER BY id DESC", growth)!,
    department: id('SELECT id FROM departments WHERE company_id = ? AND assignable = 1 ORDER BY position', growth)!,
    foreignCategory: id('SELECT id FROM categories WHERE company_id = ? AND selectable = 1', startup)!,
    foreignDepartment: id('SELECT id FROM departments WHERE company_id = ? AND assignable = 1', startup) ?? 'dept_none',
    foreignAccount: id('SELECT id FROM accounts WHERE company_id = ?', startup)!,
    foreignCard: id('SELECT id FROM cards WHERE company_id = ?', startup),
    hiddenRule: id("SELECT id FROM rules WHERE company_id = ? AND owner <> 'user'", growth),
  };
});
afterAll(async () => {
  await sb.close();
});

function expectError(res: { status: number; body: any }, status: number, code: string, param?: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** A fresh, unique definition (unique merchant text) so tests never collide on duplicates. */
let n = 0;
const uniqueMerchant = () => `Rule Test Merchant ${++n} ${Date.now()}`;
const newRule = (extra: Record<string, unknown> = {}) => ({
  conditions: [{ field: 'merchant', operator: 'contains', value: uniqueMerchant() }],
  actions: { category_id: fx.category },
  ...extra,
});

async function create(body: unknown = newRule()) {
  const res = await call(sb, admin, 'POST', '/rules', body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('GET /rules', () => {
  it('lists user rules newest first with live keyset paging', async () => {
    const a = await create();
    const b = await create();
    const first = await call(sb, admin, 'GET', '/rules?limit=1');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['data', 'has_more', 'next_cursor', 'object', 'url']);
    expect(first.body).toMatchObject({ object: 'list', url: '/api/v1/rules', has_more: true });
    expect(first.body.data[0].id).toBe(b.id);

    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(sb, admin, 'GET', `/rules?limit=2${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      all.push(...page.body.data);
      cursor = page.body.next_cursor;
      expect(cursor === null).toBe(!page.body.has_more);
    } while (cursor);
    expect(all.slice(0, 2).map((r) => r.id)).toEqual([b.id, a.id]);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].created).toBeGreaterThanOrEqual(all[i].created);
    if (fx.hiddenRule) expect(all.map((r) => r.id)).not.toContain(fx.hiddenRule);
  });

  it('keeps paging past a rule deleted after it was used as the cursor', async () => {
    const a = await create();
    const b = await create();
    const page = await call(sb, admin, 'GET', '/rules?limit=1');
    expect(page.body.next_cursor).toBe(b.id);
    expect((await call(sb, admin, 'DELETE', `/rules/${b.id}`)).status).toBe(204);
    const next = await call(sb, admin, 'GET', `/rules?limit=1&starting_after=${b.id}`);
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).toBe(a.id);
  });

  it('answers an unusable cursor with 404 resource_missing param starting_after', async () => {
    for (const c of ['nope', 'rule_Unknown123', fx.hiddenRule].filter(Boolean)) {
      expectError(await call(sb, admin, 'GET', `/rules?starting_after=${c}`), 404, 'resource_missing', 'starting_after');
    }
    expectError(await call(sb, admin, 'GET', '/rules?limit=0'), 400, 'invalid_request', 'limit');
    expectError(await call(sb, admin, 'GET', '/rules?limit=501'), 400, 'invalid_request', 'limit');
  });

  it('needs Accounting setup: View and hides other companies', async () => {
    expectError(await call(sb, sb.keys['growth-reports'], 'GET', '/rules'), 403, 'insufficient_permission');
    expect((await call(sb, sb.keys['growth-readonly'], 'GET', '/rules')).status).toBe(200);
    const mine = await create();
    const theirs = await call(sb, sb.keys['startup-admin'], 'GET', '/rules?limit=500');
    expect(theirs.body.data.map((r: any) => r.id)).not.toContain(mine.id);
    expectError(await call(sb, sb.keys['startup-admin'], 'GET', `/rules?starting_after=${mine.id}`), 404, 'resource_missing', 'starting_after');
  });
});

describe('GET /rules/{id}', () => {
  it('returns one complete rule', async () => {
    const created = await create(newRule({ actions: { category_id: fx.category, department_id: fx.department, merchant_name: 'Tidy Name' } }));
    const res = await call(sb, admin, 'GET', `/rules/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expect(Object.keys(res.body).sort()).toEqual(['actions', 'conditions', 'created', 'id', 'object', 'updated']);
    expect(res.body.object).toBe('rule');
    expect(res.body.id).toMatch(/^rule_[A-Za-z0-9]+$/);
    expect(res.body.actions).toEqual({ category_id: fx.category, department_id: fx.department, merchant_name: 'Tidy Name' });
  });

  it('rejects a malformed id with 400 param id before lookup', async () => {
    for (const id of ['123', 'rule_', '3f2b8c9e-1d2a-4c3b-9e8f-1a2b3c4d5e6f', 'rule_abc-def', 'RULE_abc', 'cat_abc']) {
      expectError(await call(sb, admin, 'GET', `/rules/${id}`), 400, 'invalid_request', 'id');
    }
  });

  it('answers missing, deleted, foreign and provider-owned rules with 404 Rule not found', async () => {
    const deleted = await create();
    await call(sb, admin, 'DELETE', `/rules/${deleted.id}`);
    const foreign = await create();
    const cases: [string, string][] = [
      [admin, 'rule_Missing123'],
      [admin, deleted.id],
      [sb.keys['startup-admin'], foreign.id],
    ];
    if (fx.hiddenRule) cases.push([admin, fx.hiddenRule]);
    for (const [key, id] of cases) {
      const res = await call(sb, key, 'GET', `/rules/${id}`);
      expectError(res, 404, 'resource_missing', 'id');
      expect(res.body.error.message).toBe('Rule not found');
    }
  });
});

describe('POST /rules', () => {
  it('creates a rule: 201 with the rule, listed first', async () => {
    const body = {
      conditions: [
        { field: 'merchant', operator: 'starts_with', value: uniqueMerchant() },
        { field: 'amount_cents', operator: 'between', min: -50000, max: -100 },
        { field: 'account_id', operator: 'equals', value: fx.account },
        { field: 'card_id', operator: 'equals', value: fx.card },
        { field: 'description', operator: 'equals', value: 'Monthly plan' },
        { field: 'amount_cents', operator: 'less_than', value: 0 },
      ],
      actions: { spread: { start_date: '2025-01-01', end_date: '2025-12-31' }, department_id: fx.department },
    };
    const res = await call(sb, admin, 'POST', '/rules', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'rule', conditions: body.conditions, actions: body.actions });
    expect(res.body.created).toBe(res.body.updated);
    const list = await call(sb, admin, 'GET', '/rules?limit=1');
    expect(list.body.data[0].id).toBe(res.body.id);
  });

  it('answers an equal definition with 409 duplicate_rule naming the existing rule, whatever the condition order', async () => {
    const body = {
      conditions: [
        { field: 'merchant', operator: 'equals', value: uniqueMerchant() },
        { field: 'amount_cents', operator: 'greater_than', value: 100 },
      ],
      actions: { category_id: fx.category },
    };
    const created = await create(body);
    for (const again of [body, { ...body, conditions: [...body.conditions].reverse() }]) {
      const res = await call(sb, admin, 'POST', '/rules', again);
      expectError(res, 409, 'duplicate_rule');
      expect(res.body.error.message).toContain(created.id);
      expect(res.body.error).not.toHaveProperty('param');
    }
    // A deleted rule no longer blocks its definition.
    await call(sb, admin, 'DELETE', `/rules/${created.id}`);
    expect((await call(sb, admin, 'POST', '/rules', body)).status).toBe(201);
  });

  it.each<[string, (b: any) => any, string]>([
    ['an unknown top-level field', (b) => ({ ...b, priority: 1 }), 'priority'],
    ['an unknown condition field', (b) => ({ ...b, conditions: [{ ...b.conditions[0], negate: true }] }), 'conditions[0].negate'],
    ['reversed between bounds', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'between', min: 500, max: 100 }] }), 'conditions[0].min'],
    ['a legacy account condition', (b) => ({ ...b, conditions: [{ field: 'account', operator: 'equals', value: 'Chase 1234' }] }), 'conditions[0].field'],
    ['a legacy card_name condition', (b) => ({ ...b, conditions: [{ field: 'card_name', operator: 'equals', value: 'Ops card' }] }), 'conditions[0].field'],
    ['a null action', (b) => ({ ...b, actions: { category_id: null } }), 'actions.category_id'],
    ['between on a text field', (b) => ({ ...b, conditions: [{ field: 'merchant', operator: 'between', min: 1, max: 2 }] }), 'conditions[0].operator'],
    ['contains on an amount', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'contains', value: 5 }] }), 'conditions[0].operator'],
    ['an unknown operator', (b) => ({ ...b, conditions: [{ field: 'merchant', operator: 'matches', value: 'x' }] }), 'conditions[0].operator'],
    ['a value on between', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'between', min: 1, max: 2, value: 3 }] }), 'conditions[0].value'],
    ['a text amount', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'equals', value: '100' }] }), 'conditions[0].value'],
    ['a fractional amount', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'equals', value: 1.5 }] }), 'conditions[0].value'],
    ['a huge amount', (b) => ({ ...b, conditions: [{ field: 'amount_cents', operator: 'equals', value: 1e300 }] }), 'conditions[0].value'],
    ['a blank text value', (b) => ({ ...b, conditions: [{ field: 'merchant', operator: 'equals', value: '  ' }] }), 'conditions[0].value'],
    ['a 100k-character value', (b) => ({ ...b, conditions: [{ field: 'merchant', operator: 'equals', value: 'x'.repeat(100_000) }] }), 'conditions[0].value'],
    ['a condition that is not an object', (b) => ({ ...b, conditions: ['merchant'] }), 'conditions[0]'],
    ['no conditions', (b) => ({ actions: b.actions }), 'conditions'],
    ['an empty conditions array', (b) => ({ ...b, conditions: [] }), 'conditions'],
    ['conditions as an object', (b) => ({ ...b, conditions: {} }), 'conditions'],
    ['a repeated condition', (b) => ({ ...b, conditions: [b.conditions[0], b.conditions[0]] }), 'conditions[1]'],
    ['no actions', (b) => ({ conditions: b.conditions }), 'actions'],
    ['an empty actions object', (b) => ({ ...b, actions: {} }), 'actions'],
    ['actions as an array', (b) => ({ ...b, actions: [] }), 'actions'],
    ['an unknown action', (b) => ({ ...b, actions: { tag: 'x' } }), 'actions.tag'],
    ['a reversed spread', (b) => ({ ...b, actions: { spread: { start_date: '2025-06-01', end_date: '2025-01-31' } } }), 'actions.spread'],
    ['a spread with a bad date', (b) => ({ ...b, actions: { spread: { start_date: '2025-02-30', end_date: '2025-03-31' } } }), 'actions.spread.start_date'],
    ['a numeric category id', (b) => ({ ...b, actions: { category_id: 42 } }), 'actions.category_id'],
    ['apply_to_existing as text', (b) => ({ ...b, apply_to_existing: 'yes' }), 'apply_to_existing'],
  ])('rejects %s with 400 invalid_request naming the path', async (_name, mutate, path) => {
    const res = await call(sb, admin, 'POST', '/rules', mutate(newRule()));
    expectError(res, 400, 'invalid_request', path);
    expect(res.body.error.message).toContain(path);
  });

  it('rejects bodies that are not a JSON object', async () => {
    for (const body of ['[]', 'null', '"rule"', '{bad json', '']) {
      expectError(await call(sb, admin, 'POST', '/rules', body), 400, 'invalid_request');
    }
    expectError(await call(sb, admin, 'POST', '/rules', JSON.stringify(newRule()), { 'content-type': 'text/plain' }), 400, 'invalid_request');
  });

  it('answers missing or foreign references with 404 resource_missing and the path in the message', async () => {
    const cases: [any, string][] = [
      [newRule({ actions: { category_id: 'cat_Missing123' } }), 'actions.category_id'],
      [newRule({ actions: { category_id: fx.foreignCategory } }), 'actions.category_id'],
      [newRule({ actions: { department_id: fx.foreignDepartment } }), 'actions.department_id'],
      [newRule({ conditions: [{ field: 'account_id', operator: 'equals', value: fx.foreignAccount }] }), 'conditions[0].value'],
      [newRule({ conditions: [{ field: 'card_id', operator: 'equals', value: fx.foreignCard ?? 'card_Missing1' }] }), 'conditions[0].value'],
    ];
    for (const [body, path] of cases) {
      const res = await call(sb, admin, 'POST', '/rules', body);
      expectError(res, 404, 'resource_missing', path);
      expect(res.body.error.message).toContain(path);
    }
  });

  it('rejects a category that cannot be assigned and a department that is not an assignable leaf', async () => {
    const cat = one<{ id: string } | undefined>('SELECT id FROM categories WHERE company_id = ? AND selectable = 0', growth);
    const dept = one<{ id: string } | undefined>('SELECT id FROM departments WHERE company_id = ? AND assignable = 0', growth);
    if (cat) expectError(await call(sb, admin, 'POST', '/rules', newRule({ actions: { category_id: cat.id } })), 400, 'invalid_request', 'actions.category_id');
    if (dept) expectError(await call(sb, admin, 'POST', '/rules', newRule({ actions: { department_id: dept.id } })), 400, 'invalid_request', 'actions.department_id');
  });

  it('needs Accounting setup: Manage, and Transactions: Manage too when applying to existing transactions', async () => {
    const key = sb.keys['growth-readonly'];
    expectError(await call(sb, key, 'POST', '/rules', newRule()), 403, 'insufficient_permission');
    await sb.control('members', { key, permissions: { accounting_setup: 'manage' } });
    try {
      expectError(await call(sb, key, 'POST', '/rules', newRule({ apply_to_existing: true })), 403, 'insufficient_permission');
      expect((await call(sb, key, 'POST', '/rules', newRule({ apply_to_existing: false }))).status).toBe(201);
      expect((await call(sb, key, 'POST', '/rules', newRule())).status).toBe(201);
    } finally {
      await sb.control('members', { key, permissions: { accounting_setup: 'view' } });
    }
  });

  it('applies the actions to matching existing transactions when asked, after the 201', async () => {
    const target = one<{ merchant: string; n: number }>(
      `SELECT merchant, COUNT(*) AS n FROM transactions
        WHERE company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0 AND merchant IS NOT NULL
        GROUP BY merchant HAVING n BETWEEN 3 AND 40 ORDER BY n DESC LIMIT 1`,
      growth,
    );
    const dept = one<{ id: string }>(
      `SELECT id FROM departments WHERE company_id = ? AND assignable = 1
        AND id NOT IN (SELECT department_id FROM transactions WHERE company_id = ? AND merchant = ? AND department_id IS NOT NULL)
        ORDER BY position LIMIT 1`,
      growth,
      growth,
      target.merchant,
    );
    const ids = (
      sb.running.ctx.db
        .prepare("SELECT id FROM transactions WHERE company_id = ? AND merchant = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0")
        .all(growth, target.merchant) as { id: string }[]
    ).map((r) => r.id);
    const before = await call(sb, admin, 'GET', `/transactions/${ids[0]}`);
    const created = await call(sb, admin, 'POST', '/rules', {
      conditions: [{ field: 'merchant', operator: 'equals', value: target.merchant.toUpperCase() }],
      actions: { department_id: dept.id },
      apply_to_existing: true,
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 20_000;
    let txns: any[] = [];
    do {
      await new Promise((r) => setTimeout(r, 100));
      txns = await Promise.all(ids.map(async (id) => (await call(sb, admin, 'GET', `/transactions/${id}`)).body));
    } while (txns.some((t) => t.department_id !== dept.id) && Date.now() < deadline);
    for (const t of txns) expect(t.department_id).toBe(dept.id);
    expect(txns[0].updated).toBeGreaterThanOrEqual(before.body.updated);
    const entries = await call(sb, admin, 'GET', `/journal_entries?transaction_id=${ids[0]}`);
    if (entries.status === 200 && entries.body.data.length > 0) {
      const lines = entries.body.data.flatMap((e: any) => e.lines);
      expect(lines.some((l: any) => l.department_id === dept.id)).toBe(true);
    }
  });
});

describe('PATCH /rules/{id}', () => {
  it('merges actions: a value sets, null removes; conditions are replaced', async () => {
    const rule = await create(newRule({ actions: { category_id: fx.category, merchant_name: 'Before' } }));
    await sb.control('control', { clock_offset_seconds: 2 });
    const res = await call(sb, admin, 'PATCH', `/rules/${rule.id}`, { actions: { merchant_name: null, department_id: fx.department } });
    expect(res.status).toBe(200);
    expect(res.body.actions).toEqual({ category_id: fx.category, department_id: fx.department });
    expect(res.body.conditions).toEqual(rule.conditions);
    expect(res.body.updated).toBeGreaterThan(rule.updated);
    expect(res.body.created).toBe(rule.created);

    const conditions = [{ field: 'amount_cents', operator: 'equals', value: -12345 }];
    const res2 = await call(sb, admin, 'PATCH', `/rules/${rule.id}`, { conditions });
    expect(res2.status).toBe(200);
    expect(res2.body.conditions).toEqual(conditions);
    expect((await call(sb, admin, 'GET', `/rules/${rule.id}`)).body).toEqual(res2.body);
    await sb.control('control', { clock_offset_seconds: 0 });
  });

  it('changes future matching only: existing transactions are untouched', async () => {
    const txn = one<{ id: string; merchant: string; updated: number; category_id: string | null }>(
      "SELECT id, merchant, updated, category_id FROM transactions WHERE company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0 AND merchant IS NOT NULL ORDER BY id LIMIT 1",
      growth,
    );
    const rule = await create(newRule());
    const patched = await call(sb, admin, 'PATCH', `/rules/${rule.id}`, {
      conditions: [{ field: 'merchant', operator: 'equals', value: txn.merchant }],
      actions: { category_id: fx.otherCategory },
    });
    expect(patched.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const after = one<{ updated: number; category_id: string | null }>('SELECT updated, category_id FROM transactions WHERE id = ?', txn.id);
    expect(after).toEqual({ updated: txn.updated, category_id: txn.category_id });
  });

  it.each<[string, unknown, string | undefined]>([
    ['an empty body', '', undefined],
    ['an empty object', {}, undefined],
    ['only an empty actions object', { actions: {} }, 'actions'],
    ['removing the last action', { actions: { category_id: null } }, 'actions'],
    ['apply_to_existing', { apply_to_existing: true }, 'apply_to_existing'],
    ['null conditions', { conditions: null }, 'conditions'],
    ['a legacy condition', { conditions: [{ field: 'card_name', operator: 'equals', value: 'x' }] }, 'conditions[0].field'],
    ['an array body', [], undefined],
  ])('rejects %s with 400 invalid_request', async (_name, body, param) => {
    const rule = await create();
    const res = await call(sb, admin, 'PATCH', `/rules/${rule.id}`, body);
    expectError(res, 400, 'invalid_request', param);
  });

  it('answers an exact duplicate of another rule with 409 and a no-op with 200', async () => {
    const a = await create();
    const b = await create();
    const dup = await call(sb, admin, 'PATCH', `/rules/${b.id}`, { conditions: a.conditions });
    expectError(dup, 409, 'duplicate_rule');
    expect(dup.body.error.message).toContain(a.id);
    const same = await call(sb, admin, 'PATCH', `/rules/${a.id}`, { conditions: a.conditions, actions: a.actions });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(a);
  });

  it('checks permission, id format, then existence', async () => {
    const rule = await create();
    expectError(await call(sb, sb.keys['growth-readonly'], 'PATCH', `/rules/${rule.id}`, { actions: { merchant_name: 'x' } }), 403, 'insufficient_permission');
    expectError(await call(sb, admin, 'PATCH', '/rules/42', { actions: { merchant_name: 'x' } }), 400, 'invalid_request', 'id');
    expectError(await call(sb, admin, 'PATCH', '/rules/rule_Missing123', { actions: { merchant_name: 'x' } }), 404, 'resource_missing', 'id');
    expectError(await call(sb, sb.keys['startup-admin'], 'PATCH', `/rules/${rule.id}`, { actions: { merchant_name: 'x' } }), 404, 'resource_missing', 'id');
    expectError(await call(sb, admin, 'PATCH', `/rules/${rule.id}`, { actions: { category_id: 'cat_Missing123' } }), 404, 'resource_missing', 'actions.category_id');
  });
});

describe('DELETE /rules/{id}', () => {
  it('deletes: 204 with an empty body, then 404 on read, and 204 again when already gone', async () => {
    const rule = await create();
    const res = await call(sb, admin, 'DELETE', `/rules/${rule.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expectError(await call(sb, admin, 'GET', `/rules/${rule.id}`), 404, 'resource_missing', 'id');
    expect((await call(sb, admin, 'DELETE', `/rules/${rule.id}`)).status).toBe(204);
    expect((await call(sb, admin, 'DELETE', '/rules/rule_NeverExisted1')).status).toBe(204);
    expectError(await call(sb, admin, 'DELETE', '/rules/12345'), 400, 'invalid_request', 'id');
  });

  it('rejects any request body, even an empty object', async () => {
    const rule = await create();
    for (const body of [{}, 'null', ' ', { id: rule.id }]) {
      expectError(await call(sb, admin, 'DELETE', `/rules/${rule.id}`, body), 400, 'invalid_request');
    }
    expect((await call(sb, admin, 'GET', `/rules/${rule.id}`)).status).toBe(200);
  });

  it('needs Accounting setup: Manage and Transactions: Manage, even for an absent rule', async () => {
    const key = sb.keys['growth-readonly'];
    await sb.control('members', { key, permissions: { accounting_setup: 'manage' } });
    try {
      expectError(await call(sb, key, 'DELETE', '/rules/rule_NeverExisted1'), 403, 'insufficient_permission');
    } finally {
      await sb.control('members', { key, permissions: { accounting_setup: 'view' } });
    }
    await sb.control('members', { key, permissions: { transactions: 'manage' } });
    try {
      expectError(await call(sb, key, 'DELETE', '/rules/rule_NeverExisted1'), 403, 'insufficient_permission');
    } finally {
      await sb.control('members', { key, permissions: { transactions: 'view' } });
    }
  });

  it("leaves other companies' and provider-owned rules alone while answering 204", async () => {
    const rule = await create();
    expect((await call(sb, sb.keys['startup-admin'], 'DELETE', `/rules/${rule.id}`)).status).toBe(204);
    expect((await call(sb, admin, 'GET', `/rules/${rule.id}`)).status).toBe(200);
    if (fx.hiddenRule) {
      expect((await call(sb, admin, 'DELETE', `/rules/${fx.hiddenRule}`)).status).toBe(204);
      expect(one<{ deleted: number }>('SELECT deleted FROM rules WHERE id = ?', fx.hiddenRule).deleted).toBe(0);
    }
  });
});
