import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// GET /team and the four invitation writes: shapes, validation, plan and feature gates, grant and
// target limits, concealed 404s and idempotent revocation.

let sb: TestSandbox;
let admin: string;
let growth: string;

const AREAS = ['api_access', 'company', 'team_access', 'accounting_setup', 'integrations', 'reports', 'transactions'];
const all = (level: string) => Object.fromEntries(AREAS.map((a) => [a, level]));
const custom = (overrides: Record<string, string>) => ({ ...all('none'), api_access: 'manage', ...overrides });

const one = <T>(sql: string, ...args: unknown[]) => sb.running.ctx.db.prepare(sql).get(...args) as T;

beforeAll(async () => {
  sb = await startSandbox();
  admin = sb.keys['growth-admin'];
  growth = sb.companies['growth-admin'];
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

let n = 0;
const email = () => `invitee${++n}.${Date.now()}@example.com`;

async function invite(body: Record<string, unknown> = {}, key = admin) {
  const res = await call(sb, key, 'POST', '/team/invitations', { email: email(), access_template: 'read_only', ...body });
  expect(res.status).toBe(201);
  return res.body;
}

/** Gives growth-readonly Team & access: Manage (it keeps every other area at View) for the test body. */
async function asLimitedManager<T>(fn: (key: string) => Promise<T>): Promise<T> {
  const key = sb.keys['growth-readonly'];
  await sb.control('members', { key, permissions: { team_access: 'manage' } });
  try {
    return await fn(key);
  } finally {
    await sb.control('members', { key, permissions: { team_access: 'view' } });
  }
}

/** Runs fn with the sandbox clock moved just past the invitation's expiry (fn gets that time). */
async function withClockAfterExpiry(inv: { expires_at: number }, fn: (now: number) => Promise<void>): Promise<void> {
  const offset = inv.expires_at + 60 - Math.floor(Date.now() / 1000);
  await sb.control('control', { clock_offset_seconds: offset });
  try {
    await fn(inv.expires_at + 60);
  } finally {
    await sb.control('control', { clock_offset_seconds: 0 });
  }
}

const acceptedInvitation = () =>
  one<{ id: string }>("SELECT id FROM invitations WHERE company_id = ? AND status = 'accepted'", growth).id;

describe('GET /team', () => {
  it('returns the team document with members and pending invitations', async () => {
    const res = await call(sb, sb.keys['growth-readonly'], 'GET', '/team');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['invitations', 'members', 'object']);
    expect(res.body.object).toBe('team');
    const { members, invitations } = res.body;
    expect(members.length).toBeGreaterThan(3);
    for (const m of members) {
      expect(Object.keys(m).sort()).toEqual(['access_template', 'email', 'first_name', 'last_name', 'object', 'permissions', 'status', 'user_id']);
      expect(m.object).toBe('team_member');
      expect(Object.keys(m.permissions).sort()).toEqual([...AREAS].sort());
      expect([null, 'admin', 'read_only']).toContain(m.access_template);
    }
    expect(members.some((m: any) => m.access_template === null)).toBe(true);
    expect(members.some((m: any) => m.status === 'inactive')).toBe(true);
    for (const i of invitations) {
      expect(Object.keys(i).sort()).toEqual(
        ['access_template', 'created', 'email', 'expired', 'expires_at', 'first_name', 'id', 'last_name', 'object', 'permissions', 'sent_count', 'status'].sort(),
      );
      expect(i).toMatchObject({ object: 'invitation', status: 'pending' });
      expect(i.id).toMatch(/^invite_[A-Za-z0-9]+$/);
      expect(i.expired).toBe(i.expires_at <= Date.now() / 1000);
    }
    expect(invitations.some((i: any) => i.expired)).toBe(true);
    expect(invitations.some((i: any) => !i.expired)).toBe(true);
    expect(invitations.map((i: any) => i.id)).not.toContain(acceptedInvitation());
  });

  it('always carries both arrays, and only the caller company', async () => {
    const res = await call(sb, sb.keys['formation-admin'], 'GET', '/team');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.members)).toBe(true);
    expect(Array.isArray(res.body.invitations)).toBe(true);
    const growthEmails = (await call(sb, admin, 'GET', '/team')).body.members.map((m: any) => m.email);
    for (const m of res.body.members) expect(growthEmails).not.toContain(m.email);
  });

  it('needs Team & access: View', async () => {
    expectError(await call(sb, sb.keys['growth-reports'], 'GET', '/team'), 403, 'insufficient_permission', null);
  });
});

