import { fieldsOf, hasPrefix, idByPrefix, isRecord, soleDate, soleList, UnreadableAnswer, type Json } from './answerShape';
import { checkListPage, iterateItems, type PagingOptions } from './paging';
import { checkText, JOURNAL_ENTRY_TEXT, JOURNAL_LINE_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { IterateParams, JournalEntry, JournalEntryListParams, JournalLine, ListPage } from './types';
import { pathSegment } from './url';

// Journal entry ids are not permanent (rebuilding a source's books replaces them), so callers should
// key anything they keep by transaction_id, not by entry id.
//
// "Fields of the journal entry record: not shown." An entry is read by the spec's rules where they decide:
// its id and its transaction's by their prefixes (je_, txn_), its date as its only YYYY-MM-DD field, its
// lines as its only list of objects, a line's category and department by their prefixes (cat_, dept_) and
// its amounts by the _cents rule: debit_cents and credit_cents, or one signed amount read as debit
// positive (the drill-down checks the sum against the statement, so a wrong sign is refused, not shown).
// `kind` and `memo` are labels no rule finds: kept when the API names them so, else left empty and said.

const LIST = '/journal_entries';

function refuse(endpoint: string, expected: string, found: unknown, what = 'journal entry'): never {
  throw new UnreadableAnswer({ endpoint, what, expected, found: fieldsOf(found) });
}

function readLine(raw: unknown, endpoint: string): JournalLine {
  if (!isRecord(raw)) refuse(endpoint, 'line that is an object', raw, 'journal line');
  const category = idByPrefix(raw, 'category_id', 'cat_');
  if (!category) refuse(endpoint, 'category id (cat_...)', raw, 'journal line');
  const department = idByPrefix(raw, 'department_id', 'dept_');
  const debit = raw.debit_cents;
  const credit = raw.credit_cents;
  if (Number.isSafeInteger(debit) && Number.isSafeInteger(credit)) {
    return checkText({ category_id: category, department_id: department ?? null, debit_cents: debit as number, credit_cents: credit as number }, JOURNAL_LINE_TEXT, 'GET', endpoint);
  }
  const cents = Object.keys(raw).filter((k) => k.endsWith('_cents') && Number.isSafeInteger(raw[k]));
  if (cents.length !== 1) refuse(endpoint, 'debit_cents and credit_cents, or one signed amount ending in _cents', raw, 'journal line');
  const signed = raw[cents[0]] as number;
  return { category_id: category, department_id: department ?? null, debit_cents: Math.max(signed, 0), credit_cents: Math.max(-signed, 0), signed: true };
}

/** An entry in the shape the add-in reads (see the top of the file), or an UnreadableAnswer naming what is missing. */
export function readEntry(raw: unknown, endpoint: string): JournalEntry {
  if (!isRecord(raw)) refuse(endpoint, 'entry that is an object', raw);
  if (!hasPrefix(raw.id, 'je_')) refuse(endpoint, 'id (je_...)', raw);
  const date = soleDate(raw, 'date');
  if (date === undefined) refuse(endpoint, 'date (a single YYYY-MM-DD field)', raw);
  const transaction = idByPrefix(raw, 'transaction_id', 'txn_');
  if (transaction === undefined) refuse(endpoint, 'single transaction id (txn_...)', raw);
  const lines = soleList(raw, 'lines');
  if (lines === undefined) refuse(endpoint, 'lines (a single list of objects)', raw);
  const unnamed = (['kind', 'memo'] as const).filter((k) => !(k in raw));
  const entry: JournalEntry = {
    id: raw.id,
    object: 'journal_entry',
    date,
    transaction_id: transaction,
    kind: typeof raw.kind === 'string' ? raw.kind : null,
    memo: typeof raw.memo === 'string' ? raw.memo : null,
    created: typeof raw.created === 'number' ? raw.created : 0,
    lines: lines.map((l: Json) => readLine(l, endpoint)),
  };
  if (unnamed.length > 0) entry.unnamed = unnamed;
  return checkText(entry, JOURNAL_ENTRY_TEXT, 'GET', endpoint);
}

export function journalApi(transport: Transport) {
  const list = async (params: JournalEntryListParams = {}, opts?: CallOptions): Promise<ListPage<JournalEntry>> => {
    const page = checkListPage((await transport.request<ListPage<unknown>>({ method: 'GET', path: LIST, query: { ...params }, ...callOptions(opts) })).body, LIST);
    return { ...page, data: page.data.map((e) => readEntry(e, LIST)) };
  };

  return {
    /** GET /journal_entries: one page. */
    list,
    /** GET /journal_entries, every page. */
    iterate: (params: IterateParams<JournalEntryListParams> = {}, opts?: PagingOptions): AsyncGenerator<JournalEntry, void, undefined> =>
      iterateItems(list, params, LIST, opts),
    /** GET /journal_entries/{id}. */
    retrieve: async (id: string, opts?: CallOptions): Promise<JournalEntry> =>
      readEntry(
        (await transport.request<unknown>({ method: 'GET', path: `/journal_entries/${pathSegment(id, 'id', 'GET', '/journal_entries/{id}')}`, ...callOptions(opts) })).body,
        '/journal_entries/{id}',
      ),
  };
}
