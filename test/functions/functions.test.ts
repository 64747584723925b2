// The real FIN wrappers of src/functions/functions.ts, exercised the way Excel calls them: a
// CustomFunctions global (test/support/customFunctions.ts, standing in for Excel's runtime), null for omitted optional
// arguments, an invocation object, and the shared runtime (src/runtime) configured with
// memory stores and a real sandbox.
import { MemoryMeterStore } from '../../src/api';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import type { SecretStore } from '../../src/engine/ports/storage';
import * as fin from '../../src/functions/functions';
import { CONNECTIONS_SECRET, configureRuntime, connect, disconnect, getFinService, refreshAll, type RuntimeHost } from '../../src/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { CellError } from '../support/customFunctions';
import { lastFullYear, serial } from '../engine/fin/finHarness';


const cell = { isInValuePreview: false } as CustomFunctions.Invocation;
const preview = { isInValuePreview: true } as CustomFunctions.Invocation;

function memorySecrets(): SecretStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (k) => values.get(k),
    set: async (k, v) => {
      values.set(k, v);
    },
    remove: async (k) => {
      values.delete(k);
    },
  };
}

interface TestHost extends RuntimeHost {
  sent(): number;
  recalculations: number;
  onRecalculate?: () => void;
}

function testHost(): TestHost {
  let sent = 0;
  const host: TestHost = {
    cacheStore: new MemoryCacheStore(),
    meterStore: new MemoryMeterStore(),
    secrets: memorySecrets(),
    dateSystem: async () => 1900,
    recalculations: 0,
    recalculate: async () => {
      host.recalculations += 1;
      setTimeout(() => host.onRecalculate?.(), 10);
    },
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
    sent: () => sent,
    clientOptions: { backoffBaseMs: 10, backoffCapMs: 50 },
  };
  return host;
}

/** FIN.TRANSACTIONS rows, and the "more rows not shown" note row when the list was cut. */
function splitMoreRow(rows: unknown[][]): [unknown[][], unknown[] | undefined] {
  const last = rows[rows.length - 1];
  if (last && String(last[0]).startsWith('… more rows not shown')) return [rows.slice(0, -1), last];
  return [rows, undefined];
}

async function cellError(promise: Promise<unknown>): Promise<CellError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a cell error, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(CellError);
  return outcome.error as CellError;
}

let sb: TestSandbox;
const year = lastFullYear();
const month = `${year}-07`;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  configureRuntime(null);
  await sb.close();
});

describe('not connected', () => {
  it('every function answers #N/A "Not connected" and spends nothing', async () => {
    const host = testHost();
    configureRuntime(host);
    const calls: Promise<unknown>[] = [
      fin.total('Rent', month, null as any, null as any, null as any, null as any, cell),
      fin.pnl('Rent', month, null as any, null as any, null as any, cell),
      fin.balance('Cash', month, null as any, cell),
      fin.cashFlowLine('Net Income', month, null as any, null as any, cell),
      fin.incomeStatement(month, null as any, null as any, null as any, cell),
      fin.balanceSheet(month, null as any, null as any, cell),
      fin.cashFlowStatement(month, null as any, null as any, null as any, cell),
      fin.transactions(month, null as any, null as any, null as any, null as any, null as any, cell),
      fin.categories(null as any, cell),
      fin.departments(null as any, cell),
      fin.merchants('Rent', null as any, cell),
    ];
    for (const p of calls) {
      expect(await cellError(p)).toEqual(new CellError('#N/A', 'Not connected: open Financial Reporting and connect'));
    }
    const results: unknown[] = [];
    const stream = { setResult: (v: unknown) => results.push(v), onCanceled: () => undefined } as unknown as CustomFunctions.StreamingInvocation<string>;
    fin.refreshed(null, stream);
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toEqual([new CellError('#N/A', 'Not connected: open Financial Reporting and connect')]);
    stream.onCanceled();
    expect((await refreshAll()).message).toBe('Refresh all: nothing refreshed. Not connected: open Financial Reporting and connect');
    expect(host.sent()).toBe(0);
    expect(fin.version()).toBe('dev');
  });
});

