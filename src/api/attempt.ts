// One attempt of a request: one fetch, with the Bearer header, JSON in, a time limit, no redirect followed and
// a body read only up to MAX_RESPONSE_BYTES; what came back (an answer, a refused one, or a network failure
// told apart by whether anything was sent). The key lives only in createAttempt's closure.

import type { ResolvedConfig } from './config';
import { causeCode } from './errors';
import type { RequestSpec } from './request';
import { cacheControlOf, readTeamCount, servedFromTeamCache, type TeamCount } from './teamHeaders';

/**
 * The most of a response body the client reads: 8 MiB. The largest answers the add-in asks for are far
 * smaller: a page of 500 transactions is about 285 KB on the demo company (so this allows about 16 KB of
 * text per row), a job's page of 500 errors about 75 KB, the full chart of accounts 12 KB, a statement
 * under 10 KB. Anything bigger is not an answer the add-in could use, and reading it whole (64 MB and up)
 * would stall the shared runtime and its memory, so it is refused with response_too_large.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type AttemptResult =
  | {
      kind: 'response';
      status: number;
      text: string;
      retryAfter: string | null;
      location: string | null;
      /** The team's count through the gateway, when the answer carried a well-formed one (teamHeaders.ts). */
      team: TeamCount | null;
      /** The team's gateway served it from its cache: the API was not asked, and nothing was counted. */
      teamCacheHit: boolean;
      /** Age and Date as sent: an answer the team's cache served is the API's as of Date minus Age. */
      age: string | null;
      date: string | null;
    }
  /** An answer the client refuses to read: a redirect (status null when the browser hides it), or a body over the cap. */
  | { kind: 'refused'; reason: 'redirect' | 'too_large'; status: number | null }
  | { kind: 'network'; reason: 'aborted' | 'timeout' | 'network_error' | 'not_sent'; cause: unknown };

/** The body as text, or null once it passes `max` bytes (the rest is never read). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const reader = response.body?.getReader();
  if (!reader) {
    // A host without response streams: the length can only be checked after reading.
    const text = await response.text();
    return text.length > max ? null : text;
  }
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a browser's fetch gives for a redirect under redirect: 'manual' (Node's gives the 3xx itself). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status <= 399);
}

/** Failures that prove nothing reached the server (so nothing was counted there). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The attempt function of a client: the key in its closure, never a property of any object. */
export function createAttempt(config: Pick<ResolvedConfig, 'fetch' | 'timeoutMs'>, apiKey: string): (url: string, spec: RequestSpec) => Promise<AttemptResult> {
  return async function attempt(url, spec) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs ?? config.timeoutMs);
    const onAbort = (): void => controller.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const networkFailure = (cause: unknown): AttemptResult => {
      const reason = spec.signal?.aborted
        ? 'aborted'
        : timedOut
          ? 'timeout'
          : NOT_SENT_CODES.has(causeCode(cause) ?? '')
            ? 'not_sent'
            : 'network_error';
      return { kind: 'network', reason, cause };
    };
    try {
      // Built fresh per attempt and dropped afterwards: nothing that holds the header outlives this call.
      const headers: Record<string, string> = {
        Accept: 'application/json',
        Authorization: `Bearer ${apiKey}`,
        // How old an answer the team's gateway may serve (teamHeaders.ts); the API itself ignores it.
        'Cache-Control': cacheControlOf(spec.method, spec.maxAgeSeconds),
      };
      let body: string | undefined;
      if (spec.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(spec.body);
      }
      if (spec.idempotencyKey !== undefined) headers['Idempotency-Key'] = spec.idempotencyKey;
      let response: Response;
      try {
        response = await config.fetch(url, {
          method: spec.method,
          headers,
          body,
          signal: controller.signal,
          // A redirect could carry the key to another origin; the API never redirects. 'manual' hands the
          // redirect back unfollowed, so it can be told apart from a network failure (and not retried).
          redirect: 'manual',
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch (error) {
        return networkFailure(error);
      }
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'refused', reason: 'redirect', status: response.status === 0 ? null : response.status };
      }
      let text: string | null;
      try {
        text = await readCapped(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        // Headers arrived, so the server handled the request; only the body was lost.
        const failure = networkFailure(error);
        return failure.kind === 'network' && failure.reason === 'not_sent' ? { ...failure, reason: 'network_error' } : failure;
      }
      if (text === null) return { kind: 'refused', reason: 'too_large', status: response.status };
      return {
        kind: 'response',
        status: response.status,
        text,
        retryAfter: response.headers.get('retry-after'),
        location: response.headers.get('location'),
        team: readTeamCount((name) => response.headers.get(name)),
        teamCacheHit: servedFromTeamCache((name) => response.headers.get(name)),
        age: response.headers.get('age'),
        date: response.headers.get('date'),
      };
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
  };
}
