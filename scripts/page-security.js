// What the add-in's pages may load and call, and whom the dev server lets read its files. Pure functions,
// used by webpack.config.js and the shell tests.
//
// The pages hold the API key in memory, so a script that got into one must not be able to send it anywhere:
// the Content-Security-Policy allows the page's own origin, Microsoft's office.js origin and the API origin
// the build was configured with, nothing else. It is a <meta> tag first in <head>, so it holds wherever the
// files are hosted (the dev server, a static host, object storage).
'use strict';

const OFFICE_JS_ORIGIN = 'https://appsforoffice.microsoft.com';

/** The local sandbox, over http and over https (src/sandbox/server.ts DEFAULT_PORT, DEFAULT_HTTPS_PORT). */
const SANDBOX_ORIGINS = ['http://127.0.0.1:4010', 'https://localhost:4011'];

/** Any port on this computer: the workbench and the dev server talk to sandboxes on any loopback port. */
const LOOPBACK_ANY_PORT = ['http://127.0.0.1:*', 'http://localhost:*', 'https://127.0.0.1:*', 'https://localhost:*'];

const LOOPBACK_NAME = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/**
 * The origin of the API base URL given as `--env api=...`: https, or http on this computer (the client's own
 * rule, src/api/config.ts). Throws with a plain message otherwise.
 */
function apiOrigin(input) {
  let url;
  try {
    url = new URL(String(input));
  } catch {
    throw new Error(`The API URL "${input}" is not an absolute URL (expected e.g. https://api.example.com/api/v1).`);
  }
  const loopback = LOOPBACK_NAME.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error(`The API URL "${input}" must use https (http only on this computer).`);
  }
  return url.origin;
}

/**
 * `--env api=/api/v1`: a path on the add-in's own address, where a relay passes the calls on to the API
 * (docs/deploying-for-a-team.md). Segments are never empty, so "//host/..." (another host) cannot pass.
 */
const RELAY_PATH = /^(\/[^/?#\\\s]+)*\/api\/v1\/?$/;

/**
 * What the pages may call for `--env api=...` besides their own origin: the API's origin, or nothing for a
 * relay path (the calls stay on the page's origin, which 'self' allows). Throws with a plain message when
 * it is neither.
 */
function apiConnectSources(input) {
  if (!String(input).startsWith('/')) return [apiOrigin(input)];
  if (!RELAY_PATH.test(input)) {
    throw new Error(`The API path "${input}" must be a path on the add-in's own address ending in /api/v1 (e.g. /api/v1).`);
  }
  return [];
}

/**
 * The policy of one page.
 * - `connect`: origins the page may call besides its own (the API, the sandbox).
 * - `officeJs`: the page loads office.js (the add-in's page; the workbench does not).
 * - `devSocket`: the dev server's live-reload socket (wss://localhost:3000), when served by it.
 * Styles allow 'unsafe-inline': Fluent UI writes its styles into <style> elements at run time. No
 * 'unsafe-eval' anywhere: the development builds use a source map that needs no eval.
 */
function contentSecurityPolicy({ connect = [], officeJs = true, devSocket = null } = {}) {
  const scripts = ["'self'", ...(officeJs ? [OFFICE_JS_ORIGIN] : [])];
  const connections = ["'self'", ...connect, ...(devSocket ? [devSocket] : [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connections)].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Excel on the web fetches functions.json from its own origin, *.officeapps.live.com, so the dev server
 * answers those origins with CORS, and nobody else: no Access-Control-Allow-Origin: *.
 */
function officeCorsHeaders(origin) {
  const headers = { Vary: 'Origin' };
  if (typeof origin === 'string' && /^https:\/\/([a-z0-9-]+\.)*officeapps\.live\.com$/i.test(origin)) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Allow-Methods'] = 'GET, HEAD, OPTIONS';
  }
  return headers;
}

module.exports = { OFFICE_JS_ORIGIN, SANDBOX_ORIGINS, LOOPBACK_ANY_PORT, apiOrigin, apiConnectSources, contentSecurityPolicy, officeCorsHeaders };