describe('connected to the Growth demo company', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = testHost();
    configureRuntime(host);
    // Connecting without the company id learns it with one GET /company, stored with the key.
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'] });
    expect(host.sent()).toBe(1);
    // Beside the key: where, which company, and a fingerprint of the key (never the key).
    const stored = await host.secrets.get(CONNECTIONS_SECRET).then(String);
    const companyId = sb.companies['growth-admin'];
    expect(JSON.parse(stored)).toEqual({
      defaultName: companyId,
      list: [{ name: companyId, baseUrl: sb.baseUrl, companyId, keyFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
    expect(stored).not.toContain(sb.keys['growth-admin']);
  });

  it('single values: TOTAL, PNL, BALANCE, CASHFLOW (omitted optionals arrive as null)', async () => {
    const rent = await fin.total('Rent', month, null as any, null as any, null as any, null as any, cell);
    expect(rent).toBeLessThan(0);
    expect(await fin.pnl('Rent', month, null as any, null as any, null as any, cell)).toBe(rent);
    expect(await fin.total('Cash', `${year}-12`, null as any, null as any, null as any, null as any, cell)).toBe(
      await fin.balance('Cash', `${year}-12-31`, null as any, cell),
    );
    const net = await fin.pnl('Net Income', `${year}-Q2`, null as any, null as any, null as any, cell);
    expect(await fin.cashFlowLine('Net Income', `${year}-Q2`, null as any, null as any, cell)).toBe(net);
    // A date cell arrives as a serial number (1900 system).
    expect(await fin.pnl('Rent', serial(`${year}-07-01`), serial(`${year}-07-31`), null as any, null as any, cell)).toBe(rent);
  });

  it('spilled statements and lists', async () => {
    const is = await fin.incomeStatement(month, null as any, 'thousands', null as any, cell);
    expect(is[0]).toEqual(['Income statement (USD, thousands)', `Jul ${year}`]);
    const bs = await fin.balanceSheet(`${year}-Q4`, null as any, null as any, cell);
    expect(bs[0]).toEqual(['Balance sheet (USD)', `${year}-12-31`]);
    const cf = await fin.cashFlowStatement(`${year}-Q1`, `${year}-Q2`, 1000, null as any, cell);
    expect(cf[0][0]).toBe('Cash flow statement (USD, thousands)');
    const txns = await fin.transactions(month, null as any, 'Rent', 'approved', 5, null as any, cell);
    expect(txns[0][0]).toBe('Date');
    // At most 5 rows, then (when the month has more) one last row that says so.
    const [rows, more] = splitMoreRow(txns.slice(1));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(5);
    expect(rows.every((r) => r[6] === 'Rent' && r[8] === 'approved')).toBe(true);
    if (rows.length < 5) expect(more).toBeUndefined();
    expect((await fin.categories(null as any, cell))[0]).toEqual(['Category', 'Id', 'Account type', 'Point in time']);
    expect((await fin.departments(null as any, cell))[0]).toEqual(['Department', 'Id', 'Assignable']);
    expect((await fin.merchants('Software Subscriptions', null as any, cell))[0]).toEqual(['Merchant']);
  });

  it('argument errors are #VALUE! with what is wrong', async () => {
    expect(await cellError(fin.total('Sofware Subscriptions', month, null as any, null as any, null as any, null as any, cell))).toEqual(
      new CellError('#VALUE!', 'Unknown category "Sofware Subscriptions": did you mean "Software Subscriptions"? FIN.CATEGORIES() lists them'),
    );
    const bad = await cellError(fin.balance('Cash', `${year}-13`, null as any, cell));
    expect(bad.code).toBe('#VALUE!');
    expect(bad.message).toMatch(new RegExp(`^Bad date "${year}-13": month 13 does not exist`));
    expect((await cellError(fin.transactions(month, null as any, null as any, 'posted', null as any, null as any, cell))).code).toBe('#VALUE!');
    expect((await cellError(fin.transactions(month, null as any, null as any, null as any, 20000, null as any, cell))).message).toBe(
      'Bad max_rows 20000: use a whole number from 1 to 10000',
    );
  });

  it('value preview spends nothing: the cached answer, or #N/A "Preview: press Enter to fetch"', async () => {
    const sentBefore = host.sent();
    expect(await fin.total('Rent', month, null as any, null as any, null as any, null as any, preview)).toBe(
      await fin.total('Rent', month, null as any, null as any, null as any, null as any, cell),
    );
    expect(await cellError(fin.total('Rent', `${year - 1}-12`, null as any, null as any, null as any, null as any, preview))).toEqual(
      new CellError('#N/A', 'Preview: press Enter to fetch'),
    );
    expect(host.sent()).toBe(sentBefore);
  });

  it('the preview flag as Microsoft declares it (a string) is read too: "true" peeks only, "false" evaluates', async () => {
    const asText = (flag: string) => ({ isInValuePreview: flag }) as CustomFunctions.Invocation;
    const sentBefore = host.sent();
    // A month of last year no other test fetches: the seeded history (two years to today) always holds it.
    expect(await cellError(fin.total('Rent', `${year}-10`, null as any, null as any, null as any, null as any, asText('true')))).toEqual(
      new CellError('#N/A', 'Preview: press Enter to fetch'),
    );
    expect(host.sent()).toBe(sentBefore);
    expect(await fin.total('Rent', `${year}-10`, null as any, null as any, null as any, null as any, asText('false'))).toBeLessThan(0);
    expect(host.sent()).toBe(sentBefore + 1);
  });

  it('a host with value preview whose office.js sets no flag: evaluated as a cell, and the console is told once', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const isSetSupported = jest.fn((name: string, version?: string) => name === 'CustomFunctionsRuntime' && Number(version) <= 1.5);
    (globalThis as any).Office = { context: { requirements: { isSetSupported } } };
    try {
      const noFlag = {} as CustomFunctions.Invocation;
      expect(await fin.total('Rent', month, null as any, null as any, null as any, null as any, noFlag)).toBe(
        await fin.total('Rent', month, null as any, null as any, null as any, null as any, cell),
      );
      await fin.pnl('Rent', month, null as any, null as any, null as any, noFlag);
      expect(isSetSupported).toHaveBeenCalledWith('CustomFunctionsRuntime', '1.5');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/office\.js does not say which evaluations are previews/);
    } finally {
      delete (globalThis as any).Office;
      warn.mockRestore();
    }
  });

  it('FIN.REFRESHED streams the data-as-of time; Refresh all recalculates and reports its cost', async () => {
    const results: unknown[] = [];
    const stream = { setResult: (v: unknown) => results.push(v), onCanceled: () => undefined } as unknown as CustomFunctions.StreamingInvocation<string>;
    fin.refreshed(null, stream);
    await new Promise((r) => setTimeout(r, 20));
    expect(String(results[results.length - 1])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);

    // The "workbook": three cells; Excel re-runs them after the full calculation.
    const sheet = () =>
      Promise.all([
        fin.pnl('Rent', month, null as any, null as any, null as any, cell),
        fin.pnl('Travel', month, null as any, null as any, null as any, cell),
        fin.balance('Cash', month, null as any, cell),
      ]);
    const values = await sheet();
    let recalculated: Promise<unknown> | undefined;
    host.onRecalculate = () => {
      recalculated = sheet();
    };
    const sentBefore = host.sent();
    const report = await refreshAll({ quietMs: 100 });
    // categories + July income statement + July balance sheet.
    expect(report).toMatchObject({ spent: 3, settled: true, limited: false, message: 'Refresh all spent 3 calls' });
    expect(host.sent() - sentBefore).toBe(3);
    expect(host.recalculations).toBe(1);
    expect(await recalculated).toEqual(values);
    expect(results).toContain('Not fetched yet'); // shown while the refresh was under way
    expect(String(results[results.length - 1])).toMatch(/UTC$/);
    stream.onCanceled();
  });

  it("a different key of the same company is never served the first key's cached answers", async () => {
    const before = host.sent();
    expect(await fin.pnl('Rent', month, null as any, null as any, null as any, cell)).toBeLessThan(0);
    // The same key again: the cache survives reconnecting.
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
    await fin.pnl('Rent', month, null as any, null as any, null as any, cell);
    expect(host.sent()).toBe(before);
    // growth-reports lacks Accounting setup: View, so it must not get the admin's category list from the cache.
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-reports'], companyId: sb.companies['growth-reports'] });
    expect((await cellError(fin.pnl('Rent', month, null as any, null as any, null as any, cell))).message).toMatch(/^Permission missing/);
    expect(host.sent()).toBeGreaterThan(before);
    expect([...(host.secrets as ReturnType<typeof memorySecrets>).values.values()].join()).not.toContain(sb.keys['growth-admin'].slice(4));
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  });

  it('a permission the key lacks is #N/A naming it', async () => {
    configureRuntime(testHost());
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-reports'], companyId: sb.companies['growth-reports'] });
    // growth-reports has Reports: View but not Accounting setup: View, which category names need.
    const e = await cellError(fin.pnl('Rent', month, null as any, null as any, null as any, cell));
    expect(e.code).toBe('#N/A');
    expect(e.message).toMatch(/^Permission missing: the key's user needs Accounting setup: View \(API said: /);
    // Statements themselves are readable with that key.
    expect((await fin.incomeStatement(month, null as any, null as any, null as any, cell))[0][0]).toBe('Income statement (USD)');
  });
});

