// Calls through nginx in front of the gateway instances (deploy/nginx/fin-addin-gateway.conf, run by
// test/e2e/relay.ts): https with the relay's self-signed certificate, kept-alive connections.
import https from 'node:https';
import type { Relay } from '../e2e/relay';

export interface Answer {
  status: number;
  calls: number | null;
  uncertain: boolean;
  cache: string | null;
  body: string;
}

export function relayClient(relay: Relay) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 128, ca: relay.certificate });
  return {
    get(key: string, pathAndQuery: string, cacheControl = 'max-age=600'): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = https.get(
          `${relay.origin}/api/v1${pathAndQuery}`,
          { agent, servername: 'localhost', headers: { authorization: `Bearer ${key}`, 'cache-control': cacheControl } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => {
              const calls = res.headers['x-fin-team-calls'];
              resolve({
                status: res.statusCode!,
                calls: typeof calls === 'string' ? Number(calls) : null,
                uncertain: res.headers['x-fin-team-calls-uncertain'] === '1',
                cache: (res.headers['cache-status'] as string | undefined) ?? null,
                body,
              });
            });
          },
        );
        req.on('error', reject);
      });
    },
    close: () => agent.destroy(),
  };
}
