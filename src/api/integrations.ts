import { checkFullList } from './paging';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { FullList, Integration, IntegrationConnection } from './types';
import { pathSegment } from './url';

export function integrationsApi(transport: Transport) {
  const connectPath = (key: string, method: string): string =>
    `/integrations/${pathSegment(key, 'key', method, '/integrations/{key}/connect')}/connect`;

  return {
    /** GET /integrations: the full list (unpaginated). */
    list: async (opts?: CallOptions): Promise<FullList<Integration>> =>
      checkFullList((await transport.request<FullList<Integration>>({ method: 'GET', path: '/integrations', ...callOptions(opts) })).body, '/integrations'),

    /**
     * POST /integrations/{key}/connect: a link a person opens within 15 minutes (201 new, 200 when the
     * caller already has one open). Sent without a body. connect_link_failed is retried with backoff.
     */
    connect: async (key: string, opts?: CallOptions): Promise<IntegrationConnection> =>
      (await transport.request<IntegrationConnection>({ method: 'POST', path: connectPath(key, 'POST'), ...callOptions(opts) })).body,

    /** GET /integrations/{key}/connect: the open request of the key's owner. Each poll is a counted call. */
    retrieveConnection: async (key: string, opts?: CallOptions): Promise<IntegrationConnection> =>
      (await transport.request<IntegrationConnection>({ method: 'GET', path: connectPath(key, 'GET'), ...callOptions(opts) })).body,
  };
}
