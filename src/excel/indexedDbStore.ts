// The webview's IndexedDB as a CacheStore, for what add-in storage cannot hold: the placement memory of a
// company with many transactions (engine/sync/placements.ts, 18 characters a transaction: 3,600,000 for
// 200,000). Add-in storage is small and shared: OfficeRuntime.storage gives 10 MB per domain, shared by the
// add-ins of that domain (Microsoft, "Custom functions runtime", Store and access data), and in the shared
// runtime it is the webview's localStorage for the origin, about 5 MB (docs/architecture.md, "Add-in
// storage"), where the cached answers already have a 1,500,000-character budget. The shared runtime is a
// browser runtime, so IndexedDB is there (Microsoft, "Runtimes in Office Add-ins"; the office-js tracker's
// discussion #2976 points add-ins with large data to it). Like add-in storage it is the origin's, never the
// workbook's. Each value is one record; a write the browser refuses (quota) rejects, and the caller fails
// closed (placements.ts removes a memory it could not save).
import { openDB, type IDBPDatabase } from 'idb';
import type { CacheStore } from '../engine/ports/storage';

const STORE = 'state';

export class IndexedDbStore implements CacheStore {
  private db: Promise<IDBPDatabase> | null = null;

  constructor(private readonly name = 'fin-addin') {}

  private open(): Promise<IDBPDatabase> {
    this.db ??= openDB(this.name, 1, {
      upgrade(db) {
        db.createObjectStore(STORE);
      },
    });
    return this.db;
  }

  async get(key: string): Promise<string | undefined> {
    const value: unknown = await (await this.open()).get(STORE, key);
    return typeof value === 'string' ? value : undefined;
  }

  async set(key: string, value: string): Promise<void> {
    await (await this.open()).put(STORE, value, key);
  }

  async remove(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    await Promise.all([...keys.map((k) => tx.store.delete(k)), tx.done]);
  }

  async keys(): Promise<string[]> {
    return (await (await this.open()).getAllKeys(STORE)).map(String);
  }

  /** Closes the connection (tests, and a runtime that is torn down). */
  async close(): Promise<void> {
    if (this.db) (await this.db).close();
    this.db = null;
  }
}

/** The webview's IndexedDB, when this runtime has one (every browser runtime; not Node). */
export function indexedDbStoreIfAvailable(name?: string): IndexedDbStore | undefined {
  return typeof indexedDB === 'undefined' ? undefined : new IndexedDbStore(name);
}
