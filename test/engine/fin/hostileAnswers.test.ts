// FIN functions against a server whose answers are not what the API promises: a JSON null body, or an
// object where the API documents text. Each settles as #N/A with code invalid_response; nothing of the
// answer reaches a cell. The real client over real HTTP (a fake server), wired as the runtime wires it.
import { page, rel, startFakeApi, type FakeApi, type Reply } from '../../api/helpers/fakeApi';
import { finError, finOverFakeApi } from './finOverFakeApi';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(async () => {
  await api.close();
});

const CATEGORIES = [
  { id: 'cat_rev', object: 'category', name: 'Revenue', account_type: 'revenue', point_in_time: false, tier: 1, position: 1, parent_id: null },
  { id: 'cat_soft', object: 'category', name: 'Software', account_type: 'expense', point_in_time: false, tier: 1, position: 2, parent_id: null },
];

/** Good categories; `answers` decides every other path. */
function serve(answers: Record<string, () => Reply>) {
  api.setHandler((req) => {
    const path = rel(req);
    if (path === '/categories') return { status: 200, body: { object: 'list', url: '/api/v1/categories', data: CATEGORIES } };
    const answer = answers[path];
    return answer ? answer() : { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'no' } } };
  });
}



const service = () => finOverFakeApi(api);

describe('answers the API never gives settle as #N/A invalid_response', () => {
  it('FIN.TOTAL and FIN.PNL on a JSON null body', async () => {
    serve({ '/aggregations/total': () => ({ status: 200, body: 'null' }), '/reports/income_statement': () => ({ status: 200, body: 'null' }) });
    const fin = service();
    expect(await finError(fin.total({ category: 'Revenue', start: '2026-01' }))).toMatchObject({ kind: 'na', code: 'invalid_response' });
    expect(await finError(fin.pnl({ line: 'Net Income', start: '2026-01' }))).toMatchObject({ kind: 'na', code: 'invalid_response' });
  });

  it('FIN.TRANSACTIONS when a merchant is an object', async () => {
    const row = { id: 'txn_1', object: 'transaction', date: '2026-01-02', accounting_date: null, amount_cents: -500, currency: 'USD', merchant: { formula: '=1+1' }, status: 'approved' };
    serve({ '/transactions': () => ({ status: 200, body: page('/transactions', [row], null) }) });
    expect(await finError(service().transactions({ start: '2026-01' }))).toMatchObject({ kind: 'na', code: 'invalid_response' });
  });

  it('FIN.MERCHANTS when a name is an object', async () => {
    serve({ '/parties/merchants': () => ({ status: 200, body: page('/parties/merchants', [{ object: 'merchant', name: 'Acme' }, { object: 'merchant', name: { a: 1 } }], null) }) });
    expect(await finError(service().merchants({ category: 'Software' }))).toMatchObject({ kind: 'na', code: 'unreadable_answer' });
  });

  it('FIN.BALANCE_SHEET when the currency is an object', async () => {
    serve({ '/reports/balance_sheet': () => ({ status: 200, body: { object: 'balance_sheet', date: '2026-06-30', currency: { code: 'USD' } } }) });
    expect(await finError(service().balanceSheet({ date: '2026-06-30' }))).toMatchObject({ kind: 'na', code: 'invalid_response' });
  });
});
