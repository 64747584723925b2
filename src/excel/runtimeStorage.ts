/**
 * The shared runtime's Office-side pieces for the FIN functions, the pane and the commands:
 * - the engine's CacheStore and the client's MeterStore over OfficeRuntime.storage (add-in storage, shared
 *   by every part of the shared runtime and kept across reopen; never the workbook, which travels),
 * - "recalculate this workbook's FIN cells" for Refresh all, and find or recalculate those of a sheet or a
 *   selection (recalculation.ts),
 * - the host bundle src/runtime/runtime.ts builds its singletons from.
 * Office globals are touched only when a method runs, so importing this file in Node is harmless.
 */
import type { MeterStore } from '../api/meter';
import type { DateSystem } from '../engine/dates';
import type { FinCell, Recalculation, RecalculateOptions } from '../engine/fin';
import type { Box } from '../engine/ports/address';
import type { CacheStore } from '../engine/ports/storage';
import type { SecretStore } from '../engine/ports/storage';
import { indexedDbStoreIfAvailable } from './indexedDbStore';
import { OfficeGateway } from './officeGateway';
import { finCellsIn, recalculateFinCells } from './recalculation';
import { OfficeRuntimeSecretStore, type KeyValueStorage } from './secretStore';

/** The slice of OfficeRuntime.storage the cache needs besides get/set/remove of one item. */
export interface BulkKeyValueStorage extends KeyValueStorage {
  getKeys(): Promise<string[]>;
  removeItems(keys: string[]): Promise<void>;
}

function officeStorage(): BulkKeyValueStorage {
  return OfficeRuntime.storage;
}

/**
 * CacheStore over OfficeRuntime.storage. Keys are the engine's own (`fin-cache:...`, `fin-state:...`), so
 * keys() lists only those and never the secrets or meter counts kept in the same storage. The storage is
 * small and shared (docs/architecture.md, "Add-in storage"): the RequestCache keeps its answers within a
 * budget, and a write the storage refuses makes room from older answers.
 */
export class OfficeRuntimeCacheStore implements CacheStore {
  constructor(
    private readonly storage: BulkKeyValueStorage = officeStorage(),
    private readonly prefixes: readonly string[] = ['fin-cache:', 'fin-state:'],
  ) {}

  async get(key: string): Promise<string | undefined> {
    const value = await this.storage.getItem(key);
    return value ?? undefined;
  }

  set(key: string, value: string): Promise<void> {
    return this.storage.setItem(key, value);
  }

  async remove(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.storage.removeItems(keys);
  }

  async keys(): Promise<string[]> {
    return (await this.storage.getKeys()).filter((k) => this.prefixes.some((p) => k.startsWith(p)));
  }
}

/** MeterStore over OfficeRuntime.storage: one integer per company-month (`api-calls:<company>:<month>`). */
export class OfficeRuntimeMeterStore implements MeterStore {
  constructor(private readonly storage: KeyValueStorage = officeStorage()) {}

  async get(key: string): Promise<number | undefined> {
    const text = await this.storage.getItem(key);
    if (text === null || text === undefined) return undefined;
    const n = Number(text);
    return Number.isFinite(n) ? n : undefined;
  }

  set(key: string, value: number): Promise<void> {
    return this.storage.setItem(key, String(value));
  }
}

/** Everything src/runtime/runtime.ts needs from Office, in one bundle. */
export interface OfficeRuntimeHost {
  cacheStore: CacheStore;
  /** The webview's IndexedDB (the placement memory); absent where there is none. */
  largeStore?: CacheStore;
  meterStore: MeterStore;
  secrets: SecretStore;
  dateSystem(): Promise<DateSystem>;
  recalculate(options?: RecalculateOptions): Promise<Recalculation>;
  finCellsIn(sheet: string, box: Box): Promise<FinCell[]>;
  readWorkbookSetting(key: string): Promise<unknown>;
}

export function createOfficeRuntimeHost(): OfficeRuntimeHost {
  const gateway = new OfficeGateway();
  return {
    cacheStore: new OfficeRuntimeCacheStore(),
    largeStore: indexedDbStoreIfAvailable(),
    meterStore: new OfficeRuntimeMeterStore(),
    secrets: new OfficeRuntimeSecretStore(),
    dateSystem: () => gateway.getDateSystem(),
    recalculate: (options) => recalculateFinCells({ errorsOnly: options?.errorsOnly, cells: options?.cells }),
    finCellsIn: (sheet, box) => finCellsIn(sheet, box),
    readWorkbookSetting: (key) => gateway.readSetting(key),
  };
}

/** True inside an Office host that has the shared runtime's storage. */
export function hasOfficeRuntime(): boolean {
  return typeof OfficeRuntime !== 'undefined' && !!OfficeRuntime.storage;
}
