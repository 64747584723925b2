import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { GatewayConfig } from './config';
import { SECURITY_HEADERS } from './headers';
import { SharedState } from './sharedState';
import { MemoryStore } from './store/memoryStore';
import type { GatewayStore } from './store/port';
import { RedisStore } from './store/redisStore';
import { createTeamRelay } from './teamRelay';
import { createUpstream } from './upstream';

// The gateway's HTTP server: /api/v1/* through the team relay, a health check for a load balancer, and
// nothing else. Its log says what happened to each request (method, path without its query, status,
// company, cache) and never carries the key, its fingerprint or a query that could hold either.

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyRequest {
    team?: { company?: string; cache?: string };
  }
}

export interface GatewayOptions {
  config: GatewayConfig;
  /** A store made by the caller (tests); otherwise Redis when config.redisUrl is set, else in-process. */
  store?: GatewayStore;
  nowMs?: () => number;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  logLevel?: string;
}

export interface Gateway {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Anything that could carry a key in a log line, whatever path a future line takes. */
const REDACTED = ['req.headers.authorization', 'headers.authorization', 'authorization', 'key', 'fingerprint', '*.authorization'];

export async function buildGateway(options: GatewayOptions): Promise<Gateway> {
  const { config } = options;
  const nowMs = options.nowMs ?? Date.now;
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: { paths: REDACTED, censor: '[redacted]' },
      serializers: { req: (req) => ({ method: req.method, path: String(req.url).split('?')[0] }) },
    },
    // One line per request, written below with what the gateway did (fastify's own lines would not say).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 8 * 1024 * 1024,
    forceCloseConnections: true,
    return503OnClosing: false,
    // A URL that cannot be decoded never reaches a route: refused here in the API's envelope (the API never
    // sees it, so it does not count), with the same security headers as any answer.
    frameworkErrors: (_err, _req, reply) => {
      const error = { type: 'invalid_request_error', code: 'invalid_request', message: 'The request URL is malformed.' };
      reply.hijack();
      reply.raw.writeHead(400, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(JSON.stringify({ error }));
    },
  });
  const store = options.store ?? (config.redisUrl ? await RedisStore.open({ url: config.redisUrl, bounds: config.cache }) : new MemoryStore({ bounds: config.cache }));
  const state = new SharedState(store, app.log, nowMs);
  const upstream = createUpstream(config.upstream, config.upstreamTimeoutMs);
  const relay = createTeamRelay({ state, upstream, secret: config.secret, accessWindowSeconds: config.accessWindowSeconds, nowMs, log: app.log });

  // Bodies go on to the API as bytes, whatever their type: the API judges them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info(
      { method: req.method, path: req.url.split('?')[0], status: reply.statusCode, company: req.team?.company, cache: req.team?.cache, ms: Math.round(reply.elapsedTime) },
      'relayed',
    );
  });

  app.get('/gateway/health', async () => ({ ok: true, store: store.kind, store_reachable: await state.available() }));

  app.all(`${API_PREFIX}/*`, async (req, reply) => {
    const out = await relay.handle({
      method: req.method,
      pathAndQuery: req.raw.url!.slice(API_PREFIX.length),
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
    });
    req.team = { company: out.company, cache: out.cache };
    reply.code(out.status).headers(out.headers);
    return reply.send(out.body);
  });

  app.setNotFoundHandler((req, reply) => {
    const error = { type: 'invalid_request_error', code: 'resource_missing', message: `The gateway serves ${API_PREFIX}/ only (${req.method}: ${req.url.split('?')[0]}).` };
    reply.code(404).type('application/json').send({ error });
  });

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    req.log.error({ reason: err.message }, 'gateway error');
    reply.code(status).type('application/json').send({ error: { type: status === 500 ? 'api_error' : 'invalid_request_error', code: 'gateway_error', message: 'The gateway could not handle this request.' } });
  });

  return {
    app,
    async close() {
      await app.close();
      upstream.close();
      await state.close();
    },
  };
}

export interface RunningGateway extends Gateway {
  port: number;
  /** http://host:port/api/v1 */
  baseUrl: string;
  origin: string;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const gateway = await buildGateway(options);
  await gateway.app.listen({ port: options.config.port, host: options.config.host });
  const address = gateway.app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.config.port;
  const origin = `http://${options.config.host}:${port}`;
  return { ...gateway, port, origin, baseUrl: `${origin}${API_PREFIX}` };
}
