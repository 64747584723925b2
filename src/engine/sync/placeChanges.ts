// A sync run's rows placed where they were and where they are (issue 34, items 1 and 2): the placement
// memory (placements.ts) says where each transaction posted when last seen, the row where it posts now, and
// the change touches both, spread months included. Where the memory cannot say -- a transaction never seen
// (unless a whole mirror was read, when a transaction it lacks is new), a spread whose months cannot be
// read, a row without dates -- nothing is known about where its amounts were: the run fails closed.

import type { Transaction, TransactionTombstone } from '../../api/types';
import { endOfMonth } from '../dates';
import type { TransactionChange } from '../reader/touched';
import { placeOf, placementOf, type Placement, type PlacementMemory, type RowPlace } from './placements';

/** A change the sync saw: the transaction's date (what list filters use) and the add-in's part in it. */
export interface SeenChange {
  id: string;
  date: string | null;
  /** The table the add-in made this change from; null when someone else made it. */
  ownFrom: string | null;
}

/** What the reader remembers of the add-in's own changes (cachedReader.takeOwnChange). */
export interface OwnChanges {
  takeOwnChange(id: string): { accountingAfter: string; bindingId: string | null } | undefined;
}

export interface PlacedRows {
  seen: SeenChange[];
  changes: TransactionChange[];
  /** Why some change cannot be placed (then every cached answer is due), or null. */
  unplaceable: string | null;
}

const monthRange = (month: string): [string, string] => [`${month}-01`, endOfMonth(`${month}-01`)];

/** Day ranges where a placement's amounts post: its accounting month, and its spread's months. */
function rangesOf(p: Placement): Array<[string, string]> {
  const out: Array<[string, string]> = [monthRange(p.accountingMonth)];
  if (p.spread && p.spread !== 'unreadable') out.push([monthRange(p.spread.first)[0], monthRange(p.spread.last)[1]]);
  return out;
}

function spreadRange(place: RowPlace): Array<[string, string]> {
  if (!place.spread || place.spread === 'unreadable') return [];
  return [[`${place.spread.start.slice(0, 7)}-01`, endOfMonth(place.spread.end)]];
}

/** The change of one row from where it was (`before`, or nothing: new) to where it is (`now`, or nothing: deleted). */
function changeOf(id: string, before: Placement | null, now: RowPlace | null): TransactionChange | null {
  if (!before && !now) return null;
  const ranges = [...(before ? rangesOf(before) : []), ...(now ? spreadRange(now) : [])];
  const date = now?.date ?? `${before!.dateMonth}-01`;
  const accounting = now?.accounting ?? `${before!.accountingMonth}-01`;
  return {
    id,
    date,
    ...(now ? {} : { dateRange: monthRange(before!.dateMonth) }),
    accountingBefore: accounting,
    accountingAfter: accounting,
    postings: true,
    ranges,
  };
}

/**
 * Places each row of a run and keeps where it posts now. The add-in's own changes were marked when made
 * (transactions/changes.ts) and are placed here again: a push knows what it changed, not what others did to
 * the same row since the memory saw it (found by the property test: an upstream re-date, then a push).
 */
export function placeRows(reader: OwnChanges, memory: PlacementMemory, rows: Iterable<Transaction | TransactionTombstone>): PlacedRows {
  const seen: SeenChange[] = [];
  const changes: TransactionChange[] = [];
  const unknown = { never: 0, unreadable: 0, undated: 0 };
  for (const row of rows) {
    const own = reader.takeOwnChange(row.id);
    const deleted = row.deleted === true;
    const now = deleted ? null : placeOf(row);
    const before = memory.get(row.id) ?? null;
    if (deleted || !now) memory.delete(row.id);
    else memory.set(row.id, placementOf(now));
    const date = typeof row.date === 'string' ? row.date.slice(0, 10) : null;
    // The add-in's own change, as it made it: its table need not be pulled again. Its answers are still
    // placed from where the memory last saw the row: someone else may have changed it before the push (or
    // after), and the push marked only what it changed itself.
    const mine = own && !deleted && now && now.accounting === own.accountingAfter;
    seen.push({ id: row.id, date, ownFrom: mine ? own.bindingId : null });
    if (!deleted && !now) unknown.undated += 1;
    else if (!before && !memory.complete) unknown[deleted && !date ? 'undated' : 'never'] += 1;
    else if (before?.spread === 'unreadable' || now?.spread === 'unreadable') unknown.unreadable += 1;
    else {
      // Not in a whole mirror: new since it was read (a tombstone of one never held is skipped, spec mode 4).
      const change = changeOf(row.id, before, now);
      if (change) changes.push(change);
    }
  }
  return { seen, changes, unplaceable: why(unknown) };
}

function why(unknown: { never: number; unreadable: number; undated: number }): string | null {
  const parts: string[] = [];
  if (unknown.never) parts.push(`${unknown.never === 1 ? 'a changed transaction' : `${unknown.never} changed transactions`} the add-in had not seen before (where ${unknown.never === 1 ? 'it' : 'they'} posted is not known)`);
  if (unknown.unreadable) parts.push(`${unknown.unreadable === 1 ? 'a spread' : `${unknown.unreadable} spreads`} whose months cannot be read`);
  if (unknown.undated) parts.push(`${unknown.undated === 1 ? 'a transaction' : `${unknown.undated} transactions`} without ${unknown.undated === 1 ? 'its' : 'their'} dates`);
  return parts.length ? parts.join('; ') : null;
}
