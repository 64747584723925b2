// The connections as loaded: read from add-in storage once (with the workbook's groups, read first), each
// built into a Connected, one of them the default. Connect, disconnect and a new default install another
// list; a load that started before one of them is not installed after it.

import { EVALUATION_TIMEOUT_MS, finErrors } from '../engine/fin';
import type { SecretStore } from '../engine/ports/storage';
import { closedSettingKey, closedThroughOf } from '../engine/reader/closedBooks';
import { findConnection, keyFingerprint, readConnectionsWithKeys, type StoredConnection } from './connection';
import type { Connected, ConnectedFactory } from './connected';
import type { RuntimeHost } from './host';

/** Every loaded connection, and the default one (null: none stored). */
export interface Loaded {
  list: Connected[];
  defaultOne: Connected | null;
}

const NOTHING_LOADED: Loaded = Object.freeze({ list: [], defaultOne: null }) as Loaded;

/** The connection a company argument names (its name or company id); the default one when omitted. */
export function pick(loaded: Loaded, company?: string): Connected | null {
  if (company === undefined || company.trim() === '') return loaded.defaultOne;
  const found = findConnection(
    loaded.list.map((c) => c.connection),
    company,
  );
  return loaded.list.find((c) => c.connection === found) ?? null;
}

export interface LoadedConnections {
  /** What is installed now (null: not loaded yet, or disposed). */
  current(): Loaded | null;
  load(): Promise<Loaded>;
  /** load(), bounded as an evaluation is (storage that never answers must not leave cells at #BUSY!). */
  loadWithinLimit(): Promise<Loaded>;
  loadConnected(company?: string): Promise<Connected | null>;
  /** The workbook's close applies before the first formula reads: its answers are never due again. */
  applyClosedBooks(built: Connected): Promise<void>;
  /** Makes this list the loaded one (the old ones not in it stop being listened to). */
  install(list: Connected[], defaultName: string | null): Loaded;
  /** A load already started is not installed (connect, disconnect, a new default, dispose). */
  supersede(): void;
  dispose(): void;
}

export interface LoadedConnectionsDeps {
  host: Pick<RuntimeHost, 'readWorkbookSetting'>;
  secrets: SecretStore;
  factory: Pick<ConnectedFactory, 'build'>;
  /** Read before the connections (the workbook's groups). */
  beforeLoad: () => Promise<void>;
  /** These connections are here now (their names are no longer missing). */
  installed: (names: string[]) => void;
}

export function loadedConnections({ host, secrets, factory, beforeLoad, installed }: LoadedConnectionsDeps): LoadedConnections {
  let current: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
  let boundedLoad: Promise<Loaded> | null = null;
  /** Bumped by connect/disconnect so a load that started before is not installed after. */
  let generation = 0;

  const applyClosedBooks = async (built: Connected): Promise<void> => {
    const closed = await host.readWorkbookSetting?.(closedSettingKey(built.connection.companyId)).catch(() => undefined);
    built.reader.setBooksClosedThrough(closedThroughOf(closed));
  };

  const loadOne = async (connection: StoredConnection, apiKey: string): Promise<Connected | null> => {
    const withPrint = connection.keyFingerprint ? connection : { ...connection, keyFingerprint: await keyFingerprint(apiKey) };
    let built: Connected;
    try {
      built = factory.build(withPrint, apiKey);
    } catch {
      return null; // A stored configuration the client refuses (edited storage) is no connection.
    }
    await applyClosedBooks(built);
    return built;
  };

  const install = (list: Connected[], defaultName: string | null): Loaded => {
    for (const old of current?.list ?? []) if (!list.includes(old)) old.unsubscribe();
    current = { list, defaultOne: list.find((c) => c.connection.name === defaultName) ?? list[0] ?? null };
    installed(list.map((c) => c.connection.name));
    return current;
  };

  const load = async (): Promise<Loaded> => {
    if (current) return current;
    loading ??= (async () => {
      const started = generation;
      await beforeLoad();
      const stored = await readConnectionsWithKeys(secrets);
      const list = (await Promise.all(stored.list.map((c) => loadOne(c.connection, c.apiKey)))).filter((c): c is Connected => c !== null);
      if (started !== generation) {
        for (const c of list) c.unsubscribe();
        return current ?? NOTHING_LOADED;
      }
      return install(list, stored.defaultName);
    })().finally(() => {
      loading = null;
    });
    return loading;
  };

  const loadWithinLimit = (): Promise<Loaded> => {
    boundedLoad ??= new Promise<Loaded>((resolve, reject) => {
      const timer = setTimeout(() => reject(finErrors.noAnswer(EVALUATION_TIMEOUT_MS)), EVALUATION_TIMEOUT_MS);
      load()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    }).finally(() => {
      boundedLoad = null;
    });
    return boundedLoad;
  };

  return {
    current: () => current,
    load,
    loadWithinLimit,
    loadConnected: async (company) => pick(await load(), company),
    applyClosedBooks,
    install,
    supersede: () => {
      generation += 1;
    },
    dispose: () => {
      for (const c of current?.list ?? []) c.unsubscribe();
      current = null;
      generation += 1;
    },
  };
}
