import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { checkText, JOURNAL_ENTRY_TEXT, JOURNAL_LINE_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, JournalEntry, JournalEntryListParams, ListPage } from './types';
import { pathSegment } from './url';

// Journal entry ids are not permanent (rebuilding a source's books replaces them), so callers should
// key anything they keep by transaction_id, not by entry id.

/** An entry and its lines, whose ids, kind and memo the drill-down writes into cells. */
function checkEntry(entry: JournalEntry, path: string): JournalEntry {
  checkText(entry, JOURNAL_ENTRY_TEXT, 'GET', path);
  if (Array.isArray(entry.lines)) for (const line of entry.lines) checkText(line, JOURNAL_LINE_TEXT, 'GET', path);
  return entry;
}

export function journalApi(transport: Transport) {
  const list = async (params: JournalEntryListParams = {}, opts?: CallOptions): Promise<ListPage<JournalEntry>> => {
    const page = checkListPage(
      (await transport.request<ListPage<JournalEntry>>({ method: 'GET', path: '/journal_entries', query: { ...params }, ...callOptions(opts) })).body,
      '/journal_entries',
    );
    for (const entry of page.data) checkEntry(entry, '/journal_entries');
    return page;
  };

  return {
    /** GET /journal_entries: one page. */
    list,
    /** GET /journal_entries, every page. */
    iterate: (params: IterateParams<JournalEntryListParams> = {}, opts?: PagingOptions): AsyncGenerator<JournalEntry, void, undefined> =>
      iterateItems(list, params, '/journal_entries', opts),
    /** GET /journal_entries/{id}. */
    retrieve: async (id: string, opts?: CallOptions): Promise<JournalEntry> =>
      checkEntry(
        (
          await transport.request<JournalEntry>({
            method: 'GET',
            path: `/journal_entries/${pathSegment(id, 'id', 'GET', '/journal_entries/{id}')}`,
            ...callOptions(opts),
          })
        ).body,
        '/journal_entries/{id}',
      ),
  };
}

export type JournalApi = ReturnType<typeof journalApi>;
