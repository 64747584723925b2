// The gateway's small rules, read from the contract and the spec: what may be shared, how fresh a request
// asks, and a configuration that is refused at start rather than served with a default nobody chose.
import { shareableArea } from '../../src/gateway/areas';
import { configFromEnv } from '../../src/gateway/config';
import { requestFreshness } from '../../src/gateway/freshness';

const area = (method: string, pathAndQuery: string) => {
  const [path, query = ''] = pathAndQuery.split('?');
  return shareableArea(method, path, new URLSearchParams(query));
};

test.each([
  ['GET', '/company', 'company'],
  ['GET', '/team', 'team'],
  ['GET', '/categories', 'accounting_setup'],
  ['GET', '/rules/rule_abc', 'accounting_setup'],
  ['GET', '/integrations', 'integrations'],
  ['GET', '/reports/income_statement?start_date=2026-01-01', 'reports'],
  ['GET', '/aggregations/total?category_id=cat_1', 'reports'],
  ['GET', '/journal_entries/je_1', 'reports'],
  ['GET', '/parties/merchants', 'reports'],
  ['GET', '/transactions?limit=500', 'transactions'],
  ['GET', '/cards?account_id=acct_1', 'transactions'],
])('%s %s is shared under the %s area', (method, url, expected) => {
  expect(area(method, url)).toBe(expected);
});

test.each([
  ['GET', '/transactions?updated_after=0'],
  ['GET', '/transactions?limit=500&updated_after=1767225600&starting_after=abc'],
  ['GET', '/jobs/job_1'],
  ['GET', '/integrations/bank/connect'],
  ['GET', '/something_new'],
  ['GET', '/'],
  ['POST', '/accounts'],
  ['PATCH', '/transactions/txn_1'],
  ['DELETE', '/rules/rule_1'],
  ['HEAD', '/company'],
])('%s %s is never shared', (method, url) => {
  expect(area(method, url)).toBeNull();
});

test.each([
  [undefined, { kind: 'no-cache' }],
  ['', { kind: 'no-cache' }],
  ['no-cache', { kind: 'no-cache' }],
  ['max-age=600, no-cache', { kind: 'no-cache' }],
  ['no-store', { kind: 'no-cache' }],
  ['max-age=600', { kind: 'max-age', seconds: 600 }],
  ['MAX-AGE=31536000', { kind: 'max-age', seconds: 31536000 }],
  ['max-age=60, max-age=30', { kind: 'max-age', seconds: 30 }],
  ['max-age=-1', { kind: 'no-cache' }],
  ['max-age=soon', { kind: 'no-cache' }],
  ['private', { kind: 'no-cache' }],
])('Cache-Control %p asks %p', (header, expected) => {
  expect(requestFreshness(header)).toEqual(expected);
});

describe('configuration', () => {
  const base = { GATEWAY_UPSTREAM: 'http://127.0.0.1:4010/api/v1/' };
  test('defaults: in-process, a 300 s window, a secret made at start (and said so)', () => {
    const c = configFromEnv(base);
    expect(c.upstream.href).toBe('http://127.0.0.1:4010/api/v1');
    expect(c.redisUrl).toBeUndefined();
    expect(c.accessWindowSeconds).toBe(300);
    expect(c.secretGenerated).toBe(true);
    expect(c.secret.length).toBe(32);
  });
  test.each([
    [{}, /GATEWAY_UPSTREAM is required/],
    [{ GATEWAY_UPSTREAM: 'api.example.com' }, /not a URL/],
    [{ GATEWAY_UPSTREAM: 'ftp://api.example.com/api/v1' }, /http or https/],
    [{ ...base, GATEWAY_ACCESS_WINDOW_SECONDS: '5m' }, /GATEWAY_ACCESS_WINDOW_SECONDS must be an integer/],
    [{ ...base, GATEWAY_PORT: '70000' }, /GATEWAY_PORT/],
    [{ ...base, GATEWAY_SECRET: 'short' }, /at least 32 characters/],
  ])('%p is refused', (env, message) => {
    expect(() => configFromEnv(env as NodeJS.ProcessEnv)).toThrow(message);
  });
});
