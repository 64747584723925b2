// Several companies in one workbook (issue 16, items 1 and 2): the runtime keeps one connection per company,
// each with its own key in add-in storage, under a name the formulas use; one is the default. Each company's
// cached answers, call count and monthly-cap block are its own. Against the real sandbox's two Growth
// companies (growth-admin, growth2-admin), whose per-company usage counters say where each call went.
import { MemoryMeterStore } from '../../src/api';
import { capMonthOf } from '../../src/api/calendar';
import type { FinCall } from '../../src/engine/fin';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { CONNECTIONS_SECRET, apiKeySecret, cacheOwnerSecret, keyFingerprint } from '../../src/runtime/connection';
import { ConnectionNameTaken, createRuntime, type Runtime } from '../../src/runtime/runtime';
import { lastFullYear, monthsOf } from '../engine/fin/finHarness';
import { call, startSandbox, type TestSandbox } from '../support/sandbox';

let sb: TestSandbox;
let a: string;
let b: string;
const month = monthsOf(lastFullYear())[6];

beforeAll(async () => {
  sb = await startSandbox();
  a = sb.companies['growth-admin'];
  b = sb.companies['growth2-admin'];
});
afterAll(async () => {
  await sb.close();
});

function stores() {
  return { cacheStore: new MemoryCacheStore(), meterStore: new MemoryMeterStore(), secrets: new MemorySecretStore() };
}

function runtimeOver(s = stores(), recalculate: () => Promise<void> = async () => undefined): Runtime {
  return createRuntime({ ...s, dateSystem: async () => 1900, recalculate });
}

const connectA = (r: Runtime) => r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: a, name: 'Acme' });
const connectB = (r: Runtime, makeDefault = false) =>
  r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'Westbrook', makeDefault });

/** =FIN.PNL("Net Income", <the month>, , company) as a cell makes it (the company as typed, when one is). */
const netIncome = (company?: string): FinCall => ({ name: 'PNL', args: ['Net Income', month.start.slice(0, 7), null, company ?? null], company });

/** The month's net income as the company's key reads it from the API, in units. */
async function apiNetIncome(label: string): Promise<number> {
  const res = await call(sb, sb.keys[label], 'GET', `/reports/income_statement?start_date=${month.start}&end_date=${month.end}`);
  expect(res.status).toBe(200);
  return res.body.net_income_cents / 100;
}

