import type { FastifyBaseLogger } from 'fastify';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { capMonthOf } from '../api/calendar';
import { isCompanyRead, shareableArea, type Area } from './areas';
import { requestFreshness } from './freshness';
import { headersToApi } from './headers';
import { bearerKey, fingerprintOf, type Fingerprint } from './keys';
import type { SharedState } from './sharedState';
import type { Tally } from './store/port';
import { UpstreamFailure, type ApiAnswer, type Upstream } from './upstream';

// One request through the gateway: the key's company (learnt once per key), then the team cache or the
// API, then the team's meter by the spec's rules (Limits, monthly per-company limit, rule 3): a 401 and a
// call blocked by the monthly cap do not count; every other authenticated request does, whatever its
// status, and so does a request that was sent whole before the connection failed.

export interface Inbound {
  method: string;
  /** Path and query relative to /api/v1, exactly as the client encoded them. */
  pathAndQuery: string;
  headers: IncomingHttpHeaders;
  body?: Buffer;
}

export interface Outbound {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** For the log line: the company (never the key) and the Cache-Status given. */
  company?: string;
  cache?: string;
}

export interface TeamRelayDeps {
  state: SharedState;
  upstream: Upstream;
  secret: Buffer;
  accessWindowSeconds: number;
  nowMs: () => number;
  log: FastifyBaseLogger;
}

type Forwarded = { answer: ApiAnswer; failure?: undefined } | { answer?: undefined; failure: UpstreamFailure };

/** What learning a key's company gave: the company, an answer to give instead (401, cap), or nothing. */
type Learnt =
  | { kind: 'company'; company: string; own?: Forwarded }
  | { kind: 'answer'; answer: ApiAnswer }
  | { kind: 'unknown'; own?: Forwarded };

/** A 429 of the monthly cap (the spec's code; a burst 429 counts like any other status). */
function isMonthlyCap(answer: ApiAnswer): boolean {
  if (answer.status !== 429) return false;
  try {
    return (JSON.parse(answer.body.toString('utf8')) as { error?: { code?: unknown } }).error?.code === 'monthly_limit_exceeded';
  } catch {
    return false;
  }
}

function gatewayFailure(failure: UpstreamFailure): ApiAnswer {
  const body = { error: { type: 'api_error', code: 'upstream_unreachable', message: `The gateway could not get an answer from the API (${failure.reason}). Try again.` } };
  return { status: 502, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(body)) };
}

function companyIdOf(answer: ApiAnswer): string | null {
  if (answer.status !== 200) return null;
  try {
    const company = JSON.parse(answer.body.toString('utf8')) as { object?: unknown; id?: unknown };
    return company.object === 'company' && typeof company.id === 'string' && company.id !== '' ? company.id : null;
  } catch {
    return null;
  }
}

function teamHeaders(month: string, tally: Tally): Record<string, string> {
  const h: Record<string, string> = { 'x-fin-team-calls': String(tally.calls), 'x-fin-team-month': month };
  if (tally.uncertain) h['x-fin-team-calls-uncertain'] = '1';
  return h;
}

/** A browser reading the answer cross-origin (the API's own CORS) may read the team's headers too. */
function exposeTeamHeaders(headers: Record<string, string>): Record<string, string> {
  const expose = headers['access-control-expose-headers'];
  if (!expose) return headers;
  return { ...headers, 'access-control-expose-headers': `${expose}, X-Fin-Team-Calls, X-Fin-Team-Month, X-Fin-Team-Calls-Uncertain, Age, Cache-Status` };
}

