// FIN functions over a fake server (test/api/helpers/fakeApi.ts), wired as the runtime wires them: the real
// client over real HTTP, a CachedReader and a FinService on memory stores. For answers our sandbox never gives.
import { createClient, type LearnedNamesStore } from '../../../src/api';
import { FinError, FinService } from '../../../src/engine/fin';
import { CachedReader } from '../../../src/engine/reader/cachedReader';
import { RequestCache } from '../../../src/engine/reader/requestCache';
import { MemoryCacheStore } from '../../support/memoryCacheStore';
import { TEST_KEY, type FakeApi } from '../../api/helpers/fakeApi';

export function finOverFakeApi(api: FakeApi, options: { learnedNames?: LearnedNamesStore } = {}): FinService {
  const client = createClient({ baseUrl: api.baseUrl, apiKey: TEST_KEY, companyId: 'comp_1', sleep: async () => undefined, learnedNames: options.learnedNames });
  const store = new MemoryCacheStore();
  const reader = new CachedReader({ client, cache: new RequestCache(store), stateStore: store });
  return new FinService({ client, reader, today: () => '2026-11-20', dateSystem: 1900, stateStore: store });
}

/** The cell error an evaluation settles with (a value instead fails the test). */
export async function finError(work: Promise<unknown>): Promise<FinError> {
  const outcome = await work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a cell error, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(FinError);
  return outcome.error as FinError;
}
