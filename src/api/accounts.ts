import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { Account, AccountCreateParams, AccountListParams, IterateParams, ListPage } from './types';

export function accountsApi(transport: Transport) {
  const list = async (params: AccountListParams = {}, opts?: CallOptions): Promise<ListPage<Account>> =>
    checkListPage((await transport.request<ListPage<Account>>({ method: 'GET', path: '/accounts', query: { ...params }, ...callOptions(opts) })).body, '/accounts');

  return {
    /** GET /accounts: one page, oldest identity first. */
    list,
    /** GET /accounts, every page. */
    iterate: (params: IterateParams<AccountListParams> = {}, opts?: PagingOptions): AsyncGenerator<Account, void, undefined> =>
      iterateItems(list, params, '/accounts', opts),
    /**
     * POST /accounts: a manual bank or credit account. Safe to repeat with the same body (an existing
     * match comes back with 200), so it is retried after network failures and account_create_failed.
     */
    create: async (params: AccountCreateParams, opts?: CallOptions): Promise<Account> =>
      (await transport.request<Account>({ method: 'POST', path: '/accounts', body: params, idempotent: true, ...callOptions(opts) })).body,
  };
}
