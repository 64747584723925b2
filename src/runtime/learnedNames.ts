import type { LearnedNamesStore } from '../api';
import type { CacheStore } from '../engine/reader/requestCache';

// The names a connection's client learned of the API's unshown parameters (src/api/parameterNames.ts),
// kept in add-in storage per company beside its cap block and sync watermark: learning costs one call
// per company once, not once per session.

const keyOf = (companyId: string) => `fin-state:${companyId}:learned-names`;

export function learnedNamesStore(store: CacheStore, companyId: string | undefined): LearnedNamesStore | undefined {
  if (!companyId) return undefined;
  return {
    load: async () => {
      const text = await store.get(keyOf(companyId));
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : undefined;
    },
    save: (names) => store.set(keyOf(companyId), JSON.stringify(names)),
  };
}

/** Forgets what the company's client learned: with its cached answers, on the user's word at disconnecting. */
export function forgetLearnedNames(store: CacheStore, companyId: string): Promise<void> {
  return store.remove([keyOf(companyId)]);
}
