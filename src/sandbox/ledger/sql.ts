import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open';

// Statements are prepared once per database handle and reused.

const caches = new WeakMap<Db, Map<string, Statement>>();

export function prepared(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}

/** Runs the reads of one report in one SQLite read transaction, so they all see the same books. */
export function readSnapshot<T>(db: Db, read: () => T): T {
  return db.transaction(read)();
}
