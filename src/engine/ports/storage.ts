/** Storage OUTSIDE the workbook, for the API key: a shared workbook must never carry it. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}
