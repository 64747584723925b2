// A gateway in front of a real sandbox, both over real HTTP on loopback ports, for the gateway's tests:
// the gateway's clock can be moved (access window, ages), its log lines are captured.
import { Writable } from 'node:stream';
import { startGateway, type RunningGateway } from '../../src/gateway/app';
import { configFromEnv, type GatewayConfig } from '../../src/gateway/config';
import { fingerprintOf } from '../../src/gateway/keys';
import type { GatewayStore } from '../../src/gateway/store/port';

export interface TestGateway extends RunningGateway {
  config: GatewayConfig;
  /** Every log line written so far. */
  logs(): string;
  /** Moves the gateway's clock (not the sandbox's) by `seconds`. */
  advance(seconds: number): void;
  fingerprint(key: string): string;
}

export async function startTestGateway(
  upstream: string,
  options: { env?: Record<string, string>; store?: GatewayStore } = {},
): Promise<TestGateway> {
  const config = configFromEnv({ GATEWAY_UPSTREAM: upstream, GATEWAY_PORT: '0', GATEWAY_SECRET: 'test-secret-of-the-gateway-0123456789abcdef', ...options.env });
  let lines = '';
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines += chunk.toString();
      done();
    },
  });
  let offsetMs = 0;
  const gateway = await startGateway({ config, store: options.store, nowMs: () => Date.now() + offsetMs, logStream: logStream as unknown as import('pino').DestinationStream });
  return {
    ...gateway,
    config,
    logs: () => lines,
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
    fingerprint: (key: string) => fingerprintOf(config.secret, key),
  };
}

/** A GET through `base` with a key and optional request Cache-Control. */
export async function get(base: string, key: string | undefined, pathAndQuery: string, cacheControl?: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extra };
  if (key) headers.authorization = `Bearer ${key}`;
  if (cacheControl) headers['cache-control'] = cacheControl;
  const res = await fetch(`${base}${pathAndQuery}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, calls: res.headers.get('x-fin-team-calls'), cache: res.headers.get('cache-status') };
}
