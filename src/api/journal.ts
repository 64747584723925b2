import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, JournalEntry, JournalEntryListParams, ListPage } from './types';
import { pathSegment } from './url';

// Journal entry ids are not permanent (rebuilding a source's books replaces them), so callers should
// key anything they keep by transaction_id, not by entry id.

export function journalApi(transport: Transport) {
  const list = async (params: JournalEntryListParams = {}, opts?: CallOptions): Promise<ListPage<JournalEntry>> =>
    checkListPage(
      (await transport.request<ListPage<JournalEntry>>({ method: 'GET', path: '/journal_entries', query: { ...params }, ...callOptions(opts) })).body,
      '/journal_entries',
    );

  return {
    /** GET /journal_entries: one page. */
    list,
    /** GET /journal_entries, every page. */
    iterate: (params: IterateParams<JournalEntryListParams> = {}, opts?: PagingOptions): AsyncGenerator<JournalEntry, void, undefined> =>
      iterateItems(list, params, '/journal_entries', opts),
    /** GET /journal_entries/{id}. */
    retrieve: async (id: string, opts?: CallOptions): Promise<JournalEntry> =>
      (
        await transport.request<JournalEntry>({
          method: 'GET',
          path: `/journal_entries/${pathSegment(id, 'id', 'GET', '/journal_entries/{id}')}`,
          ...callOptions(opts),
        })
      ).body,
  };
}

export type JournalApi = ReturnType<typeof journalApi>;
