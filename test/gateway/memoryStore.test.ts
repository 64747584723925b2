// The in-process store passes the store's contract (the Redis one does too: redisStore.test.ts).
import { MemoryStore } from '../../src/gateway/store/memoryStore';
import { storeContract } from './storeContract';

describe('in-process store', () => {
  storeContract(async (bounds) => new MemoryStore({ bounds }));
});
