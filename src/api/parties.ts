import { described, fieldsOf, isRecord, soleText, UnreadableAnswer } from './answerShape';
import { checkListPage, iterateItems, type PagingOptions } from './paging';
import type { ParameterNames } from './parameterNames';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, ListPage, Merchant, MerchantListParams } from './types';

const PATH = '/parties/merchants';

/**
 * A merchant as the add-in reads it. The item's shape is not shown: a bare name, an object's `name`, or an
 * object's only text field besides `object` (names are free text with no ids); anything else is refused.
 */
export function readMerchant(item: unknown): Merchant {
  if (typeof item === 'string') return { object: 'merchant', name: item };
  const name = isRecord(item) ? soleText(item, 'name') : undefined;
  if (name === undefined) {
    const expected = isRecord(item) && 'name' in item ? `name that is text (received name ${described(item.name)})` : 'name (a text field)';
    throw new UnreadableAnswer({ endpoint: PATH, what: 'merchant item', expected, found: fieldsOf(item) });
  }
  return { object: 'merchant', name };
}

export function merchantsApi(transport: Transport, names: ParameterNames) {
  const list = async (params: MerchantListParams, opts?: CallOptions): Promise<ListPage<Merchant>> => {
    const { category_id: category, ...rest } = params;
    const page = await names.send(PATH, 'category_id', Object.keys(rest), async (name) =>
      checkListPage((await transport.request<ListPage<unknown>>({ method: 'GET', path: PATH, query: { ...rest, [name]: category }, ...callOptions(opts) })).body, PATH),
    );
    return { ...page, data: page.data.map(readMerchant) };
  };

  return {
    /** GET /parties/merchants: one page of names recorded for a category and its descendants. */
    list,
    /** GET /parties/merchants, every page (the category re-sent with each cursor). */
    iterate: (params: IterateParams<MerchantListParams>, opts?: PagingOptions): AsyncGenerator<Merchant, void, undefined> =>
      iterateItems(list, params, PATH, opts),
  };
}
