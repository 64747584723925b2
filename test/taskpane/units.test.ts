/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The pane's host-free pieces, without a sandbox: messages, formula text, block plans, the action log.
import { changedRefreshText, fullRefreshText, type WorkbookPlan } from '../../src/engine/refresh/plan';
import { ApiError, ConfigError, MonthlyLimitError, UnreadableAnswer } from '../../src/api';
import type { Category } from '../../src/api/types';
import { buildTree } from '../../src/engine/tree';
import { RequestCache } from '../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { GatewayError } from '../../src/engine/ports/workbook';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { ActionLog } from '../../src/taskpane/actionLog';
import { refreshProgressText } from '../../src/taskpane/refresh/refreshProgress';
import { describeError, maskKeys, PaneError } from '../../src/taskpane/shared/errors';
import { categoryReference, excelString, lastQuarterText, totalFormula } from '../../src/taskpane/formulas/formula';
import { filterCategories } from '../../src/taskpane/shared/useCategories';
import { CachedReader } from '../../src/engine/reader/cachedReader';
import {
  columnsFor,
  costText,
  describeSpec,
  formatAge,
  isOld,
  offersTotal,
  sheetNameFor,
  specFromBinding,
  specToParameters,
  toGridWrite,
  type StatementSpec,
} from '../../src/engine/statements';
import { RenderError, renderStatement } from '../../src/engine/render';

const request = { method: 'GET', path: '/reports/income_statement', query: '' };
const apiError = (status: number | null, type: string, code: string | null, message: string, path = '/reports/income_statement') =>
  new ApiError({ status, type, code, message, request: { ...request, path } });

