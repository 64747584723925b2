import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { checkTextOfEach, MERCHANT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, ListPage, Merchant, MerchantListParams } from './types';

export function merchantsApi(transport: Transport) {
  const list = async (params: MerchantListParams, opts?: CallOptions): Promise<ListPage<Merchant>> => {
    const page = checkListPage(
      (await transport.request<ListPage<Merchant>>({ method: 'GET', path: '/parties/merchants', query: { ...params }, ...callOptions(opts) })).body,
      '/parties/merchants',
    );
    checkTextOfEach(page.data, MERCHANT_TEXT, 'GET', '/parties/merchants');
    return page;
  };

  return {
    /** GET /parties/merchants: one page of names recorded for a category and its descendants. */
    list,
    /** GET /parties/merchants, every page (category_id re-sent with each cursor). */
    iterate: (params: IterateParams<MerchantListParams>, opts?: PagingOptions): AsyncGenerator<Merchant, void, undefined> =>
      iterateItems(list, params, '/parties/merchants', opts),
  };
}

export type MerchantsApi = ReturnType<typeof merchantsApi>;
