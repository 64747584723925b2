import crypto from 'node:crypto';
import { openDatabase, type Db } from '../../src/sandbox/db/open';
import { seedDatabase } from '../../src/sandbox/seed';

// The demo data, byte for byte. Each digest covers every table of a seeded database (its name, its
// columns, and every row in primary-key order), so a refactoring of the seed or of the date maths it
// uses cannot move a single id, cent, date or timestamp unnoticed.
//
// These constants must only change when the demo data is MEANT to change (a new seed rule, a new
// company, a schema change); then bump SEED_VERSION and say so in the commit. A refactoring that
// changes one of them is a bug.

type Case = { today: string; now: number; digest: string };

const TRANSACTIONS = 3000;
const unix = (iso: string) => Date.parse(iso) / 1000;

const CASES: Case[] = [
  // 11:30 in Los Angeles (PST)
  { today: '2026-11-18', now: unix('2026-11-18T19:30:00Z'), digest: 'eb4a6f4e711ea1541ed6cd02b697ec6465082c5f6781fb09cca71c983d964d31' },
  // a leap day: years-before dates clamp to 28 February, month ends fall on the 29th
  { today: '2028-02-29', now: unix('2028-02-29T20:00:00Z'), digest: 'ba73f94adb81398c0c5ed7a2a483d7e40e247e4913a85fc4797e1edfc1745cdb' },
  // a year end, a few minutes before midnight in Los Angeles: `now` caps the last day's timestamps
  { today: '2026-12-31', now: unix('2027-01-01T07:55:00Z'), digest: 'fce70ed794d62bddb47e4b34acf95b49d4c2d8d8aa036ef6af8b86c225796c23' },
];

/** The primary-key columns of a table, in key order; empty for a table keyed by rowid alone. */
function keyColumns(db: Db, table: string): string[] {
  const cols = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[];
  return cols
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
}

function databaseDigest(db: Db): string {
  const h = crypto.createHash('sha256');
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  for (const table of tables) {
    const keys = keyColumns(db, table);
    const order = keys.length > 0 ? keys.map((k) => `"${k}"`).join(', ') : 'rowid';
    const stmt = db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`);
    h.update(JSON.stringify([table, stmt.columns().map((c) => c.name)]));
    for (const row of stmt.raw().iterate() as Iterable<unknown[]>) h.update(JSON.stringify(row));
  }
  return h.digest('hex');
}

describe('the seeded demo data is byte-identical', () => {
  it.each(CASES)('today $today', ({ today, now, digest }) => {
    const db = openDatabase(':memory:');
    try {
      seedDatabase(db, { transactions: TRANSACTIONS, today, now });
      expect(databaseDigest(db)).toBe(digest);
    } finally {
      db.close();
    }
  });
});
