import type { Area } from '../areas';
import type { CacheBounds } from '../config';
import type { Fingerprint } from '../keys';

// What the gateway keeps, and may share between instances: the company of each key (by fingerprint), the
// team's count of calls per company and Pacific month, each key's proofs of access per area, and the
// team's answers per company. Two implementations pass one contract suite (test/gateway/storeContract.ts):
// in-process (one instance, nothing to install) and Redis (several instances). A store that cannot be
// reached throws; the gateway then relays without it (see sharedState.ts).

/** An answer kept for the team: what the API sent, and when the gateway received it. */
export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, base64. */
  body: string;
  /** Epoch ms the answer came back from the API (its Age is counted from here). */
  storedAt: number;
}

export interface Tally {
  /** The company's calls in the month, after this change. */
  calls: number;
  /** Some of the month's calls may be missing from `calls` (the store was unreachable for them). */
  uncertain: boolean;
}

export interface GatewayStore {
  readonly kind: 'memory' | 'redis';
  companyOf(fp: Fingerprint): Promise<string | null>;
  rememberCompany(fp: Fingerprint, companyId: string): Promise<void>;
  /** Forgets a key the API no longer accepts (401): its company and its proofs. */
  forgetKey(fp: Fingerprint): Promise<void>;
  /** Adds `n` (0 reads) to the company's month, atomically; the count after, and whether it is uncertain. */
  addCalls(companyId: string, month: string, n: number): Promise<Tally>;
  markUncertain(companyId: string, month: string): Promise<void>;
  /** Records that the key's own call to `area` succeeded at `atMs`; kept for `windowSeconds`. */
  prove(fp: Fingerprint, area: Area, atMs: number, windowSeconds: number): Promise<void>;
  /** When the key last proved `area`, or null. */
  proofOf(fp: Fingerprint, area: Area): Promise<number | null>;
  /** Drops every proof of a key (a 401 or 403 from the API). */
  dropProofs(fp: Fingerprint): Promise<void>;
  /** Drops every proof of every key (after an outage, when drops may have been missed). */
  dropAllProofs(): Promise<void>;
  /** The company's answer for `url` unless older than its time to live at `nowMs`. */
  cacheGet(companyId: string, url: string, nowMs: number): Promise<CachedAnswer | null>;
  /** Keeps an answer, evicting the oldest ones past the bounds; an answer over maxEntryBytes is not kept. */
  cachePut(companyId: string, url: string, answer: CachedAnswer): Promise<void>;
  /** Entries and bytes the cache holds by its own books (what the bounds hold to). */
  cacheSize(): Promise<{ entries: number; bytes: number }>;
  close(): Promise<void>;
}

export interface StoreOptions {
  bounds: CacheBounds;
}

/** Bytes an answer takes in the cache (its body and headers as kept). */
export function answerBytes(answer: CachedAnswer): number {
  return Buffer.byteLength(answer.body) + Buffer.byteLength(JSON.stringify(answer.headers));
}

/** Counts of a month are kept a little past it, so the next month's first days can still read the last. */
export const MONTH_KEEP_SECONDS = 40 * 86_400;
/** A key's company is remembered this long after it was last learnt. */
export const COMPANY_KEEP_SECONDS = 90 * 86_400;