describe('describeError: every failure says what to do, never the key', () => {
  test('401', () => {
    const m = describeError(apiError(401, 'authentication_error', 'invalid_api_key', 'Invalid API key provided.'));
    expect(m.title).toBe('API key not accepted');
    expect(m.body).toMatch(/revoked or mistyped.*Settings > API Keys/);
  });

  test.each([
    ['user_inactive', /deactivated/],
    ['user_removed_from_company', /no longer a member/],
    ['company_closed', /closed/],
    ['subscription_required', /no active subscription/],
  ])('403 %s', (code, pattern) => {
    expect(describeError(apiError(403, 'permission_error', code, 'x')).body).toMatch(pattern);
  });

  test('an answer the add-in does not read: not the user\'s fault, what to tell whoever runs the API, not worth retrying', () => {
    const unreadable = new UnreadableAnswer({ endpoint: '/aggregations/total', expected: 'amount ending in _cents', found: ['object', 'category', 'amount'] });
    const m = describeError(unreadable);
    expect(m.title).toBe('The API answered in a form this add-in does not read');
    expect(m.body).toBe(
      "The API's answer to /aggregations/total has no amount ending in _cents (fields: object, category, amount). Nothing was written from it, " +
        'and trying again gets the same answer. Tell whoever runs the API that GET /aggregations/total answered this way (the fields above say how).',
    );
    expect(m.code).toBe('unreadable_answer');
    // A statement whose figures a layout cannot place is the answer's doing too, not "could not lay out".
    expect(describeError(new RenderError('cash_flow has no change_in_cash_cents')).title).toBe('The API answered in a form this add-in does not read');
  });

  test('403 insufficient_permission names the permission from the message, else from the endpoint', () => {
    expect(describeError(apiError(403, 'permission_error', 'insufficient_permission', 'The owner of this API key lacks the API access: Manage permission.')).body).toMatch(
      /lacks the API access: Manage permission/,
    );
    expect(describeError(apiError(403, 'permission_error', 'insufficient_permission', 'This request needs the Reports: View permission.')).body).toMatch(
      /Reports: View/,
    );
    expect(describeError(apiError(403, 'permission_error', 'insufficient_permission', 'Forbidden.', '/categories')).body).toMatch(/Accounting setup: View/);
  });

  test('429 monthly: the cap and the reset date; burst: wait', () => {
    const monthly = new MonthlyLimitError(
      {
        status: 429,
        type: 'limit_error',
        code: 'monthly_limit_exceeded',
        message: 'Monthly API call limit of 300 reached for this company. The limit resets on 2026-12-01 at 00:00 Pacific Time.',
        request,
      },
      Date.UTC(2026, 10, 20),
    );
    const m = describeError(monthly);
    expect(m.title).toBe('Monthly API limit reached');
    expect(m.body).toContain('its 300 API calls for this month');
    expect(m.body).toContain('The limit resets on 2026-12-01 at 00:00 Pacific Time');
    const noNumber = new MonthlyLimitError({ status: 429, type: 'limit_error', code: 'monthly_limit_exceeded', message: 'Limit reached.', request }, Date.UTC(2026, 10, 20));
    expect(describeError(noNumber, { plan: 'formation' }).body).toContain('its 10 API calls');
    expect(describeError(apiError(429, 'rate_limit_error', 'rate_limit_exceeded', 'Slow down')).body).toMatch(/Wait a minute/);
  });

  test('connection errors point at the base URL and the sandbox; 5xx says try again', () => {
    const m = describeError(apiError(null, 'connection_error', 'ECONNREFUSED', 'fetch failed'), { baseUrl: 'http://127.0.0.1:4010/api/v1' });
    expect(m.body).toMatch(/at http:\/\/127\.0\.0\.1:4010\/api\/v1.*base URL.*npm start/);
    expect(describeError(apiError(503, 'api_error', 'internal_error', 'x')).body).toMatch(/503.*try again/);
  });

  test('answers the client refuses: unusable, too large, endless, redirected', () => {
    for (const code of ['invalid_response', 'response_too_large', 'page_limit_exceeded']) {
      const m = describeError(apiError(code === 'response_too_large' ? 200 : null, 'api_error', code, 'GET /transactions returned something odd.'));
      expect(m).toMatchObject({ title: "The API's answer could not be used", code });
      expect(m.body).toMatch(/^GET \/transactions returned something odd\. Nothing was written.*Try again/);
    }
    const redirect = describeError(apiError(302, 'api_error', 'redirect_refused', 'GET /company was answered with a redirect.'), { baseUrl: 'https://api.example.com/api/v1' });
    expect(redirect.title).toBe('Check the base URL');
    expect(redirect.body).toMatch(/redirect.*https:\/\/api\.example\.com\/api\/v1/);
  });

  test('configuration, workbook and pane errors', () => {
    expect(describeError(new ConfigError('apiKey must be a secret key starting with svc_.', 'apiKey')).body).toMatch(/start with svc_/);
    expect(describeError(new ConfigError('baseUrl must use https.', 'baseUrl')).title).toBe('Check the base URL');
    expect(describeError(new GatewayError('NotFound', 'No sheet named P&L')).body).toMatch(/renamed or deleted/);
    expect(describeError(new GatewayError('Inactive', 'Another workbook was in front: come back to this workbook and try again.'))).toMatchObject({ title: 'Come back to this workbook', code: 'Inactive' });
    expect(describeError(new PaneError('T', 'B')).body).toBe('B');
  });

  test('anything shaped like a key is masked', () => {
    expect(maskKeys('bad svc_abc123_DEF key')).toBe('bad svc_•••• key');
    expect(describeError(new Error('oops svc_live_secret_1')).body).not.toContain('svc_live_secret_1');
    expect(describeError(apiError(400, 'invalid_request_error', 'invalid_request', 'Bad svc_zzz')).body).toBe('Bad svc_••••');
  });
});

function category(id: string, name: string, parent: string | null, position = 0): Category {
  return { id, object: 'category', name, account_type: 'expense', point_in_time: false, tier: 1, position, parent_id: parent, created: 0 };
}

