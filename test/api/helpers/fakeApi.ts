import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type ClientConfig } from '../../../src/api';

// A tiny real HTTP server on 127.0.0.1:0: the client under test talks to it through the real global
// fetch, so headers, bodies, status codes and dropped sockets are exercised for real (no mocked fetch).

export const TEST_KEY = 'svc_TESTSECRET_k3y_9f8e7d6c5b4a';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export type Handler = (req: Recorded, index: number) => Reply | Promise<Reply>;

export interface FakeApi {
  baseUrl: string;
  origin: string;
  requests: Recorded[];
  /** Requests currently being handled, and the most seen at once. */
  inFlight: number;
  maxInFlight: number;
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export function errorBody(type: string, code: string, message: string, param?: string) {
  const error: Record<string, string> = { type, code, message };
  if (param !== undefined) error.param = param;
  error.doc_url = `https://docs.company-financial-data.example/errors#${code}`;
  return { error };
}

export async function startFakeApi(initial: Handler = () => ({ status: 200, body: {} })): Promise<FakeApi> {
  let handler = initial;
  const state = { inFlight: 0, maxInFlight: 0 };
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rec: Recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = requests.length;
      requests.push(rec);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        const reply = await handler(rec, index);
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (reply.drop) {
          req.socket.destroy();
          return;
        }
        const status = reply.status ?? 200;
        const headers: Record<string, string> = { ...(reply.headers ?? {}) };
        if (reply.body !== undefined && status !== 204) {
          headers['content-type'] = 'application/json';
          res.writeHead(status, headers);
          res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
        } else {
          res.writeHead(status, headers);
          res.end();
        }
      } catch (e) {
        res.writeHead(599);
        res.end(String(e));
      } finally {
        state.inFlight--;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    requests,
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    setHandler(h) {
      handler = h;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A sleep that returns at once and records what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}

/** A client on the fake API with instant, recorded sleeps and a fixed jitter. */
export function testClient(api: FakeApi, overrides: Partial<ClientConfig> = {}) {
  const rec = recordingSleep();
  const client = createClient({
    baseUrl: api.baseUrl,
    apiKey: TEST_KEY,
    sleep: rec.sleep,
    random: () => 0.5,
    ...overrides,
  });
  return { client, delays: rec.delays };
}

/** The path of a request relative to /api/v1. */
export const rel = (r: Recorded): string => r.path.replace(/^\/api\/v1/, '');

export function page<T>(url: string, data: T[], nextCursor: string | null, extra: Record<string, unknown> = {}) {
  return { object: 'list', url: `/api/v1${url}`, has_more: nextCursor !== null, next_cursor: nextCursor, data, ...extra };
}
