// Groups of companies in the workbook's settings (issue 25, item 6), against the sandbox's two Growth
// companies connected side by side: a group's members are companies, told apart by company id and counted
// once however they are spelled; companies reporting in different currencies are refused as a consolidated
// statement refuses them; a group a workbook brings adds nothing up until it is accepted on this computer,
// so a group named like a company that is not connected answers "Connect …", not another company's figures;
// an exact company id wins over a connection's name.
import { MemoryMeterStore } from '../../src/api';
import type { FinCall } from '../../src/engine/fin';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { MemorySecretStore } from '../../src/excel/memoryGateway';
import { CONNECTIONS_SECRET, apiKeySecret } from '../../src/runtime/connection';
import { GROUPS_SETTING } from '../../src/runtime/groups';
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

/** A runtime over fresh add-in storage, reading this workbook's settings, its recalculations counted. */
function runtimeWith(settings: Record<string, unknown>, secrets = new MemorySecretStore()) {
  const recalculations: unknown[] = [];
  const runtime = createRuntime({
    cacheStore: new MemoryCacheStore(),
    meterStore: new MemoryMeterStore(),
    secrets,
    dateSystem: async () => 1900,
    recalculate: async (options) => {
      recalculations.push(options);
    },
    readWorkbookSetting: async (key) => settings[key],
  });
  return { runtime, recalculations };
}

async function connectBoth(r: Runtime): Promise<void> {
  await r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: a, name: 'North' });
  await r.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: 'West', makeDefault: false });
}

/** =FIN.PNL("Net Income", <the month>, , company) as a cell makes it. */
const netIncome = (company: string): FinCall => ({ name: 'PNL', args: ['Net Income', month.start.slice(0, 7), null, company], company });

/** The month's net income as the company's key reads it from the API, in cents. */
async function apiNetIncome(label: string): Promise<number> {
  const res = await call(sb, sb.keys[label], 'GET', `/reports/income_statement?start_date=${month.start}&end_date=${month.end}`);
  expect(res.status).toBe(200);
  return res.body.net_income_cents;
}

const cents = (units: number) => Math.round(units * 100);

test('a group naming one company four ways (spellings and its id) counts it once: the group is its companies, by company id', async () => {
  const { runtime } = runtimeWith({ [GROUPS_SETTING]: { Group: ['North', 'north', ' NORTH ', a, 'West'] } });
  await connectBoth(runtime);
  await runtime.acceptGroup('Group');
  const [north, west] = [await apiNetIncome('growth-admin'), await apiNetIncome('growth2-admin')];
  expect(north).not.toBe(0);
  expect(cents(await runtime.evaluateFin<number>(netIncome('Group'), {}))).toBe(north + west);
  // The review says the same: two companies, under their connections' names now.
  expect(await runtime.workbookGroups()).toEqual([
    {
      name: 'Group',
      entries: ['North', 'north', ' NORTH ', a, 'West'],
      companies: [
        { name: 'North', companyId: a },
        { name: 'West', companyId: b },
      ],
      missing: [],
      accepted: true,
    },
  ]);
});

test("a group is refused by the budget functions: each company's variance against the one budget would count the budget again", async () => {
  const { runtime } = runtimeWith({ [GROUPS_SETTING]: { Group: ['North', 'West'] } });
  await connectBoth(runtime);
  await runtime.acceptGroup('Group');
  const budget = [['', month.start.slice(0, 7)], ['Rent', 500]];
  for (const name of ['BUDGET', 'BUDGET_VARIANCE']) {
    const before = [await sb.usage(a), await sb.usage(b)];
    await expect(runtime.evaluateFin({ name, args: [budget, 'Rent', month.start.slice(0, 7), null, 'Group'], company: 'Group' }, {})).rejects.toMatchObject({
      code: 'group_budget',
      message: '"Group" is a group: a budget is compared with one company\'s figures, so name a company, not a group',
    });
    expect([await sb.usage(a), await sb.usage(b)]).toEqual(before);
  }
  // One company of it answers.
  expect(await runtime.evaluateFin({ name: 'BUDGET', args: [budget, 'Rent', month.start.slice(0, 7), null, 'West'], company: 'West' }, {})).toBe(500);
});

describe('companies that report in different currencies', () => {
  const setCurrency = (company: string, currency: string) => sb.running.ctx.db.prepare('UPDATE companies SET currency = ? WHERE id = ?').run(currency, company);
  afterEach(() => {
    setCurrency(b, 'USD');
  });

  test('a group of a USD and a EUR company is refused with what to do, as the consolidated statement refuses it', async () => {
    setCurrency(b, 'EUR');
    const { runtime } = runtimeWith({ [GROUPS_SETTING]: { Group: ['North', 'West'] } });
    await connectBoth(runtime);
    await runtime.acceptGroup('Group');
    await expect(runtime.evaluateFin(netIncome('Group'), {})).rejects.toMatchObject({
      code: 'group_currency',
      message:
        '"Group": North reports in USD, West reports in EUR. A group adds amounts in one currency, and neither the API nor the add-in converts them: group companies that report in the same currency',
    });
    // Each company alone still answers in its own currency.
    expect(cents(await runtime.evaluateFin<number>(netIncome('West'), {}))).toBe(await apiNetIncome('growth2-admin'));
  });
});