describe('formula text', () => {
  const tree = buildTree(
    [
      category('cat_opex', 'Operating Expenses', null, 1),
      category('cat_ga', 'General & Administrative', 'cat_opex', 1),
      category('cat_soft', 'Software "SaaS"', 'cat_ga', 1),
      category('cat_ops1', 'Operations', 'cat_opex', 2),
      category('cat_ops2', 'Operations', 'cat_opex', 3),
      category('cat_arrow', 'A > B', 'cat_opex', 4),
      category('cat_cur', 'Current Assets', null, 2),
    ],
    'category',
  );

  test('the path when it names exactly that category, else the id; quotes doubled', () => {
    expect(totalFormula(tree, tree.byId.get('cat_soft')!, ' 2026-Q3 ')).toBe('=FIN.TOTAL("Operating Expenses > General & Administrative > Software ""SaaS""","2026-Q3")');
    expect(categoryReference(tree, tree.byId.get('cat_ops1')!)).toBe('cat_ops1');
    expect(categoryReference(tree, tree.byId.get('cat_arrow')!)).toBe('cat_arrow');
    expect(excelString('a"b')).toBe('"a""b"');
  });

  test('filtering matches word starts of the path', () => {
    expect(filterCategories(tree, 'rent').map((n) => n.id)).toEqual([]);
    expect(filterCategories(tree, 'cur').map((n) => n.id)).toEqual(['cat_cur']);
    expect(filterCategories(tree, 'gen soft').map((n) => n.id)).toEqual(['cat_soft']);
    expect(filterCategories(tree, '').length).toBe(7);
  });

  test('default period: the last full calendar quarter', () => {
    expect(lastQuarterText('2026-11-21')).toBe('2026-Q3');
    expect(lastQuarterText('2026-02-01')).toBe('2025-Q4');
  });
});

