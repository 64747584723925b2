// Small deterministic helpers for the seed: random draws from a seeded PRNG, calendar arithmetic on
// 'YYYY-MM-DD' strings (UTC-based, no zone involved), and Unix times in the company's zone.

import { DateTime } from 'luxon';
import { COMPANY_ZONE } from '../clock';
import { seededRandom } from '../ids';

export type Rand = () => number;

/** FNV-1a 32-bit: a stable numeric seed from a label. */
export function hashSeed(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A PRNG stream named by a label: independent streams keep unrelated parts of the seed stable. */
export const stream = (label: string): Rand => seededRandom(hashSeed(label));

/** Integer in [min, max]. */
export const randInt = (rand: Rand, min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

export const chance = (rand: Rand, p: number): boolean => rand() < p;

export function pick<T>(rand: Rand, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rand() * items.length)];
}

/** Picks by weight; builds the cumulative table once. */
export function weightedPicker<T>(items: readonly T[], weightOf: (t: T) => number): (rand: Rand) => T {
  const cum: number[] = [];
  let total = 0;
  for (const it of items) {
    total += Math.max(0, weightOf(it));
    cum.push(total);
  }
  if (total <= 0) throw new Error('weighted pick with no weight');
  return (rand) => {
    const x = rand() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo];
  };
}

/** Log-uniform amount of dollars in [min, max], returned in cents. */
export function dollarsToCents(rand: Rand, minDollars: number, maxDollars: number): number {
  const lo = Math.log(minDollars);
  const hi = Math.log(maxDollars);
  const dollars = Math.exp(lo + rand() * (hi - lo));
  // Mostly "real-looking" cents; big amounts tend to be round.
  if (dollars >= 2000 && chance(rand, 0.5)) return Math.round(dollars) * 100;
  return Math.max(1, Math.round(dollars * 100));
}

/** Splits `total` integer units into parts proportional to weights (largest remainder), exact sum. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let rest = total - out.reduce((s, v) => s + v, 0);
  const order = raw.map((r, i) => ({ i, frac: r - Math.floor(r) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) out[order[k].i] += 1;
  return out;
}

// --- calendar ---------------------------------------------------------------------------------------

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function ymd(y: number, m: number, d: number): string {
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

function toUtcMs(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

function fromUtcMs(ms: number): string {
  const d = new Date(ms);
  return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export const addDays = (date: string, n: number): string => fromUtcMs(toUtcMs(date) + n * 86_400_000);

export const daysBetween = (from: string, to: string): number => Math.round((toUtcMs(to) - toUtcMs(from)) / 86_400_000);

export const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

export const monthKey = (date: string): string => date.slice(0, 7);

export const monthStart = (date: string): string => `${date.slice(0, 7)}-01`;

export function monthEnd(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return ymd(y, m, daysInMonth(y, m));
}

/** Same day n months later, clamped to the month's last day. */
export function addMonths(date: string, n: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + n;
  const yy = y + Math.floor(m / 12);
  const mm = ((m % 12) + 12) % 12 + 1;
  return ymd(yy, mm, Math.min(Number(date.slice(8, 10)), daysInMonth(yy, mm)));
}

/** 0 Sunday ... 6 Saturday. */
export const weekday = (date: string): number => new Date(toUtcMs(date)).getUTCDay();

export const dayOfMonth = (date: string): number => Number(date.slice(8, 10));

/** Calendar months (YYYY-MM-01) from the month of `from` through the month of `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = monthStart(from); m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

const dayStartCache = new Map<string, number>();

/** Unix seconds of 00:00 of `date` in the company's zone. */
export function dayStart(date: string): number {
  let v = dayStartCache.get(date);
  if (v === undefined) {
    v = Math.floor(DateTime.fromISO(date, { zone: COMPANY_ZONE }).toSeconds());
    dayStartCache.set(date, v);
  }
  return v;
}

export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(Number(s.slice(0, 4)), m);
}

/** JSON with object keys sorted at every level: the canonical form stored in rules.definition. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
