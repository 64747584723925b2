// Issue 35, item 1: a drill-down over an API whose journal lines carry their department in a form the client
// does not read (here, the department's name): the Department column cannot be filled, and the drill-down
// says so instead of showing a blank column that reads as "no department". Real client over real HTTP (a
// fake server), as the runtime wires it.
import { createClient } from '../../src/api';
import { CachedReader } from '../../src/engine/reader/cachedReader';
import { RequestCache } from '../../src/engine/reader/requestCache';
import { createTransactionsEngine } from '../../src/engine/transactions';
import { MemoryGateway, MemorySecretStore } from '../../src/excel/memoryGateway';
import { errorBody, page, rel, startFakeApi, TEST_KEY, type FakeApi } from '../api/helpers/fakeApi';
import { MemoryCacheStore } from '../support/memoryCacheStore';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const CATEGORIES = [
  { id: 'cat_travel', object: 'category', name: 'Travel', account_type: 'expense', point_in_time: false, tier: 1, position: 1, parent_id: null },
  { id: 'cat_cash', object: 'category', name: 'Cash', account_type: 'asset', point_in_time: true, tier: 1, position: 2, parent_id: null },
];
const DEPARTMENTS = [{ id: 'dept_gtm', object: 'department', name: 'Go-to-Market', tier: 1, parent_id: null, assignable: true }];
const entry = (id: string, department: Record<string, unknown>, cents: number) => ({
  id,
  object: 'journal_entry',
  date: '2026-03-10',
  transaction_id: `txn_${id}`,
  kind: 'transaction',
  memo: 'Acme Air',
  created: 1,
  lines: [
    { category_id: 'cat_travel', debit_cents: cents, credit_cents: 0, ...department },
    { category_id: 'cat_cash', debit_cents: 0, credit_cents: cents, department_id: null },
  ],
});

function serve(lines: Record<string, unknown>[]) {
  api.setHandler((req) => {
    switch (rel(req)) {
      case '/categories':
        return { status: 200, body: page('/categories', CATEGORIES, null) };
      case '/departments':
        return { status: 200, body: page('/departments', DEPARTMENTS, null) };
      case '/journal_entries':
        return { status: 200, body: page('/journal_entries', lines.map((d, i) => entry(`je_${i}`, d, 1000 * (i + 1))), null) };
      case '/reports/income_statement': {
        const total = -1000 * ((lines.length * (lines.length + 1)) / 2);
        const section = { total_cents: total, categories: [{ category_id: 'cat_travel', name: 'Travel', amount_cents: total, position: 1, parent_category_id: null }] };
        return { status: 200, body: { object: 'income_statement', start_date: req.query.get('start_date'), end_date: req.query.get('end_date'), currency: 'USD', revenue: { total_cents: 0, categories: [] }, expenses: section, non_operating_income: { total_cents: 0, categories: [] }, operating_income_cents: total, net_income_cents: total } };
      }
      default:
        return { status: 404, body: errorBody('invalid_request_error', 'resource_missing', 'no') };
    }
  });
}

async function drill() {
  const client = createClient({ baseUrl: api.baseUrl, apiKey: TEST_KEY, companyId: 'comp_1', sleep: async () => undefined });
  const store = new MemoryCacheStore();
  const reader = new CachedReader({ client, cache: new RequestCache(store), stateStore: store });
  const gateway = new MemoryGateway();
  const engine = createTransactionsEngine({ client, reader, gateway, journal: new MemorySecretStore(), owner: { keyFingerprint: 'f', label: 'me' } });
  const res = await engine.drillDown({ categoryId: 'cat_travel', start: '2026-03-01', end: '2026-03-31' });
  const departments = (await gateway.readTable(res.table)).rows.map((row) => row[4]);
  return { note: res.note, departments };
}

test('lines whose department is a name: the Department column is empty and the drill-down says why', async () => {
  serve([{ department: 'Go-to-Market' }, { department: 'Go-to-Market' }]);
  const { note, departments } = await drill();
  expect(departments.every((d) => d === null || d === '')).toBe(true);
  expect(note).toMatch(/The API's journal lines carry their department in a form this add-in does not read \(2 of 2 lines\): their Department is left empty, which does not mean none\.$/);
});

test('lines with department_id, or a department object: the column filled, and nothing to say', async () => {
  serve([{ department_id: 'dept_gtm' }, { department: { object: 'department', id: 'dept_gtm' } }]);
  const { note, departments } = await drill();
  expect(departments).toEqual(['Go-to-Market', 'Go-to-Market']);
  expect(note).not.toMatch(/department/i);
});
