// The production manifest rewrite: every development URL in manifest.xml (under https://localhost:3000/) is
// replaced by the URL where dist/ is hosted. Pure functions, used by webpack.config.js and the shell tests.
'use strict';

const DEV_BASE = 'https://localhost:3000/';
const DEV_ORIGIN = 'https://localhost:3000';

/**
 * Checks and normalises the hosting URL given as `--env url=...`: absolute https, no query or fragment, and
 * ending with a slash (the folder that holds taskpane.html). Throws with a plain message otherwise.
 */
function normalizeBaseUrl(input) {
  let url;
  try {
    url = new URL(String(input));
  } catch {
    throw new Error(`The add-in URL "${input}" is not an absolute URL (expected e.g. https://example.com/addin/).`);
  }
  if (url.protocol !== 'https:') {
    throw new Error(`The add-in URL "${input}" must use https: Office loads add-ins only over https.`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`The add-in URL "${input}" must not carry a query, fragment or credentials.`);
  }
  if (/^(localhost|127\.0\.0\.1|\[::1\])$/i.test(url.hostname)) {
    throw new Error(`The add-in URL "${input}" points at this machine; give the URL your team will load it from.`);
  }
  let href = url.href;
  if (!href.endsWith('/')) href += '/';
  return href;
}

/**
 * Returns the manifest XML with every https://localhost:3000/... URL moved under `baseUrl`, and bare
 * https://localhost:3000 origins (AppDomain) replaced by the new origin. Throws if anything still points at
 * localhost afterwards, so a forgotten URL fails the build instead of shipping.
 */
function rewriteManifestUrls(xml, baseUrl) {
  const base = normalizeBaseUrl(baseUrl);
  const origin = new URL(base).origin;
  const out = xml.split(DEV_BASE).join(base).split(DEV_ORIGIN).join(origin);
  const left = out.match(/https?:\/\/(localhost|127\.0\.0\.1)[^\s"'<]*/i);
  if (left) throw new Error(`manifest.xml still points at ${left[0]} after the rewrite.`);
  return out;
}

/** The XML without its comments (the development notes have no place in a deployed manifest). */
function stripXmlComments(xml) {
  return xml.replace(/[ \t]*<!--[\s\S]*?-->[ \t]*\r?\n?/g, '');
}

module.exports = { DEV_BASE, DEV_ORIGIN, normalizeBaseUrl, rewriteManifestUrls, stripXmlComments };