describe('POST /team/invitations', () => {
  it('creates an invitation: 201 with changed false, listed as pending', async () => {
    const address = email();
    const res = await call(sb, admin, 'POST', '/team/invitations', { email: address, first_name: 'Ada', last_name: 'Lovelace', access_template: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'invitation', email: address, first_name: 'Ada', last_name: 'Lovelace', access_template: 'admin',
      permissions: all('manage'), status: 'pending', expired: false, sent_count: 1, changed: false,
    });
    expect(res.body.expires_at).toBeGreaterThan(res.body.created);
    const team = await call(sb, admin, 'GET', '/team');
    expect(team.body.invitations.map((i: any) => i.id)).toContain(res.body.id);
  });

  it('accepts a custom permissions object with every area', async () => {
    const permissions = custom({ reports: 'view', transactions: 'manage' });
    const created = await invite({ access_template: undefined, permissions });
    expect(created).toMatchObject({ access_template: null, permissions });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['permissions with a template', { access_template: 'read_only', permissions: all('view') }, 'permissions'],
    ['permissions null with a template', { access_template: 'admin', permissions: null }, 'permissions'],
    ['a missing area', { access_template: undefined, permissions: { ...all('view'), reports: undefined } }, 'permissions'],
    ['an extra area', { access_template: undefined, permissions: { ...all('view'), billing: 'view' } }, 'permissions'],
    ['an unsupported level', { access_template: undefined, permissions: { ...all('view'), reports: 'edit' } }, 'permissions'],
    ['permissions as an array', { access_template: undefined, permissions: [] }, 'permissions'],
    ['an unknown template', { access_template: 'owner' }, 'access_template'],
    ['an unknown field', { role: 'admin' }, 'role'],
    ['a numeric email', { email: 42 }, 'email'],
    ['a numeric first name', { first_name: 7 }, 'first_name'],
    ['a 100k-character last name', { last_name: 'x'.repeat(100_000) }, 'last_name'],
  ])('rejects %s with 400 invalid_request', async (_name, body, param) => {
    const res = await call(sb, admin, 'POST', '/team/invitations', { email: email(), access_template: 'read_only', ...body });
    expectError(res, 400, 'invalid_request', param);
  });

  it('rejects a missing email or access with 400 parameter_missing', async () => {
    expectError(await call(sb, admin, 'POST', '/team/invitations', { access_template: 'admin' }), 400, 'parameter_missing', 'email');
    expectError(await call(sb, admin, 'POST', '/team/invitations', { email: email() }), 400, 'parameter_missing', 'access_template');
    expectError(await call(sb, admin, 'POST', '/team/invitations', '[]'), 400, 'invalid_request');
  });

  it('answers an invalid email, a pending invitation and an existing teammate with 422', async () => {
    for (const bad of ['not-an-email', '', 'a b@example.com', `a@${'b.'.repeat(50_000)}`]) {
      expectError(await call(sb, admin, 'POST', '/team/invitations', { email: bad, access_template: 'admin' }), 422, 'invalid_email', 'email');
    }
    const existing = await invite();
    const again = await call(sb, admin, 'POST', '/team/invitations', { email: existing.email.toUpperCase(), access_template: 'admin' });
    expectError(again, 422, 'invitation_exists', 'email');
    const member = (await call(sb, admin, 'GET', '/team')).body.members[0];
    expectError(await call(sb, admin, 'POST', '/team/invitations', { email: member.email, access_template: 'admin' }), 422, 'already_member', 'email');
  });

  it('checks the grant against the key owner access (param permissions)', async () => {
    await asLimitedManager(async (key) => {
      expectError(await call(sb, key, 'POST', '/team/invitations', { email: email(), access_template: 'admin' }), 403, 'insufficient_permission', 'permissions');
      const tooBroad = custom({ reports: 'manage' });
      expectError(await call(sb, key, 'POST', '/team/invitations', { email: email(), permissions: tooBroad }), 403, 'insufficient_permission', 'permissions');
      expect((await call(sb, key, 'POST', '/team/invitations', { email: email(), access_template: 'read_only' })).status).toBe(201);
    });
  });

  it('allows only Admin with role-based access control off (feature_disabled), and custom access only on Growth (plan_upgrade_required)', async () => {
    const startup = sb.keys['startup-admin'];
    expectError(await call(sb, startup, 'POST', '/team/invitations', { email: email(), access_template: 'read_only' }), 403, 'feature_disabled', 'permissions');
    expectError(await call(sb, startup, 'POST', '/team/invitations', { email: email(), permissions: custom({}) }), 403, 'feature_disabled', 'permissions');
    expect((await call(sb, startup, 'POST', '/team/invitations', { email: email(), access_template: 'admin' })).status).toBe(201);

    await sb.control('company', { company_id: sb.companies['startup-admin'], rbac_enabled: true });
    try {
      expectError(await call(sb, startup, 'POST', '/team/invitations', { email: email(), access_template: 'read_only' }), 403, 'plan_upgrade_required');
    } finally {
      await sb.control('company', { company_id: sb.companies['startup-admin'], rbac_enabled: false });
    }
    await sb.control('company', { company_id: growth, plan_status: 'trialing' });
    try {
      expect((await call(sb, admin, 'POST', '/team/invitations', { email: email(), access_template: 'read_only' })).status).toBe(201);
    } finally {
      await sb.control('company', { company_id: growth, plan_status: 'active' });
    }
  });

  it('needs Team & access: Manage', async () => {
    expectError(await call(sb, sb.keys['growth-readonly'], 'POST', '/team/invitations', { email: email(), access_template: 'read_only' }), 403, 'insufficient_permission', null);
  });
});

