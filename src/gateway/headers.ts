import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

// Which headers cross the gateway. Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection. The
// client's own forwarding headers are dropped: the API must not be told an address or host a client made
// up. Cache-Control of a request is the gateway's (freshness.ts), not the API's.

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authenticate'];
const DROPPED_FROM_CLIENTS = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip', 'proxy-authorization', 'cookie', 'cache-control', 'pragma', 'content-length'];
const DROPPED_FROM_THE_API = ['server', 'x-powered-by', 'set-cookie', 'date', 'content-length', 'cache-control', 'age', 'cache-status', 'strict-transport-security', 'x-content-type-options', 'referrer-policy'];

/** Headers named by Connection, plus the fixed hop-by-hop ones. */
function connectionHeaders(headers: IncomingHttpHeaders | Record<string, unknown>): Set<string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return new Set([...HOP_BY_HOP, ...named]);
}

/** The client's headers as they go on to the API. */
export function headersToApi(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const drop = connectionHeaders(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || drop.has(name) || DROPPED_FROM_CLIENTS.includes(name) || name.startsWith('x-fin-team-')) continue;
    out[name] = value;
  }
  return out;
}

/** The API's headers as the gateway passes them back (and keeps them with a cached answer). */
export function headersFromApi(incoming: IncomingHttpHeaders): Record<string, string> {
  const drop = connectionHeaders(incoming);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || drop.has(name) || DROPPED_FROM_THE_API.includes(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * On every answer. The page is served over https by nginx in front (docs/deploying-for-a-team.md); the
 * browser must not keep an answer itself (the team cache decides what may be reused, under access rules).
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
