import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Caller, RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { jsonObjectBody, rejectUnknownKeys } from '../http/body';
import { ApiError, conflict, resourceMissing } from '../http/errors';
import { fullList } from '../http/paging';
import { newId } from '../ids';

/** The spec's connection request lifetime. */
export const CONNECT_REQUEST_TTL_SECONDS = 15 * 60;
const CONNECT_BASE_URL = 'https://app.company-financial-data.example/integrations';

interface IntegrationRow {
  key: string;
  name: string;
  type: string;
  status: string;
  api_connectable: number;
}

interface ConnectRow {
  integration_key: string;
  user_id: string;
  url: string;
  created: number;
  expires_at: number;
}

const toIntegration = (r: IntegrationRow) => ({
  key: r.key,
  object: 'integration',
  name: r.name,
  type: r.type,
  status: r.status,
  api_connectable: r.api_connectable === 1,
});

const toConnection = (r: ConnectRow) => ({
  object: 'integration_connection',
  integration_key: r.integration_key,
  url: r.url,
  created: r.created,
  expires_at: r.expires_at,
});

/** The integration behind a connect path: 404 when not available to the company, 400 when not connectable. */
function connectableIntegration(ctx: SandboxContext, caller: Caller, key: string): IntegrationRow {
  const row = ctx.db
    .prepare('SELECT key, name, type, status, api_connectable FROM integrations WHERE company_id = ? AND key = ? AND available = 1')
    .get(caller.companyId, key) as IntegrationRow | undefined;
  if (!row) throw resourceMissing(`No integration '${key}' is available to this company.`, 'key');
  if (row.api_connectable !== 1) {
    throw new ApiError(400, 'invalid_request_error', 'integration_not_connectable', `The integration '${key}' cannot be connected through the API; connect it in the web app.`, 'key');
  }
  return row;
}

/** Open (unexpired) requests for the integration; expired ones are deleted first, as if never made. */
function openRequests(ctx: SandboxContext, caller: Caller, key: string): ConnectRow[] {
  ctx.db.prepare('DELETE FROM connect_requests WHERE company_id = ? AND expires_at <= ?').run(caller.companyId, ctx.clock.now());
  return ctx.db
    .prepare('SELECT integration_key, user_id, url, created, expires_at FROM connect_requests WHERE company_id = ? AND integration_key = ?')
    .all(caller.companyId, key) as ConnectRow[];
}

/** POST takes no fields: an absent body or an empty JSON object. */
function rejectConnectBody(req: FastifyRequest): void {
  if ((req.rawBody ?? '').trim() === '') return;
  rejectUnknownKeys(jsonObjectBody(req), []);
}

export const integrationsRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  app.get('/integrations', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['integrations', 'view']);
    const rows = db
      .prepare(
        `SELECT key, name, type, status, api_connectable FROM integrations
          WHERE company_id = ? AND available = 1 ORDER BY position, key`,
      )
      .all(caller.companyId) as IntegrationRow[];
    return fullList('/integrations', rows.map(toIntegration));
  });

  app.post('/integrations/:key/connect', async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['integrations', 'manage'], ['transactions', 'manage']);
    const { key } = req.params as { key: string };
    const integration = connectableIntegration(ctx, caller, key);
    rejectConnectBody(req);
    const result = db.transaction(() => {
      const open = openRequests(ctx, caller, key);
      const mine = open.find((r) => r.user_id === caller.userId);
      if (mine) return { status: 200, row: mine };
      if (integration.status === 'connected') {
        throw conflict('integration_already_connected', `The integration '${key}' is already connected.`, 'key');
      }
      if (open.length > 0) {
        throw conflict('connection_in_progress', `Another user has an open connection request for '${key}'; try again after it expires.`, 'key');
      }
      const now = ctx.clock.now();
      const row: ConnectRow = {
        integration_key: key,
        user_id: caller.userId,
        url: `${CONNECT_BASE_URL}/${encodeURIComponent(key)}/connect?token=${crypto.randomBytes(18).toString('base64url')}`,
        created: now,
        expires_at: now + CONNECT_REQUEST_TTL_SECONDS,
      };
      db.prepare(
        `INSERT INTO connect_requests (id, company_id, integration_key, user_id, url, created, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(newId('conn'), caller.companyId, key, caller.userId, row.url, row.created, row.expires_at);
      return { status: 201, row };
    })();
    return reply.code(result.status).send(toConnection(result.row));
  });

  app.get('/integrations/:key/connect', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['integrations', 'manage'], ['transactions', 'manage']);
    const { key } = req.params as { key: string };
    connectableIntegration(ctx, caller, key);
    const mine = openRequests(ctx, caller, key).find((r) => r.user_id === caller.userId);
    if (!mine) {
      throw resourceMissing(`You have no open connection request for '${key}'. Call POST /integrations/${key}/connect first.`);
    }
    return toConnection(mine);
  });
};
