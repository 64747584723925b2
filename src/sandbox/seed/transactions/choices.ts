// Random choices shared by the structural and the pool rows: which card, which department, which bank
// account, which reference number.

import { daysBetween } from '../../calendar';
import type { AccountInfo, AccountKey } from '../accounts';
import { chance, pick, randInt, type Rand } from '../util';
import type { Row, Setting } from './feed';

/** A card of the account in use on that date (by weight), or null: some card spend names no card. */
export function cardFor(s: Setting, rand: Rand, key: AccountKey, date: string): string | null {
  const list = s.cardsByAccount.get(key);
  if (!list || chance(rand, 0.08)) return null;
  const frac = daysBetween(s.start, date) / Math.max(1, s.historyDays - 1);
  const usable = list.filter((c) => c.weight > 0 && c.usedFrom <= frac && frac <= c.usedTo);
  if (usable.length === 0) return null;
  let x = rand() * usable.reduce((sum, c) => sum + c.weight, 0);
  for (const c of usable) {
    x -= c.weight;
    if (x < 0) return c.id;
  }
  return usable[usable.length - 1].id;
}

/** An assignable department, among the hinted template keys when the company's tree has any of them. */
export function chooseDepartment(s: Setting, rand: Rand, keys: string[] | undefined): string {
  const hinted = (keys ?? [])
    .map((k) => s.depts.ids.get(k))
    .filter((id): id is string => id !== undefined && s.depts.assignable.includes(id));
  return hinted.length > 0 ? pick(rand, hinted) : pick(rand, s.depts.assignable);
}

/** With probability p, gives the row a department, set by a rule or by hand. */
export function maybeDepartment(s: Setting, rand: Rand, r: Row, keys: string[] | undefined, p: number): void {
  if (chance(rand, p)) {
    r.departmentId = chooseDepartment(s, rand, keys);
    r.departmentSource = chance(rand, 0.45) ? 'rule' : 'manual';
  }
}

/** The bank account a payment goes through: sometimes the legacy bank early in the history. */
export function bankFor(s: Setting, rand: Rand, date: string): AccountInfo {
  return s.has('legacy') && daysBetween(s.start, date) < s.historyDays * 0.4 && chance(rand, 0.2) ? s.acct('legacy') : s.acct('checking');
}

export const reference = (rand: Rand): string => String(randInt(rand, 10000, 99999));

/** The description (or the fallback) with its {ref} placeholder replaced by a reference number. */
export const withReference = (rand: Rand, desc: string | undefined, fallback: string): string => (desc ?? fallback).replace('{ref}', reference(rand));