describe('groups a workbook brings', () => {
  test('a group named like a company that is not connected answers "Connect …" until accepted, and spends nothing', async () => {
    const { runtime, recalculations } = runtimeWith({ [GROUPS_SETTING]: { 'Bluebird Robotics': ['West'] } });
    await connectBoth(runtime);
    const before = await sb.usage(b);
    await expect(runtime.evaluateFin(netIncome('Bluebird Robotics'), {})).rejects.toMatchObject({
      code: 'connection_missing',
      message: expect.stringMatching(/^Connect "Bluebird Robotics" to fetch\. This workbook also has a group "Bluebird Robotics": /),
    });
    expect(await sb.usage(b)).toBe(before);
    expect(runtime.missingConnections()).toEqual(['Bluebird Robotics']);
    // The pane shows it for review with the company it would answer with.
    expect(await runtime.workbookGroups()).toEqual([{ name: 'Bluebird Robotics', entries: ['West'], companies: [{ name: 'West', companyId: b }], missing: [], accepted: false }]);

    // Accepted (the user's decision, with that shown): its figure, and the cells showing an error are recalculated.
    await runtime.acceptGroup('Bluebird Robotics');
    expect(recalculations).toEqual([{ errorsOnly: true }]);
    expect(cents(await runtime.evaluateFin<number>(netIncome('Bluebird Robotics'), {}))).toBe(await apiNetIncome('growth2-admin'));
  });

  test('acceptance is of the definition: the same group on another workbook needs none, a member added in the file needs it again', async () => {
    const secrets = new MemorySecretStore();
    const first = runtimeWith({ [GROUPS_SETTING]: { Group: ['North', 'West'] } }, secrets).runtime;
    await connectBoth(first);
    await first.acceptGroup('Group');
    const same = runtimeWith({ [GROUPS_SETTING]: { group: ['west', 'North'] } }, secrets).runtime;
    expect((await same.workbookGroups())[0].accepted).toBe(true);
    const edited = runtimeWith({ [GROUPS_SETTING]: { Group: ['North', 'West', 'Bluebird'] } }, secrets).runtime;
    const [review] = await edited.workbookGroups();
    expect(review).toMatchObject({ accepted: false, missing: ['Bluebird'] });
    await expect(edited.evaluateFin(netIncome('Group'), {})).rejects.toMatchObject({ code: 'connection_missing' });
  });

  test('a group named like a connection never answers for it, and cannot be accepted', async () => {
    const { runtime } = runtimeWith({ [GROUPS_SETTING]: { West: ['North'], [b]: ['North'] } });
    await connectBoth(runtime);
    const reviews = await runtime.workbookGroups();
    expect(reviews.map((g) => [g.name, g.shadowedBy])).toEqual([
      ['West', 'West'],
      [b, 'West'],
    ]);
    await expect(runtime.acceptGroup('West')).rejects.toThrow('"West" is the connection West here: formulas naming it read that company. Give the group another name.');
    expect(cents(await runtime.evaluateFin<number>(netIncome('West'), {}))).toBe(await apiNetIncome('growth2-admin'));
    expect(cents(await runtime.evaluateFin<number>(netIncome(b), {}))).toBe(await apiNetIncome('growth2-admin'));
  });
});

describe('an exact company id wins over a name', () => {
  test('a connection named after another company\'s id does not answer for that company', async () => {
    // As an earlier version could have stored them: West's connection named with North's company id.
    const secrets = new MemorySecretStore();
    await secrets.set(apiKeySecret(a), sb.keys['growth-admin']);
    await secrets.set(apiKeySecret(b), sb.keys['growth2-admin']);
    await secrets.set(
      CONNECTIONS_SECRET,
      JSON.stringify({
        defaultName: 'North',
        list: [
          { name: 'North', baseUrl: sb.baseUrl, companyId: a },
          { name: a, baseUrl: sb.baseUrl, companyId: b },
        ],
      }),
    );
    const { runtime } = runtimeWith({}, secrets);
    expect(cents(await runtime.evaluateFin<number>(netIncome(a), {}))).toBe(await apiNetIncome('growth-admin'));
  });

  test('connecting under a name that reads as a company id is refused, with what to do', async () => {
    const { runtime } = runtimeWith({});
    await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: a, name: 'North' });
    const refused = runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth2-admin'], companyId: b, name: a, makeDefault: false });
    await expect(refused).rejects.toThrow(ConnectionNameTaken);
    await expect(refused).rejects.toThrow(`"${a}" reads as a company id (comp_…), and formulas take a company id for that company: pick another name`);
    expect((await runtime.listConnections()).list.map((c) => c.name)).toEqual(['North']);
  });
});
