import type { IncomingHttpHeaders } from 'node:http';

/** A request as the gateway received it, for the API. */
export interface Inbound {
  method: string;
  /** Path and query relative to /api/v1, exactly as the client encoded them. */
  pathAndQuery: string;
  headers: IncomingHttpHeaders;
  body?: Buffer;
}
