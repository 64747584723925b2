/**
 * The API key lives in the add-in's own storage (OfficeRuntime.storage, shared by the pane and the custom
 * functions in the shared runtime), never in the workbook: Office.context.document.settings travel with the
 * file to whoever it is mailed to.
 */
import type { SecretStore } from '../engine/ports/storage';

/** The slice of OfficeRuntime.storage we use, so tests can hand in a substitute. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export class OfficeRuntimeSecretStore implements SecretStore {
  constructor(
    private readonly storage: KeyValueStorage = OfficeRuntime.storage,
    private readonly prefix = 'fin.secret.',
  ) {}

  async get(key: string): Promise<string | undefined> {
    const v = await this.storage.getItem(this.prefix + key);
    return v ?? undefined;
  }

  set(key: string, value: string): Promise<void> {
    return this.storage.setItem(this.prefix + key, value);
  }

  remove(key: string): Promise<void> {
    return this.storage.removeItem(this.prefix + key);
  }
}
