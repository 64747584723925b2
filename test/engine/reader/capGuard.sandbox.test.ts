// The monthly-cap guard holds on every path that spends calls, not only the FIN cells': once the API has
// refused a call for the cap, inserting a statement block, pulling or refreshing a transactions table and
// drilling down send nothing (counted at the fetch) until the reset, and a reopened workbook knows it.
import { MonthlyLimitError } from '../../../src/api';
import { createStatementsEngine } from '../../../src/engine/statements';
import { createTransactionsEngine } from '../../../src/engine/transactions';
import { MemoryGateway, MemorySecretStore } from '../../../src/excel/memoryGateway';
import { testRuntime, type RuntimeStores } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

/** The add-in's runtime on the Formation key (over the stores of an earlier one: the workbook reopened). */
async function connection(stores?: RuntimeStores) {
  const { client, reader, sent, stores: kept } = await testRuntime(sb, { label: 'formation-admin', stores });
  const gateway = new MemoryGateway();
  return {
    client,
    reader,
    stores: kept,
    statements: createStatementsEngine({ gateway, reader, client, companyName: 'Formation' }),
    transactions: createTransactionsEngine({ client, reader, journal: new MemorySecretStore(), owner: { keyFingerprint: 'test', label: 'Test' }, gateway }),
    sent,
  };
}

test('after the cap answers, statements, transactions and drill-down send nothing, before and after a reopen', async () => {
  const c = await connection();
  const company = sb.companies['formation-admin'];
  // Spend the Formation plan's 10 calls, then meet the refusal once.
  for (let i = 0; i < 10; i++) await c.reader.call('/company', (o) => c.client.company.retrieve(o));
  await expect(c.reader.call('/company', (o) => c.client.company.retrieve(o))).rejects.toBeInstanceOf(MonthlyLimitError);
  expect(await sb.usage(company)).toBe(10);
  const sentAtCap = c.sent();

  const spec = { statement: 'income_statement', period: 'last_month', start: '2026-10-01', end: '2026-10-31', layout: 'single', scale: 'units', fiscalYearStartMonth: 1 } as const;
  await expect(c.statements.insert(spec, 'newSheet')).rejects.toMatchObject({ code: 'monthly_limit_exceeded', status: null });
  await expect(c.transactions.pull({ start_date: '2026-10-01', end_date: '2026-10-31' })).rejects.toMatchObject({ code: 'monthly_limit_exceeded', status: null });
  await expect(
    c.transactions.drillDown({ categoryId: 'cat_anything', start: '2026-10-01', end: '2026-10-31' }),
  ).rejects.toMatchObject({ code: 'monthly_limit_exceeded', status: null });
  expect(c.sent()).toBe(sentAtCap);

  // The workbook reopened: a new runtime over the same add-in storage refuses without asking.
  const reopened = await connection(c.stores);
  await expect(reopened.statements.insert(spec, 'newSheet')).rejects.toMatchObject({ code: 'monthly_limit_exceeded' });
  await expect(reopened.transactions.pull({})).rejects.toMatchObject({ code: 'monthly_limit_exceeded' });
  expect(reopened.sent()).toBe(0);
  expect(await sb.usage(company)).toBe(10);
});
