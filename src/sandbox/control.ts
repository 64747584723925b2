import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { ApiError, invalidRequest, resourceMissing } from './http/errors';
import { isPlainObject, jsonObjectBody } from './http/body';
import { setUsage, usageCount } from './http/limits';
import type { FaultRule } from './http/faults';
import { ACCESS_TEMPLATES, PERMISSION_AREAS, PERMISSION_LEVELS, parsePermissions } from './permissions';
import { newId } from './ids';
import { listRoster } from './seed';
import { rebuildTransactionEntries } from './ledger/posting';
import { nextCounter } from './db/open';

// Test-only controls, outside /api/v1 and answered only on loopback. They let tests shift the clock,
// inject faults, and change data "upstream" (as the bank feed or another user would) without SQL.
export const CONTROL_PREFIX = '/__sandbox';

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

const num = (v: unknown, name: string, min: number, max: number): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw invalidRequest(`${name} must be a number from ${min} to ${max}.`, name);
  return v;
};

/** POST /control's body applied: the clock, the faults, the job worker (see there for its fields). */
function applyControl(b: Record<string, unknown>, ctx: SandboxContext): void {
  const { clock, faults, settings } = ctx;
  if (b.clear_faults === true) faults.clear();
  if (b.clock_offset_seconds !== undefined) clock.offsetSeconds = num(b.clock_offset_seconds, 'clock_offset_seconds', -1e10, 1e10);
  if (b.latency_ms !== undefined) faults.latencyMs = num(b.latency_ms, 'latency_ms', 0, 60000);
  if (b.rate_500 !== undefined) faults.rate500 = num(b.rate_500, 'rate_500', 0, 1);
  if (b.rate_429 !== undefined) faults.rate429 = num(b.rate_429, 'rate_429', 0, 1);
  if (b.rate_drop !== undefined) faults.rateDrop = num(b.rate_drop, 'rate_drop', 0, 1);
  if (b.job_processing_delay_ms !== undefined) settings.jobProcessingDelayMs = num(b.job_processing_delay_ms, 'job_processing_delay_ms', 0, 600000);
  if (b.worker_paused !== undefined) {
    settings.workerPaused = b.worker_paused === true;
    if (!settings.workerPaused) ctx.kickWorker();
  }
  if (b.faults !== undefined) {
    if (!Array.isArray(b.faults)) throw invalidRequest('faults must be an array.', 'faults');
    for (const f of b.faults) {
      if (!isPlainObject(f) || !['error500', 'error429', 'drop', 'drop_after'].includes(String(f.kind))) {
        throw invalidRequest('Each fault needs kind error500, error429, drop or drop_after.', 'faults');
      }
      faults.rules.push({
        kind: f.kind as FaultRule['kind'],
        count: num(f.count ?? 1, 'count', 1, 1e6),
        method: typeof f.method === 'string' ? f.method : undefined,
        path: typeof f.path === 'string' ? f.path : undefined,
        retry_after: typeof f.retry_after === 'number' ? f.retry_after : undefined,
      });
    }
  }
}

/** POST /members' body applied to the key owner's membership (see there for its fields). */
function updateMember(db: SandboxContext['db'], b: Record<string, unknown>): void {
  const row = db.prepare('SELECT user_id, company_id FROM api_keys WHERE key = ?').get(String(b.key)) as
    | { user_id: string; company_id: string }
    | undefined;
  if (!row) throw resourceMissing('Unknown key.', 'key');
  const m = db.prepare('SELECT permissions FROM memberships WHERE company_id = ? AND user_id = ?').get(row.company_id, row.user_id) as
    | { permissions: string }
    | undefined;
  if (!m) throw resourceMissing('The key owner has no membership.', 'key');
  if (b.permissions !== undefined) {
    if (!isPlainObject(b.permissions)) throw invalidRequest('permissions must be an object.', 'permissions');
    const perms = parsePermissions(m.permissions);
    for (const [area, level] of Object.entries(b.permissions)) {
      if (!(PERMISSION_AREAS as readonly string[]).includes(area) || !(PERMISSION_LEVELS as readonly string[]).includes(String(level))) {
        throw invalidRequest(`Bad permission ${area}=${String(level)}.`, 'permissions');
      }
      (perms as Record<string, string>)[area] = String(level);
    }
    db.prepare("UPDATE memberships SET permissions = ?, role = 'custom' WHERE company_id = ? AND user_id = ?").run(
      JSON.stringify(perms),
      row.company_id,
      row.user_id,
    );
    // The spec: removing API access permanently revokes the owner's active keys for that company;
    // restoring the permission later does not bring them back.
    if (perms.api_access !== 'manage') {
      db.prepare('UPDATE api_keys SET revoked = 1 WHERE company_id = ? AND user_id = ?').run(row.company_id, row.user_id);
    }
  }
  if (b.status === 'active' || b.status === 'removed') {
    db.prepare('UPDATE memberships SET status = ? WHERE company_id = ? AND user_id = ?').run(b.status, row.company_id, row.user_id);
  }
  if (typeof b.user_active === 'boolean') db.prepare('UPDATE users SET active = ? WHERE id = ?').run(b.user_active ? 1 : 0, row.user_id);
}