describe('two connections side by side', () => {
  it('each formula reads its own company with its own key; omitted, the default one', async () => {
    const r = runtimeOver();
    await connectA(r);
    await connectB(r);
    expect(await r.listConnections()).toMatchObject({
      defaultName: 'Acme',
      list: [
        { name: 'Acme', companyId: a },
        { name: 'Westbrook', companyId: b },
      ],
    });

    const before = [await sb.usage(a), await sb.usage(b)];
    const byDefault = await r.evaluateFin<number>(netIncome(), {});
    const byName = await r.evaluateFin<number>(netIncome('westbrook'), {});
    const byId = await r.evaluateFin<number>(netIncome(b), {});
    expect(byDefault).toBe(await apiNetIncome('growth-admin'));
    expect(byName).toBe(await apiNetIncome('growth2-admin'));
    expect(byId).toBe(byName);
    expect(byName).not.toBe(byDefault);
    // One statement each (the second read of Westbrook's came from its cache), each on its own company's bill.
    // +1 each: the API figures above; a statement and the chart each ("Net Income" is the spec's line unless the chart names a category so)
    expect([(await sb.usage(a)) - before[0], (await sb.usage(b)) - before[1]]).toEqual([3, 3]);
  });

  it('per-company cache and meter: answers are kept under each company, calls counted to each', async () => {
    const r = runtimeOver();
    await connectA(r);
    await connectB(r);
    await (await r.getFinService('Acme'))!.evaluate(netIncome());
    await (await r.getFinService('Westbrook'))!.evaluate(netIncome());
    await (await r.getFinService('Westbrook'))!.evaluate(netIncome());
    // The statement and the chart, each company's under its own; the second Westbrook cell read its cache.
    const keys = await r.cache.storedKeys(b);
    expect(keys.length).toBe(2);
    expect((await r.cache.storedKeys(a)).length).toBe(2);
    const capMonth = capMonthOf(Date.now());
    expect([await r.meter.count(a, capMonth), await r.meter.count(b, capMonth)]).toEqual([2, 2]);
    expect(await (await r.getClient('Westbrook'))!.meter.count()).toBe(2);
  });

  it("one company's cap reached: its formulas show the cap, the other's still work", async () => {
    const r = runtimeOver();
    await connectA(r);
    await connectB(r);
    await sb.control('usage', { company_id: b, count: 30_000 });
    try {
      const westbrook = r.evaluateFin<number>(netIncome('Westbrook'), {});
      await expect(westbrook).rejects.toMatchObject({ code: 'monthly_limit' });
      // Blocked now: nothing more is sent for Westbrook, while Acme is read as usual.
      const usageB = await sb.usage(b);
      await expect((await r.getFinService('Westbrook'))!.evaluate(netIncome())).rejects.toMatchObject({ code: 'monthly_limit' });
      expect(await sb.usage(b)).toBe(usageB);
      expect(await r.evaluateFin<number>(netIncome(), {})).toBe(await apiNetIncome('growth-admin'));
      expect(await (await r.getFinService('Acme'))!.monthlyLimit()).toBeNull();
      expect(await (await r.getFinService('Westbrook'))!.monthlyLimit()).not.toBeNull();
    } finally {
      await sb.control('usage', { company_id: b, count: 0 });
    }
  });

  it('a formula naming a connection this computer does not have shows Connect "<name>"; connecting it recalculates it', async () => {
    let cells: Array<() => Promise<void>> = [];
    const r = runtimeOver(stores(), async () => {
      setTimeout(() => cells.forEach((c) => void c()), 10);
    });
    await connectA(r);
    let shown: unknown;
    const cell = () =>
      r.evaluateFin<number>(netIncome('Westbrook'), {}).then(
        (v) => void (shown = v),
        (e: unknown) => void (shown = e),
      );
    cells = [cell];
    await cell();
    expect(shown).toMatchObject({ kind: 'na', code: 'connection_missing', message: 'Connect "Westbrook" to fetch' });
    // Acme's formulas are not touched.
    expect(await r.evaluateFin<number>(netIncome(), {})).toBe(await apiNetIncome('growth-admin'));
    expect(r.missingConnections()).toEqual(['Westbrook']);

    await connectB(r);
    expect(r.missingConnections()).toEqual([]);
    await r.recalculateNotConnected();
    expect(shown).toBe(await apiNetIncome('growth2-admin'));
  });

  it('a name another company has is refused; given none, the connection is named by its company id', async () => {
    const r = runtimeOver();
    await connectA(r);
    await expect(r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: ' acme ' })).rejects.toBeInstanceOf(
      ConnectionNameTaken,
    );
    await r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b });
    expect((await r.getConnection(b))?.name).toBe(b);
  });

  it('disconnecting one forgets its key and nothing else; the default passes to the one left', async () => {
    const s = stores();
    const r = runtimeOver(s);
    await connectA(r);
    await connectB(r);
    await (await r.getFinService('Acme'))!.evaluate(netIncome());
    await r.disconnect({ company: 'Acme' });
    expect(await s.secrets.get(apiKeySecret(a))).toBeUndefined();
    expect(await s.secrets.get(apiKeySecret(b))).toBe(sb.keys['growth2-admin']);
    expect((await r.cache.storedKeys(a)).length).toBe(2); // cached answers (statement and chart) stay unless asked
    expect(await r.listConnections()).toMatchObject({ defaultName: 'Westbrook', list: [{ name: 'Westbrook' }] });
    expect((await r.getConnection())?.companyId).toBe(b);
    await expect(r.evaluateFin<number>(netIncome('Acme'), {})).rejects.toMatchObject({
      code: 'connection_missing',
    });
    // A reopen finds the same.
    expect(await runtimeOver(s).listConnections()).toMatchObject({ defaultName: 'Westbrook', list: [{ name: 'Westbrook', companyId: b }] });
  });

  it('makes another connection the default, kept across reopen', async () => {
    const s = stores();
    const r = runtimeOver(s);
    await connectA(r);
    await connectB(r);
    await r.setDefault('Westbrook');
    expect((await r.getConnection())?.companyId).toBe(b);
    expect((await runtimeOver(s).getConnection())?.companyId).toBe(b);
  });

  it('Refresh all refreshes every company with one recalculation and says what each spent', async () => {
    let recalculations = 0;
    const r = runtimeOver(stores(), async () => {
      recalculations += 1;
    });
    await connectA(r);
    await connectB(r);
    await (await r.getFinService('Acme'))!.evaluate(netIncome());
    await (await r.getFinService('Westbrook'))!.evaluate(netIncome());
    const report = await r.refreshAll({ quietMs: 50 });
    expect(recalculations).toBe(1);
    expect(report).toMatchObject({ spent: 0, due: 4, settled: true, limited: false });
    expect(report.message).toBe('Refresh all spent 0 calls (Acme: spent 0 calls; Westbrook: spent 0 calls)');
  });
});

describe('upgrading from one connection', () => {
  it('the stored connection becomes the default, named as the pane named its company, with its key and cache owner', async () => {
    const s = stores();
    const key = sb.keys['growth-admin'];
    await s.secrets.set('apiKey', key);
    await s.secrets.set('connection', JSON.stringify({ baseUrl: sb.baseUrl, companyId: a, fiscalYearStartMonth: 4 }));
    await s.secrets.set('cacheOwner', await keyFingerprint(key));
    await s.secrets.set(`company:${a}`, JSON.stringify({ name: 'Demo Co', plan: 'growth' }));
    const r = runtimeOver(s);
    expect(await r.getConnection()).toMatchObject({ name: 'Demo Co', companyId: a, fiscalYearStartMonth: 4, keyFingerprint: await keyFingerprint(key) });
    expect(await s.secrets.get(apiKeySecret(a))).toBe(key);
    expect(await s.secrets.get(cacheOwnerSecret(a))).toBe(await keyFingerprint(key));
    expect(JSON.parse((await s.secrets.get(CONNECTIONS_SECRET))!)).toMatchObject({ defaultName: 'Demo Co' });
    for (const legacy of ['apiKey', 'connection', 'cacheOwner']) expect(await s.secrets.get(legacy)).toBeUndefined();
    expect(await r.evaluateFin<number>(netIncome(), {})).toBe(await apiNetIncome('growth-admin'));
  });
});
