import type { CacheStore } from '../../src/engine/ports/storage';

/** The add-in storage of cached answers, in memory; `data` lets a test look at what was kept. */
export class MemoryCacheStore implements CacheStore {
  readonly data = new Map<string, string>();
  async get(key: string) {
    return this.data.get(key);
  }
  async set(key: string, value: string) {
    this.data.set(key, value);
  }
  async remove(keys: string[]) {
    for (const k of keys) this.data.delete(k);
  }
  async keys() {
    return [...this.data.keys()];
  }
}
