// Where each transaction the add-in has seen posts (issue 34, item 1): its accounting month, the month of
// its date, and the months a spread recognises it in. The API gives rows as they are now, never what they
// were, so a change is placed by where the transaction was (this memory) AND where it is now (the row).
//
// What feeds it: every row of a sync run (sync/changeFeed.ts) and a mirror started with updated_after=0
// (spec, incremental mode 4: "the way to start a mirror"). Not a pull or a push: a pulled row may already
// carry a change the cached answers do not (it arrives in the next sync), so taking it as "where it was"
// would leave those answers stale; the add-in's own push is placed exactly when made (transactions/changes.ts)
// and its row reaches the memory through the sync that later sees it.
//
// Storage: one entry per company in the engine's CacheStore, stamped with the watermark it is true at. It is
// trusted only when that stamp equals the stored watermark (a memory written without its watermark, or the
// reverse, is discarded: its transactions then count as never seen, which fails closed). An entry is 18
// characters: a 56-bit hash of the id (collision odds about 3e-7 at 200,000 ids), the month of the date and
// the accounting month, and the spread's first and last months (or none, or unreadable). The memory is
// bounded (MAX_PLACEMENTS, 200,000: issue 34): a transaction beyond it is not kept and counts as never seen.
// 200,000 transactions take 3,600,000 characters, more than add-in storage holds beside the cached answers
// (docs/architecture.md, "Add-in storage"), so the runtime keeps this one key in the webview's IndexedDB
// behind the same CacheStore port (isPlacementKey; src/runtime/storageRoom.ts, src/excel/indexedDbStore.ts);
// where there is none, add-in storage takes at most SMALL_STORE_PLACEMENTS and a larger memory is refused
// (not saved: the next Refresh changes fails closed and says why).

import type { Transaction, TransactionTombstone } from '../../api/types';
import type { CacheStore } from '../ports/storage';

/** A mirror costs at least this many pages (of 500 transactions) when one is needed, at most the second. */
export const MIRROR_MIN_PAGES = 50;
export const MIRROR_MAX_PAGES = 400;

/** The pages a full refresh may spend on a mirror: what the refresh itself costs, within the bounds. */
export const mirrorPagesFor = (refreshCalls: number) => Math.min(MIRROR_MAX_PAGES, Math.max(MIRROR_MIN_PAGES, refreshCalls));

/** Transactions kept per company at most; beyond it a transaction counts as never seen. */
export const MAX_PLACEMENTS = 200_000; // MIRROR_MAX_PAGES pages of 500

/** At most this many in add-in storage, when the runtime has no IndexedDB (900,000 characters). */
export const SMALL_STORE_PLACEMENTS = 50_000;

/** Where a transaction posts: months as YYYY-MM. */
export interface Placement {
  /** The month of its date (what list filters use; the date never changes). */
  dateMonth: string;
  /** The month of its effective accounting date. */
  accountingMonth: string;
  /** The months a spread recognises it in; null: no spread; 'unreadable': a spread of a shape not understood. */
  spread: { first: string; last: string } | null | 'unreadable';
}

/** Where a row posts now, exactly (days), and whether it can be read at all. */
export interface RowPlace {
  date: string;
  accounting: string;
  spread: { start: string; end: string } | null | 'unreadable';
}

const ISO = /^\d{4}-\d{2}-\d{2}/;
const iso = (v: unknown): string | null => (typeof v === 'string' && ISO.test(v) ? v.slice(0, 10) : null);

/**
 * Where a row posts now. The spread's shape is "not shown" in the spec: the two dates the add-in's decision
 * reads (docs/api-decisions.md) or else 'unreadable' (its months then cannot be known). Null for a row
 * without a readable date (a tombstone may carry none).
 */
export function placeOf(row: Transaction | TransactionTombstone): RowPlace | null {
  const date = iso(row.date);
  if (!date) return null;
  const accounting = row.accounting_date === null || row.accounting_date === undefined ? date : iso(row.accounting_date);
  if (!accounting) return null;
  const s = (row as { spread?: unknown }).spread;
  if (s === null || s === undefined) return { date, accounting, spread: null };
  const start = iso((s as { start_date?: unknown })?.start_date);
  const end = iso((s as { end_date?: unknown })?.end_date);
  return { date, accounting, spread: start && end && start <= end ? { start, end } : 'unreadable' };
}

export function placementOf(place: RowPlace): Placement {
  const spread = place.spread === null || place.spread === 'unreadable' ? place.spread : { first: place.spread.start.slice(0, 7), last: place.spread.end.slice(0, 7) };
  return { dateMonth: place.date.slice(0, 7), accountingMonth: place.accounting.slice(0, 7), spread };
}

// --- encoding -------------------------------------------------------------------------------------------

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const NONE = '..';
const UNREADABLE = '!!';

function hash32(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function digits(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i += 1) {
    out = ALPHABET[n % 64] + out;
    n = Math.floor(n / 64);
  }
  return out;
}

function undigits(text: string): number {
  let n = 0;
  for (const ch of text) n = n * 64 + ALPHABET.indexOf(ch);
  return n;
}

/** The id's key: two 32-bit FNV-1a hashes with different seeds, all 32 bits of one and 24 of the other (10 characters). */
export function idKey(id: string): string {
  return digits(hash32(id, 0x811c9dc5), 6) + digits(hash32(id, 0x9747b28c), 6).slice(2);
}

