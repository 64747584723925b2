// A FinService over a scripted client that counts every call: its revenue grows by 100.00 at every income
// statement fetched, so a figure fetched again is a new one. For the tests of what recalculations spend.
import type { CallOptions } from '../../src/api/transport';
import type { Category, IncomeStatement } from '../../src/api/types';
import { FinService, type FinClient } from '../../src/engine/fin';
import { CachedReader } from '../../src/engine/reader/cachedReader';
import { RequestCache } from '../../src/engine/reader/requestCache';
import { MemoryCacheStore } from './memoryCacheStore';

const CATEGORIES: Category[] = [{ id: 'cat_rev', object: 'category', name: 'Revenue', account_type: 'revenue', point_in_time: false, tier: 1, position: 1, parent_id: null, created: 0 }];

function statement(start: string, end: string, cents: number): IncomeStatement {
  const section = (c: number) => ({ total_cents: c, categories: [{ category_id: 'cat_rev', name: 'Revenue', amount_cents: c, position: 1, parent_category_id: null }] });
  return {
    object: 'income_statement',
    start_date: start,
    end_date: end,
    currency: 'USD',
    refreshed_at: null,
    revenue: section(cents),
    expenses: { total_cents: 0, categories: [] },
    operating_income_cents: cents,
    non_operating_income: { total_cents: 0, categories: [] },
    net_income_cents: cents,
  };
}

/** The service, its reader, and the calls spent so far. */
export function scriptedFin() {
  let meter = 0;
  let revenue = 10_000;
  const notScripted = async () => {
    throw new Error('not scripted');
  };
  const client: FinClient = {
    companyId: 'comp_1',
    ensureCompanyId: async () => 'comp_1',
    categories: {
      list: async () => {
        meter += 1;
        return { object: 'list', url: '/api/v1/categories', data: CATEGORIES };
      },
    },
    departments: { list: async () => ({ object: 'list', url: '/api/v1/departments', data: [] }) },
    reports: {
      incomeStatement: async (params: { start_date?: string; end_date?: string }, _opts?: CallOptions) => {
        meter += 1;
        revenue += 10_000;
        return statement(params.start_date!, params.end_date!, revenue);
      },
      balanceSheet: notScripted,
      cashFlow: notScripted,
    },
    aggregations: { total: notScripted },
    merchants: { list: notScripted },
    transactions: { list: notScripted },
    meter: { count: async () => meter },
  };
  const store = new MemoryCacheStore();
  const reader = new CachedReader({ client, cache: new RequestCache(store), stateStore: store });
  const fin = new FinService({ client, reader, today: () => '2026-11-21', dateSystem: 1900, stateStore: store });
  return { fin, reader, calls: () => meter };
}

