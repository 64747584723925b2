/** Storage OUTSIDE the workbook, for the API key: a shared workbook must never carry it. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * Where cached answers and the engine's other state (the monthly-cap block, the sync watermark) outlive the
 * runtime, also outside the workbook: OfficeRuntime.storage in the add-in, memory in tests.
 */
export interface CacheStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(keys: string[]): Promise<void>;
  keys(): Promise<string[]>;
}
