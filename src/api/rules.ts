import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, ListPage, Rule, RuleCreateParams, RuleListParams, RuleUpdateParams } from './types';
import { pathSegment } from './url';

// Rules: 503 rules_not_ready / rule_busy and 500 rule_deletion_failed back off in the transport. A
// create that is retried after an unlisted 5xx cannot duplicate a rule: the API answers 409 for a
// definition equal to an existing one.

export function rulesApi(transport: Transport) {
  const rulePath = (id: string, method: string): string => `/rules/${pathSegment(id, 'id', method, '/rules/{id}')}`;
  const list = async (params: RuleListParams = {}, opts?: CallOptions): Promise<ListPage<Rule>> =>
    checkListPage((await transport.request<ListPage<Rule>>({ method: 'GET', path: '/rules', query: { ...params }, ...callOptions(opts) })).body, '/rules');

  return {
    /** GET /rules: one page, newest first. */
    list,
    /** GET /rules, every page. */
    iterate: (params: IterateParams<RuleListParams> = {}, opts?: PagingOptions): AsyncGenerator<Rule, void, undefined> =>
      iterateItems(list, params, '/rules', opts),
    /** GET /rules/{id}. */
    retrieve: async (id: string, opts?: CallOptions): Promise<Rule> =>
      (await transport.request<Rule>({ method: 'GET', path: rulePath(id, 'GET'), ...callOptions(opts) })).body,
    /** POST /rules (201: saved; applying to existing transactions may still be running). */
    create: async (params: RuleCreateParams, opts?: CallOptions): Promise<Rule> =>
      (await transport.request<Rule>({ method: 'POST', path: '/rules', body: params, ...callOptions(opts) })).body,
    /** PATCH /rules/{id}: future matching only. */
    update: async (id: string, params: RuleUpdateParams, opts?: CallOptions): Promise<Rule> =>
      (await transport.request<Rule>({ method: 'PATCH', path: rulePath(id, 'PATCH'), body: params, ...callOptions(opts) })).body,
    /** DELETE /rules/{id}: 204, also when already gone, so it is safe to repeat. Sends no body. */
    del: async (id: string, opts?: CallOptions): Promise<void> => {
      await transport.request<undefined>({ method: 'DELETE', path: rulePath(id, 'DELETE'), ...callOptions(opts) });
    },
  };
}
