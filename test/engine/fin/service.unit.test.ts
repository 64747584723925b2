// FinService against a scripted client: the cases a live sandbox cannot stage deterministically (calls
// queued behind the client's concurrency limit when the cap hits, a hung API, an unknown company id,
// the date system of the workbook) and the bookkeeping around them.
import { ApiError, MonthlyLimitError } from '../../../src/api/errors';
import type { CallOptions } from '../../../src/api/transport';
import type { Category, IncomeStatement } from '../../../src/api/types';
import { FinError, FinService, type FinClient } from '../../../src/engine/fin';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const CATEGORIES: Category[] = [
  { id: 'cat_rev', object: 'category', name: 'Revenue', account_type: 'revenue', point_in_time: false, tier: 1, position: 1, parent_id: null, created: 0 },
  { id: 'cat_cash', object: 'category', name: 'Cash', account_type: 'asset', point_in_time: true, tier: 1, position: 2, parent_id: null, created: 0 },
];

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

const request = { method: 'GET', path: '/reports/income_statement', query: '' };
const capError = () =>
  new MonthlyLimitError(
    {
      message: 'Monthly API call limit of 300 reached for this company. The limit resets on 2026-12-01 at 00:00 Pacific Time.',
      status: 429,
      type: 'limit_error',
      code: 'monthly_limit_exceeded',
      request,
    },
    Date.parse('2026-11-21T12:00:00Z'),
  );

interface Script {
  companyId?: string | null;
  statement?: (params: { start_date?: string; end_date?: string }, opts?: CallOptions) => Promise<IncomeStatement>;
}

function fakeClient(script: Script = {}) {
  const calls: string[] = [];
  let company: string | null = script.companyId === undefined ? 'comp_1' : script.companyId;
  let meter = 0;
  const client: FinClient = {
    get companyId() {
      return company;
    },
    ensureCompanyId: async () => {
      calls.push('/company');
      meter += 1;
      await new Promise((r) => setTimeout(r, 5));
      company = 'comp_1';
      return company;
    },
    categories: {
      list: async () => {
        calls.push('/categories');
        meter += 1;
        return { object: 'list', url: '/api/v1/categories', data: CATEGORIES };
      },
    },
    departments: { list: async () => ({ object: 'list', url: '/api/v1/departments', data: [] }) },
    reports: {
      incomeStatement: async (params, opts) => {
        calls.push(`/reports/income_statement ${params.start_date}`);
        meter += 1;
        if (script.statement) return script.statement(params, opts);
        return statement(params.start_date!, params.end_date!, 12345);
      },
      balanceSheet: async () => {
        throw new Error('not scripted');
      },
      cashFlow: async () => {
        throw new Error('not scripted');
      },
    },
    aggregations: {
      total: async () => {
        throw new Error('not scripted');
      },
    },
    merchants: {
      list: async () => {
        throw new Error('not scripted');
      },
    },
    transactions: {
      list: async () => {
        throw new Error('not scripted');
      },
    },
    meter: { count: async () => meter },
  };
  return { client, calls };
}

function service(client: FinClient, extra: Partial<ConstructorParameters<typeof FinService>[0]> & { now?: () => number; apiTimeoutMs?: number } = {}) {
  const store = new MemoryCacheStore();
  const { now, apiTimeoutMs, ...rest } = extra;
  const reader = new CachedReader({ client, cache: new RequestCache(store), stateStore: store, now, apiTimeoutMs });
  return new FinService({ client, reader, today: () => '2026-11-21', dateSystem: 1900, stateStore: store, ...rest });
}

async function failure(p: Promise<unknown>): Promise<FinError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(FinError);
  return e as FinError;
}

/**
 * A call still waiting to be sent: it ends only when dropped (dropIfQueued) or aborted (signal), failing the
 * way the transport does.
 */
function abortable(opts?: CallOptions): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new ApiError({ message: 'GET /reports/income_statement was aborted.', status: null, type: 'connection_error', code: 'aborted', request }));
    opts?.signal?.addEventListener('abort', fail);
    opts?.dropIfQueued?.addEventListener('abort', fail);
  });
}

