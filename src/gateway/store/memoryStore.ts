import type { Area } from '../areas';
import type { Fingerprint } from '../keys';
import { answerBytes, type CachedAnswer, type GatewayStore, type StoreOptions, type Tally } from './port';

// One instance's state in its own memory. Maps keep insertion order, so the first entry is the oldest:
// eviction drops from the front.

const MAX_KEYS = 100_000;

interface Entry {
  answer: CachedAnswer;
  bytes: number;
}

export class MemoryStore implements GatewayStore {
  readonly kind = 'memory' as const;
  private readonly companies = new Map<Fingerprint, string>();
  private readonly counts = new Map<string, number>();
  private readonly uncertain = new Set<string>();
  private readonly proofs = new Map<Fingerprint, Map<Area, number>>();
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly options: StoreOptions) {}

  async companyOf(fp: Fingerprint): Promise<string | null> {
    return this.companies.get(fp) ?? null;
  }

  async rememberCompany(fp: Fingerprint, companyId: string): Promise<void> {
    this.companies.delete(fp);
    this.companies.set(fp, companyId);
    if (this.companies.size > MAX_KEYS) this.companies.delete(this.companies.keys().next().value!);
  }

  async forgetKey(fp: Fingerprint): Promise<void> {
    this.companies.delete(fp);
    this.proofs.delete(fp);
  }

  async addCalls(companyId: string, month: string, n: number): Promise<Tally> {
    const id = `${companyId}|${month}`;
    const calls = (this.counts.get(id) ?? 0) + n;
    this.counts.set(id, calls);
    return { calls, uncertain: this.uncertain.has(id) };
  }

  async markUncertain(companyId: string, month: string): Promise<void> {
    this.uncertain.add(`${companyId}|${month}`);
  }

  async prove(fp: Fingerprint, area: Area, atMs: number): Promise<void> {
    let areas = this.proofs.get(fp);
    if (!areas) {
      areas = new Map();
      this.proofs.set(fp, areas);
      if (this.proofs.size > MAX_KEYS) this.proofs.delete(this.proofs.keys().next().value!);
    }
    areas.set(area, atMs);
  }

  async proofOf(fp: Fingerprint, area: Area): Promise<number | null> {
    return this.proofs.get(fp)?.get(area) ?? null;
  }

  async dropProofs(fp: Fingerprint): Promise<void> {
    this.proofs.delete(fp);
  }

  async dropAllProofs(): Promise<void> {
    this.proofs.clear();
  }

  async cacheGet(companyId: string, url: string, nowMs: number): Promise<CachedAnswer | null> {
    const id = `${companyId} ${url}`;
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (nowMs - entry.answer.storedAt >= this.options.bounds.ttlSeconds * 1000) {
      this.remove(id);
      return null;
    }
    return entry.answer;
  }

  async cachePut(companyId: string, url: string, answer: CachedAnswer): Promise<void> {
    const { maxEntries, maxBytes, maxEntryBytes } = this.options.bounds;
    const bytes = answerBytes(answer);
    const id = `${companyId} ${url}`;
    this.remove(id);
    if (bytes > maxEntryBytes || maxEntries === 0) return;
    this.entries.set(id, { answer, bytes });
    this.bytes += bytes;
    while (this.entries.size > maxEntries || this.bytes > maxBytes) this.remove(this.entries.keys().next().value!);
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }

  async cacheSize(): Promise<{ entries: number; bytes: number }> {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  async close(): Promise<void> {}
}
