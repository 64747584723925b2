import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { capMonthOf } from '../api/calendar';
import { isCompanyRead } from './areas';
import { headersToApi } from './headers';
import type { Fingerprint } from './keys';
import type { SharedState } from './sharedState';
import type { Inbound } from './inbound';
import type { ApiAnswer, Forwarded } from './upstream';

// Which company a key belongs to: learnt once per key (GET /company with it, one counted call, or the key's
// own GET /company at no extra call) and remembered by the key's fingerprint, in the store for every
// instance and here for this one (a key's company never changes). Identical lookups in flight share one.

/** What learning a key's company gave: the company, an answer to give instead (401, cap), or nothing. */
export type Learnt =
  | { kind: 'company'; company: string; own?: Forwarded }
  | { kind: 'answer'; answer: ApiAnswer }
  | { kind: 'unknown'; own?: Forwarded };

/** A 429 of the monthly cap (the spec's code; a burst 429 counts like any other status). */
export function isMonthlyCap(answer: ApiAnswer): boolean {
  if (answer.status !== 429) return false;
  try {
    return (JSON.parse(answer.body.toString('utf8')) as { error?: { code?: unknown } }).error?.code === 'monthly_limit_exceeded';
  } catch {
    return false;
  }
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

export interface KeyCompaniesDeps {
  state: SharedState;
  forward(method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body?: Buffer): Promise<Forwarded>;
  accessWindowSeconds: number;
  nowMs: () => number;
  log: FastifyBaseLogger;
}

export function createKeyCompanies(deps: KeyCompaniesDeps) {
  const { state, forward, accessWindowSeconds, nowMs, log } = deps;
  const companies = new Map<Fingerprint, string>();
  const unknownUntil = new Map<Fingerprint, number>();
  const lookups = new Map<Fingerprint, Promise<{ company: string | null; answer?: ApiAnswer }>>();

  /** GET /company with the key: counted to the company it names; a 401 or the cap is the caller's answer. */
  async function lookUp(fp: Fingerprint, key: string): Promise<{ company: string | null; answer?: ApiAnswer }> {
    const got = await forward('GET', '/company', { authorization: `Bearer ${key}`, accept: 'application/json' });
    if (!got.answer) return { company: null };
    const company = companyIdOf(got.answer);
    if (company) {
      await state.tally(company, capMonthOf(nowMs()), 1);
      await state.prove(fp, 'company', nowMs(), accessWindowSeconds);
      await state.keep(company, '/company', { status: 200, headers: got.answer.headers, body: got.answer.body.toString('base64'), storedAt: nowMs() });
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

  /** A key the API no longer accepts (401): its company and proofs are forgotten. */
  async function forget(fp: Fingerprint): Promise<void> {
    companies.delete(fp);
    await state.forgetKey(fp);
  }

  return { learn, forget };
}
