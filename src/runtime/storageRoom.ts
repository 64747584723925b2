// Writes that must not fail because cached answers filled the shared add-in storage: the API key and the
// connection (or connecting breaks), the call meter (or the count is lost on reload), and the reader's small
// state (the monthly-cap block). A refused write -- a full localStorage rejects with QuotaExceededError,
// OfficeRuntime.storage's bulk calls with "Unknown error." -- evicts cached answers, least recently used
// first, and is tried again, until it succeeds or no answer is left to evict (then the store's error stands).

import type { MeterStore } from '../api/meter';
import type { SecretStore } from '../engine/ports/storage';
import type { CacheStore, RequestCache } from '../engine/reader/requestCache';

export async function writeMakingRoom(write: () => Promise<void> | void, cache: RequestCache): Promise<void> {
  for (;;) {
    try {
      await write();
      return;
    } catch (error) {
      if ((await cache.makeRoom()) === 0) throw error;
    }
  }
}

export function secretsMakingRoom(secrets: SecretStore, cache: RequestCache): SecretStore {
  return {
    get: (key) => secrets.get(key),
    set: (key, value) => writeMakingRoom(() => secrets.set(key, value), cache),
    remove: (key) => secrets.remove(key),
  };
}

export function meterStoreMakingRoom(store: MeterStore, cache: RequestCache): MeterStore {
  return {
    get: (key) => store.get(key),
    set: (key, value) => writeMakingRoom(() => store.set(key, value), cache),
  };
}

/** The state kept next to the answers (cap block, data-as-of); the answers themselves keep their own budget. */
export function stateStoreMakingRoom(store: CacheStore, cache: RequestCache): CacheStore {
  return {
    get: (key) => store.get(key),
    set: (key, value) => writeMakingRoom(() => store.set(key, value), cache),
    remove: (keys) => store.remove(keys),
    keys: () => store.keys(),
  };
}
