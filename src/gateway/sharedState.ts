import type { FastifyBaseLogger } from 'fastify';
import type { Area } from './areas';
import type { Fingerprint } from './keys';
import type { CachedAnswer, GatewayStore, Tally } from './store/port';

// The store as the gateway uses it: while it cannot be reached, relaying goes on. Calls are then counted
// here (added to the last count read) and the month is marked uncertain; nothing is served from the team
// cache and no proof is read or written. When the store answers again, the calls counted here are added
// to it, the months are marked uncertain there too (for every instance, until the month ends), and every
// proof is dropped: a 401 or 403 seen meanwhile could not drop the proofs it should have.

const RETRY_MS = 500;

export class SharedState {
  private down = false;
  private lastTry = 0;
  private readonly pending = new Map<string, number>();
  private readonly lastKnown = new Map<string, number>();
  private readonly uncertainHere = new Set<string>();

  constructor(
    private readonly store: GatewayStore,
    private readonly log: FastifyBaseLogger,
    private readonly nowMs: () => number,
  ) {}

  /** False while the store is unreachable (tries to bring it back first, at most every 500 ms). */
  async available(): Promise<boolean> {
    if (!this.down) return true;
    if (this.nowMs() - this.lastTry < RETRY_MS) return false;
    this.lastTry = this.nowMs();
    try {
      for (const [id, n] of this.pending) {
        const [company, month] = id.split('|');
        const tally = await this.store.addCalls(company, month, n);
        this.lastKnown.set(id, tally.calls);
        this.pending.delete(id);
      }
      for (const id of this.uncertainHere) {
        const [company, month] = id.split('|');
        await this.store.markUncertain(company, month);
      }
      await this.store.dropAllProofs();
    } catch {
      return false;
    }
    this.down = false;
    this.log.warn({ store: this.store.kind }, 'shared store reachable again: calls counted meanwhile added, their months stay marked uncertain, every proof of access dropped');
    return true;
  }

  private fail(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.lastTry = this.nowMs();
    this.log.error(
      { store: this.store.kind, reason: error instanceof Error ? error.message : String(error) },
      'shared store unreachable: relaying everything, serving nothing from the team cache; the team\'s counts are marked uncertain for this month',
    );
  }

  /** Runs a store operation, or gives `fallback` (and goes into the unreachable state) when it fails. */
  private async guarded<T>(op: (store: GatewayStore) => Promise<T>, fallback: T): Promise<T> {
    if (!(await this.available())) return fallback;
    try {
      return await op(this.store);
    } catch (error) {
      this.fail(error);
      return fallback;
    }
  }

  /** Adds `n` calls (0 reads the count). */
  async tally(companyId: string, month: string, n: number): Promise<Tally> {
    const id = `${companyId}|${month}`;
    const local = (): Tally => {
      if (n > 0) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
      this.uncertainHere.add(id);
      return { calls: (this.lastKnown.get(id) ?? 0) + (this.pending.get(id) ?? 0), uncertain: true };
    };
    if (!(await this.available())) return local();
    try {
      const tally = await this.store.addCalls(companyId, month, n);
      this.lastKnown.set(id, tally.calls);
      return { calls: tally.calls, uncertain: tally.uncertain || this.uncertainHere.has(id) };
    } catch (error) {
      this.fail(error);
      return local();
    }
  }

  companyOf(fp: Fingerprint): Promise<string | null> {
    return this.guarded((s) => s.companyOf(fp), null);
  }

  rememberCompany(fp: Fingerprint, companyId: string): Promise<void> {
    return this.guarded((s) => s.rememberCompany(fp, companyId), undefined);
  }

  forgetKey(fp: Fingerprint): Promise<void> {
    return this.guarded((s) => s.forgetKey(fp), undefined);
  }

  prove(fp: Fingerprint, area: Area, atMs: number, windowSeconds: number): Promise<void> {
    return this.guarded((s) => s.prove(fp, area, atMs, windowSeconds), undefined);
  }

  dropProofs(fp: Fingerprint): Promise<void> {
    return this.guarded((s) => s.dropProofs(fp), undefined);
  }

  /**
   * Whether the key proved `area` within the window (false too while the store is unreachable), and then
   * the company's kept answer for `url`, if any.
   */
  async shared(fp: Fingerprint, area: Area, windowSeconds: number, companyId: string, url: string): Promise<{ proven: boolean; kept: CachedAnswer | null }> {
    return this.guarded(async (s) => {
      const proved = await s.proofOf(fp, area);
      if (proved === null || this.nowMs() - proved >= windowSeconds * 1000) return { proven: false, kept: null };
      return { proven: true, kept: await s.cacheGet(companyId, url, this.nowMs()) };
    }, { proven: false, kept: null });
  }

  keep(companyId: string, url: string, answer: CachedAnswer): Promise<void> {
    return this.guarded((s) => s.cachePut(companyId, url, answer), undefined);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
