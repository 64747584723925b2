// The connections as kept in add-in storage (never the workbook): for each company, its API key, where it is
// served, and the short name formulas use to pick it; one of them is the default. Whose answers fill the
// cache is kept per company too.

import type { SecretStore } from '../engine/ports/storage';

/** What is stored of one connection besides the key: its name, where, which company, the fiscal year start. */
export interface StoredConnection {
  /** The short name the user picked (the company's name by default): the FIN functions' last argument. */
  name: string;
  baseUrl: string;
  companyId: string;
  /**
   * A short SHA-256 prefix of the key (never the key): what binds a push journal entry to the key that
   * started it. Absent in connections stored by earlier versions; the runtime adds it when it loads them.
   */
  keyFingerprint?: string;
  /** 1-12; default 1 (the API does not say, so the pane asks the user). */
  fiscalYearStartMonth?: number;
  /**
   * Figures the cached statements decide are answered from them at no call (engine/reader/derive.ts) unless
   * this is false: the user turned it off, or a full refresh found a derived figure the API's differs from.
   */
  deriveFromStatements?: boolean;
  /** Why derivation is off when the add-in turned it off (shown in the pane). */
  derivationOffBecause?: string;
}

export interface ConnectParams {
  baseUrl: string;
  apiKey: string;
  /** Known already (skips the one GET /company that connecting otherwise spends). */
  companyId?: string;
  fiscalYearStartMonth?: number;
  /** Derivation from the cached statements (StoredConnection.deriveFromStatements); default: as it was, else on. */
  deriveFromStatements?: boolean;
  /** The connection's short name; default the name it already has, else the company id. */
  name?: string;
  /**
   * Whether formulas without a company argument use it from now on. Default true, as connecting one key
   * always did; the pane adds a further company with false. The first connection is the default anyway.
   */
  makeDefault?: boolean;
}

/** Every stored connection and the name of the default one. */
export interface StoredConnections {
  defaultName: string | null;
  list: StoredConnection[];
}

/** One connection with its key, as the runtime loads it. */
export interface ConnectionWithKey {
  apiKey: string;
  connection: StoredConnection;
}

/** Keys in the SecretStore (OfficeRuntimeSecretStore adds its own prefix). */
export const CONNECTIONS_SECRET = 'connections';
export const apiKeySecret = (companyId: string): string => `apiKey:${companyId}`;
/** Fingerprint of the key whose answers fill a company's cache (a hash prefix, never the key). */
export const cacheOwnerSecret = (companyId: string): string => `cacheOwner:${companyId}`;
/** The pane's settings of a company (its name and plan). */
export const COMPANY_SETTINGS_PREFIX = 'company:';

/** Where versions before several connections kept the one connection, its key and the cache's owner. */
const LEGACY_API_KEY = 'apiKey';
const LEGACY_CONNECTION = 'connection';
const LEGACY_CACHE_OWNER = 'cacheOwner';

export const MAX_NAME_LENGTH = 40;

/** A name as formulas match it: trimmed, case- and space-insensitive. */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The connection a formula's company argument names, if stored: an exact company id first (a connection
 * named after another company's id must not answer for that company), else a connection's name.
 */
export function findConnection<C extends Pick<StoredConnection, 'name' | 'companyId'>>(list: readonly C[], nameOrId: string): C | undefined {
  const wanted = nameKey(nameOrId);
  return list.find((c) => c.companyId === nameOrId.trim()) ?? list.find((c) => nameKey(c.name) === wanted);
}

