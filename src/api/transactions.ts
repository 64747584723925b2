import { checkJob } from './jobAnswer';
import { iterateItems, iteratePages, checkListPage, type PagingOptions } from './paging';
import { syncPages, syncTransactions, type SyncOptions, type SyncPage, type SyncResult } from './sync';
import { callOptions, type CallOptions, type Transport } from './transport';
import type {
  BulkUpdateJob,
  BulkUpdateParams,
  IterateParams,
  ListPage,
  Transaction,
  TransactionListParams,
  TransactionUpdateParams,
} from './types';
import { checkText, checkTextOfEach, TRANSACTION_TEXT } from './textFields';
import { pathSegment } from './url';

export interface BulkUpdateOptions extends CallOptions {
  /** 1-255 characters, sent exactly as given. Reuse the same key with the same body after a failure. */
  idempotencyKey: string;
}

export function transactionsApi(transport: Transport) {
  const list = async (params: TransactionListParams = {}, opts?: CallOptions): Promise<ListPage<Transaction>> => {
    const page = checkListPage((await transport.request<ListPage<Transaction>>({ method: 'GET', path: '/transactions', query: { ...params }, ...callOptions(opts) })).body, '/transactions');
    checkTextOfEach(page.data, TRANSACTION_TEXT, 'GET', '/transactions');
    return page;
  };

  return {
    /** GET /transactions: one page. With `updated_after` it is an incremental page (see `sync`). */
    list,

    /** GET /transactions, every page: the filters are re-sent with each cursor. */
    iterate: (params: IterateParams<TransactionListParams> = {}, opts?: PagingOptions): AsyncGenerator<Transaction, void, undefined> =>
      iterateItems(list, params, '/transactions', opts),

    /** GET /transactions page by page. */
    pages: (params: IterateParams<TransactionListParams> = {}, opts?: PagingOptions): AsyncGenerator<ListPage<Transaction>, void, undefined> =>
      iteratePages(list, params, '/transactions', opts),

    /** GET /transactions/{id}. */
    retrieve: async (id: string, opts?: CallOptions): Promise<Transaction> =>
      checkText(
        (await transport.request<Transaction>({ method: 'GET', path: `/transactions/${pathSegment(id, 'id', 'GET', '/transactions/{id}')}`, ...callOptions(opts) })).body,
        TRANSACTION_TEXT,
        'GET',
        '/transactions/{id}',
      ),

    /**
     * PATCH /transactions/{id}: any non-empty subset of the editable fields, applied atomically.
     * Not retried after a network failure: the caller re-reads the transaction and decides.
     */
    update: async (id: string, params: TransactionUpdateParams, opts?: CallOptions): Promise<Transaction> =>
      checkText(
        (
          await transport.request<Transaction>({
            method: 'PATCH',
            path: `/transactions/${pathSegment(id, 'id', 'PATCH', '/transactions/{id}')}`,
            body: params,
            ...callOptions(opts),
          })
        ).body,
        TRANSACTION_TEXT,
        'PATCH',
        '/transactions/{id}',
      ),

    /**
     * POST /transactions/bulk/update: queues a job (202, always `queued`). Safe to retry with the same
     * Idempotency-Key and body (a replay returns the original job). jobs.run / jobs.resume wrap this with
     * key handling and polling.
     */
    bulkUpdate: async (params: BulkUpdateParams, opts: BulkUpdateOptions): Promise<BulkUpdateJob> => {
      return checkJob(
        (
          await transport.request<BulkUpdateJob>({
            method: 'POST',
            path: '/transactions/bulk/update',
            body: params,
            idempotencyKey: opts.idempotencyKey,
            idempotent: true,
            ...callOptions(opts),
          })
        ).body,
        'POST',
        '/transactions/bulk/update',
      );
    },

    /** Incremental sync run: pages to `onPage`, watermark to `onCommit` after the last page. */
    sync: (options: SyncOptions): Promise<SyncResult> => syncTransactions(list, options),

    /** Incremental sync run as an async iterator; the watermark is committed after the last page is consumed. */
    syncPages: (options: Omit<SyncOptions, 'onPage'>): AsyncGenerator<SyncPage, SyncResult, undefined> => syncPages(list, options),
  };
}

export type TransactionsApi = ReturnType<typeof transactionsApi>;
