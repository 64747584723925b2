// The slice of the src/api client the FIN functions use (createClient's result satisfies it).

import type { CallOptions } from '../../api/transport';
import type {
  AggregationTotal,
  AggregationTotalParams,
  BalanceSheet,
  CashFlow,
  Category,
  Department,
  FullList,
  IncomeStatement,
  JournalEntry,
  JournalEntryListParams,
  ListPage,
  Merchant,
  MerchantListParams,
  ReportDateParams,
  ReportPeriodParams,
  Transaction,
  TransactionListParams,
} from '../../api/types';
import type { ReaderClient } from '../reader/cachedReader';

export interface FinClient extends ReaderClient {
  readonly categories: { list(opts?: CallOptions): Promise<FullList<Category>> };
  readonly departments: { list(opts?: CallOptions): Promise<FullList<Department>> };
  readonly reports: {
    incomeStatement(params: ReportPeriodParams, opts?: CallOptions): Promise<IncomeStatement>;
    balanceSheet(params: ReportDateParams, opts?: CallOptions): Promise<BalanceSheet>;
    cashFlow(params: ReportPeriodParams, opts?: CallOptions): Promise<CashFlow>;
  };
  readonly aggregations: { total(params: AggregationTotalParams, opts?: CallOptions): Promise<AggregationTotal> };
  readonly merchants: { list(params: MerchantListParams, opts?: CallOptions): Promise<ListPage<Merchant>> };
  readonly transactions: { list(params: TransactionListParams, opts?: CallOptions): Promise<ListPage<Transaction>> };
  /** Figures by department: the period's journal entries (src/engine/departments); a client without it has none. */
  readonly journalEntries?: { list(params: JournalEntryListParams, opts?: CallOptions): Promise<ListPage<JournalEntry>> };
  readonly meter: ReaderClient['meter'] & {
    /** Calls counted this Pacific month for the client's company. */
    count(): Promise<number>;
  };
}