const monthNumber = (month: string) => (Number(month.slice(0, 4)) - 1900) * 12 + Number(month.slice(5, 7)) - 1;
const monthText = (n: number) => `${1900 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
// Two characters hold 4,096 months: 1900-01 to 2241-04.
const inRange = (month: string) => monthNumber(month) >= 0 && monthNumber(month) < 4096;

function encode(p: Placement): string | null {
  if (!inRange(p.dateMonth) || !inRange(p.accountingMonth)) return null;
  let spread: string;
  if (p.spread === null) spread = NONE + NONE;
  else if (p.spread === 'unreadable') spread = UNREADABLE + UNREADABLE;
  else if (inRange(p.spread.first) && inRange(p.spread.last)) spread = digits(monthNumber(p.spread.first), 2) + digits(monthNumber(p.spread.last), 2);
  else spread = UNREADABLE + UNREADABLE;
  return digits(monthNumber(p.dateMonth), 2) + digits(monthNumber(p.accountingMonth), 2) + spread;
}

function decode(text: string): Placement {
  const spreadText = text.slice(4, 8);
  const spread =
    spreadText === NONE + NONE ? null : spreadText === UNREADABLE + UNREADABLE ? 'unreadable' : { first: monthText(undigits(spreadText.slice(0, 2))), last: monthText(undigits(spreadText.slice(2, 4))) };
  return { dateMonth: monthText(undigits(text.slice(0, 2))), accountingMonth: monthText(undigits(text.slice(2, 4))), spread };
}

const KEY_WIDTH = 10;
const ENTRY_WIDTH = KEY_WIDTH + 8;

// --- the memory -----------------------------------------------------------------------------------------

const storeKey = (companyId: string) => `fin-sync:${companyId}:placements`;
/** Whether a storage key is a company's placement memory (the runtime keeps those in IndexedDB). */
export const isPlacementKey = (key: string): boolean => key.startsWith('fin-sync:') && key.endsWith(':placements');
/** Characters a stored memory of `n` transactions takes at most (a watermark of up to 13 digits, its flag). */
export const placementChars = (n: number): number => 16 + n * ENTRY_WIDTH;
/** Where the sync's watermark is kept (changeFeed.ts writes it): the memory is true at it. */
export const watermarkKey = (companyId: string) => `fin-sync:${companyId}:watermark`;

/** The company's memory if it is true at the stored watermark, else an empty one. */
export async function storedPlacements(store: CacheStore, companyId: string): Promise<PlacementMemory> {
  const text = await store.get(watermarkKey(companyId)).catch(() => undefined);
  const value = text === undefined ? NaN : Number(text);
  return PlacementMemory.load(store, companyId, Number.isInteger(value) && value >= 0 ? value : null);
}

/**
 * The add-in's own department change (a push) moves the amounts between department columns where the
 * transaction posts to its category: for a spread, its months. Unknown whether it is spread (never seen, or
 * a spread of unreadable shape): every month of every answer by department.
 */
export function ownChangeRanges(memory: PlacementMemory, id: string): Array<[string, string]> {
  const p = memory.get(id);
  if (p === undefined ? !memory.complete : p.spread === 'unreadable') return [['0001-01-01', '9999-12-31']];
  if (!p || !p.spread || p.spread === 'unreadable') return [];
  return [[`${p.spread.first}-01`, `${p.spread.last}-31`]];
}

/** One company's placements, as read from storage; changes are kept in memory until saved. */
export class PlacementMemory {
  private constructor(
    private readonly entries: Map<string, string>,
    /** Whether a mirror (updated_after=0) has been read whole into it: every transaction is known. */
    public complete: boolean,
  ) {}

  static empty(): PlacementMemory {
    return new PlacementMemory(new Map(), false);
  }

  /** The company's memory, if its stamp is this watermark; else an empty one (nothing known). */
  static async load(store: CacheStore, companyId: string, watermark: number | null): Promise<PlacementMemory> {
    const text = await store.get(storeKey(companyId)).catch(() => undefined);
    if (!text || watermark === null) return PlacementMemory.empty();
    const bar = text.indexOf('|');
    const [stamp, flag] = text.slice(0, bar).split(',');
    if (Number(stamp) !== watermark) return PlacementMemory.empty();
    const entries = new Map<string, string>();
    for (let i = bar + 1; i + ENTRY_WIDTH <= text.length; i += ENTRY_WIDTH) entries.set(text.slice(i, i + KEY_WIDTH), text.slice(i + KEY_WIDTH, i + ENTRY_WIDTH));
    return new PlacementMemory(entries, flag === 'c');
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): Placement | undefined {
    const e = this.entries.get(idKey(id));
    return e === undefined ? undefined : decode(e);
  }

  /** Keeps where a row posts now; false when it cannot be kept (the bound, or months out of range). */
  set(id: string, p: Placement): boolean {
    const key = idKey(id);
    const e = encode(p);
    if (e === null || (!this.entries.has(key) && this.entries.size >= MAX_PLACEMENTS)) {
      this.entries.delete(key);
      this.complete = false;
      return false;
    }
    this.entries.set(key, e);
    return true;
  }

  delete(id: string): void {
    this.entries.delete(idKey(id));
  }

  /**
   * Saved with the watermark it is true at; on a refused write, the old one is removed (it would lie) and
   * false is returned: nothing is known from then on, so the next change fails closed.
   */
  async save(store: CacheStore, companyId: string, watermark: number): Promise<boolean> {
    const body = [...this.entries].map(([k, v]) => k + v).join('');
    try {
      await store.set(storeKey(companyId), `${watermark},${this.complete ? 'c' : 'p'}|${body}`);
      return true;
    } catch {
      await store.remove([storeKey(companyId)]).catch(() => undefined);
      return false;
    }
  }

  static async forget(store: CacheStore, companyId: string): Promise<void> {
    await store.remove([storeKey(companyId)]).catch(() => undefined);
  }
}
