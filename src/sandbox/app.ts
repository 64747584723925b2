import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import type { Db } from './db/open';
import { getMeta, setMeta } from './db/open';
import { Clock } from './clock';
import type { SandboxContext, SandboxSettings } from './context';
import { ApiError, invalidRequest, resourceMissing } from './http/errors';
import { bearerKey, callerFromKey, findKey, invalidApiKey } from './http/auth';
import { BurstWindows, IP_LIMIT_PER_WINDOW, KEY_LIMIT_PER_WINDOW, countUsage, monthlyCap, usageCount } from './http/limits';
import { Faults } from './http/faults';
import { speakDialect, type Dialect } from './http/dialect';
import { hostNotAllowed, isLoopbackHostHeader, isLoopbackName } from './http/host';
import { API_PREFIX } from './http/paging';
import { ROUTE_MODULES } from './routes';
import { controlRoutes, CONTROL_PREFIX } from './control';
import { startJobWorker } from './jobs/worker';

declare module 'fastify' {
  interface FastifyRequest {
    dropAfterHandling?: boolean;
  }
}

export interface SandboxApp {
  app: FastifyInstance;
  ctx: SandboxContext;
  close(): Promise<void>;
}

function serverSecret(db: Db): string {
  let secret = getMeta(db, 'cursor_secret');
  if (!secret) {
    secret = crypto.randomBytes(32).toString('hex');
    setMeta(db, 'cursor_secret', secret);
  }
  return secret;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BuildOptions {
  clock?: Clock;
  /**
   * false: no CORS headers at all, to any page (`--no-cors`), as a real API may answer. The add-in's page
   * then reaches it only through a relay on its own origin (docs/deploying-for-a-team.md). Default true.
   */
  cors?: boolean;
  /** How the open points of the spec are answered (http/dialect.ts); standard by default. */
  dialect?: Dialect;
}

/** Builds the sandbox HTTP server on an open, seeded database. Call app.listen() to serve it. */
export function buildSandbox(db: Db, options: BuildOptions = {}): SandboxApp {
  const allowedOrigin = options.cors === false ? () => null : corsOrigin;
  const clock = options.clock ?? new Clock();
  const faults = new Faults();
  const settings: SandboxSettings = { jobProcessingDelayMs: 50, workerPaused: false };
  const base = { db, clock, secret: serverSecret(db), faults, settings };
  const worker = startJobWorker(base);
  const ctx: SandboxContext = { ...base, kickWorker: worker.kick };

  const app = Fastify({
    logger: false,
    bodyLimit: 8 * 1024 * 1024,
    return503OnClosing: false,
    // Closing must not wait for sockets a client opened and abandoned (an aborted fetch leaves one).
    forceCloseConnections: true,
    // A URL that cannot be decoded (bad percent-encoding) never reaches the router or the hooks: give it
    // the same credential check, counting and error envelope as any other request.
    frameworkErrors: (_err, req, reply) => {
      checkHost(req)
        .then(() => gate(req, reply))
        .then(() => {
          throw invalidRequest('The request URL is malformed.');
        })
        .catch((err: unknown) => {
          if (!reply.sent) sendError(err, req, reply);
        });
    },
  });
  const windows = new BurstWindows(clock);

  // Routes parse bodies themselves (http/body.ts) so that a wrong content type or malformed JSON is
  // the API's own 400 envelope rather than a framework error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    done(null, undefined);
  });

  // Before anything else, for every route (the API, the test-only controls, preflights): see http/host.ts.
  app.addHook('onRequest', checkHost);

  // Browsers: the add-in's pages (https://localhost:3000, the workbench, the browser tests' static server)
  // call the sandbox from another loopback origin. A preflight is answered here, before the gate: it
  // carries no key and must not be counted. Cache-Control is how fresh an answer the add-in needs (the
  // team's gateway reads it; the API ignores it).
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return;
    const origin = allowedOrigin(req.headers.origin);
    if (!origin) return;
    reply
      .header('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS')
      .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Cache-Control')
      .header('Access-Control-Max-Age', '600');
    if (req.headers['access-control-request-private-network'] === 'true') reply.header('Access-Control-Allow-Private-Network', 'true');
    await reply.code(204).send();
    return reply;
  });

  app.addHook('onRequest', gate);

  /** Every request: key (401) -> monthly cap -> count -> burst window -> 403 state -> injected faults. */
  async function gate(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const path = req.url.split('?')[0];
    if (path.startsWith(CONTROL_PREFIX)) return;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);

    const key = bearerKey(req.headers.authorization);
    const row = key ? findKey(db, key) : undefined;
    if (!row) {
      const w = windows.hit(`ip:${req.ip}`, IP_LIMIT_PER_WINDOW);
      reply.header('X-RateLimit-Limit', IP_LIMIT_PER_WINDOW).header('X-RateLimit-Remaining', w.remaining).header('X-RateLimit-Reset', w.reset);
      if (!w.allowed) throw rateLimited(w.retryAfter);
      throw invalidApiKey();
    }

    const month = clock.usageMonth();
    const cap = monthlyCap(row);
    if (usageCount(db, row.company_id, month) >= cap) {
      const reset = clock.nextMonthlyReset();
      throw new ApiError(
        429,
        'limit_error',
        'monthly_limit_exceeded',
        `Monthly API call limit of ${cap} reached for this company. The limit resets on ${reset} at 00:00 Pacific Time.`,
      );
    }
    countUsage(db, row.company_id, month);

    const w = windows.hit(`key:${row.key}`, KEY_LIMIT_PER_WINDOW);
    reply.header('X-RateLimit-Limit', KEY_LIMIT_PER_WINDOW).header('X-RateLimit-Remaining', w.remaining).header('X-RateLimit-Reset', w.reset);
    if (!w.allowed) throw rateLimited(w.retryAfter);

    req.caller = callerFromKey(row);

    const fault = faults.pick(req.method, path);
    if (!fault) return;
    if (fault.kind === 'error500') throw new ApiError(500, 'api_error', 'internal_error', 'An internal error occurred (injected by the sandbox).');
    if (fault.kind === 'error429') throw rateLimited(fault.retry_after ?? 1);
    if (fault.kind === 'drop') {
      reply.hijack();
      req.raw.socket.destroy();
      return;
    }
    req.dropAfterHandling = true;
  }

  app.addHook('onSend', async (req, reply, payload) => {
    const origin = allowedOrigin(req.headers.origin);
    if (origin) {
      reply
        .header('Access-Control-Allow-Origin', origin)
        .header('Vary', 'Origin')
        .header('Access-Control-Expose-Headers', 'Retry-After, Location, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset');
    }
    // A dropped response: the request was handled (and committed), then the connection is cut, as when a
    // network fails on the way back.
    if (req.dropAfterHandling) reply.raw.socket?.destroy();
    return payload;
  });

  speakDialect(app, options.dialect ?? 'standard');

  app.setErrorHandler(sendError);

  app.setNotFoundHandler((req, reply) => {
    const err = resourceMissing(`Unrecognized request URL (${req.method}: ${req.url.split('?')[0]}).`);
    reply.code(404).type('application/json').send(err.toBody());
  });

  app.register(
    async (scope) => {
      for (const mod of ROUTE_MODULES) mod(scope, ctx);
    },
    { prefix: API_PREFIX },
  );
  app.register(async (scope) => controlRoutes(scope, ctx), { prefix: CONTROL_PREFIX });

  return {
    app,
    ctx,
    async close() {
      worker.stop();
      await app.close();
    },
  };
}

