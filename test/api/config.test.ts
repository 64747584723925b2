import util from 'node:util';
import { ConfigError, createClient, isLoopbackHost, validateApiKey, validateBaseUrl } from '../../src/api';

const KEY = 'svc_validKey_123';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('base URL', () => {
  it.each([
    'https://api.example.com/api/v1',
    'https://api.example.com/api/v1/',
    'https://api.example.com:8443/prefix/api/v1',
    'http://127.0.0.1:4010/api/v1',
    'http://127.8.9.10/api/v1',
    'http://localhost:4010/api/v1',
    'http://[::1]:4010/api/v1',
  ])('accepts %s', (url) => {
    expect(validateBaseUrl(url)).toBe(url.replace(/\/$/, ''));
  });

  it.each([
    ['http on a public host', 'http://api.example.com/api/v1'],
    ['http on a private LAN address', 'http://192.168.1.10/api/v1'],
    ['http on 0.0.0.0', 'http://0.0.0.0/api/v1'],
    ['http on a look-alike of localhost', 'http://localhost.evil.com/api/v1'],
    ['http on 128.0.0.1', 'http://128.0.0.1/api/v1'],
    ['missing /api/v1', 'https://api.example.com'],
    ['another version', 'https://api.example.com/api/v2'],
    ['/api/v1 not at the end', 'https://api.example.com/api/v1/transactions'],
    ['a query string', 'https://api.example.com/api/v1?x=1'],
    ['a fragment', 'https://api.example.com/api/v1#x'],
    ['credentials', 'https://user:pw@api.example.com/api/v1'],
    ['another scheme', 'ftp://api.example.com/api/v1'],
    ['not a URL', 'api.example.com/api/v1'],
    ['empty', ''],
  ])('rejects %s', (_label, url) => {
    expect(configError(() => validateBaseUrl(url)).field).toBe('baseUrl');
  });

  describe('a path on the page\'s own address (a same-origin relay of the API)', () => {
    it.each([
      ['/api/v1', 'https://reports.example.com', 'https://reports.example.com/api/v1'],
      ['/api/v1/', 'https://reports.example.com:8443', 'https://reports.example.com:8443/api/v1'],
      ['/finance/api/v1', 'https://reports.example.com', 'https://reports.example.com/finance/api/v1'],
      ['/api/v1', 'http://127.0.0.1:5000', 'http://127.0.0.1:5000/api/v1'],
    ])('resolves %s against %s', (path, origin, expected) => {
      expect(validateBaseUrl(path, origin)).toBe(expected);
    });

    it.each([
      ['a path on another host (//)', '//evil.example/api/v1'],
      ['a path on another host (/\\)', '/\\evil.example/api/v1'],
      ['a path not ending in /api/v1', '/api/v2'],
      ['a path with a query', '/api/v1?x=1'],
    ])('rejects %s', (_label, path) => {
      expect(configError(() => validateBaseUrl(path, 'https://reports.example.com')).field).toBe('baseUrl');
    });

    it('keeps the https rule: a page served over plain http off this computer cannot use a path', () => {
      expect(configError(() => validateBaseUrl('/api/v1', 'http://reports.example.com')).message).toMatch(/https/);
    });

    it('needs a page: outside a browser a path is refused with a message that says to give the full URL', () => {
      expect(configError(() => validateBaseUrl('/api/v1', null)).message).toMatch(/full URL/);
      // Jest runs these tests in Node, where there is no page.
      expect(configError(() => validateBaseUrl('/api/v1')).message).toMatch(/full URL/);
    });

    it('a client made with a path sends to the page\'s origin only, as an absolute base URL', () => {
      const client = createClient({ baseUrl: '/api/v1', apiKey: KEY, pageOrigin: 'https://reports.example.com' });
      expect(client.baseUrl).toBe('https://reports.example.com/api/v1');
      configError(() => createClient({ baseUrl: '//evil.example/api/v1', apiKey: KEY, pageOrigin: 'https://reports.example.com' }));
    });
  });

  it('knows loopback', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.255.255.254')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('127.0.0.256')).toBe(false);
  });
});

describe('API key', () => {
  it('accepts svc_ keys unchanged, including future typed prefixes', () => {
    expect(validateApiKey(KEY)).toBe(KEY);
    expect(validateApiKey('svc_restricted_abc123')).toBe('svc_restricted_abc123');
  });

  it.each([
    ['no prefix', 'sk_live_abc'],
    ['prefix in another case', 'SVC_abc'],
    ['only the prefix', 'svc_'],
    ['a leading space', ' svc_abc'],
    ['a trailing newline', 'svc_abc\n'],
    ['an inner space', 'svc_ab c'],
    ['non-ASCII', 'svc_abcé'],
    ['empty', ''],
  ])('rejects a key with %s, without quoting it', (_label, key) => {
    const err = configError(() => validateApiKey(key));
    expect(err.field).toBe('apiKey');
    if (key.length > 4) expect(err.message).not.toContain(key.trim());
  });

  it('createClient validates both and never quotes the key', () => {
    const secret = 'svc_TOPSECRET but bad';
    const err = configError(() => createClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: secret }));
    expect(JSON.stringify(err) + String(err) + err.stack).not.toContain('TOPSECRET');
    configError(() => createClient({ baseUrl: 'http://api.example.com/api/v1', apiKey: KEY }));
    configError(() => createClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: KEY, maxConcurrent: 0 }));
  });

  it('does not expose the key on the client object', () => {
    const client = createClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: 'svc_NEVER_SHOWN_123' });
    expect(util.inspect(client, { depth: 8, showHidden: true, getters: true })).not.toContain('NEVER_SHOWN');
    expect(JSON.stringify(client)).not.toContain('NEVER_SHOWN');
    expect(client.baseUrl).toBe('https://api.example.com/api/v1');
  });
});
