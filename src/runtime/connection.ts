// The connection as kept in add-in storage (never the workbook): the API key, where and which company, and
// whose answers fill the cache.

import type { SecretStore } from '../engine/ports/storage';

/** What is stored besides the key: where, which company, and the company's fiscal year start. */
export interface StoredConnection {
  baseUrl: string;
  companyId: string;
  /**
   * A short SHA-256 prefix of the key (never the key): what binds a push journal entry to the key that
   * started it. Absent in connections stored by earlier versions; the runtime adds it when it loads them.
   */
  keyFingerprint?: string;
  /** 1-12; default 1 (the API does not say, so the pane asks the user). */
  fiscalYearStartMonth?: number;
}

export interface ConnectParams {
  baseUrl: string;
  apiKey: string;
  /** Known already (skips the one GET /company that connecting otherwise spends). */
  companyId?: string;
  fiscalYearStartMonth?: number;
}

/** Keys in the SecretStore (OfficeRuntimeSecretStore adds its own prefix). */
export const API_KEY_SECRET = 'apiKey';
export const CONNECTION_SECRET = 'connection';
/** Fingerprint of the key whose answers fill the cache (a hash prefix, never the key). */
export const CACHE_OWNER_SECRET = 'cacheOwner';

/** A short SHA-256 prefix of the key: enough to tell two keys apart, useless for calling the API. */
export async function keyFingerprint(apiKey: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

function parseConnection(text: string | undefined): StoredConnection | null {
  if (!text) return null;
  try {
    const c = JSON.parse(text) as StoredConnection;
    if (typeof c?.baseUrl !== 'string' || typeof c.companyId !== 'string' || c.companyId === '') return null;
    return c;
  } catch {
    return null;
  }
}

/** The stored key and connection, or null when either is missing or unreadable (edited storage). */
export async function readStoredConnection(secrets: SecretStore): Promise<{ apiKey: string; connection: StoredConnection } | null> {
  const [apiKey, connectionText] = await Promise.all([secrets.get(API_KEY_SECRET), secrets.get(CONNECTION_SECRET)]);
  const connection = parseConnection(connectionText);
  return apiKey && connection ? { apiKey, connection } : null;
}

export async function storeConnection(secrets: SecretStore, apiKey: string, connection: StoredConnection): Promise<void> {
  await secrets.set(API_KEY_SECRET, apiKey);
  await secrets.set(CONNECTION_SECRET, JSON.stringify(connection));
}

export async function forgetConnection(secrets: SecretStore): Promise<void> {
  await secrets.remove(API_KEY_SECRET);
  await secrets.remove(CONNECTION_SECRET);
}

/** The cache has no owner any more (its answers were forgotten): the next key to connect claims it. */
export async function forgetCacheOwner(secrets: SecretStore): Promise<void> {
  await secrets.remove(CACHE_OWNER_SECRET);
}

/**
 * Cached answers are kept per company, but a key may see less than the key that fetched them (another user,
 * fewer permissions): a different key starts from an empty cache (`clear`), and becomes its owner.
 */
export async function claimCache(secrets: SecretStore, apiKey: string, clear: () => Promise<unknown>): Promise<void> {
  const owner = await keyFingerprint(apiKey);
  if ((await secrets.get(CACHE_OWNER_SECRET)) !== owner) {
    await clear();
    await secrets.set(CACHE_OWNER_SECRET, owner);
  }
}
