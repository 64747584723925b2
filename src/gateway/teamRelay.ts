import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { capMonthOf } from '../api/calendar';
import { shareableArea, type Area } from './areas';
import { createKeyCompanies, isMonthlyCap } from './keyCompanies';
import { requestFreshness } from './freshness';
import { headersToApi } from './headers';
import type { Inbound } from './inbound';
import { bearerKey, fingerprintOf, type Fingerprint } from './keys';
import type { SharedState } from './sharedState';
import type { CachedAnswer, Tally } from './store/port';
import { forwardTo, type ApiAnswer, type Forwarded, type Upstream, type UpstreamFailure } from './upstream';

// One request through the gateway: the key's company (learnt once per key), then the team cache or the
// API, then the team's meter by the spec's rules (Limits, monthly per-company limit, rule 3): a 401 and a
// call blocked by the monthly cap do not count; every other authenticated request does, whatever its
// status, and so does a request that was sent whole before the connection failed.

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

function gatewayFailure(failure: UpstreamFailure): ApiAnswer {
  const body = { error: { type: 'api_error', code: 'upstream_unreachable', message: `The gateway could not get an answer from the API (${failure.reason}). Try again.` } };
  return { status: 502, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(body)) };
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
  const forward = (method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body?: Buffer) => forwardTo(upstream, method, pathAndQuery, headers, body);
  const companies = createKeyCompanies({ state, forward, accessWindowSeconds, nowMs, log });
  // Per instance: shareable GETs on their way to the API, by company and URL.
  const flying = new Map<string, Promise<Forwarded>>();

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
      await companies.forget(fp);
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
    const learnt = await companies.learn(fp, key, inbound, path);
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
    const sharedKey = `${company} ${inbound.pathAndQuery}`;
    if (area && freshness.kind === 'max-age') {
      const { proven, kept } = await state.shared(fp, area, accessWindowSeconds, company, inbound.pathAndQuery);
      const ageMs = kept ? nowMs() - kept.storedAt : Infinity;
      if (kept && ageMs <= freshness.seconds * 1000) return served(company, kept, ageMs);
      // A teammate's identical request is on its way to the API: its answer will do, at no call.
      const inFlight = proven ? flying.get(sharedKey) : undefined;
      const theirs = inFlight ? await inFlight : undefined;
      if (theirs?.answer?.status === 200) {
        return served(company, { status: 200, headers: theirs.answer.headers, body: theirs.answer.body.toString('base64'), storedAt: nowMs() }, 0);
      }
    }
    const sending = forward(inbound.method, inbound.pathAndQuery, headersToApi(inbound.headers), inbound.body);
    const settling = sending.then((got) => settle(fp, company, inbound, area, got, cache));
    if (area && !flying.has(sharedKey)) {
      // Until the answer is kept, not just received: a teammate arriving in between would miss both.
      flying.set(sharedKey, sending);
      void settling.finally(() => flying.delete(sharedKey));
    }
    return settling;
  }

  /** An answer from the team cache: not counted, the count as it stands, its age. */
  async function served(company: string, kept: CachedAnswer, ageMs: number): Promise<Outbound> {
    const month = capMonthOf(nowMs());
    const tally = await state.tally(company, month, 0);
    const headers = { ...kept.headers, ...teamHeaders(month, tally), age: String(Math.floor(Math.max(0, ageMs) / 1000)), 'cache-status': 'fin-gateway; hit' };
    return { status: kept.status, headers: exposeTeamHeaders(headers), body: Buffer.from(kept.body, 'base64'), company, cache: 'hit' };
  }

  return { handle };
}
