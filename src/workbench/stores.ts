// Add-in storage for the workbench, standing in for OfficeRuntime.storage: one key-value store (the
// browser's localStorage under a prefix, or memory) behind the three shapes the shared runtime wants:
// SecretStore (key and connection, the pane's settings), CacheStore (answers) and MeterStore (call counts).
// As in Office, it is not the workbook: reloading the page starts a new, empty workbook, while the
// connection, the cache and the call counts stay.

import type { MeterStore } from '../api/meter';
import type { CacheStore, SecretStore } from '../engine/ports/storage';

/** The slice of the Web Storage API used here. */
export interface KeyValue {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export class MemoryKeyValue implements KeyValue {
  private readonly data = new Map<string, string>();
  get length(): number {
    return this.data.size;
  }
  key(index: number): string | null {
    return [...this.data.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, value);
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}

/** Everything the workbench keeps, under one prefix so Reset can remove exactly that. */
export class WorkbenchStorage {
  constructor(
    private readonly kv: KeyValue,
    readonly prefix = 'fin-workbench:',
  ) {}

  get(key: string): string | undefined {
    return this.kv.getItem(this.prefix + key) ?? undefined;
  }

  /** Throws when the browser's quota is exhausted (the cache then keeps the answer in memory only). */
  set(key: string, value: string): void {
    this.kv.setItem(this.prefix + key, value);
  }

  remove(key: string): void {
    this.kv.removeItem(this.prefix + key);
  }

  /** Keys under the prefix (without it). */
  keys(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.kv.length; i++) {
      const k = this.kv.key(i);
      if (k !== null && k.startsWith(this.prefix)) out.push(k.slice(this.prefix.length));
    }
    return out;
  }

  /** Removes everything the workbench stored. */
  clear(): void {
    for (const k of this.keys()) this.remove(k);
  }
}

export class WorkbenchSecretStore implements SecretStore {
  constructor(
    private readonly storage: WorkbenchStorage,
    private readonly prefix = 'secret:',
  ) {}
  async get(key: string): Promise<string | undefined> {
    return this.storage.get(this.prefix + key);
  }
  async set(key: string, value: string): Promise<void> {
    this.storage.set(this.prefix + key, value);
  }
  async remove(key: string): Promise<void> {
    this.storage.remove(this.prefix + key);
  }
}

export class WorkbenchCacheStore implements CacheStore {
  constructor(
    private readonly storage: WorkbenchStorage,
    private readonly prefix = 'cache:',
  ) {}
  async get(key: string): Promise<string | undefined> {
    return this.storage.get(this.prefix + key);
  }
  async set(key: string, value: string): Promise<void> {
    this.storage.set(this.prefix + key, value);
  }
  async remove(keys: string[]): Promise<void> {
    for (const k of keys) this.storage.remove(this.prefix + k);
  }
  async keys(): Promise<string[]> {
    return this.storage
      .keys()
      .filter((k) => k.startsWith(this.prefix))
      .map((k) => k.slice(this.prefix.length));
  }
}

export class WorkbenchMeterStore implements MeterStore {
  constructor(
    private readonly storage: WorkbenchStorage,
    private readonly prefix = 'meter:',
  ) {}
  get(key: string): number | undefined {
    const text = this.storage.get(this.prefix + key);
    if (text === undefined) return undefined;
    const n = Number(text);
    return Number.isFinite(n) ? n : undefined;
  }
  set(key: string, value: number): void {
    this.storage.set(this.prefix + key, String(value));
  }
}