describe('PATCH /team/invitations/{id}', () => {
  it('changes the access only, reporting whether anything changed', async () => {
    const inv = await invite();
    const res = await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, { permissions: custom({ reports: 'view' }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inv.id, email: inv.email, access_template: null, permissions: custom({ reports: 'view' }), changed: true });
    const again = await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, { permissions: custom({ reports: 'view' }) });
    expect(again.body.changed).toBe(false);
    const back = await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, { access_template: 'admin' });
    expect(back.body).toMatchObject({ access_template: 'admin', permissions: all('manage'), changed: true });
  });

  it.each(['first_name', 'last_name', 'email', 'version'])('rejects %s with 400', async (field) => {
    const inv = await invite();
    const res = await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, { access_template: 'admin', [field]: 'x' });
    expectError(res, 400, 'invalid_request', field);
  });

  it('rejects bad bodies and malformed ids with 400', async () => {
    const inv = await invite();
    expectError(await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, {}), 400, 'parameter_missing');
    expectError(await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, ''), 400, 'invalid_request');
    expectError(await call(sb, admin, 'PATCH', `/team/invitations/${inv.id}`, { access_template: 'admin', permissions: null }), 400, 'invalid_request', 'permissions');
    for (const id of ['123', 'invite_', 'invite_a-b', 'inv_abc']) {
      expectError(await call(sb, admin, 'PATCH', `/team/invitations/${id}`, { access_template: 'admin' }), 400, 'invalid_request', 'id');
    }
  });

  it('conceals accepted, foreign and unknown invitations behind 404 param invitation_id', async () => {
    for (const id of [acceptedInvitation(), 'invite_NeverExisted1']) {
      expectError(await call(sb, admin, 'PATCH', `/team/invitations/${id}`, { access_template: 'admin' }), 404, 'resource_missing', 'invitation_id');
    }
    const foreign = one<{ id: string } | undefined>("SELECT id FROM invitations WHERE company_id <> ? AND status = 'pending'", growth);
    if (foreign) {
      expectError(await call(sb, admin, 'PATCH', `/team/invitations/${foreign.id}`, { access_template: 'admin' }), 404, 'resource_missing', 'invitation_id');
    }
  });

  it('needs role-based access control and an active or trialing Growth plan for every edit, Admin included', async () => {
    const startup = sb.keys['startup-admin'];
    const inv = await invite({ access_template: 'admin' }, startup);
    expectError(await call(sb, startup, 'PATCH', `/team/invitations/${inv.id}`, { access_template: 'admin' }), 403, 'feature_disabled');
    await sb.control('company', { company_id: sb.companies['startup-admin'], rbac_enabled: true });
    try {
      expectError(await call(sb, startup, 'PATCH', `/team/invitations/${inv.id}`, { access_template: 'admin' }), 403, 'plan_upgrade_required');
    } finally {
      await sb.control('company', { company_id: sb.companies['startup-admin'], rbac_enabled: false });
    }
  });

  it('needs authority over both the current and the requested access', async () => {
    const adminInvite = await invite({ access_template: 'admin' });
    const readOnly = await invite();
    await asLimitedManager(async (key) => {
      // Lowering the request does not help when the current access is the problem.
      expectError(await call(sb, key, 'PATCH', `/team/invitations/${adminInvite.id}`, { access_template: 'read_only' }), 403, 'insufficient_permission', 'invitation_id');
      expectError(await call(sb, key, 'PATCH', `/team/invitations/${readOnly.id}`, { access_template: 'admin' }), 403, 'insufficient_permission', 'permissions');
      const ok = await call(sb, key, 'PATCH', `/team/invitations/${readOnly.id}`, { permissions: custom({ reports: 'view' }) });
      expect(ok.status).toBe(200);
    });
    expectError(await call(sb, sb.keys['growth-readonly'], 'PATCH', `/team/invitations/${readOnly.id}`, { access_template: 'read_only' }), 403, 'insufficient_permission', null);
  });
});

