/**
 * The API key lives in the add-in's own storage (OfficeRuntime.storage, shared by the pane and the custom
 * functions in the shared runtime), never in the workbook: Office.context.document.settings travel with the
 * file to whoever it is mailed to.
 *
 * Office has no secret store. In the shared runtime OfficeRuntime.storage is the webview's localStorage, so
 * every add-in and page served from the same origin can read it. What the platform does allow is
 * Office.context.partitionKey: where it is defined (Excel on the web), it names the storage partition of the
 * top-level site, and the key is kept under it, so the same origin loaded under another site or Office host
 * (another add-in from this origin in Outlook on the web, a page of its own) does not find it. Beyond that
 * only an origin of its own keeps the key apart (docs/architecture.md, "Add-in storage").
 */
import type { SecretStore } from '../engine/ports/storage';

/** The slice of OfficeRuntime.storage we use, so tests can hand in a substitute. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** Office.context.partitionKey: undefined where storage is not partitioned (the Windows webviews) or outside Office. */
export function officePartitionKey(): string | undefined {
  try {
    return typeof Office !== 'undefined' ? Office.context?.partitionKey || undefined : undefined;
  } catch {
    return undefined;
  }
}

export class OfficeRuntimeSecretStore implements SecretStore {
  constructor(
    private readonly storage: KeyValueStorage = OfficeRuntime.storage,
    private readonly prefix = 'fin.secret.',
    private readonly partitionKey: () => string | undefined = officePartitionKey,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const name = this.name(key);
    const value = await this.storage.getItem(name);
    if (value !== null && value !== undefined) return value;
    if (name === this.prefix + key) return undefined;
    // Kept without the partition by an earlier version: moved under it on first read.
    const earlier = await this.storage.getItem(this.prefix + key);
    if (earlier === null || earlier === undefined) return undefined;
    await this.storage.setItem(name, earlier);
    await this.storage.removeItem(this.prefix + key);
    return earlier;
  }

  set(key: string, value: string): Promise<void> {
    return this.storage.setItem(this.name(key), value);
  }

  async remove(key: string): Promise<void> {
    const name = this.name(key);
    await this.storage.removeItem(name);
    if (name !== this.prefix + key) await this.storage.removeItem(this.prefix + key);
  }

  private name(key: string): string {
    const partition = this.partitionKey();
    return partition ? `${partition}:${this.prefix}${key}` : this.prefix + key;
  }
}