/**
 * The Origin a browser may read answers from: pages served from this computer only (localhost, 127.0.0.0/8,
 * [::1], any port, http or https), such as the add-in's dev server and the workbench. Anything else gets
 * no CORS headers, so a web page elsewhere cannot read the sandbox's keys or data.
 */
export function corsOrigin(origin: string | undefined): string | null {
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return isLoopbackName(url.hostname) && url.origin === origin ? origin : null;
}

/** Requests addressed to any name but a loopback one are refused, uncounted (DNS rebinding). */
async function checkHost(req: FastifyRequest): Promise<void> {
  if (!isLoopbackHostHeader(req.headers.host)) throw hostNotAllowed();
}

function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  const apiErr = toApiError(err, req);
  for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
  reply.code(apiErr.status).type('application/json').send(apiErr.toBody());
}

function rateLimited(retryAfter: number): ApiError {
  return new ApiError(
    429,
    'rate_limit_error',
    'rate_limit_exceeded',
    `Too many requests. Retry after ${retryAfter} seconds.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
}

function toApiError(err: unknown, req: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return invalidRequest('The request body is too large.');
  if (code && code.startsWith('FST_ERR_CTP')) return invalidRequest('The request body could not be read.');
  const status = (err as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) return invalidRequest((err as Error).message);
  // Never a stack trace or internal detail on the wire; the console keeps it for whoever runs the sandbox.
  console.error(`sandbox: unhandled error on ${req.method} ${req.url.split('?')[0]}:`, err);
  return new ApiError(500, 'api_error', 'internal_error', 'An internal error occurred.');
}
