import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { Card, CardListParams, IterateParams, ListPage } from './types';

export function cardsApi(transport: Transport) {
  // A /cards cursor is bound to the account_id filter it was issued under, which the iterator honours
  // by re-sending the same filter with every cursor.
  const list = async (params: CardListParams = {}, opts?: CallOptions): Promise<ListPage<Card>> =>
    checkListPage((await transport.request<ListPage<Card>>({ method: 'GET', path: '/cards', query: { ...params }, ...callOptions(opts) })).body, '/cards');

  return {
    /** GET /cards: one page, optionally for one account. */
    list,
    /** GET /cards, every page. */
    iterate: (params: IterateParams<CardListParams> = {}, opts?: PagingOptions): AsyncGenerator<Card, void, undefined> =>
      iterateItems(list, params, '/cards', opts),
  };
}
