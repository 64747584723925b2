// The list FIN functions: FIN.TRANSACTIONS, FIN.MERCHANTS, FIN.CATEGORIES, FIN.DEPARTMENTS. Pages are read
// through the cache one by one (each page is one call, kept like any answer) and followed with the
// client's guarded pager, which re-sends the filters with every cursor and stops on a repeated cursor.
// Following pages is asynchronous, so a paged list settles the synchronous reads it starts with (pending.ts);
// the category and department lists are single attempts, as the single values are.

import { iteratePages } from '../../api/paging';
import type { ListPage, MerchantListParams, Transaction, TransactionListParams } from '../../api/types';
import { centsToDisplay } from '../render/money';
import { isMissing, parseMaxRows, parseStatus } from './args';
import type { CellValue, Matrix } from './matrix';
import { settle } from './pending';
import type { Evaluation } from './reads';
import { MAX_RESULT_BYTES, ResultRows } from './resultSize';
import type { ValueParts } from './values';

export const TRANSACTIONS_PAGE_SIZE = 500;
export const MERCHANTS_PAGE_SIZE = 500;
export const MAX_MERCHANTS = 10_000;

/**
 * Transaction pages are cached as the rows FIN.TRANSACTIONS shows, not as the API's page (a 500-row page
 * is about 300 KB of JSON and OfficeRuntime.storage holds 10 MB for everything). The marker keeps that
 * derived shape under a key of its own, so no other reader of the same request can mistake it for the
 * API's body.
 */
const TXN_VIEW = 'fin-rows-v1';

export const TRANSACTION_HEADERS = [
  'Date',
  'Accounting date',
  'Amount',
  'Currency',
  'Merchant',
  'Description',
  'Category',
  'Department',
  'Status',
  'Id',
] as const;

type TxnRow = [
  date: string,
  accountingDate: string | null,
  amountCents: number,
  currency: string,
  merchant: string | null,
  description: string | null,
  category: string | null,
  department: string | null,
  status: string,
  id: string,
];

function compactTransactions(page: ListPage<Transaction>): ListPage<TxnRow> {
  return {
    object: 'list',
    url: page.url,
    data: page.data.map((t): TxnRow => [
      t.date,
      t.accounting_date ?? null,
      t.amount_cents,
      t.currency,
      t.merchant ?? null,
      t.description ?? null,
      t.category_name ?? null,
      t.department_name ?? null,
      t.status,
      t.id,
    ]),
    has_more: page.has_more === true,
    next_cursor: page.next_cursor ?? null,
  };
}

/**
 * Fills `into` from a paged list until the list ends or a row is refused (the row limit or the size limit,
 * see resultSize.ts). Never asks for a page it does not need: a page that fills the last row ends the walk.
 */
async function collect<T>(pages: AsyncIterable<ListPage<T>>, into: ResultRows, toRow: (item: T) => CellValue[]): Promise<void> {
  for await (const page of pages) {
    for (const item of page.data) if (!into.push(toRow(item))) return;
    if (into.full && page.has_more === true) return into.markMore();
  }
}

/** The last row's words for a result cut at the size limit. */
const SIZE_LIMIT_TEXT = `a FIN result holds at most ${MAX_RESULT_BYTES / 1_000_000} MB`;

/**
 * FIN.TRANSACTIONS: a header row, then transactions dated start..end (newest first), pages of 500, at most
 * `maxRows` (default 1000, at most 10000) and at most MAX_RESULT_BYTES; when more exist a last row says so
 * and why. The category filter is the API's: that one category, not its subcategories.
 */
export async function transactions(
  { reads, inputs }: ValueParts,
  args: { start: unknown; end?: unknown; category?: unknown; status?: unknown; maxRows?: unknown },
  ev: Evaluation,
): Promise<Matrix> {
  const period = await settle(() => inputs.period(args.start, args.end));
  const status = parseStatus(args.status);
  const maxRows = parseMaxRows(args.maxRows);
  const node = isMissing(args.category) ? undefined : await settle(() => reads.category(ev, args.category));
  const base: TransactionListParams = { start_date: period.start, end_date: period.end, limit: TRANSACTIONS_PAGE_SIZE };
  if (node) base.category_id = node.id;
  if (status) base.status = status;

  const page = async (params: TransactionListParams): Promise<ListPage<TxnRow>> =>
    (
      await reads.read(ev, { path: '/transactions', query: { ...params, fin_view: TXN_VIEW } }, async (o) =>
        compactTransactions(await reads.client.transactions.list(params, o)),
      )
    ).value;
  const result = new ResultRows([...TRANSACTION_HEADERS], maxRows);
  await collect(iteratePages(page, base, '/transactions'), result, (r): CellValue[] => [
    r[0],
    r[1] ?? '',
    centsToDisplay(r[2], 'units'),
    r[3],
    r[4] ?? '',
    r[5] ?? '',
    r[6] ?? '',
    r[7] ?? '',
    r[8],
    r[9],
  ]);

  const out = result.rows;
  const note = (text: string): CellValue[] => [text, ...new Array<CellValue>(TRANSACTION_HEADERS.length - 1).fill('')];
  if (result.cut === 'rows') {
    out.push(note(`… more rows not shown (first ${maxRows}; raise max_rows up to 10000 or narrow the dates)`));
  } else if (result.cut === 'size') {
    out.push(note(`… more rows not shown (first ${result.count}: ${SIZE_LIMIT_TEXT}; narrow the dates, or filter by category or status)`));
  } else if (result.count === 0 && node && node.children.length > 0) {
    out.push(note(`No transactions: the filter matches "${node.name}" itself, not its subcategories`));
  }
  return out;
}

/** FIN.MERCHANTS: merchant names recorded for a category and its descendants (all months), by name. */
export async function merchants({ reads }: ValueParts, args: { category: unknown }, ev: Evaluation): Promise<Matrix> {
  const node = await settle(() => reads.category(ev, args.category));
  const base: MerchantListParams = { category_id: node.id, limit: MERCHANTS_PAGE_SIZE };
  const page = async (params: MerchantListParams) =>
    (await reads.read(ev, { path: '/parties/merchants', query: { ...params } }, (o) => reads.client.merchants.list(params, o))).value;
  const result = new ResultRows(['Merchant'], MAX_MERCHANTS);
  await collect(iteratePages(page, base, '/parties/merchants'), result, (m) => [String(m.name)]);
  const out = result.rows;
  if (result.cut === 'rows') out.push([`… more merchants not shown (first ${MAX_MERCHANTS})`]);
  else if (result.cut === 'size') out.push([`… more merchants not shown (first ${result.count}: ${SIZE_LIMIT_TEXT})`]);
  return out;
}

/** FIN.CATEGORIES: every category with its full path, id, account type and point-in-time flag. */
export function categories({ reads }: ValueParts, ev: Evaluation): Matrix {
  const tree = reads.categoryTree(ev);
  const out: Matrix = [['Category', 'Id', 'Account type', 'Point in time']];
  for (const node of tree.ordered) out.push([node.path, node.id, String(node.item.account_type ?? ''), node.item.point_in_time === true]);
  return out;
}

/** FIN.DEPARTMENTS: every department with its full path, id and whether it can be assigned. */
export function departments({ reads }: ValueParts, ev: Evaluation): Matrix {
  const tree = reads.departmentTree(ev);
  const out: Matrix = [['Department', 'Id', 'Assignable']];
  for (const node of tree.ordered) out.push([node.path, node.id, node.item.assignable === true]);
  return out;
}