describe('FinService (scripted client)', () => {
  it('drops calls still waiting when the monthly cap answers, and blocks until the reset', async () => {
    let now = Date.parse('2026-11-21T12:00:00Z');
    let capped = true;
    const { client, calls } = fakeClient({
      statement: (params, opts) => {
        if (!capped) return Promise.resolve(statement(params.start_date!, params.end_date!, 100));
        // January answers the cap; the other months are still "queued" until something aborts them.
        return params.start_date === '2026-01-01' ? Promise.reject(capError()) : abortable(opts);
      },
    });
    const fin = service(client, { now: () => now });
    await fin.categories();
    const months = Array.from({ length: 6 }, (_, i) => `2026-0${i + 1}`);
    const results = await Promise.all(months.map((m) => failure(fin.pnl({ line: 'Revenue', start: m }))));
    const message = 'Monthly API limit of 300 calls reached; resets 2026-12-01 (Pacific time)';
    expect(results.map((e) => e.message)).toEqual(new Array(6).fill(message));
    const sent = calls.length;
    expect((await failure(fin.pnl({ line: 'Revenue', start: '2026-08' }))).message).toBe(message);
    expect(calls.length).toBe(sent);
    // One second before midnight Pacific on the 1st it still blocks; past it, it calls again.
    now = Date.parse('2026-12-01T07:59:59Z');
    expect((await failure(fin.pnl({ line: 'Revenue', start: '2026-08' }))).code).toBe('monthly_limit');
    expect(calls.length).toBe(sent);
    now = Date.parse('2026-12-01T08:00:01Z');
    capped = false;
    expect(await fin.pnl({ line: 'Revenue', start: '2026-08' })).toBe(1);
    expect(calls.length).toBe(sent + 1);
  });

  it('puts a time limit on API work, so no cell waits forever', async () => {
    const { client } = fakeClient({ statement: (_p, opts) => abortable(opts) });
    const fin = service(client, { apiTimeoutMs: 30 });
    const e = await failure(fin.pnl({ line: 'Revenue', start: '2026-07' }));
    expect(e).toMatchObject({ kind: 'na', code: 'timeout', message: 'The API did not answer within 1 s; recalculate to try again' });
  });

  it('retries transient failures on the next evaluation, but remembers refusals', async () => {
    let attempt = 0;
    const { client, calls } = fakeClient({
      statement: async (params) => {
        if (params.start_date === '2026-09-01') {
          throw new ApiError({ message: "Invalid date for start_date: 'x'.", status: 400, type: 'invalid_request_error', code: 'invalid_date', request });
        }
        attempt += 1;
        if (attempt === 1) throw new ApiError({ message: 'boom', status: 503, type: 'api_error', code: 'internal_error', request });
        return statement(params.start_date!, params.end_date!, 500);
      },
    });
    const fin = service(client);
    expect((await failure(fin.pnl({ line: 'Revenue', start: '2026-07' }))).message).toBe('The API failed (503); recalculate to try again');
    expect(await fin.pnl({ line: 'Revenue', start: '2026-07' })).toBe(5);
    expect(calls.filter((c) => c.startsWith('/reports')).length).toBe(2);
    // A refusal (4xx) would be refused again and paid again: it is remembered until Refresh all.
    const refused = await failure(fin.pnl({ line: 'Revenue', start: '2026-09' }));
    expect(refused).toMatchObject({ kind: 'value', message: "The API refused the request: Invalid date for start_date: 'x'." });
    await failure(fin.pnl({ line: 'Revenue', start: '2026-09' }));
    expect(calls.filter((c) => c === '/reports/income_statement 2026-09-01').length).toBe(1);
  });

  it('learns an unknown company with one GET /company shared by every cell; preview never asks', async () => {
    const { client, calls } = fakeClient({ companyId: null });
    const fin = service(client);
    expect((await failure(fin.pnl({ line: 'Revenue', start: '2026-07' }, { preview: true }))).message).toBe('Preview: press Enter to fetch');
    expect(calls).toEqual([]);
    const values = await Promise.all(Array.from({ length: 20 }, () => fin.pnl({ line: 'Revenue', start: '2026-07' })));
    expect(new Set(values)).toEqual(new Set([123.45]));
    expect(calls).toEqual(['/company', '/categories', '/reports/income_statement 2026-07-01']);
  });

  it('asks the host for the date system only for serial numbers, once, and reads 1904 serials', async () => {
    const { client, calls } = fakeClient();
    let asked = 0;
    const fin = service(client, {
      dateSystem: async (): Promise<1904> => {
        asked += 1;
        return 1904;
      },
    });
    await fin.pnl({ line: 'Revenue', start: '2026-07' });
    expect(asked).toBe(0);
    // 1904 system: 2026-07-01 is serial 44742 (1462 less than in the 1900 system).
    await fin.pnl({ line: 'Revenue', start: 44742, end: 44772 });
    await fin.pnl({ line: 'Revenue', start: 44742, end: 44772 });
    expect(asked).toBe(1);
    expect(calls.filter((c) => c.startsWith('/reports'))).toEqual(['/reports/income_statement 2026-07-01']);
  });

  it('reads a date argument again when today or the fiscal year changes (the readings are kept only while they hold)', async () => {
    const { client, calls } = fakeClient();
    let today = '2026-11-21';
    let fiscalStart = 1;
    const fin = service(client, { today: () => today, fiscalYearStartMonth: () => fiscalStart });
    await fin.pnl({ line: 'Revenue', start: 'YTD' });
    await fin.pnl({ line: 'Revenue', start: 'YTD' });
    today = '2027-02-03';
    await fin.pnl({ line: 'Revenue', start: 'YTD' });
    fiscalStart = 7;
    await fin.pnl({ line: 'Revenue', start: 'YTD' });
    expect(calls.filter((c) => c.startsWith('/reports'))).toEqual([
      '/reports/income_statement 2026-01-01',
      '/reports/income_statement 2027-01-01',
      '/reports/income_statement 2026-07-01',
    ]);
  });

  it('a host that cannot tell the date system gives #N/A, not #BUSY!', async () => {
    const { client } = fakeClient();
    const fin = service(client, { dateSystem: () => new Promise<1900>(() => undefined), hostTimeoutMs: 20 });
    const e = await failure(fin.pnl({ line: 'Revenue', start: 46204 }));
    expect(e).toMatchObject({ kind: 'na', code: 'host' });
  });

  it('streams data-as-of changes and waits for idle', async () => {
    const { client } = fakeClient();
    let now = 1_800_000_000_000;
    const fin = service(client, { now: () => now });
    const seen: string[] = [];
    fin.onChange(() => void fin.refreshedText().then((t) => seen.push(t)));
    expect(await fin.refreshedText()).toBe('Not fetched yet');
    now += 1;
    const pending = fin.pnl({ line: 'Revenue', start: '2026-07' });
    await pending;
    expect(await fin.whenIdle(10, 1000)).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe('FIN.PERIOD (FinService.period)', () => {
  it('gives period text keyed on a month, locally: no call, nothing cached', async () => {
    const { client, calls } = fakeClient();
    const fin = service(client);
    expect(await fin.period({ base: '2026-10' })).toBe('2026-10');
    expect(await fin.period({ base: '2026-10', offset: -1 })).toBe('2026-09');
    expect(await fin.period({ base: '2026-01', offset: '-1' })).toBe('2025-12');
    expect(await fin.period({ base: '2026-10', offset: 1, kind: 'quarter' })).toBe('2027-Q1');
    expect(await fin.period({ base: '2026-10', offset: -1, kind: 'FY' })).toBe('FY2025');
    expect(await fin.period({ base: '2026-10', kind: 'ytd' })).toBe('2026-10 YTD');
    // Prior-year YTD: the offset of a year to date counts months.
    expect(await fin.period({ base: '2026-10', offset: -12, kind: 'ytd' })).toBe('2025-10 YTD');
    expect(await fin.period({ base: '2026-10', offset: -1, kind: 'ttm' })).toBe('2026-09 TTM');
    // A date or a period is keyed on its last month; a serial waits for the date system (1900 here).
    expect(await fin.period({ base: '2026-10-15', offset: -1 })).toBe('2026-09');
    expect(await fin.period({ base: 46311 })).toBe('2026-10'); // 2026-10-16
    expect(await fin.period({ base: '2026-Q3', kind: 'ytd' })).toBe('2026-09 YTD');
    expect(await fin.period({ base: '2026-10-1M YTD', offset: -1 })).toBe('2026-08');
    expect(calls).toEqual([]);
  });

  it('follows the fiscal year of the connection (a July start: October 2026 is in FY2027 Q2)', async () => {
    const { client } = fakeClient();
    const fin = service(client, { fiscalYearStartMonth: () => 7 });
    expect(await fin.period({ base: '2026-10', kind: 'fy' })).toBe('FY2027');
    expect(await fin.period({ base: '2026-10', kind: 'quarter' })).toBe('FY2027-Q2');
    expect(await fin.period({ base: '2026-10', offset: -2, kind: 'quarter' })).toBe('FY2026-Q4');
    expect(await fin.period({ base: '2026-06', offset: 1, kind: 'fy' })).toBe('FY2027');
    // What it returns is what every FIN function reads: FY2027 is July 2026 to June 2027 under this start.
    expect(await fin.period({ base: 'FY2027', kind: 'month' })).toBe('2027-06');
  });

  it('refuses bad arguments with #VALUE! naming what it takes', async () => {
    const { client } = fakeClient();
    const fin = service(client);
    expect((await failure(fin.period({ base: '2026-10', kind: 'week' }))).message).toBe('Bad kind "week": use "month", "quarter", "fy", "ytd" or "ttm"');
    expect((await failure(fin.period({ base: '2026-10', offset: 1.5 }))).message).toBe('Bad offset 1.5: use a whole number such as -1 (the one before) or 12');
    expect((await failure(fin.period({ base: null }))).message).toMatch(/^Missing base: give a month such as 2026-10/);
    const bad = await failure(fin.period({ base: '2026-10 -1' }));
    expect(bad.kind).toBe('value');
    expect(bad.message).toMatch(/a shift needs its unit/);
  });
});
