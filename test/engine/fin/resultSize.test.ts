// The size limit of a FIN result (src/engine/fin/resultSize.ts): the estimate agrees with JSON's UTF-8 bytes,
// and FIN.TRANSACTIONS / FIN.MERCHANTS stop at the limit, say so in their last row, and ask for no page they
// do not show. The client is a focused fake: a sandbox cannot serve rows this heavy.
import type { ListPage, Merchant, Transaction } from '../../../src/api/types';
import { FinService, type FinClient } from '../../../src/engine/fin';
import { MAX_RESULT_BYTES, ResultRows, cellBytes, rowBytes } from '../../../src/engine/fin/resultSize';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const utf8 = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('the size estimate', () => {
  it('is the UTF-8 length of the JSON for text, numbers and booleans', () => {
    for (const value of ['', 'Rent', 'Café "Zoë" \\ 50%', '東京の支払い', 'emoji 💸 and 🧾', -1234.56, 0, 1e21, true, false]) {
      expect([value, cellBytes(value)]).toEqual([value, utf8(value)]);
      // ... and never less than JSON's characters, which the custom-functions runtime's 2,000,000 counts.
      expect(cellBytes(value)).toBeGreaterThanOrEqual(JSON.stringify(value).length);
    }
    const row = ['2026-07-01', '', -12.34, 'USD', '=HYPERLINK("x")', 'Naïve café', 'Rent', '', 'approved', 'txn_1'];
    expect(rowBytes(row)).toBe(utf8(row));
  });

  it('never counts a control character short (an upper bound is what matters)', () => {
    expect(cellBytes('a\nb\tc\u0001')).toBeGreaterThanOrEqual(utf8('a\nb\tc\u0001'));
  });

  it('ResultRows keeps rows while both limits allow, then says which one cut', () => {
    const byRows = new ResultRows(['h'], 2);
    expect([byRows.push(['a']), byRows.push(['b']), byRows.full, byRows.push(['c'])]).toEqual([true, true, true, false]);
    expect(byRows.cut).toBe('rows');
    const bySize = new ResultRows(['h'], 100, 600);
    expect(bySize.push(['x'.repeat(50)])).toBe(true);
    expect(bySize.push(['y'.repeat(50)])).toBe(false);
    expect(bySize.cut).toBe('size');
    expect(bySize.push(['z'])).toBe(false); // nothing after the cut, even a row that would fit
    expect(bySize.rows).toEqual([['h'], ['x'.repeat(50)]]);
  });
});

// --- FIN.TRANSACTIONS and FIN.MERCHANTS over heavy rows ------------------------------------------------

const PAGE = 500;
const TOTAL = 12_000;

function txn(i: number, description: string): Transaction {
  return {
    id: `txn_${String(i).padStart(8, '0')}`,
    object: 'transaction',
    date: '2026-07-15',
    accounting_date: null,
    amount_cents: -123456,
    currency: 'USD',
    merchant: `Merchant ${i}`,
    description,
    categorized: true,
    category_id: 'cat_rent',
    category_name: 'Rent',
    department_id: null,
    department_name: null,
    transaction_type: 'card',
    source: { type: 'card', vendor: null, id: null } as unknown as Transaction['source'],
    status: 'approved',
    spread: null,
    transfer_id: null,
    created: 0,
  };
}

function pageOf<T>(params: { starting_after?: string; limit?: number }, make: (i: number) => T, total = TOTAL): ListPage<T> {
  const from = params.starting_after ? Number(params.starting_after) : 0;
  const to = Math.min(total, from + (params.limit ?? PAGE));
  const data = Array.from({ length: to - from }, (_, k) => make(from + k));
  return { object: 'list', url: '/api/v1/x', has_more: to < total, next_cursor: to < total ? String(to) : null, data };
}

function heavyService(descriptionLength: number, merchantNameLength = 10) {
  const calls: string[] = [];
  const description = 'd'.repeat(descriptionLength);
  const unsupported = async (): Promise<never> => {
    throw new Error('not scripted');
  };
  const client: FinClient = {
    companyId: 'comp_1',
    ensureCompanyId: async () => 'comp_1',
    categories: {
      list: async () => {
        calls.push('/categories');
        return {
          object: 'list',
          url: '/api/v1/categories',
          data: [{ id: 'cat_rent', object: 'category', name: 'Rent', account_type: 'expense', point_in_time: false, tier: 1, position: 1, parent_id: null, created: 0 }],
        };
      },
    },
    departments: { list: unsupported },
    reports: { incomeStatement: unsupported, balanceSheet: unsupported, cashFlow: unsupported },
    aggregations: { total: unsupported },
    merchants: {
      list: async (params) => {
        calls.push('/parties/merchants');
        return pageOf<Merchant>(params, (i) => ({ object: 'merchant', name: `${i} `.padEnd(merchantNameLength, 'm') }) as unknown as Merchant);
      },
    },
    transactions: {
      list: async (params) => {
        calls.push('/transactions');
        return pageOf(params, (i) => txn(i, description));
      },
    },
    meter: { count: async () => calls.length },
  };
  const store = new MemoryCacheStore();
  const reader = new CachedReader({ client, cache: new RequestCache(store), stateStore: store });
  const fin = new FinService({ client, reader, today: () => '2026-11-21', dateSystem: 1900, stateStore: store });
  return { fin, calls };
}

describe('FIN.TRANSACTIONS under the size limit', () => {
  it('cuts heavy rows at the limit, says how many it shows and why, and asks for no page past the cut', async () => {
    // 10,000 rows of 2,000-character descriptions would be about 21 MB: about 690 fit.
    const { fin, calls } = heavyService(2_000);
    const out = await fin.transactions({ start: '2026-07', maxRows: 10_000 });
    const shown = out.length - 2; // header and note
    expect(utf8(out)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(shown).toBeGreaterThan(600);
    expect(shown).toBeLessThan(800);
    expect(out[out.length - 1][0]).toBe(
      `… more rows not shown (first ${shown}: a FIN result holds at most 1.5 MB; narrow the dates, or filter by category or status)`,
    );
    expect(out[out.length - 1].slice(1).every((v) => v === '')).toBe(true);
    // Pages of 500: the third page holds the row that did not fit, and no fourth is asked for.
    expect(calls.filter((c) => c === '/transactions')).toHaveLength(Math.ceil((shown + 1) / PAGE));
  });

  it('light rows still stop at max_rows, with the note as before', async () => {
    const { fin, calls } = heavyService(20);
    const out = await fin.transactions({ start: '2026-07', maxRows: 10_000 });
    expect(out).toHaveLength(1 + 10_000 + 1);
    expect(utf8(out)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(out[out.length - 1][0]).toBe('… more rows not shown (first 10000; raise max_rows up to 10000 or narrow the dates)');
    expect(calls.filter((c) => c === '/transactions')).toHaveLength(20);
  });

  it('FIN.MERCHANTS is held to the same limit', async () => {
    const { fin } = heavyService(0, 1_000);
    const out = await fin.merchants({ category: 'Rent' });
    expect(utf8(out)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(out[out.length - 1][0]).toBe(`… more merchants not shown (first ${out.length - 2}: a FIN result holds at most 1.5 MB)`);
  });
});
