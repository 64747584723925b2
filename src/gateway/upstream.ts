import http from 'node:http';
import https from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http';
import { headersFromApi } from './headers';

// One call to the API. Node's http client rather than fetch: the body and headers come back exactly as
// the API sent them (fetch would decompress and hide some), and whether the request was fully sent
// before a failure is known, which decides whether the failed call counts (the API counts what it got).

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class UpstreamFailure extends Error {
  constructor(
    /** True when the request had been sent whole: the API may have counted it. */
    readonly sent: boolean,
    readonly reason: string,
  ) {
    super(`the API could not be reached (${reason})`);
  }
}

/** An answer, or the failure that took its place. */
export type Forwarded = { answer: ApiAnswer; failure?: undefined } | { answer?: undefined; failure: UpstreamFailure };

export interface Upstream {
  call(method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body?: Buffer): Promise<ApiAnswer>;
  close(): void;
}

export function createUpstream(base: URL, timeoutMs: number): Upstream {
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 128 }) : new http.Agent({ keepAlive: true, maxSockets: 128 });
  const client = secure ? https : http;
  return {
    call(method, pathAndQuery, headers, body) {
      return new Promise((resolve, reject) => {
        let sent = false;
        const req = client.request(
          {
            protocol: base.protocol,
            hostname: base.hostname,
            port: base.port || (secure ? 443 : 80),
            method,
            path: `${base.pathname}${pathAndQuery}`,
            headers: { ...headers, host: base.host, ...(body && body.length > 0 ? { 'content-length': body.length } : {}) },
            agent,
            timeout: timeoutMs,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: headersFromApi(res.headers), body: Buffer.concat(chunks) }));
            res.on('error', (e) => reject(new UpstreamFailure(true, e.message)));
            res.on('aborted', () => reject(new UpstreamFailure(true, 'answer cut short')));
          },
        );
        req.on('finish', () => (sent = true));
        req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.on('error', (e: NodeJS.ErrnoException) => reject(new UpstreamFailure(sent, e.code ?? e.message)));
        req.end(body && body.length > 0 ? body : undefined);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** One call, its failure to reach the API returned rather than thrown. */
export async function forwardTo(upstream: Upstream, method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body?: Buffer): Promise<Forwarded> {
  try {
    return { answer: await upstream.call(method, pathAndQuery, headers, body) };
  } catch (error) {
    if (error instanceof UpstreamFailure) return { failure: error };
    throw error;
  }
}