/**
 * POST /keys' body applied: `count` new people join the company with the access template (`admin` or
 * `read_only`, with API access: Manage so that their keys work), each with a key of their own, as members
 * of a finance team would (the gateway's team tests). The seeded roster is left as it is.
 */
function addMembers(db: SandboxContext['db'], now: number, b: Record<string, unknown>): string[] {
  const companyId = String(b.company_id);
  if (!db.prepare('SELECT 1 FROM companies WHERE id = ?').get(companyId)) throw resourceMissing('Unknown company.', 'company_id');
  if (b.template !== 'admin' && b.template !== 'read_only') throw invalidRequest('template must be admin or read_only.', 'template');
  const count = num(b.count ?? 1, 'count', 1, 500);
  const permissions = JSON.stringify({ ...ACCESS_TEMPLATES[b.template], api_access: 'manage' });
  const keys: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const userId = newId('user');
      const key = `svc_${newId('member').slice('member_'.length)}${newId('k').slice(2)}`;
      db.prepare('INSERT INTO users (id, email, first_name, last_name, active) VALUES (?, ?, ?, ?, 1)').run(userId, `${userId}@members.example`, 'Team', 'Member');
      db.prepare('INSERT INTO memberships (company_id, user_id, role, permissions, status, created) VALUES (?, ?, ?, ?, ?, ?)').run(companyId, userId, b.template, permissions, 'active', now);
      db.prepare('INSERT INTO api_keys (key, label, user_id, company_id, revoked, created) VALUES (?, NULL, ?, ?, 0, ?)').run(key, userId, companyId, now);
      keys.push(key);
    }
  })();
  return keys;
}

