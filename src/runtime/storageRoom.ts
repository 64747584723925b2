// Writes that must not fail because cached answers filled the shared add-in storage: the API key and the
// connection (or connecting breaks), the call meter (or the count is lost on reload), and the reader's small
// state (the monthly-cap block). A refused write -- a full localStorage rejects with QuotaExceededError,
// OfficeRuntime.storage's bulk calls with "Unknown error." -- evicts cached answers, least recently used
// first, and is tried again, until it succeeds or no answer is left to evict (then the store's error stands).

import type { MeterStore } from '../api/meter';
import type { SecretStore } from '../engine/ports/storage';
import type { CacheStore, RequestCache } from '../engine/reader/requestCache';
import { isPlacementKey, placementChars, SMALL_STORE_PLACEMENTS } from '../engine/sync/placements';

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

/**
 * The engine's state with each company's placement memory (engine/sync/placements.ts) kept in `large`, the
 * webview's IndexedDB (src/excel/indexedDbStore.ts): up to 3,600,000 characters a company, more than add-in
 * storage holds beside the cached answers, and never a reason to evict them. Without `large` (a runtime
 * with no IndexedDB) the memory stays in add-in storage up to SMALL_STORE_PLACEMENTS; a larger one is
 * refused before it is written (evicting answers would not make it fit), so it is not kept and the next
 * Refresh changes fails closed.
 */
export function placementsApart(state: CacheStore, large: CacheStore | undefined, smallLimit = placementChars(SMALL_STORE_PLACEMENTS)): CacheStore {
  const route = (key: string): CacheStore => (large && isPlacementKey(key) ? large : state);
  return {
    get: (key) => route(key).get(key),
    set: async (key, value) => {
      if (!large && isPlacementKey(key) && value.length > smallLimit) {
        throw new Error(`The record of where transactions post (${value.length} characters) does not fit in add-in storage.`);
      }
      await route(key).set(key, value);
    },
    remove: async (keys) => {
      const apart = large ? keys.filter(isPlacementKey) : [];
      await Promise.all([state.remove(keys.filter((k) => !apart.includes(k))), ...(apart.length && large ? [large.remove(apart)] : [])]);
    },
    keys: async () => [...(await state.keys()), ...(large ? (await large.keys()).filter(isPlacementKey) : [])],
  };
}
