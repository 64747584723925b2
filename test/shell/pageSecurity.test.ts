import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { apiConnectSources, apiOrigin, contentSecurityPolicy, officeCorsHeaders, OFFICE_JS_ORIGIN, SANDBOX_ORIGINS } from '../../scripts/page-security';

// The pages' Content-Security-Policy (own origin, office.js's origin, the configured API origin) and the
// dev server's CORS (Excel on the web only, never *), as webpack.config.js builds them.

const ROOT = path.resolve(__dirname, '..', '..');

interface BuildView {
  /** The CSP of each page, by HTML file name. */
  pages: Record<string, string>;
  /** The dev server's CORS headers for each origin asked about. */
  cors: Record<string, Record<string, string>>;
  /** The sandbox address each compilation was built with (DefinePlugin), by compilation name. */
  sandbox: Record<string, string | null>;
  /** The API base URL each compilation offers (DefinePlugin), by compilation name. */
  api: Record<string, string | null>;
  error?: string;
}

const ORIGINS = ['https://excel.officeapps.live.com', 'https://evil.example', 'https://officeapps.live.com.evil.example', 'http://excel.officeapps.live.com', ''];

/**
 * What webpack.config.js makes of `env`, read in a plain Node process: webpack's own modules do not load
 * under jest's pinned clock (test/support/pinnedClock.js).
 */
function inspectBuild(env: Record<string, unknown>, mode = 'production'): BuildView {
  const script = `
    const configure = require(${JSON.stringify(path.join(ROOT, 'webpack.config.js'))});
    configure(${JSON.stringify(env)}, { mode: ${JSON.stringify(mode)} }).then((result) => {
      const view = { pages: {}, cors: {}, sandbox: {}, api: {} };
      for (const config of [result].flat()) {
        for (const plugin of config.plugins || []) {
          const o = plugin.userOptions;
          if (o && o.templateParameters && o.templateParameters.csp) view.pages[o.filename] = o.templateParameters.csp;
          if (plugin.definitions) view.sandbox[config.name || 'addin'] = plugin.definitions.__SANDBOX_BASE_URL__ || null;
          if (plugin.definitions) view.api[config.name || 'addin'] = plugin.definitions.__API_BASE_URL__ || null;
        }
        const headers = config.devServer && config.devServer.headers;
        if (typeof headers === 'function') for (const origin of ${JSON.stringify(ORIGINS)}) view.cors[origin] = headers({ headers: { origin: origin || undefined } });
      }
      console.log(JSON.stringify(view));
    }, (e) => console.log(JSON.stringify({ pages: {}, cors: {}, sandbox: {}, api: {}, error: e.message })));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as BuildView;
}

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

/** The CSP each page of a build gets, as directives, by HTML file name. */
function pagePolicies(env: Record<string, unknown>, mode = 'production'): Record<string, Record<string, string[]>> {
  const view = inspectBuild(env, mode);
  if (view.error) throw new Error(view.error);
  return Object.fromEntries(Object.entries(view.pages).map(([file, csp]) => [file, directives(csp)]));
}

describe('Content-Security-Policy of the pages', () => {
  it('allows only the own origin, office.js and the configured API for a team build', () => {
    const pages = pagePolicies({ url: 'https://reports.example.com/excel/', api: 'https://api.example.com/api/v1', officejs: 'cdn' });
    const pane = pages['taskpane.html'];
    expect(pane['default-src']).toEqual(["'self'"]);
    expect(pane['script-src']).toEqual(["'self'", OFFICE_JS_ORIGIN]);
    expect(pane['connect-src']).toEqual(["'self'", 'https://api.example.com']);
    expect(pane['object-src']).toEqual(["'none'"]);
    for (const values of Object.values(pane)) {
      expect(values).not.toContain('*');
      expect(values).not.toContain("'unsafe-eval'");
    }
    expect(pages['workbench.html']).toBeUndefined();
  });

  it('a local build calls the sandbox; the dev build and the workbench any loopback port', () => {
    expect(pagePolicies({})['taskpane.html']['connect-src']).toEqual(["'self'", ...SANDBOX_ORIGINS]);
    const dev = pagePolicies({ workbench: true }, 'development');
    expect(dev['taskpane.html']['connect-src']).toEqual(["'self'", ...SANDBOX_ORIGINS]);
    expect(dev['taskpane.html']['script-src']).not.toContain("'unsafe-eval'");
    expect(dev['workbench.html']['connect-src']).toEqual(["'self'", 'http://127.0.0.1:*', 'http://localhost:*', 'https://127.0.0.1:*', 'https://localhost:*']);
    expect(dev['workbench.html']['script-src']).toEqual(["'self'"]);
  });

  it('a team build behind a same-origin relay (--env api=/api/v1) lets the page call its own origin only', () => {
    const pages = pagePolicies({ url: 'https://reports.example.com/excel/', api: '/api/v1', workbench: true });
    expect(pages['taskpane.html']['connect-src']).toEqual(["'self'"]);
    expect(pages['taskpane.html']['script-src']).toEqual(["'self'", OFFICE_JS_ORIGIN]);
    expect(apiConnectSources('/finance/api/v1')).toEqual([]);
    expect(apiConnectSources('https://api.example.com/api/v1')).toEqual(['https://api.example.com']);
    for (const bad of ['//evil.example/api/v1', '/\\evil.example/api/v1', '/api/v2', '/api/v1?x=1', 'api/v1']) {
      expect(inspectBuild({ url: 'https://reports.example.com/excel/', api: bad }).error).toMatch(/\/api\/v1/);
    }
  });

  it('refuses a team build that does not say which API it calls, or an API over plain http', () => {
    expect(inspectBuild({ url: 'https://reports.example.com/excel/' }).error).toMatch(/--env api=/);
    expect(() => apiOrigin('http://api.example.com/api/v1')).toThrow(/https/);
    expect(apiOrigin('http://127.0.0.1:4010/api/v1')).toBe('http://127.0.0.1:4010');
  });

  it('is the first thing in <head> of both templates, after the charset', () => {
    for (const file of ['src/taskpane/taskpane.html', 'src/workbench/workbench.html']) {
      // HtmlWebpackPlugin fills <%= name %> from templateParameters.
      const params: Record<string, string> = { csp: contentSecurityPolicy({}), officeJsSrc: 'office-js/office.js' };
      const html = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/<%= (\w+) %>/g, (_, name: string) => params[name]);
      const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
      const tags = head.match(/<(meta|script|link|style)\b[^>]*>/g) ?? [];
      expect(tags[0]).toMatch(/<meta charset/);
      expect(tags[1]).toBe(`<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({})}" />`);
    }
  });
});