/** A short SHA-256 prefix of the key: enough to tell two keys apart, useless for calling the API. */
export async function keyFingerprint(apiKey: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

function isConnection(c: unknown): c is Omit<StoredConnection, 'name'> & { name?: unknown } {
  const o = c as StoredConnection | null;
  return typeof o?.baseUrl === 'string' && typeof o.companyId === 'string' && o.companyId !== '';
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The stored connections; unreadable entries (edited storage) are left out. */
function parseConnections(text: string | undefined): StoredConnections | null {
  const value = parseJson(text) as { defaultName?: unknown; list?: unknown } | undefined;
  if (!value || !Array.isArray(value.list)) return null;
  const list = value.list.filter(isConnection).map((c) => ({ ...c, name: typeof c.name === 'string' && c.name.trim() ? c.name : c.companyId }));
  const defaultName = typeof value.defaultName === 'string' && list.some((c) => c.name === value.defaultName) ? value.defaultName : (list[0]?.name ?? null);
  return { defaultName, list };
}

async function legacyName(secrets: SecretStore, companyId: string): Promise<string> {
  const settings = parseJson(await secrets.get(COMPANY_SETTINGS_PREFIX + companyId)) as { name?: unknown } | undefined;
  const name = typeof settings?.name === 'string' ? settings.name.trim().slice(0, MAX_NAME_LENGTH) : '';
  return name || companyId;
}

/**
 * The one connection of an earlier version, moved to the list as the default (named as the pane named its
 * company), with its key and the cache's owner: a user who upgrades stays connected.
 */
async function migrateLegacy(secrets: SecretStore): Promise<StoredConnections> {
  const [apiKey, text] = await Promise.all([secrets.get(LEGACY_API_KEY), secrets.get(LEGACY_CONNECTION)]);
  const legacy = parseJson(text);
  if (!apiKey || !isConnection(legacy)) return { defaultName: null, list: [] };
  const connection: StoredConnection = { ...legacy, name: await legacyName(secrets, legacy.companyId) };
  const connections = { defaultName: connection.name, list: [connection] };
  await secrets.set(apiKeySecret(connection.companyId), apiKey);
  const owner = await secrets.get(LEGACY_CACHE_OWNER);
  if (owner) await secrets.set(cacheOwnerSecret(connection.companyId), owner);
  await secrets.set(CONNECTIONS_SECRET, JSON.stringify(connections));
  await Promise.all([secrets.remove(LEGACY_API_KEY), secrets.remove(LEGACY_CONNECTION), secrets.remove(LEGACY_CACHE_OWNER)]);
  return connections;
}

/** The stored connections (an earlier version's one connection moved over first). */
export async function readConnections(secrets: SecretStore): Promise<StoredConnections> {
  const text = await secrets.get(CONNECTIONS_SECRET);
  return parseConnections(text) ?? (text === undefined ? migrateLegacy(secrets) : { defaultName: null, list: [] });
}

/** The stored connections that have their key (one without is no connection: edited storage). */
export async function readConnectionsWithKeys(secrets: SecretStore): Promise<{ defaultName: string | null; list: ConnectionWithKey[] }> {
  const stored = await readConnections(secrets);
  const keys = await Promise.all(stored.list.map((c) => secrets.get(apiKeySecret(c.companyId))));
  const list = stored.list.flatMap((connection, i) => (keys[i] ? [{ apiKey: keys[i]!, connection }] : []));
  const defaultName = list.some((c) => c.connection.name === stored.defaultName) ? stored.defaultName : (list[0]?.connection.name ?? null);
  return { defaultName, list };
}

/** Adds a connection or replaces its company's, keeping the others. */
export async function storeConnection(secrets: SecretStore, apiKey: string, connection: StoredConnection, makeDefault: boolean): Promise<StoredConnections> {
  const stored = await readConnections(secrets);
  const replaced = stored.list.find((c) => c.companyId === connection.companyId);
  const list = [...stored.list.filter((c) => c.companyId !== connection.companyId), connection];
  const keepsDefault = stored.defaultName !== null && stored.defaultName !== replaced?.name && list.some((c) => c.name === stored.defaultName);
  const next: StoredConnections = { defaultName: makeDefault || !keepsDefault ? connection.name : stored.defaultName, list };
  await secrets.set(apiKeySecret(connection.companyId), apiKey);
  await secrets.set(CONNECTIONS_SECRET, JSON.stringify(next));
  return next;
}

/** Changes a stored connection's settings (not its key, name or company); unknown companies are left alone. */
export async function storeConnectionSettings(secrets: SecretStore, companyId: string, settings: Pick<StoredConnection, 'deriveFromStatements' | 'derivationOffBecause'>): Promise<StoredConnections> {
  const stored = await readConnections(secrets);
  const list = stored.list.map((c) => {
    if (c.companyId !== companyId) return c;
    const next: StoredConnection = { ...c, ...settings };
    for (const k of ['deriveFromStatements', 'derivationOffBecause'] as const) if (next[k] === undefined) delete next[k];
    return next;
  });
  const next = { ...stored, list };
  await secrets.set(CONNECTIONS_SECRET, JSON.stringify(next));
  return next;
}

/** Makes a stored connection the default. */
export async function storeDefault(secrets: SecretStore, name: string): Promise<StoredConnections> {
  const stored = await readConnections(secrets);
  if (!stored.list.some((c) => c.name === name)) return stored;
  const next = { ...stored, defaultName: name };
  await secrets.set(CONNECTIONS_SECRET, JSON.stringify(next));
  return next;
}

/**
 * Forgets one company's connection and key, and nothing else. When it was the default, the first one left
 * becomes the default (formulas without a company argument keep a company to read).
 */
export async function forgetConnection(secrets: SecretStore, companyId: string): Promise<StoredConnections> {
  const stored = await readConnections(secrets);
  const list = stored.list.filter((c) => c.companyId !== companyId);
  const defaultName = list.some((c) => c.name === stored.defaultName) ? stored.defaultName : (list[0]?.name ?? null);
  const next = { defaultName, list };
  await secrets.remove(apiKeySecret(companyId));
  await secrets.set(CONNECTIONS_SECRET, JSON.stringify(next));
  return next;
}

/** The company's cache has no owner any more (its answers were forgotten): the next key to connect claims it. */
export async function forgetCacheOwner(secrets: SecretStore, companyId: string): Promise<void> {
  await secrets.remove(cacheOwnerSecret(companyId));
}

/**
 * Cached answers are kept per company, but a key may see less than the key that fetched them (another user,
 * fewer permissions): a different key starts from an empty cache (`clear`), and becomes its owner.
 */
export async function claimCache(secrets: SecretStore, companyId: string, apiKey: string, clear: () => Promise<unknown>): Promise<void> {
  const owner = await keyFingerprint(apiKey);
  if ((await secrets.get(cacheOwnerSecret(companyId))) !== owner) {
    await clear();
    await secrets.set(cacheOwnerSecret(companyId), owner);
  }
}
