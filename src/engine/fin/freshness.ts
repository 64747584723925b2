// "Data as of": when the figures the FIN cells show were fetched (the oldest answer in use), what
// FIN.REFRESHED streams. Kept next to the cache, so a reopened workbook shows it without a call.

import type { CacheStore } from '../ports/storage';

export const NOT_FETCHED_TEXT = 'Not fetched yet';

/** "2026-11-21 14:03 UTC": the time FIN.REFRESHED shows. */
export function formatDataAsOf(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

const dataAsOfKey = (companyId: string) => `fin-state:${companyId}:data-as-of`;

export class Freshness {
  private asOfMs: number | undefined;
  private loadedFor?: string;
  /** The company whose stored time has been read (loadedFor once its load finished). */
  private readFor?: string;
  private loading?: Promise<void>;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly store?: CacheStore) {}

  /** The oldest fetch time in use for the company; never calls the API. */
  async dataAsOf(companyId: string | null): Promise<number | undefined> {
    if (companyId) await this.load(companyId);
    return this.asOfMs;
  }

  /**
   * True when an answer fetched at `fetchedAt` changes nothing: the data is known to be as old already.
   * Answers without waiting, so the cached path of a recalculation skips noteFetched.
   */
  covers(companyId: string, fetchedAt: number): boolean {
    return this.readFor === companyId && this.asOfMs !== undefined && this.asOfMs <= fetchedAt;
  }

  /** An answer fetched at `fetchedAt` is in use: the data is as old as the oldest of them. */
  async noteFetched(companyId: string, fetchedAt: number): Promise<void> {
    await this.load(companyId);
    if (this.asOfMs !== undefined && this.asOfMs <= fetchedAt) return;
    await this.set(companyId, fetchedAt);
  }

  /** Refresh all starts: nothing fetched yet. */
  async reset(companyId: string): Promise<void> {
    await this.set(companyId, undefined);
    this.emit();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private load(companyId: string): Promise<void> {
    if (this.loadedFor !== companyId) {
      this.loadedFor = companyId;
      this.readFor = undefined;
      this.loading = (async () => {
        if (!this.store) return;
        try {
          const text = await this.store.get(dataAsOfKey(companyId));
          const asOf = text === undefined ? NaN : Number(text);
          if (Number.isFinite(asOf) && (this.asOfMs === undefined || asOf < this.asOfMs)) this.asOfMs = asOf;
        } catch {
          // Unreadable state: "Not fetched yet" until the next answer.
        }
        if (this.loadedFor === companyId) this.readFor = companyId;
      })();
    }
    return this.loading ?? Promise.resolve();
  }

  private async set(companyId: string, value: number | undefined): Promise<void> {
    this.asOfMs = value;
    if (this.store) {
      const key = dataAsOfKey(companyId);
      await (value === undefined ? this.store.remove([key]) : this.store.set(key, String(value))).catch(() => undefined);
    }
    if (value !== undefined) this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's bug must not break an evaluation.
      }
    }
  }
}