describe('the dev server answers CORS to Excel on the web only', () => {
  it('never with *', () => {
    const { cors } = inspectBuild({}, 'development');
    expect(cors['https://excel.officeapps.live.com']['Access-Control-Allow-Origin']).toBe('https://excel.officeapps.live.com');
    for (const origin of ORIGINS.slice(1)) {
      expect(cors[origin]).toEqual({ Vary: 'Origin' });
    }
    expect(officeCorsHeaders('https://inc-excel.officeapps.live.com')).toMatchObject({ Vary: 'Origin', 'Access-Control-Allow-Origin': 'https://inc-excel.officeapps.live.com' });
  });
});

describe('the base URL the Connect screen offers', () => {
  it("is the build's API, a full URL or a relay path, in the pane and the workbench; the sandbox without one", () => {
    expect(inspectBuild({ workbench: true, api: '/api/v1' }).api).toEqual({ addin: '"/api/v1"', workbench: '"/api/v1"' });
    expect(inspectBuild({ api: 'https://api.example.com/api/v1' }).api).toEqual({ addin: '"https://api.example.com/api/v1"' });
    expect(inspectBuild({ workbench: true }, 'development').api).toEqual({ addin: null, workbench: null });
  });
});

describe('the sandbox address the pages offer (npm start: the https sandbox on macOS)', () => {
  it('is built into the pane and the workbench when given, and left to the default otherwise', () => {
    const given = inspectBuild({ workbench: true, sandbox: 'https://localhost:4011/api/v1' }, 'development');
    expect(given.sandbox).toEqual({ addin: '"https://localhost:4011/api/v1"', workbench: '"https://localhost:4011/api/v1"' });
    expect(inspectBuild({ workbench: true }, 'development').sandbox).toEqual({ addin: null, workbench: null });
    expect(inspectBuild({ sandbox: 'https://api.example.com/api/v1' }).error).toMatch(/local sandbox/);
  });
});