describe('statement blocks', () => {
  const spec: StatementSpec = {
    statement: 'income_statement',
    period: 'last_year',
    start: '2025-01-01',
    end: '2025-12-31',
    layout: 'quarters',
    scale: 'thousands',
    fiscalYearStartMonth: 1,
  };

  test('columns per layout; balance sheets at period ends', () => {
    expect(columnsFor(spec).map((c) => [c.start, c.end])).toEqual([
      ['2025-01-01', '2025-03-31'],
      ['2025-04-01', '2025-06-30'],
      ['2025-07-01', '2025-09-30'],
      ['2025-10-01', '2025-12-31'],
    ]);
    expect(columnsFor({ ...spec, statement: 'balance_sheet', layout: 'prior_year' }).map((c) => c.request)).toEqual([
      { path: '/reports/balance_sheet', query: { date: '2025-12-31' } },
      { path: '/reports/balance_sheet', query: { date: '2024-12-31' } },
    ]);
    expect(columnsFor({ ...spec, layout: 'prior_period', start: '2025-07-01', end: '2025-09-30' }).map((c) => c.start)).toEqual(['2025-07-01', '2025-04-01']);
  });

  test('the cost counts cached answers as free', async () => {
    const cache = new RequestCache(new MemoryCacheStore());
    const reader = new CachedReader({ client: { companyId: 'comp_1', ensureCompanyId: async () => 'comp_1', meter: {} }, cache });
    const columns = columnsFor(spec);
    await cache.get('comp_1', columns[0].request, async () => ({}));
    const cost = await reader.cost(columns.map((c) => c.request));
    expect(cost).toEqual({ requests: 4, cached: 1, calls: 3 });
    expect(costText(cost)).toBe('Costs 3 calls (1 cached)');
    expect(costText({ requests: 1, cached: 0, calls: 1 })).toBe('Costs 1 call (0 cached)');
  });

  test('a binding round-trips its spec; foreign or broken bindings are not statements', () => {
    const binding = { id: 'b', kind: 'statement', parameters: specToParameters(spec), company: 'c', refreshedAt: '', address: 'A!A1' };
    expect(specFromBinding(binding)).toEqual(spec);
    expect(specFromBinding({ ...binding, kind: 'transactions' })).toBeNull();
    expect(specFromBinding({ ...binding, parameters: { ...binding.parameters, start: '2026-01-01' } })).toBeNull();
    expect(specFromBinding({ ...binding, parameters: { ...binding.parameters, layout: 'sideways' } })).toBeNull();
  });

  test('a Total column is offered for months or quarters of a periodic statement, and kept in the binding', () => {
    expect(offersTotal(spec)).toBe(true);
    expect(offersTotal({ ...spec, layout: 'prior_year' })).toBe(false);
    expect(offersTotal({ ...spec, statement: 'balance_sheet' })).toBe(false);
    const withTotal = { ...spec, total: true };
    expect(describeSpec(withTotal)).toBe('Income statement, FY2025, quarters side by side with a total, in thousands');
    const binding = { id: 'b', kind: 'statement', parameters: specToParameters(withTotal), company: 'c', refreshedAt: '', address: 'A!A1' };
    expect(specFromBinding(binding)).toEqual(withTotal);
    // Blocks without one keep exactly the parameters they had.
    expect(specToParameters(spec)).not.toHaveProperty('total');
    // A total where none can be (edited settings) is ignored, not rendered.
    expect(specFromBinding({ ...binding, parameters: { ...binding.parameters, statement: 'balance_sheet' } })?.total).toBeUndefined();
  });

  test('a second block of the same statement and period is named by what differs (issue 13: not "P&L FY2025 (2)")', () => {
    const months: StatementSpec = { ...spec, layout: 'months', scale: 'units' };
    expect(sheetNameFor(months)).toBe('P&L FY2025');
    expect(sheetNameFor(months, [])).toBe('P&L FY2025');
    expect(sheetNameFor({ ...months, scale: 'thousands' }, [months])).toBe('P&L FY2025 (thousands)');
    expect(sheetNameFor({ ...months, layout: 'quarters' }, [months])).toBe('P&L FY2025 (by quarter)');
    expect(sheetNameFor({ ...months, total: true }, [months])).toBe('P&L FY2025 (total)');
    expect(sheetNameFor({ ...months, scale: 'thousands', total: true }, [months])).toBe('P&L FY2025 (thousands, total)');
    expect(sheetNameFor({ ...months, scale: 'millions' }, [spec])).toBe('P&L FY2025 (by month, millions)');
    // What does not fit in Excel's 31 characters is left out, the layout first kept.
    expect(sheetNameFor({ ...months, layout: 'prior_year', scale: 'thousands' }, [months])).toBe('P&L FY2025 (vs last year)');
    // Compared with the first block of that statement and period; other statements and periods do not count.
    const other: StatementSpec = { ...months, statement: 'cash_flow' };
    expect(sheetNameFor({ ...months, scale: 'thousands' }, [other])).toBe('P&L FY2025');
    expect(sheetNameFor({ ...months, scale: 'thousands' }, [{ ...months, start: '2024-01-01', end: '2024-12-31' }])).toBe('P&L FY2025');
    // An exact copy: nothing to name, the workbook makes the plain name unique.
    expect(sheetNameFor(months, [months])).toBe('P&L FY2025');
  });

  test('the grid maps to the gateway: text as strings, numbers as numbers, formats, bold, indents, outline', () => {
    const section = (cents: number) => ({ total_cents: cents, categories: [{ category_id: 'cat_1', name: '=HYPERLINK("x")', position: 1, parent_category_id: null, amount_cents: cents }] });
    const grid = renderStatement({
      reports: [
        {
          object: 'income_statement',
          start_date: '2025-01-01',
          end_date: '2025-03-31',
          currency: 'USD',
          refreshed_at: null,
          revenue: section(123456),
          expenses: section(-23456),
          operating_income_cents: 100000,
          non_operating_income: section(0),
          net_income_cents: 100000,
        },
      ],
      companyName: 'Acme',
      refreshedAt: new Date(0),
      scale: 'thousands',
    });
    const write = toGridWrite(grid);
    expect(write.values[0][0]).toBe('Acme');
    const line = write.values.findIndex((r) => r[0] === '=HYPERLINK("x")');
    expect(write.values[line][1]).toBeCloseTo(1.23456, 12);
    expect(write.cellFormats![line][0]).toBe('@');
    expect(write.indentLevels![line]).toBe(1);
    expect(write.outlineLevels![line]).toBe(1);
    expect(write.boldRows).toContain(0);
    expect(write.values[5]).toEqual([null, null]);
  });
});