export function controlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { db, clock, faults, settings } = ctx;

  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (!isLoopback(req.ip)) throw resourceMissing('Not found.');
  });

  const state = () => ({
    clock_offset_seconds: clock.offsetSeconds,
    now: clock.now(),
    today: clock.today(),
    job_processing_delay_ms: settings.jobProcessingDelayMs,
    worker_paused: settings.workerPaused,
    ...faults.snapshot(),
  });

  app.get('/health', async () => ({ ok: true }));
  app.get('/keys', async () => listRoster(db));
  app.get('/control', async () => state());

  /**
   * Body fields (all optional): clock_offset_seconds, latency_ms, rate_500, rate_429, rate_drop (0..1),
   * faults: [{kind: error500|error429|drop|drop_after, count, method?, path?, retry_after?}] (appended),
   * clear_faults: true, job_processing_delay_ms, worker_paused.
   */
  app.post('/control', async (req) => {
    applyControl(jsonObjectBody(req), ctx);
    return state();
  });

  /** The monthly call counter of a company (the current Pacific-time month unless ?month=YYYY-MM). */
  app.get('/usage', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q.company_id) throw invalidRequest('company_id is required.', 'company_id');
    const month = q.month ?? clock.usageMonth();
    return { company_id: q.company_id, month, count: usageCount(db, q.company_id, month) };
  });

  app.post('/usage', async (req) => {
    const b = jsonObjectBody(req);
    if (typeof b.company_id !== 'string') throw invalidRequest('company_id is required.', 'company_id');
    const month = typeof b.month === 'string' ? b.month : clock.usageMonth();
    setUsage(db, b.company_id, month, num(b.count, 'count', 0, 1e9));
    return { company_id: b.company_id, month, count: usageCount(db, b.company_id, month) };
  });

  /** Change the key owner's membership live: {key, permissions?: {area: level}, status?: active|removed, user_active?: bool}. */
  app.post('/members', async (req) => {
    updateMember(db, jsonObjectBody(req));
    return { ok: true };
  });

  /** New members with keys of their own: {company_id, template: admin|read_only, count?} -> {keys}. */
  app.post('/keys', async (req) => ({ keys: addMembers(db, clock.now(), jsonObjectBody(req)) }));

  /** Company settings: {company_id, monthly_cap_override?, plan_status?, status?, rbac_enabled?}. */
  app.post('/company', async (req) => {
    const b = jsonObjectBody(req);
    const id = String(b.company_id);
    if (!db.prepare('SELECT 1 FROM companies WHERE id = ?').get(id)) throw resourceMissing('Unknown company.', 'company_id');
    if (b.monthly_cap_override !== undefined) {
      db.prepare('UPDATE companies SET monthly_cap_override = ? WHERE id = ?').run(
        b.monthly_cap_override === null ? null : num(b.monthly_cap_override, 'monthly_cap_override', 0, 1e9),
        id,
      );
    }
    if (typeof b.plan_status === 'string') db.prepare('UPDATE companies SET plan_status = ? WHERE id = ?').run(b.plan_status, id);
    if (typeof b.status === 'string') db.prepare('UPDATE companies SET status = ? WHERE id = ?').run(b.status, id);
    if (typeof b.rbac_enabled === 'boolean') db.prepare('UPDATE companies SET rbac_enabled = ? WHERE id = ?').run(b.rbac_enabled ? 1 : 0, id);
    return { ok: true };
  });

  /**
   * An upstream change to a transaction, as the bank feed or a teammate in the web app would make:
   * {merchant?, description?, category_id?, department_id?, status?, deleted?: true}. It bumps `updated`
   * and rebuilds the transaction's books, like any real change.
   */
  app.post('/transactions/:id', async (req) => {
    const { id } = req.params as { id: string };
    const b = jsonObjectBody(req);
    const txn = db.prepare('SELECT company_id FROM transactions WHERE id = ?').get(id) as { company_id: string } | undefined;
    if (!txn) throw resourceMissing('Unknown transaction.', 'id');
    const sets: string[] = [];
    const args: unknown[] = [];
    for (const f of ['merchant', 'description', 'category_id', 'department_id', 'status'] as const) {
      if (b[f] !== undefined) {
        sets.push(`${f} = ?`);
        args.push(b[f]);
      }
    }
    if (b.deleted === true) sets.push('deleted = 1');
    if (sets.length === 0) throw invalidRequest('Nothing to change.');
    const now = clock.now();
    db.transaction(() => {
      const seq = nextCounter(db, txn.company_id, 'update_seq');
      db.prepare(`UPDATE transactions SET ${sets.join(', ')}, updated = ?, update_seq = ? WHERE id = ?`).run(...args, now, seq, id);
      rebuildTransactionEntries(db, id, now);
    })();
    return { ok: true };
  });

  /**
   * An upstream change to the chart of accounts or the departments, as an accountant makes in the web app
   * (no transaction changes, no sync shows it): {name?, parent_id?}. A move keeps the tier: the new parent
   * must be of the old parent's tier (and of the same account type, for a category).
   */
  for (const table of ['categories', 'departments'] as const) {
    app.post(`/${table}/:id`, async (req) => {
      const { id } = req.params as { id: string };
      const b = jsonObjectBody(req);
      const row = db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as { parent_id: string | null; tier: number; company_id: string; account_type?: string } | undefined;
      if (!row) throw resourceMissing(`Unknown ${table === 'categories' ? 'category' : 'department'}.`, 'id');
      if (b.name !== undefined) {
        if (typeof b.name !== 'string' || b.name.trim() === '') throw invalidRequest('name must be a non-blank string.', 'name');
        db.prepare(`UPDATE ${table} SET name = ? WHERE id = ?`).run(b.name, id);
      }
      if (b.parent_id !== undefined) {
        const parent = db.prepare(`SELECT * FROM ${table} WHERE id = ? AND company_id = ?`).get(String(b.parent_id), row.company_id) as
          | { tier: number; account_type?: string }
          | undefined;
        if (!parent || parent.tier !== row.tier - 1 || parent.account_type !== row.account_type) {
          throw invalidRequest('parent_id must name a category or department of the old parent\'s tier (and account type).', 'parent_id');
        }
        db.prepare(`UPDATE ${table} SET parent_id = ? WHERE id = ?`).run(String(b.parent_id), id);
      }
      return { ok: true };
    });
  }

  app.setErrorHandler((err, _req, reply) => {
    const e = err instanceof ApiError ? err : invalidRequest((err as Error).message);
    reply.code(e.status).send(e.toBody());
  });
}
