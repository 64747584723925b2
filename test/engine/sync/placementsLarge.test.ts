// The placement memory at 200,000 transactions (issue 34, item 1): kept in the webview's IndexedDB behind
// the same CacheStore port (fake-indexeddb under jest), never in add-in storage; past its bound, and where
// there is no IndexedDB past what add-in storage takes, a transaction counts as never seen and a change to
// it fails closed. Save and load times are measured by the bench (bench/placements.ts), not here.
import 'fake-indexeddb/auto';
import { IndexedDbStore } from '../../../src/excel/indexedDbStore';
import { placeRows } from '../../../src/engine/sync/placeChanges';
import { MAX_PLACEMENTS, PlacementMemory, SMALL_STORE_PLACEMENTS, type Placement } from '../../../src/engine/sync/placements';
import { placementsApart } from '../../../src/runtime/storageRoom';
import { MemoryCacheStore } from '../../support/memoryCacheStore';

const company = 'cmp_large';
const month = (n: number) => `${2020 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
/** The i-th transaction's id and place: varied months, every seventh spread, every thirteenth re-dated. */
const id = (i: number) => `txn_${i.toString(36).padStart(8, '0')}`;
function placeOf(i: number): Placement {
  const m = i % 72;
  return { dateMonth: month(m), accountingMonth: month(i % 13 === 0 ? (m + 3) % 72 : m), spread: i % 7 === 0 ? { first: month(m), last: month(Math.min(71, m + 11)) } : null };
}

function filled(n: number): PlacementMemory {
  const memory = PlacementMemory.empty();
  let kept = 0;
  for (let i = 0; i < n; i += 1) if (memory.set(id(i), placeOf(i))) kept += 1;
  expect(kept).toBe(n);
  memory.complete = true;
  return memory;
}

describe('placement memory of 200,000 transactions', () => {
  let idb: IndexedDbStore;
  beforeEach(() => {
    idb = new IndexedDbStore(`fin-test-${Math.random()}`);
  });
  afterEach(async () => {
    await idb.close();
  });

  it('is kept whole in IndexedDB, not in add-in storage, and read back place for place', async () => {
    const addIn = new MemoryCacheStore();
    const state = placementsApart(addIn, idb);
    await state.set('fin-sync:cmp_large:watermark', '1700000000');
    expect(await filled(MAX_PLACEMENTS).save(state, company, 1700000000)).toBe(true);
    // Add-in storage holds the watermark only: the 3.6 million characters went to IndexedDB.
    expect([...addIn.data.keys()]).toEqual(['fin-sync:cmp_large:watermark']);
    expect((await idb.get('fin-sync:cmp_large:placements'))!.length).toBeGreaterThan(3_600_000);
    const loaded = await PlacementMemory.load(state, company, 1700000000);
    expect(loaded.size).toBe(MAX_PLACEMENTS);
    expect(loaded.complete).toBe(true);
    for (let i = 0; i < MAX_PLACEMENTS; i += 1) if (i % 997 === 0 || i === MAX_PLACEMENTS - 1) expect(loaded.get(id(i))).toEqual(placeOf(i));
    // A stamp that is not the stored watermark is not trusted.
    expect((await PlacementMemory.load(state, company, 1700000001)).size).toBe(0);
    await state.remove(['fin-sync:cmp_large:placements']);
    expect(await idb.get('fin-sync:cmp_large:placements')).toBeUndefined();
  });

  it('past 200,000 a transaction is not kept, the memory is no longer whole, and a change to it fails closed', () => {
    const memory = filled(MAX_PLACEMENTS);
    expect(memory.set(id(MAX_PLACEMENTS), placeOf(0))).toBe(false);
    expect(memory.complete).toBe(false);
    // A known one moved is placed; the one beyond the bound cannot be.
    const reader = { takeOwnChange: () => undefined };
    const row = (i: number, accounting: string) => ({ id: id(i), object: 'transaction', date: `${placeOf(i).dateMonth}-10`, accounting_date: accounting, spread: null }) as never;
    expect(placeRows(reader, memory, [row(1, '2024-02-02')]).unplaceable).toBeNull();
    expect(placeRows(reader, memory, [row(MAX_PLACEMENTS, '2024-02-02')]).unplaceable).toMatch(/a changed transaction the add-in had not seen before/);
  });
});

describe('without IndexedDB', () => {
  it('add-in storage takes the memory up to 50,000 transactions and refuses a larger one, which is then not trusted', async () => {
    const addIn = new MemoryCacheStore();
    const state = placementsApart(addIn, undefined);
    expect(await filled(SMALL_STORE_PLACEMENTS).save(state, company, 5)).toBe(true);
    expect((await PlacementMemory.load(state, company, 5)).size).toBe(SMALL_STORE_PLACEMENTS);
    // One more does not fit: refused before any write (no answer evicted for it), and the old one removed.
    expect(await filled(SMALL_STORE_PLACEMENTS + 1).save(state, company, 6)).toBe(false);
    expect(addIn.data.has('fin-sync:cmp_large:placements')).toBe(false);
    const memory = await PlacementMemory.load(state, company, 6);
    expect(memory.size).toBe(0);
    expect(memory.complete).toBe(false);
  });
});
