// The balance identities a derivation rests on beyond the spec's sentences (issue 34, item 4; derive.ts
// balanceIdentityOf): verified once per company against the API before they are relied on. Until then a
// balance total resting on one is not derived: the API answers it (the call it costs anyway with derivation
// off), and that answer, compared with what the cached balance sheet would have given, is the verification.
// The verdict is kept per company with the engine's state: verified (derive from then on), or not holding
// (with why: such totals are always fetched, and the full refresh says so). Calls nothing itself.

import type { CacheStore } from '../ports/storage';
import type { BalanceIdentity } from './derive';

type Verdict = true | string;

const storeKey = (company: string) => `fin-state:${company}:balance-identities`;

export class IdentityVerdicts {
  private readonly byCompany = new Map<string, Promise<Map<BalanceIdentity, Verdict>>>();
  /** Answers to be fetched whose comparison verifies an identity: key -> identity and the derived cents. */
  private readonly pending = new Map<string, { identity: BalanceIdentity; cents: number }>();

  constructor(private readonly store?: CacheStore) {}

  private verdicts(company: string): Promise<Map<BalanceIdentity, Verdict>> {
    let loading = this.byCompany.get(company);
    if (!loading) {
      loading = (async () => {
        const out = new Map<BalanceIdentity, Verdict>();
        try {
          const parsed = JSON.parse((await this.store?.get(storeKey(company))) ?? '{}') as Record<string, unknown>;
          for (const [k, v] of Object.entries(parsed)) if (v === true || typeof v === 'string') out.set(k as BalanceIdentity, v);
        } catch {
          // Unreadable: nothing verified (each identity is verified again, at the call its total costs anyway).
        }
        return out;
      })();
      this.byCompany.set(company, loading);
    }
    return loading;
  }

  /** Whether derivation may rely on `identity` for the company (null: the spec's sentences alone suffice). */
  async trusted(company: string, identity: BalanceIdentity | null): Promise<boolean> {
    return identity === null || (await this.verdicts(company)).get(identity) === true;
  }

  /** Whether every identity is verified for the company (a plan that cannot classify a total yet relies on it). */
  async allTrusted(company: string): Promise<boolean> {
    const v = await this.verdicts(company);
    return v.get('retained earnings') === true && v.get('credit-balance asset') === true;
  }

  /** The API is to answer `key` itself; if no verdict is known yet, its answer verifies `identity` against `cents`. */
  async expect(company: string, key: string, identity: BalanceIdentity, cents: number): Promise<void> {
    if ((await this.verdicts(company)).has(identity)) return;
    this.pending.set(key, { identity, cents });
  }

  /** The API's answer to `key` (a total): if it was to verify an identity, the verdict, kept. */
  async answered(company: string, key: string, label: string, total: unknown): Promise<void> {
    const p = this.pending.get(key);
    if (!p || typeof total !== 'number') return;
    this.pending.delete(key);
    const verdicts = await this.verdicts(company);
    if (verdicts.has(p.identity)) return;
    const verdict: Verdict = total === p.cents ? true : `the API's total for ${label} is ${total} cents where its balance sheet's line is ${p.cents}`;
    verdicts.set(p.identity, verdict);
    await this.store?.set(storeKey(company), JSON.stringify(Object.fromEntries(verdicts))).catch(() => undefined);
  }

  /** Why totals resting on an identity that does not hold are fetched, for the full refresh's message. */
  async notes(company: string): Promise<string[]> {
    return [...(await this.verdicts(company))].filter((e): e is [BalanceIdentity, string] => typeof e[1] === 'string').map(([identity, why]) => `balance totals resting on the ${identity} identity are fetched, not derived: ${why}`);
  }
}
