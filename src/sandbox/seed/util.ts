// Small deterministic helpers for the seed: random draws from a seeded PRNG, exact apportioning, and
// canonical JSON. Dates are the calendar's (../calendar.ts).

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