describe('refresh and the action log', () => {
  test('ages and staleness', () => {
    const now = Date.UTC(2026, 0, 10, 12);
    expect(formatAge(now - 20_000, now)).toBe('just now');
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatAge(now - 3 * 3600_000, now)).toBe('3 hours ago');
    expect(formatAge(now - 3 * 86400_000, now)).toBe('3 days ago');
    const binding = { id: 'b', kind: 'statement', parameters: {}, company: 'c', address: 'A!A1' };
    expect(isOld({ ...binding, refreshedAt: new Date(now - 25 * 3600_000).toISOString() }, now)).toBe(true);
    expect(isOld({ ...binding, refreshedAt: new Date(now - 23 * 3600_000).toISOString() }, now)).toBe(false);
    expect(isOld({ ...binding, refreshedAt: 'never' }, now)).toBe(true);
  });

  test('Refresh progress: the formulas, then reports read, and why more than the calls when some come from the cache', () => {
    expect(refreshProgressText({ phase: 'formulas' })).toBe('Recalculating the FIN formulas…');
    expect(refreshProgressText({ phase: 'blocks', done: 2, total: 12, distinct: 12 })).toBe('2 of 12 reports read');
    expect(refreshProgressText({ phase: 'blocks', done: 0, total: 1, distinct: 1 })).toBe('0 of 1 report read');
    expect(refreshProgressText({ phase: 'blocks', done: 13, total: 24, distinct: 12 })).toBe(
      '13 of 24 reports read (12 of them fetched, the others read from the cache)',
    );
  });

  test('cost texts of the two kinds of refresh', () => {
    const block = (kind: string, frozen = 0) => ({ placement: { kind }, frozen }) as never;
    const blocks = { blocks: [block('named'), block('named')], others: [], blockCalls: 13, formulaCalls: 0, changedCalls: { blocks: 0, blockCalls: 0, formulaCalls: 0 } };
    const plan = (over: Partial<WorkbookPlan> & { blocks?: typeof blocks }) => {
      const p = { blocks, tables: 0, watermark: true, knownCalls: 0, consolidated: 0, ...over };
      return { ...p, fullCalls: 1 + p.blocks.blockCalls + p.blocks.formulaCalls + p.tables };
    };
    expect(fullRefreshText(plan({}))).toBe('This will spend 14 calls to fetch everything again: 1 to start the record of what changes, 13 to rebuild 2 blocks.');
    expect(fullRefreshText(plan({ blocks: { ...blocks, formulaCalls: 40 }, tables: 2 }))).toBe(
      'This will spend up to 56 calls to fetch everything again: 1 to start the record of what changes, 13 to rebuild 2 blocks, up to 40 for FIN formulas, 2 for 2 transactions tables (more if a table has grown past a page).',
    );
    // The cached answers beyond the blocks' are the consolidated statements' too, where the workbook has some.
    expect(fullRefreshText(plan({ blocks: { ...blocks, formulaCalls: 3 }, consolidated: 2 }))).toBe(
      'This will spend up to 17 calls to fetch everything again: 1 to start the record of what changes, 13 to rebuild 2 blocks, up to 3 for FIN formulas and 2 consolidated statements.',
    );
    // A damaged block is not rebuilt, so it is not counted; closed books are said.
    expect(fullRefreshText(plan({ blocks: { ...blocks, blocks: [block('named', 2), block('named'), block('damaged')] } }))).toBe(
      'This will spend 14 calls to fetch everything again: 1 to start the record of what changes, 13 to rebuild 2 blocks. Figures within closed books are kept.',
    );
    expect(changedRefreshText(plan({}))).toBe('This will spend 1 call to ask what changed since the last refresh, then only what the changes touch: at most 14 calls.');
    expect(changedRefreshText(plan({ knownCalls: 2 }))).toBe(
      'This will spend 1 call to ask what changed since the last refresh, then only what the changes touch, including 2 calls for what your pushes changed: at most 14 calls.',
    );
    expect(changedRefreshText(plan({ watermark: false }))).toBe(
      'The first changed-only refresh has no record of what changed since the figures were fetched, so it refreshes everything (14 calls) and keeps that record from then on.',
    );
  });

  test('entries per company, newest first, the oldest folded past the cap, persisted, also for failed work', async () => {
    const storage = new MemorySecretStore();
    let count = 0;
    const client = { meter: { count: async () => count } } as never;
    const log = new ActionLog({ storage, now: () => 1000, current: () => ({ client, companyId: 'c1' }), max: 3 });
    await log.track('a', async () => {
      count += 2;
    });
    await expect(
      log.track('b', async () => {
        count += 1;
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    for (const name of ['c', 'd']) await log.track(name, async () => undefined);
    // Issue 13: past the cap the oldest lines are folded into one, not dropped, so the month still adds up.
    expect(log.entries('c1').map((e) => [e.action, e.calls, e.failed ?? false])).toEqual([
      ['d', 0, false],
      ['c', 0, false],
      ['Earlier this month', 3, false],
    ]);
    const reopened = new ActionLog({ storage, now: () => 0, current: () => null });
    expect((await reopened.load('c1')).map((e) => e.action)).toEqual(['d', 'c', 'Earlier this month']);
    expect(await reopened.load('c2')).toEqual([]);
  });

  test('FIN formulas: a line per batch for the calls no line and no running action accounts for', async () => {
    const storage = new MemorySecretStore();
    let count = 0;
    const client = { meter: { count: async () => count } } as never;
    const at = Date.UTC(2026, 10, 18, 20);
    const log = new ActionLog({ storage, now: () => at, current: () => ({ client, companyId: 'c1' }) });
    await log.track('Insert', async () => {
      count += 3;
      // Formulas settling while the action runs: what they spent is the action's (Refresh all recalculates them).
      await log.recordFormulas({ evaluations: 2 });
    });
    count += 2;
    await log.recordFormulas({ evaluations: 4 });
    // A cached batch spent nothing: no line.
    await log.recordFormulas({ evaluations: 4 });
    count += 1;
    await log.recordFormulas({ evaluations: 1 });
    expect(log.entries('c1').map((e) => [e.action, e.calls])).toEqual([
      ['FIN formulas (1 evaluation)', 1],
      ['FIN formulas (4 evaluations)', 2],
      ['Insert', 3],
    ]);
    expect(log.entries('c1').reduce((n, e) => n + e.calls, 0)).toBe(count);
  });

  test('a new month starts a new list: lines of earlier months go with the next line', async () => {
    const storage = new MemorySecretStore();
    let now = Date.UTC(2026, 10, 30, 12); // November, Pacific
    const client = { meter: { count: async () => 0 } } as never;
    const log = new ActionLog({ storage, now: () => now, current: () => ({ client, companyId: 'c1' }) });
    await log.track('November', async () => undefined);
    now = Date.UTC(2026, 11, 1, 12); // December 1st, 04:00 Pacific
    await log.track('December', async () => undefined);
    expect(log.entries('c1').map((e) => e.action)).toEqual(['December']);
  });
});
