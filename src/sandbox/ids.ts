import crypto from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A fresh id such as `txn_4fQ9...`: prefix, underscore, 16 letters and digits. */
export function newId(prefix: string, random: () => number = cryptoRandom): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return `${prefix}_${s}`;
}

function cryptoRandom(): number {
  return crypto.randomInt(0, 2 ** 32) / 2 ** 32;
}

/** Deterministic PRNG (mulberry32) for the demo data: the same seed gives the same company. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
