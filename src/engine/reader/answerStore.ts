// The persisted half of the RequestCache, kept within a budget. Add-in storage is small and shared: in
// Office's shared runtime OfficeRuntime.storage is the webview's localStorage for the add-in's origin (a few
// MB, counted in characters, for every add-in served from that origin), and the API key, the call meter and
// the pane's settings live there too. So the cached answers get a budget of their own, and the answers
// used least recently go first: a cell, a statement block or a preview reading an answer makes it recent,
// and an answer just fetched is never evicted to make room for itself.

import type { CacheStore } from '../ports/storage';

/** What the persisted answers may take, in characters of key and value (what localStorage counts). */
export const CACHE_BUDGET_CHARS = 1_500_000;

interface Entry {
  chars: number;
  /** Last use (ms): a read this session, else when the answer was fetched. */
  used: number;
}

export class AnswerStore {
  /** Sizes and last use of the persisted answers; learned from the store on first need. */
  private entries: Map<string, Entry> | null = null;
  private total = 0;
  /** Uses before the inventory was taken (it may never be needed). */
  private readonly uses = new Map<string, number>();
  /** Budget bookkeeping runs one operation at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CacheStore,
    private readonly prefix: string,
    private readonly now: () => number,
    readonly budgetChars = CACHE_BUDGET_CHARS,
  ) {}

  /** The stored text of an answer (and it counts as used now), or undefined. */
  async read(key: string): Promise<string | undefined> {
    const text = await this.store.get(key).catch(() => undefined);
    if (text !== undefined) this.touch(key);
    return text;
  }

  /** An answer in use (served from memory, or peeked at by a preview). */
  touch(key: string): void {
    const at = this.now();
    this.uses.set(key, at);
    const entry = this.entries?.get(key);
    if (entry) entry.used = at;
  }

  /**
   * Stores an answer within the budget: the least recently used other answers make room first, and a write
   * the store refuses (it is full) is tried once more after freeing as much again. Resolves with the keys
   * evicted (the caller drops them from memory too) and whether the answer was stored; an answer larger than
   * the whole budget is not.
   */
  write(key: string, text: string): Promise<{ stored: boolean; evicted: string[] }> {
    return this.serialize(async () => {
      const entries = await this.inventory();
      const chars = key.length + text.length;
      this.forget(key, entries); // a new answer for the same request replaces the old one
      if (chars > this.budgetChars) {
        await this.store.remove([key]).catch(() => undefined);
        return { stored: false, evicted: [] };
      }
      const evicted = await this.evictLocked(this.total + chars - this.budgetChars, key);
      try {
        await this.store.set(key, text);
      } catch {
        evicted.push(...(await this.evictLocked(chars, key)));
        try {
          await this.store.set(key, text);
        } catch {
          return { stored: false, evicted };
        }
      }
      entries.set(key, { chars, used: this.now() });
      this.total += chars;
      this.uses.delete(key);
      return { stored: true, evicted };
    });
  }

  /** Forgets answers (Refresh all, a new key). */
  remove(keys: string[]): Promise<void> {
    return this.serialize(async () => {
      await this.store.remove(keys);
      for (const key of keys) {
        if (this.entries) this.forget(key, this.entries);
        this.uses.delete(key);
      }
    });
  }

  /** The persisted answers' keys under a prefix. */
  async keys(prefix = this.prefix): Promise<string[]> {
    return (await this.store.keys()).filter((k) => k.startsWith(prefix));
  }

  /**
   * Frees room for another writer of the same storage (the key, the meter): evicts the least recently used
   * answers worth at least `chars` (one answer by default). Resolves with the keys evicted; none when nothing
   * is left to evict.
   */
  evict(chars = 1): Promise<string[]> {
    return this.serialize(async () => {
      await this.inventory(true);
      return this.evictLocked(Math.max(1, chars));
    });
  }

  /** Characters the persisted answers take (as far as this runtime knows). */
  async usedChars(): Promise<number> {
    return this.serialize(async () => {
      await this.inventory();
      return this.total;
    });
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private forget(key: string, entries: Map<string, Entry>): void {
    const old = entries.get(key);
    if (!old) return;
    this.total -= old.chars;
    entries.delete(key);
  }

  /** Evicts least recently used answers (never `keep`) until `chars` are freed. */
  private async evictLocked(chars: number, keep?: string): Promise<string[]> {
    if (chars <= 0 || !this.entries) return [];
    const entries = this.entries;
    const order = [...entries].filter(([k]) => k !== keep).sort(([, a], [, b]) => a.used - b.used);
    const victims: string[] = [];
    let freed = 0;
    for (const [key, entry] of order) {
      if (freed >= chars) break;
      victims.push(key);
      freed += entry.chars;
    }
    if (victims.length === 0) return [];
    await this.store.remove(victims).catch(() => undefined);
    for (const key of victims) {
      this.forget(key, entries);
      this.uses.delete(key);
    }
    return victims;
  }

  /**
   * The sizes of the persisted answers, read once (and again before evicting for another writer, since
   * another runtime of the add-in may share the storage): every answer's text is read for its length and
   * fetch time.
   */
  private async inventory(again = false): Promise<Map<string, Entry>> {
    if (this.entries && !again) return this.entries;
    const entries = this.entries ?? new Map<string, Entry>();
    const present = new Set(await this.keys().catch(() => [] as string[]));
    for (const key of [...entries.keys()]) if (!present.has(key)) this.forget(key, entries);
    for (const key of present) {
      if (entries.has(key)) continue;
      const text = await this.store.get(key).catch(() => undefined);
      if (text === undefined) continue;
      const chars = key.length + text.length;
      entries.set(key, { chars, used: this.uses.get(key) ?? fetchedAtOf(text) });
      this.total += chars;
    }
    this.entries = entries;
    return entries;
  }
}

/** The fetch time recorded in a stored answer; 0 (oldest) when unreadable. */
function fetchedAtOf(text: string): number {
  try {
    const at = (JSON.parse(text) as { fetchedAt?: unknown })?.fetchedAt;
    return typeof at === 'number' ? at : 0;
  } catch {
    return 0;
  }
}