export function createTeamRelay(deps: TeamRelayDeps) {
  const { state, upstream, accessWindowSeconds, nowMs, log } = deps;
  // Per instance: a key's company never changes, so it is read from the store once per key and instance.
  const companies = new Map<Fingerprint, string>();
  const unknownUntil = new Map<Fingerprint, number>();
  const lookups = new Map<Fingerprint, Promise<{ company: string | null; answer?: ApiAnswer }>>();

  async function forward(method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body?: Buffer): Promise<Forwarded> {
    try {
      return { answer: await upstream.call(method, pathAndQuery, headers, body) };
    } catch (error) {
      if (error instanceof UpstreamFailure) return { failure: error };
      throw error;
    }
  }

  /** GET /company with the key: counted to the company it names; a 401 or the cap is the caller's answer. */
  async function lookUp(fp: Fingerprint, key: string): Promise<{ company: string | null; answer?: ApiAnswer }> {
    const got = await forward('GET', '/company', { authorization: `Bearer ${key}`, accept: 'application/json' });
    if (!got.answer) return { company: null };
    const company = companyIdOf(got.answer);
    if (company) {
      await state.tally(company, capMonthOf(nowMs()), 1);
      await state.prove(fp, 'company', nowMs(), accessWindowSeconds);
      return { company };
    }
    if (got.answer.status === 401 || isMonthlyCap(got.answer)) return { company: null, answer: got.answer };
    unknownUntil.set(fp, nowMs() + accessWindowSeconds * 1000);
    log.warn({ status: got.answer.status }, 'a key\'s company could not be learnt (GET /company refused): its calls are relayed but in no team count');
    return { company: null };
  }

  async function learn(fp: Fingerprint, key: string, inbound: Inbound, path: string): Promise<Learnt> {
    const known = companies.get(fp) ?? (await state.companyOf(fp));
    if (known) {
      companies.set(fp, known);
      return { kind: 'company', company: known };
    }
    if ((unknownUntil.get(fp) ?? 0) > nowMs()) return { kind: 'unknown' };
    // The key's own GET /company teaches the company at no extra call.
    if (isCompanyRead(inbound.method, path)) {
      const own = await forward(inbound.method, inbound.pathAndQuery, headersToApi(inbound.headers));
      const company = own.answer ? companyIdOf(own.answer) : null;
      if (!company) return { kind: 'unknown', own };
      companies.set(fp, company);
      await state.rememberCompany(fp, company);
      return { kind: 'company', company, own };
    }
    let pending = lookups.get(fp);
    if (!pending) {
      pending = lookUp(fp, key).finally(() => lookups.delete(fp));
      lookups.set(fp, pending);
    }
    const found = await pending;
    if (found.answer) return { kind: 'answer', answer: found.answer };
    if (!found.company) return { kind: 'unknown' };
    companies.set(fp, found.company);
    await state.rememberCompany(fp, found.company);
    return { kind: 'company', company: found.company };
  }

  /** Counts a forwarded call by the spec's rules, updates the key's proofs and the cache, adds the headers. */
  async function settle(fp: Fingerprint, company: string, inbound: Inbound, area: Area | null, got: Forwarded, cache: string): Promise<Outbound> {
    const month = capMonthOf(nowMs());
    if (got.failure) {
      const tally = await state.tally(company, month, got.failure.sent ? 1 : 0);
      const answer = gatewayFailure(got.failure);
      return { ...answer, headers: { ...answer.headers, ...teamHeaders(month, tally), 'cache-status': `fin-gateway; ${cache}` }, company, cache };
    }
    const { answer } = got;
    if (answer.status === 401) {
      companies.delete(fp);
      await state.forgetKey(fp);
      return { ...answer, company, cache };
    }
    if (answer.status === 403) await state.dropProofs(fp);
    const tally = await state.tally(company, month, isMonthlyCap(answer) ? 0 : 1);
    if (area && answer.status >= 200 && answer.status < 300) await state.prove(fp, area, nowMs(), accessWindowSeconds);
    if (area && answer.status === 200) {
      await state.keep(company, inbound.pathAndQuery, { status: 200, headers: answer.headers, body: answer.body.toString('base64'), storedAt: nowMs() });
    }
    const headers = exposeTeamHeaders({ ...answer.headers, ...teamHeaders(month, tally), 'cache-status': `fin-gateway; ${cache}` });
    return { status: answer.status, headers, body: answer.body, company, cache };
  }

  async function handle(inbound: Inbound): Promise<Outbound> {
    const key = bearerKey(inbound.headers.authorization);
    const [path, queryText = ''] = inbound.pathAndQuery.split('?', 2);
    if (!key) {
      // No key: the API's 401 (or its preflight answer) as it comes; nothing to count.
      const got = await forward(inbound.method, inbound.pathAndQuery, headersToApi(inbound.headers), inbound.body);
      return got.answer ?? gatewayFailure(got.failure);
    }
    const fp = fingerprintOf(deps.secret, key);
    const learnt = await learn(fp, key, inbound, path);
    if (learnt.kind === 'answer') return learnt.answer;
    if (learnt.kind === 'unknown') {
      const got = learnt.own ?? (await forward(inbound.method, inbound.pathAndQuery, headersToApi(inbound.headers), inbound.body));
      return got.answer ?? gatewayFailure(got.failure);
    }
    const { company } = learnt;
    const area = shareableArea(inbound.method, path, new URLSearchParams(queryText));
    const freshness = requestFreshness(inbound.headers['cache-control']);
    const cache = freshness.kind === 'no-cache' ? 'fwd=request' : 'fwd=miss';
    if (learnt.own) return settle(fp, company, inbound, area, learnt.own, cache);
    if (area && freshness.kind === 'max-age') {
      const kept = await state.shared(fp, area, accessWindowSeconds, company, inbound.pathAndQuery);
      const ageMs = kept ? nowMs() - kept.storedAt : Infinity;
      if (kept && ageMs <= freshness.seconds * 1000) {
        const month = capMonthOf(nowMs());
        const tally = await state.tally(company, month, 0);
        const headers = { ...kept.headers, ...teamHeaders(month, tally), age: String(Math.floor(Math.max(0, ageMs) / 1000)), 'cache-status': 'fin-gateway; hit' };
        return { status: kept.status, headers: exposeTeamHeaders(headers), body: Buffer.from(kept.body, 'base64'), company, cache: 'hit' };
      }
    }
    const got = await forward(inbound.method, inbound.pathAndQuery, headersToApi(inbound.headers), inbound.body);
    return settle(fp, company, inbound, area, got, cache);
  }

  return { handle };
}
