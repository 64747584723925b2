// Why a call from the add-in's page got no answer at all: nothing answered at the address, or the API
// answered and the browser withheld its answer from the page because it sends no CORS headers for the
// page's origin. fetch rejects with the same TypeError in both cases (the browser tells the page nothing
// more, on purpose), so the message cannot come from the failure itself.
//
// The two are told apart by asking the same address once more in no-cors mode. Such a request carries no
// key and no header of ours (no-cors allows none), so it needs no preflight and the API answers it like any
// unauthenticated request (a 401, which the API does not count against the monthly cap). The browser
// resolves it with an opaque response (type "opaque", status 0, no body) whenever a server answered,
// whatever its CORS headers, and rejects only when nothing answered (connection refused or reset, a TLS or
// DNS failure) or when the page's own Content-Security-Policy forbids the address. Chromium (Edge's
// WebView2, Chrome) resolves it even for a JSON answer that its opaque-response blocking withholds; should
// a browser reject such an answer instead, the probe says "no answer" and the pane shows the message it
// showed before: it can miss a block, never invent one.
//
// Only a cross-origin address can be blocked this way: a relay on the page's own origin (/api/v1) is
// same-origin, and a relay whose API is down answers itself (502).

/** How long the probe waits for any answer before calling it none. */
export const PROBE_TIMEOUT_MS = 10_000;

export type Unreachable =
  /** A server answered, the browser kept the answer from the page (no CORS headers for its origin). */
  | 'blocked_by_cors'
  /** Nothing answered, the page may not call the address, or there is no page to tell (outside a browser). */
  | 'no_answer';

/**
 * Asks `baseUrl` (absolute, validated) once in no-cors mode, without the key, after a call to it failed
 * with no answer. `pageOrigin` is the page's own origin (null outside a browser).
 */
export async function whyNoAnswer(baseUrl: string, options: { fetch: typeof fetch; pageOrigin: string | null }): Promise<Unreachable> {
  if (!options.pageOrigin || new URL(baseUrl).origin === options.pageOrigin) return 'no_answer';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const response = await options.fetch(`${baseUrl}/company`, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    });
    await response.body?.cancel().catch(() => undefined);
    // Opaque in a browser. Outside one (no CORS there), any answer means the first failure was not CORS.
    return response.type === 'opaque' ? 'blocked_by_cors' : 'no_answer';
  } catch {
    return 'no_answer';
  } finally {
    clearTimeout(timer);
  }
}
