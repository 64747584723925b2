import { centsReceived, fieldsOf, hasPrefix, idByPrefix, isRecord, soleDate, soleList, UnreadableAnswer, type Json } from './answerShape';
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
// its amounts by the _cents rule: debit_cents and credit_cents (or one side alone), or one signed amount
// read as debit positive (the drill-down checks the sum against the statement, so a wrong sign is refused,
// not shown). A department the line carries in no form read here is marked unread, never taken for none.
// `kind` and `memo` are labels no rule finds: kept when the API names them so, else left empty and said.

const LIST = '/journal_entries';

function refuse(endpoint: string, expected: string, found: unknown, what = 'journal entry'): never {
  throw new UnreadableAnswer({ endpoint, what, expected, found: fieldsOf(found) });
}

const isCents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * A line's department: `department_id` when the line has it, else the one department the line carries (a
 * `dept_` id, or an object whose `id` is one). No department (null) only where the API says so: the field
 * it uses is there and null. Anything else (a name, two departments, no field at all) is undefined: not
 * read, and never taken for "no department".
 */
function departmentOf(raw: Json): string | null | undefined {
  if ('department_id' in raw) {
    const v = raw.department_id;
    return v === null ? null : hasPrefix(v, 'dept_') ? v : undefined;
  }
  const held = new Set<string>();
  const nulls: string[] = [];
  for (const [key, v] of Object.entries(raw)) {
    if (hasPrefix(v, 'dept_')) held.add(v);
    else if (isRecord(v) && hasPrefix(v.id, 'dept_')) held.add(v.id);
    else if (v === null && /department|dept/i.test(key)) nulls.push(key);
  }
  if (held.size === 1 && nulls.length === 0) return [...held][0];
  return held.size === 0 && nulls.length === 1 ? null : undefined;
}

/**
 * A line's amounts: `debit_cents` and `credit_cents`, or the one of them the line has (a one-sided line, the
 * other side zero), or one signed `_cents` amount read as debit positive. Any other mix is refused naming
 * what was received.
 */
function amountsOf(raw: Json, endpoint: string): Pick<JournalLine, 'debit_cents' | 'credit_cents' | 'signed'> {
  const money = Object.keys(raw).filter((k) => k.endsWith('_cents'));
  const sided = money.filter((k) => k === 'debit_cents' || k === 'credit_cents');
  if (sided.length > 0) {
    const debit = 'debit_cents' in raw ? raw.debit_cents : 0;
    const credit = 'credit_cents' in raw ? raw.credit_cents : 0;
    if (isCents(debit) && isCents(credit) && sided.length === money.length) return { debit_cents: debit, credit_cents: credit };
  } else if (money.length === 1 && isCents(raw[money[0]])) {
    const signed = raw[money[0]] as number;
    return { debit_cents: Math.max(signed, 0), credit_cents: Math.max(-signed, 0), signed: true };
  }
  throw new UnreadableAnswer({
    endpoint,
    what: 'journal line',
    expected: `debit_cents and credit_cents in whole cents (both, or one side alone), or one signed amount ending in _cents (received ${centsReceived(raw)})`,
    found: fieldsOf(raw),
  });
}

function readLine(raw: unknown, endpoint: string): JournalLine {
  if (!isRecord(raw)) refuse(endpoint, 'line that is an object', raw, 'journal line');
  const category = idByPrefix(raw, 'category_id', 'cat_');
  if (!category) refuse(endpoint, 'category id (cat_...)', raw, 'journal line');
  const department = departmentOf(raw);
  const line: JournalLine = { category_id: category, department_id: department ?? null, ...amountsOf(raw, endpoint) };
  if (department === undefined) line.department_unread = fieldsOf(raw);
  return checkText(line, JOURNAL_LINE_TEXT, 'GET', endpoint);
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