describe('POST /team/invitations/{id}/resend', () => {
  it('sends again: sent_count goes up and an expired invitation gets a fresh expiry', async () => {
    const inv = await invite();
    await withClockAfterExpiry(inv, async (now) => {
      const res = await call(sb, admin, 'POST', `/team/invitations/${inv.id}/resend`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: inv.id, object: 'invitation', sent_count: 2, expired: false });
      expect(res.body.expires_at).toBeGreaterThan(now);
      const again = await call(sb, admin, 'POST', `/team/invitations/${inv.id}/resend`);
      expect(again.body.sent_count).toBe(3);
    });
  });

  it('takes no body and no query parameters at all', async () => {
    const inv = await invite();
    for (const body of [{}, 'null', ' ', { company_id: growth }, { version: 1 }]) {
      expectError(await call(sb, admin, 'POST', `/team/invitations/${inv.id}/resend`, body), 400, 'invalid_request');
    }
    for (const q of ['x=1', 'company_id=comp_x', 'version=2']) {
      expectError(await call(sb, admin, 'POST', `/team/invitations/${inv.id}/resend?${q}`), 400, 'invalid_request');
    }
    expectError(await call(sb, admin, 'POST', '/team/invitations/nope/resend'), 400, 'invalid_request', 'id');
    const team = await call(sb, admin, 'GET', '/team');
    expect(team.body.invitations.find((i: any) => i.id === inv.id).sent_count).toBe(1);
  });

  it('conceals accepted, foreign and unknown invitations, and needs authority over the invitation', async () => {
    for (const id of [acceptedInvitation(), 'invite_NeverExisted1']) {
      expectError(await call(sb, admin, 'POST', `/team/invitations/${id}/resend`), 404, 'resource_missing', 'invitation_id');
    }
    const inv = await invite({ access_template: 'admin' });
    expectError(await call(sb, sb.keys['startup-admin'], 'POST', `/team/invitations/${inv.id}/resend`), 404, 'resource_missing', 'invitation_id');
    await asLimitedManager(async (key) => {
      expectError(await call(sb, key, 'POST', `/team/invitations/${inv.id}/resend`), 403, 'insufficient_permission', 'invitation_id');
    });
    // No plan or feature gate.
    const startupInvite = await invite({ access_template: 'admin' }, sb.keys['startup-admin']);
    expect((await call(sb, sb.keys['startup-admin'], 'POST', `/team/invitations/${startupInvite.id}/resend`)).status).toBe(200);
  });
});

describe('DELETE /team/invitations/{id}', () => {
  const ids = async () => (await call(sb, admin, 'GET', '/team')).body.invitations.map((i: any) => i.id);

  it('revokes pending invitations, expired or not: 204 with an empty body', async () => {
    const inv = await invite();
    const res = await call(sb, admin, 'DELETE', `/team/invitations/${inv.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(await ids()).not.toContain(inv.id);
    expect((await call(sb, admin, 'DELETE', `/team/invitations/${inv.id}`)).status).toBe(204);

    const expired = await invite();
    await withClockAfterExpiry(expired, async () => {
      expect((await call(sb, admin, 'GET', '/team')).body.invitations.find((i: any) => i.id === expired.id).expired).toBe(true);
      expect((await call(sb, admin, 'DELETE', `/team/invitations/${expired.id}`)).status).toBe(204);
      expect(await ids()).not.toContain(expired.id);
    });
  });

  it('answers 204 for unknown ids and other companies without touching anything', async () => {
    expect((await call(sb, admin, 'DELETE', '/team/invitations/invite_NeverExisted1')).status).toBe(204);
    expect((await call(sb, admin, 'DELETE', '/team/invitations/does-not-exist')).status).toBe(204);
    const inv = await invite();
    expect((await call(sb, sb.keys['startup-admin'], 'DELETE', `/team/invitations/${inv.id}`)).status).toBe(204);
    expect(await ids()).toContain(inv.id);
  });

  it('answers an accepted invitation with 404 and an outranking one with 403', async () => {
    expectError(await call(sb, admin, 'DELETE', `/team/invitations/${acceptedInvitation()}`), 404, 'resource_missing', 'invitation_id');
    const inv = await invite({ access_template: 'admin' });
    await asLimitedManager(async (key) => {
      expectError(await call(sb, key, 'DELETE', `/team/invitations/${inv.id}`), 403, 'insufficient_permission', 'invitation_id');
    });
    expect(await ids()).toContain(inv.id);
  });

  it('takes no body and no query parameters, and needs Team & access: Manage', async () => {
    const inv = await invite();
    for (const body of [{}, 'null', ' ']) {
      expectError(await call(sb, admin, 'DELETE', `/team/invitations/${inv.id}`, body), 400, 'invalid_request');
    }
    expectError(await call(sb, admin, 'DELETE', `/team/invitations/${inv.id}?force=true`), 400, 'invalid_request');
    expectError(await call(sb, sb.keys['growth-readonly'], 'DELETE', `/team/invitations/${inv.id}`), 403, 'insufficient_permission', null);
    expect(await ids()).toContain(inv.id);
  });
});