describe('the monthly cap through the functions', () => {
  it('#N/A with the reset date, for every function, without calls once known', async () => {
    const host = testHost();
    configureRuntime(host);
    const company = sb.companies['formation-admin'];
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['formation-admin'], companyId: company });
    await sb.control('usage', { company_id: company, count: 10 });
    const first = await cellError(fin.total('Rent', month, null as any, null as any, null as any, null as any, cell));
    expect(first.code).toBe('#N/A');
    expect(first.message).toMatch(/^Monthly API limit of 10 calls reached; resets \d{4}-\d{2}-01 \(Pacific time\)$/);
    const sent = host.sent();
    for (const p of [
      fin.categories(null as any, cell),
      fin.pnl('Rent', month, null as any, null as any, null as any, cell),
      fin.transactions(month, null as any, null as any, null as any, null as any, null as any, cell),
    ]) {
      expect(await cellError(p)).toEqual(first);
    }
    expect(host.sent()).toBe(sent);
    expect((await refreshAll()).message).toBe(`Refresh all: nothing refreshed. ${first.message}`);
    await disconnect();
    expect(await getFinService()).toBeNull();
    expect((await cellError(fin.categories(null as any, cell))).message).toBe('Not connected: open Financial Reporting and connect');
  });
});

describe('the company argument (issue 16.2)', () => {
  it("each cell reads the company it names, with that company's key; omitted, the default; a name not connected here is #N/A in that cell only", async () => {
    const host = testHost();
    configureRuntime(host);
    const a = sb.companies['growth-admin'];
    const b = sb.companies['growth2-admin'];
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: a, name: 'Acme' });
    await connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault: false });
    const before = [await sb.usage(a), await sb.usage(b)];
    const acme = await fin.pnl('Net Income', month, null as any, null as any, null as any, cell);
    const westbrook = await fin.pnl('Net Income', month, null as any, 'Westbrook', null as any, cell);
    expect(westbrook).not.toBe(acme);
    expect(await fin.pnl('Net Income', month, null as any, 'ACME', null as any, cell)).toBe(acme);
    expect(await fin.pnl('Net Income', month, null as any, b, null as any, cell)).toBe(westbrook);
    // One income statement and the chart of accounts each (a category named "Net Income" would win over the
    // line the spec names), on each company's own bill.
    expect([(await sb.usage(a)) - before[0], (await sb.usage(b)) - before[1]]).toEqual([2, 2]);
    expect((await fin.categories('Westbrook', cell)).length).toBeGreaterThan(1);

    const missing = await cellError(fin.pnl('Net Income', month, null as any, 'Subsidiary', null as any, cell));
    expect(missing).toEqual(new CellError('#N/A', 'Connect "Subsidiary" to fetch'));
    expect(await fin.pnl('Net Income', month, null as any, null as any, null as any, cell)).toBe(acme);

    // FIN.REFRESHED follows its company.
    const results: unknown[] = [];
    const stream = { setResult: (v: unknown) => results.push(v), onCanceled: () => undefined } as unknown as CustomFunctions.StreamingInvocation<string>;
    fin.refreshed('Subsidiary', stream);
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toEqual([new CellError('#N/A', 'Connect "Subsidiary" to fetch')]);
    stream.onCanceled();
    configureRuntime(null);
  });
});
